"""What a position holds, counted per card: the plain-Python preprocessing of the engine.

The CP-SAT model never looks at melds or pieces directly; it sees these counts. Keeping them apart
makes the model small and lets the extraction step turn counts back into pieces.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from meldsat.cards import WILD_JOKER, Card, count_pieces
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
    number of (wild) jokers in hand.
    """

    table_real: Counter[Card]
    table_jokers: Counter[Card]
    hand_real: Counter[Card]
    hand_jokers: int
    melds: tuple[MeldContents, ...]


def take_inventory(position: Position) -> Inventory:
    """Count the cards of ``position`` (its table melds must have every joker declared)."""
    melds = []
    for meld in position.table:
        real: Counter[Card] = Counter()
        jokers: Counter[Card] = Counter()
        for piece in meld:
            if isinstance(piece, Card):
                real[piece] += 1
            else:
                if piece.declared is None:  # Position.build declares every table joker
                    raise ValueError("table joker without a declaration")
                jokers[piece.declared] += 1
        melds.append(MeldContents(real, jokers))
    table_real: Counter[Card] = Counter()
    table_jokers: Counter[Card] = Counter()
    for contents in melds:
        table_real.update(contents.real)
        table_jokers.update(contents.jokers)
    hand = count_pieces(position.hand)
    hand_jokers = hand.pop(WILD_JOKER, 0)
    hand_real = Counter({piece: count for piece, count in hand.items() if isinstance(piece, Card)})
    return Inventory(table_real, table_jokers, hand_real, hand_jokers, tuple(melds))
