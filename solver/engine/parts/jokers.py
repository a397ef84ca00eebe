"""Joker locking: a table joker may stand for another card only once its real card is on the table.

One linear constraint per card that table jokers stand for: the jokers still showing the card plus
the real copies on the table after the turn are at least the table jokers that showed it before.
"""

from __future__ import annotations

from meldsat.engine.cpsat import CpModel
from meldsat.engine.parts.supply import PieceSupply


class JokerLocking:
    """The locking constraints on ``supply``; it has no variables of its own to extract."""

    def __init__(self, model: CpModel, supply: PieceSupply) -> None:
        for card, count in supply.table_jokers.items():
            if count:
                model.add(supply.jokers_at[card] + supply.real_at_end(card) >= count)
