"""The gin family's score sheet for ``meldsat score``: hands, game columns, bonuses.

The file format is described in ``meldsat.gin.scorefile`` and docs/GIN.md; ``cli/score.py`` sends
the gin rule sets here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meldsat.cli.jsonout import json_header, to_json
from meldsat.cli.layoff import score_json
from meldsat.cli.render import console, house_rules_text, print_line
from meldsat.gin.bits import check_gin_rules
from meldsat.gin.scorefile import read_hand_results
from meldsat.gin.scoring import ScoreSheet, score_sheet
from meldsat.house_rules import house_rules_of
from meldsat.rules import RuleSet

GIN_FAMILY = ("gin", "oklahoma-gin", "hollywood-gin")


def score_gin_sheet(
    rules: RuleSet, entries: Sequence[tuple[int, dict[str, Any]]], json_output: bool
) -> int:
    """The gin family's score sheet of a file's (line number, object) pairs: hands, then each
    game column with its bonuses (exit code 0, the game over or not)."""
    check_gin_rules(rules)
    players, results = read_hand_results(entries)
    sheet = score_sheet(rules, players, results)
    if json_output:
        print(to_json(gin_sheet_json(rules, sheet)))
    else:
        _print_gin_sheet(rules, sheet)
    return 0


def gin_sheet_json(rules: RuleSet, sheet: ScoreSheet) -> dict[str, Any]:
    """The JSON object of ``score --json`` for the gin family (schema version 1)."""
    return {
        **json_header(rules),
        "names": list(sheet.players),
        "target": sheet.target,
        "finished": sheet.finished,
        "hands": [
            {
                "hand": hand.number,
                "player": hand.player,
                **score_json(hand.score),
                "games": list(hand.games),
            }
            for hand in sheet.hands
        ],
        "games": [
            {
                "game": game.number,
                "finished": game.finished,
                "winner": game.winner,
                "shutout": game.shutout,
                "points": game.points,
                "hands_won": game.hands_won,
                "game_bonus": game.game_bonus,
                "line_bonus": game.line_bonus,
                "total": game.total,
            }
            for game in sheet.games
        ],
    }


def _print_gin_sheet(rules: RuleSet, sheet: ScoreSheet) -> None:
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
