"""The initial meld: before a player's first meld, the new melds must be worth enough points.

Each piece counts as the card it shows (a joker as its card). An ace played low, first in a run,
counts ``ace_low_meld_value`` where the rules give one (500 rummy: 1 instead of 15), as the move
checker counts it.
"""

from __future__ import annotations

from collections.abc import Mapping

from meldsat.cards import Card, card_of
from meldsat.engine.cpsat import CpModel, Expr
from meldsat.rules import RuleSet


class InitialMeld:
    """The new melds are worth ``value`` >= ``points``; ``free[card]``: pieces in new melds.

    It has no variables of its own to extract.
    """

    def __init__(
        self,
        model: CpModel,
        rules: RuleSet,
        points: int,
        free: Mapping[Card, Expr],
        low_aces: Expr,
    ) -> None:
        self.value: Expr = sum(rules.card_value(card) * count for card, count in free.items())
        if rules.ace_low_meld_value is not None:
            discount = rules.card_value(card_of(1, 0)) - rules.ace_low_meld_value
            self.value = self.value - discount * low_aces
        model.add(self.value >= points)
