"""The puzzle's own model parts on small positions: the grader's kept melds and the points goal.

Each case builds ``PuzzleModel`` with the restricted solver (or a points goal) and checks the
solver's status; found tables are re-checked by the rule checker, never by CP-SAT.
"""

from __future__ import annotations

import pytest

from meldsat.moves import check_move
from meldsat.notation import parse_hand, parse_table
from meldsat.puzzles.goal import Goal
from meldsat.puzzles.model import PuzzleModel
from meldsat.rulesets import get_rules

RULES = get_rules("manipulation")


def _keeping(table: str, hand: str, changed: int) -> str:
    """The status of the restricted solver changing at most ``changed`` melds."""
    melds, pieces = parse_table(table), parse_hand(hand)
    model = PuzzleModel(RULES, melds, pieces, Goal(), restricted=True, max_changed=changed)
    result = model.solve()
    if result.table is not None:
        assert check_move(melds, pieces, result.table, RULES).legal
        assert result.changed is not None and result.changed <= changed
    return result.status


@pytest.mark.parametrize(
    ("table", "hand", "changed", "expected"),
    [
        ("5H 6H 7H", "8H 9H", 0, "OPTIMAL"),  # a kept run grows at one end, card by card
        ("5H 6H 7H", "4H 8H", 0, "OPTIMAL"),  # and at both
        ("5H 6H 7H", "9H", 0, "INFEASIBLE"),  # never past a gap
        ("7S 7H 7D", "7C", 0, "OPTIMAL"),  # a kept group takes its missing suit
        ("5H *=6H 7H", "6H", 0, "INFEASIBLE"),  # a kept meld keeps its joker
        ("5H *=6H 7H", "6H", 1, "OPTIMAL"),  # changing it frees the joker
    ],
)
def test_kept_melds_only_grow_at_their_ends(
    table: str, hand: str, changed: int, expected: str
) -> None:
    assert _keeping(table, hand, changed) == expected


@pytest.mark.parametrize(("points", "expected"), [(17, "OPTIMAL"), (18, "INFEASIBLE")])
def test_points_goal_needs_the_value_played(points: int, expected: str) -> None:
    # 8S 9S on the 5S-7S run are worth 17 in Manipulation; KD and 2C have nowhere to go
    melds, pieces = parse_table("5S 6S 7S"), parse_hand("8S 9S KD 2C")
    result = PuzzleModel(RULES, melds, pieces, Goal(points)).solve()
    assert result.status == expected
