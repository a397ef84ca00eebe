"""What a position holds, counted per card: the plain-Python preprocessing of the engine.

The CP-SAT model never looks at melds or pieces directly; it sees these counts. Keeping them apart
makes the model small and lets the extraction step turn counts back into pieces.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from meldsat.cards import WILD_JOKER, Card, Piece, count_pieces
from meldsat.group_jokers import JokerPair, table_joker_pairs
from meldsat.position import Position


@dataclass(frozen=True)
class MeldContents:
    """The real cards and the declared jokers of one original table meld."""

    real: Counter[Card]
    jokers: Counter[Card]


@dataclass(frozen=True)
class Inventory:
    """Per-card counts of a position.

    ``table_jokers`` counts table jokers by the card they are declared as; ``hand_jokers`` is the
    number of (wild) jokers in hand. ``group_jokers`` counts the table jokers in groups of three by
    their card and the card of the suit the group lacks (``meldsat.group_jokers``).
    """

    table_real: Counter[Card]
    table_jokers: Counter[Card]
    hand_real: Counter[Card]
    hand_jokers: int
    melds: tuple[MeldContents, ...]
    group_jokers: Counter[JokerPair] = field(default_factory=Counter)


def take_inventory(position: Position) -> Inventory:
    """Count the cards of ``position`` (its table melds must have every joker declared).

    The hand's cards are listed in card order: the model makes its variables in this order, so
    which of several equally good plays it returns does not depend on the order of the hand.
    """
    inventory = count_inventory(position.table, position.hand)
    hand_real = Counter(dict(sorted(inventory.hand_real.items())))
    return replace(inventory, hand_real=hand_real)


def count_inventory(table: Sequence[Sequence[Piece]], hand: Sequence[Piece]) -> Inventory:
    """Count the cards of a table and a hand that need not form a position (every table joker
    must be declared): puzzles count given pieces this way, legal melds or not.

    The hand's cards are listed in the order they first appear in ``hand``.
    """
    melds = tuple(_contents(tuple(meld)) for meld in table)
    table_real = Counter(piece for meld in table for piece in meld if isinstance(piece, Card))
    table_jokers: Counter[Card] = Counter()
    for contents in melds:
        if contents.jokers:
            table_jokers.update(contents.jokers)
    counted = count_pieces(hand)
    hand_jokers = counted.pop(WILD_JOKER, 0)
    hand_real = Counter(
        {piece: count for piece, count in counted.items() if isinstance(piece, Card)}
    )
    return Inventory(
        table_real, table_jokers, hand_real, hand_jokers, melds, table_joker_pairs(table)
    )


@functools.lru_cache(maxsize=4096)
def _contents(meld: tuple[Piece, ...]) -> MeldContents:
    """What one meld holds: the same melds come back turn after turn of a game, so each is
    counted once (its counters are shared, and never changed)."""
    real: Counter[Card] = Counter()
    jokers: Counter[Card] = Counter()
    for piece in meld:
        if isinstance(piece, Card):
            real[piece] += 1
        else:
            if piece.declared is None:  # Position.build declares every table joker
                raise ValueError("table joker without a declaration")
            jokers[piece.declared] += 1
    return MeldContents(real, jokers)
