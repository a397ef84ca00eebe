"""``meldsat score``: a score sheet from a file of hand results, by rule set.

Each family of rule sets has its own scorer; :func:`score_command` picks it by the rule set's name.
The gin family's file format is described in ``meldsat.gin.scorefile`` and docs/GIN.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

import typer

from meldsat.cli.inputs import read_source
from meldsat.cli.jsonout import json_header
from meldsat.cli.layoff import score_json
from meldsat.cli.render import console, print_line
from meldsat.errors import MeldsatError
from meldsat.gin.bits import check_gin_rules
from meldsat.gin.scorefile import read_score_file
from meldsat.gin.scoring import ScoreSheet, score_sheet
from meldsat.rules import RuleSet, get_rules

ScoreFileArgument = Annotated[str, typer.Argument(help="Hand results, JSON lines (- reads stdin).")]
ScoreRulesOption = Annotated[str, typer.Option("--rules", "-r", help="The rule set to score by.")]
ScoreJsonOption = Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")]

GIN_FAMILY = ("gin", "oklahoma-gin", "hollywood-gin")


def score_command(
    file: ScoreFileArgument,
    *,
    rules: ScoreRulesOption,
    json_output: ScoreJsonOption = False,
) -> int:
    """Turn hand results into a score sheet: exit 0 when every game is over, 1 while one is not."""
    rule_set = get_rules(rules)
    scorer = _SCORERS.get(rule_set.name)
    if scorer is None:
        raise MeldsatError(f"score: no scorer for rule set '{rule_set.name}' yet")
    return scorer(rule_set, read_source(file), json_output)


def score_gin_sheet(rules: RuleSet, text: str, json_output: bool) -> int:
    """The gin family's scorer: hands, then each game column with its bonuses."""
    check_gin_rules(rules)
    players, results = read_score_file(text)
    sheet = score_sheet(rules, players, results)
    if json_output:
        print(json.dumps(gin_sheet_json(rules, sheet)))
    else:
        _print_gin_sheet(rules, sheet)
    return 0 if sheet.finished else 1


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
    print_line(f"{rules.name}: {first} v {second}, game to {sheet.target}", out=out)
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


_SCORERS: dict[str, Callable[[RuleSet, str, bool], int]] = dict.fromkeys(
    GIN_FAMILY, score_gin_sheet
)
