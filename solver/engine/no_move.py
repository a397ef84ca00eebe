"""An exact shortcut: where no hand piece can be in any meld there is no move, and no solve.

Every play lays at least one hand piece, in a meld of the table after the turn. That meld holds
``group_min`` pieces of one rank (some of its suits) or ``run_min`` consecutive cards of one suit
(a window of the run) around the hand piece, each a real copy of its card that is in the hand or,
where the table may be rearranged, on the table, or a joker (there are only so many). So when no
group shape or run window containing a hand card (any at all, for a hand joker) can be filled
from those pieces, there is no play: the model is infeasible, and ``best_play`` answers
``NO_MOVE`` without building it. Where a meld could be filled, nothing is decided here (the
solve proves what there is). ``tests/test_no_move.py`` checks the proof against the solver.
"""

from __future__ import annotations

import functools

from meldsat.cards import ALL_CARDS, Card
from meldsat.engine.model import table_is_frozen
from meldsat.engine.parts.groups import _shapes
from meldsat.engine.parts.supply import CARD_INDEX, _windows
from meldsat.position import Position


@functools.cache
def _meld_cards(
    group_min: int, group_max: int, positions: range, run_min: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, ...], ...], ...]]:
    """Every group shape and run window of the rules, as card indexes; and for each card, those
    holding it."""
    shapes = tuple(indexes for _, _, indexes in _shapes(group_min, group_max))
    shapes += _windows(positions, run_min)
    holding: list[list[tuple[int, ...]]] = [[] for _ in ALL_CARDS]
    for cards in shapes:
        for index in set(cards):
            holding[index].append(cards)
    return shapes, tuple(map(tuple, holding))


def has_no_move(position: Position) -> bool:
    """True when no hand piece can be in any meld (see the module): ``position`` has no move.
    False says nothing (a move may exist). Wrap-around rules, which the engine refuses, are left
    to it, and so is an empty hand."""
    rules = position.rules
    if rules.wrap_around:
        return False
    hand = {CARD_INDEX[piece] for piece in position.hand if isinstance(piece, Card)}
    hand_jokers = len(position.hand) - sum(1 for piece in position.hand if isinstance(piece, Card))
    if not hand and not hand_jokers:
        return False
    present = set(hand)
    jokers = hand_jokers
    if not table_is_frozen(position):
        for meld in position.table:
            for piece in meld:
                if isinstance(piece, Card):
                    present.add(CARD_INDEX[piece])
                else:
                    jokers += 1
    shapes, holding = _meld_cards(
        rules.group_min, rules.group_max, rules.sequence_positions, rules.run_min
    )
    # A hand joker may stand in any meld; a hand card only in those holding it. No move when
    # every one of them misses more cards than there are jokers.
    candidates = shapes if hand_jokers else (cards for index in hand for cards in holding[index])
    return all(sum(1 for index in cards if index not in present) > jokers for cards in candidates)


__all__ = ["has_no_move"]
