"""Where pieces come from, for 500 rummy: every meld that is not an original one left exactly as it
was must hold a piece from the hand.

Jokers from the hand are counted by the card they show (``hand_jokers_at``), so that
``pieces[card]``, the pieces showing ``card`` that come from the hand, can be linked to the hand
pieces of the group and run parts.
"""

from __future__ import annotations

from collections import Counter

from meldsat.cards import Card
from meldsat.engine.cpsat import CpModel, Expr, Values
from meldsat.engine.parts.kept import KeptMelds
from meldsat.engine.parts.supply import PieceSupply


class HandOrigin:
    """Hand pieces by the card they show; kept melds keep their own (table) jokers."""

    def __init__(self, model: CpModel, supply: PieceSupply, kept: KeptMelds) -> None:
        hand_jokers = supply.hand_jokers
        self.hand_jokers_at: dict[Card, Expr] = {}
        for card, jokers in supply.jokers_at.items():
            if isinstance(jokers, int) or isinstance(hand_jokers, int):
                self.hand_jokers_at[card] = 0
                continue
            # The hand jokers standing for a card are some of all the jokers standing for it.
            at = model.new_int_var(0, supply.joker_total, f"jh_{card}")
            model.add(at <= jokers)
            self.hand_jokers_at[card] = at
        if not isinstance(hand_jokers, int):
            model.add(sum(self.hand_jokers_at.values()) == hand_jokers)
        self.pieces: dict[Card, Expr] = {
            card: supply.hand_played.get(card, 0) + self.hand_jokers_at[card]
            for card in supply.jokers_at
        }
        # Here a kept meld is one left exactly as it was: its jokers are table jokers still
        # standing for their cards (a swapped joker would make it a changed meld).
        for card, kept_jokers in kept.jokers.items():
            model.add(supply.jokers_at[card] - self.hand_jokers_at[card] >= kept_jokers)

    def extract(self, values: Values) -> Counter[Card]:
        """The hand jokers of the solution by the card they stand for."""
        return Counter({card: values(at) for card, at in self.hand_jokers_at.items()})
