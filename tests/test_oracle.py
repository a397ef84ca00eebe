"""The brute-force oracle on positions solved by hand, and its witnesses against the move checker.

The oracle is what the engine is judged by, so it is pinned here on cases whose answers can be
worked out on paper: joker locking, the initial meld, 500 rummy's hand card in every new meld, the
ace high and low, and the count of melds kept intact.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pytest
from hypothesis import given, settings

from meldsat.cards import Card
from meldsat.melds import is_legal_meld
from meldsat.moves import check_move
from meldsat.play import Objective
from meldsat.position import Position, read_position
from meldsat.rulesets import get_rules
from tests.oracle import Kept, OracleAnswer, meld_shapes, melds_kept, oracle_best
from tests.strategies import positions

POINTS = Objective.POINTS
CARDS = Objective.CARDS


def _position(table: str, hand: str, rules: str = "manipulation", **fields: object) -> Position:
    lines = [f"rules: {rules}", f"table: {table}", f"hand: {hand}"]
    lines.extend(f"{key}: {value}" for key, value in fields.items())
    return read_position("\n".join(lines))


def _answer(position: Position, objective: Objective) -> OracleAnswer:
    answer = oracle_best(position, objective)
    assert answer is not None
    return answer


def _played_text(answer: OracleAnswer, position: Position) -> list[str]:
    return sorted(piece.text(position.rules.notation) for piece in answer.played)


@dataclass(frozen=True)
class Case:
    """A position solved by hand: its best value, the most melds kept, and the play if unique."""

    table: str
    hand: str
    rules: str
    fields: dict[str, str]
    objective: Objective
    value: int
    kept: int
    played: list[str] | None


HAND_SOLVED = [
    # A real 7S on the table frees the table joker declared 7S: QH KH *=JH (or *=AH).
    Case("4S 5S 6S *=7S | 7S 7H 7D 7C", "QH KH", "manipulation", {}, POINTS, 20, 1, ["KH", "QH"]),
    # ... and the group 7S 7H 7D 7C stays intact while the run loses its joker.
    Case("4S 5S 6S *=7S | 7S 7H 7D 7C", "QH KH", "manipulation", {}, CARDS, 2, 1, ["KH", "QH"]),
    # A hand joker may take the declaration 7S over while the table joker moves on.
    Case("4S 5S 6S *=7S", "QH KH *", "manipulation", {}, POINTS, 45, 1, ["*", "KH", "QH"]),
    # The run beats the group on points (6 > 3) and ties it on cards (3).
    Case("", "k1 b1 o1 o2 o3", "rummikub", {}, POINTS, 6, 0, ["o1", "o2", "o3"]),
    Case("", "k1 b1 o1 o2 o3", "rummikub", {}, CARDS, 3, 0, None),
    # Initial meld: k10 b10 o10 makes 30; o2 o3 j=o4 adds 9; the joker scores 30 as a play.
    Case("", "k10 b10 o10 o2 o3 j", "rummikub", {"initial": "true"}, POINTS, 65, 0, None),
    # Initial meld: a joker counts as the tile it declares, so k10 b10 j=o10 reaches 30 exactly.
    Case("", "k10 b10 j", "rummikub", {"initial": "true"}, POINTS, 50, 0, None),
    # Initial meld: the table run may not be extended; the group alone is the play.
    Case("r1 r2 r3", "r4 k10 b10 o10", "rummikub", {"initial": "true"}, CARDS, 3, 1, None),
    # Without the initial meld, r4 joins the run as well (changing it).
    Case("r1 r2 r3", "r4 k10 b10 o10", "rummikub", {}, CARDS, 4, 0, None),
    # Kept melds: JH extends 8H 9H 10H (the other run stays) rather than joining all six.
    Case("5H 6H 7H | 8H 9H 10H", "JH", "manipulation", {}, POINTS, 10, 1, ["JH"]),
    # Ace high and low in manipulation: Q K A, and A 2 3 (each extended, so not kept).
    Case("QS KS AS", "JS", "manipulation", {}, POINTS, 10, 0, ["JS"]),
    Case("AS 2S 3S", "4S", "manipulation", {"players": "2"}, CARDS, 1, 0, ["4S"]),
    # 500 rummy: 7S extends a meld; the two-deck copy of 4S 5S 6S 7S stays as it was.
    Case("4S 5S 6S | 4S 5S 6S 7S", "7S", "rummy500", {}, CARDS, 1, 1, ["7S"]),
    # Manipulation may break 4S 5S 6S 7S to lay 7S 7D 7C; 500 rummy may not (4S 5S 6S would be a
    # changed meld without a hand card) -- see the no-move cases below.
    Case("4S 5S 6S 7S | 7H 8H 9H", "7D 7C", "manipulation", {}, CARDS, 2, 1, ["7C", "7D"]),
    # 500 rummy: splitting 3S..8S to lay 9S would leave 3S 4S 5S without a hand card; the whole
    # run 3S..9S is the only way.
    Case("3S 4S 5S 6S 7S 8S", "9S", "rummy500", {}, POINTS, 9, 0, ["9S"]),
    # 500 rummy values: ace 15 in hand, joker 15.
    Case("QH KH *=AH", "AH *", "rummy500", {}, POINTS, 30, 0, ["*", "AH"]),
    # The A..K..A sequence of two decks (14 cards).
    Case("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "AS", "manipulation", {}, CARDS, 1, 0, ["AS"]),
]


NO_MOVE = [
    # The joker declared 7S is locked: no real 7S is on the table.
    ("4S 5S 6S *=7S", "QH KH", "manipulation", {}),
    ("", "k1 b1 o1 o2 o3", "rummikub", {"initial": "true"}),  # worth 6 < 30
    ("", "k9 b9 j", "rummikub", {"initial": "true"}),  # the joker counts 9: 27 < 30
    ("4S 5S 6S 7S | 7H 8H 9H", "7D 7C", "rummy500", {}),
    ("4S 5S 6S 7S | 7H 7D 7C", "KS", "manipulation", {}),
    ("QS KS AS", "2S", "manipulation", {}),  # no turning the corner
    ("k11 k12 k13", "k1", "rummikub", {}),  # the 1 is low only in Rummikub
]


@pytest.mark.parametrize("case", HAND_SOLVED)
def test_hand_solved(case: Case) -> None:
    position = _position(case.table, case.hand, case.rules, **case.fields)
    answer = _answer(position, case.objective)
    assert (answer.value, answer.max_melds_kept) == (case.value, case.kept)
    if case.played is not None:
        assert _played_text(answer, position) == case.played
    _assert_witness(position, answer, case.objective)


@pytest.mark.parametrize(("table", "hand", "rules", "fields"), NO_MOVE)
def test_no_move(table: str, hand: str, rules: str, fields: dict[str, str]) -> None:
    position = _position(table, hand, rules, **fields)
    for objective in Objective:
        assert oracle_best(position, objective) is None


def test_kept_same_cards() -> None:
    """A meld whose joker gave way to its real card shows the same cards: kept for the engine."""
    position = _position("*=10H 10D 10C", "10H QH KH")
    identical = oracle_best(position, POINTS)
    same_cards = oracle_best(position, POINTS, kept=Kept.SAME_CARDS)
    assert identical is not None
    assert same_cards is not None
    assert (identical.value, identical.max_melds_kept) == (30, 0)
    assert (same_cards.value, same_cards.max_melds_kept) == (30, 1)
    assert melds_kept(position.table, same_cards.table, Kept.SAME_CARDS) == 1
    # Both notions agree when no joker changes hands.
    position = _position("4S 5S 6S *=7S | 7S 7H 7D 7C", "QH KH")
    for kept in Kept:
        answer = oracle_best(position, POINTS, kept=kept)
        assert answer is not None
        assert answer.max_melds_kept == 1


def test_play_all() -> None:
    position = _position("4S 5S 6S *=7S | 7S 7H 7D 7C", "QH KH 2C")
    assert oracle_best(position, POINTS, play_all=True) is None
    position = _position("4S 5S 6S *=7S | 7S 7H 7D 7C", "QH KH 8S")
    answer = oracle_best(position, POINTS, play_all=True)
    assert answer is not None
    assert answer.value == 28


def test_shapes_are_legal_melds() -> None:
    """Every shape the oracle builds from the definition is a legal meld to the meld checker."""
    for name in ("manipulation", "rummikub", "rummy500"):
        rules = get_rules(name)
        shapes = meld_shapes(rules)
        assert len(shapes) == len(set(shapes))
        for shape in shapes:
            assert is_legal_meld([Card(rank, suit) for rank, suit in shape], rules)


def test_melds_kept_counts_copies() -> None:
    position = _position("4S 5S 6S | 4S 5S 6S", "7S")
    before = position.table
    assert melds_kept(before, before) == 2
    assert melds_kept(before, before[:1]) == 1
    assert melds_kept(before, [*before[:1], (*before[1], *position.hand)]) == 1


@settings(max_examples=150, deadline=None)
@given(positions())
def test_witness_is_legal(position: Position) -> None:
    """Every oracle witness is a legal move to the independent move checker."""
    for objective in Objective:
        for kept in Kept:
            answer = oracle_best(position, objective, kept=kept)
            if answer is not None:
                _assert_witness(position, answer, objective, kept)


def _assert_witness(
    position: Position, answer: OracleAnswer, objective: Objective, kept: Kept = Kept.IDENTICAL
) -> None:
    verdict = check_move(
        position.table, position.hand, answer.table, position.rules, initial=position.initial
    )
    assert verdict.legal, (position.to_text(), [reason.message for reason in verdict.reasons])
    assert Counter(verdict.played) == Counter(answer.played)
    assert melds_kept(position.table, answer.table, kept) == answer.max_melds_kept
    rules = position.rules
    expected = (
        len(answer.played)
        if objective is CARDS
        else sum(rules.value(piece) for piece in answer.played)
    )
    assert answer.value == expected
