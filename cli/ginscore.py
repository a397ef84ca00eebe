"""The gin family's score sheet as text, for ``meldsat score`` (``cli/score.py``).

The file format is described in ``meldsat.gin.scorefile`` and docs/GIN.md; the sheet is read and
scored by :mod:`meldsat.games.gin_sheet`.
"""

from __future__ import annotations

from meldsat.cli.render import console, house_rules_text, print_line
from meldsat.games.gin_sheet import GinSheet
from meldsat.house_rules import house_rules_of


def print_gin_sheet(answer: GinSheet) -> None:
    """Every hand (who scored, how, how much, in which games), then every game column."""
    rules, sheet = answer.rules, answer.sheet
    out = console()
    first, second = sheet.players
    house = house_rules_text(house_rules_of(rules))
    print_line(f"{rules.name}: {first} v {second}, game to {sheet.target}{house}", out=out)
    for hand in sheet.hands:
        if hand.player is None:
            print_line(f"hand {hand.number}: dead hand, no score", out=out)
            continue
        games = ", ".join(str(number) for number in hand.games) or "none (games over)"
        doubled = " doubled" if hand.score.doubled else ""
        print_line(
            f"hand {hand.number}: {hand.player} {hand.score.kind.value.replace('_', ' ')} "
            f"{hand.score.points}{doubled}; game {games}",
            out=out,
        )
    for game in sheet.games:
        running = ", ".join(f"{name} {points}" for name, points in game.points.items())
        if not game.finished:
            print_line(f"game {game.number}: in progress ({running})", out=out)
            continue
        shutout = " (shutout: doubled)" if game.shutout else ""
        print_line(f"game {game.number}: {game.winner} wins{shutout}", out=out)
        for name in sheet.players:
            print_line(
                f"  {name}: {game.points[name]} + game {game.game_bonus[name]} + line "
                f"{game.line_bonus[name]} = {game.total[name]}",
                out=out,
            )
        loser = second if game.winner == first else first
        assert game.winner is not None
        print_line(f"  {game.winner} by {game.total[game.winner] - game.total[loser]}", out=out)
