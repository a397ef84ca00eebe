"""Joker locking: a table joker may stand for another card only once its real card is on the table.

One linear constraint per card that table jokers stand for: the jokers still showing the card plus
the real copies on the table after the turn are at least the table jokers that showed it before.

Where a joker in a group of three may be freed by either missing suit (Rummikub's
``group_joker_either_missing``), a variable per (card, other card) pair counts the jokers of
that pair that the other card frees: they need no real copy of their own card, and each takes a
real copy of the other card, which the jokers declared as that card can then not use. So for
every card ``c``, with ``won(c)`` the jokers of ``c`` freed by another card and ``taken(c)`` the
copies of ``c`` freeing jokers of another card::

    table jokers of c - jokers showing c - won(c) + taken(c) <= real c at the end
    taken(c) <= real c at the end
"""

from __future__ import annotations

from collections import defaultdict

from meldsat.cards import Card
from meldsat.engine.cpsat import CpModel, Expr
from meldsat.engine.parts.supply import PieceSupply


class JokerLocking:
    """The locking constraints on ``supply``; its pair counts are never read back (the pieces
    are placed by the cards they show)."""

    def __init__(self, model: CpModel, supply: PieceSupply) -> None:
        won: defaultdict[Card, Expr] = defaultdict(int)
        taken: defaultdict[Card, Expr] = defaultdict(int)
        for (card, other), count in sorted(supply.group_jokers.items()):
            freed = model.new_int_var(0, count, f"g_{card}_{other}")
            won[card] += freed
            taken[other] += freed
        for card, count in supply.table_jokers.items():
            if count:
                freed_here = won.get(card, 0) - taken.get(card, 0)
                model.add(supply.jokers_at[card] + supply.real_at_end(card) + freed_here >= count)
        for card, used in taken.items():
            model.add(used <= supply.real_at_end(card))
