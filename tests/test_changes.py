"""The words of the changes (``meldsat.changes``): every moved piece named, jokers traced by the
rules (a table joker keeps its card where it can), even when two jokers trade places."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from meldsat import best_play
from meldsat.cards import Card, Joker, Piece, count_pieces
from meldsat.changes import HAND, describe
from meldsat.moves import check_move
from meldsat.notation import Meld, format_pieces
from meldsat.position import Position, load_position
from tests.strategies import table_joker_positions

# A colleague's bucket position: the engine moves the table's j=o9 to a new run o8 j=o9 o10 o11
# and plays the hand's joker as k5; the old tracing gave the hand's joker the o9 place and
# described the table's joker as redeclared (k5) with no real o9 on the table, and raised.
TRADING_JOKERS = {
    "rules": "rummikub",
    "players": 4,
    "table": [
        ["k3", "b3", "o3", "r3"],
        ["k9", "b9", "j=o9", "r9"],
        ["k10", "b10", "o10", "r10"],
        ["r9", "r10", "r11"],
        ["k7", "b7", "o7", "r7"],
        ["r1", "r2", "r3", "r4"],
        ["k11", "b11", "o11", "r11"],
        ["o2", "o3", "o4"],
        ["k8", "o8", "r8"],
        ["k6", "o6", "r6"],
        ["b9", "b10", "b11", "b12"],
    ],
    "hand": ["k4", "k6", "o8", "b12", "j"],
}


def _declared(table: Sequence[Sequence[Piece]]) -> Counter[Card]:
    return Counter(
        piece.declared
        for meld in table
        for piece in meld
        if isinstance(piece, Joker) and piece.declared is not None
    )


def check_description(position: Position, after: Sequence[Meld], played: Sequence[Piece]) -> None:
    """The steps of ``describe`` name every piece that moves and free only jokers the rules free."""
    old, rules = position.table, position.rules
    result = describe(old, after, played, rules)
    steps, moves, table = tuple(result.steps), tuple(result.moves), result.table
    assert len(steps) == len(moves)
    real = {
        piece.text(rules.notation) for meld in table for piece in meld if isinstance(piece, Card)
    }
    moved_in: dict[int, Counter[Piece]] = {k: Counter() for k in range(len(table))}
    moved_out: dict[int, Counter[Piece]] = {i: Counter() for i in [*range(len(old)), HAND]}
    redeclared: Counter[Card] = Counter()
    for move, step in zip(moves, steps, strict=True):
        assert count_pieces(move.pieces) <= count_pieces(table[move.target])
        if move.was is not None:
            (joker,) = move.pieces
            assert isinstance(joker, Joker) and joker.declared not in (None, move.was)
            redeclared[move.was] += 1
            # Freed by a real card on the table: its own, or its group's other missing one.
            freed_by = step.split("(the real ", 1)[1].split()[0].rstrip(",")
            assert freed_by in real, step
            continue
        assert format_pieces(move.pieces, rules.notation) in step
        moved_in[move.target] += count_pieces(move.pieces)
        moved_out[move.source] += count_pieces(move.pieces)
    # Each piece of a new meld is named; each piece the table gained is named moving.
    for k in result.new:
        assert moved_in[k] == count_pieces(table[k]), format_pieces(table[k], rules.notation)
    gained = count_pieces(p for m in table for p in m) - count_pieces(p for m in old for p in m)
    assert gained <= sum(moved_in.values(), Counter())
    # What left an old meld was in it; what left the hand is exactly what was played.
    for i, meld in enumerate(old):
        assert moved_out[i] <= count_pieces(meld)
    assert moved_out[HAND] == count_pieces(played)
    # Exactly as many table jokers as the rules count freed are described as redeclared.
    assert redeclared == _declared(old) - _declared(table)


def test_two_jokers_trading_places_are_described() -> None:
    position = load_position(TRADING_JOKERS)
    play = best_play(position)
    assert check_move(position.table, position.hand, play.table, position.rules).legal
    check_description(position, list(play.table), list(play.played))
    # The table's o9 joker moved to the new run still o9; nothing was redeclared.
    assert not any("stood for" in step for step in play.changes)
    assert "j=o9 leaves k9 b9 j=o9 r9 for a new sequence o8 j=o9 o10 o11" in play.changes


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 2).flatmap(table_joker_positions))
def test_the_description_names_every_moved_piece(position: Position) -> None:
    play = best_play(position, time_limit=5)
    if not play.played:
        return
    assert check_move(position.table, position.hand, play.table, position.rules).legal
    check_description(position, list(play.table), list(play.played))
