"""The gin family's score sheet: a players line and one line per hand in, hands and game columns
(with their bonuses) out.

The file format is read by :mod:`meldsat.gin.scorefile` (docs/GIN.md describes it) and scored by
:func:`meldsat.gin.scoring.score_sheet`, the scoring the gin games use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meldsat.games.sheets import NumberedEntries, sheet_header
from meldsat.gin.bits import check_gin_rules
from meldsat.gin.scorefile import read_hand_results
from meldsat.gin.scoring import ScoreSheet, score_sheet
from meldsat.rules import RuleSet


@dataclass(frozen=True)
class GinSheet:
    """A gin score sheet under ``rules``: every hand, and every game column (three for
    Hollywood)."""

    rules: RuleSet
    sheet: ScoreSheet

    def to_json(self) -> dict[str, Any]:
        """``rules``, ``players`` (and ``house_rules`` if any), ``names``, ``target``,
        ``finished``, ``hands``, ``games``."""
        sheet = self.sheet
        return {
            **sheet_header(self.rules),
            "names": list(sheet.players),
            "target": sheet.target,
            "finished": sheet.finished,
            "hands": [
                {
                    "hand": hand.number,
                    "player": hand.player,
                    **hand.score.to_json(),
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


def gin_sheet(rules: RuleSet, entries: NumberedEntries) -> GinSheet:
    """Score a gin score file's (line number, object) pairs: the hands, then each game column
    with its bonuses (the games over or not)."""
    check_gin_rules(rules)
    players, results = read_hand_results(entries)
    return GinSheet(rules, score_sheet(rules, players, results))
