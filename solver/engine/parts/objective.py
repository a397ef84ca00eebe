"""The objective: the value played, then the original melds kept, then those of them with a joker.

Lexicographic in one solve, by weights: among plays of equal value the one keeping the most original
melds wins, and among those the one keeping most melds that held a joker (so a freed joker's real
card takes its place, ``4S 5S 6S *=7S`` becoming ``4S 5S 6S 7S``).
"""

from __future__ import annotations

import math

from meldsat.engine.cpsat import CpModel, Expr, Values, cp_model
from meldsat.engine.parts.kept import KeptMelds
from meldsat.engine.parts.supply import PieceSupply
from meldsat.play import Objective
from meldsat.rules import RuleSet


class LexicographicObjective:
    """``value`` is the points of the hand pieces played or their number; ``weight`` scales it
    above ``tie_break``, the melds kept and those of them holding a joker (the objective maximised
    is ``value * weight + tie_break``)."""

    def __init__(
        self,
        model: CpModel,
        objective: Objective,
        rules: RuleSet,
        supply: PieceSupply,
        kept: KeptMelds,
    ) -> None:
        if objective is Objective.POINTS:
            self.value: Expr = (
                sum(rules.card_value(card) * var for card, var in supply.hand_played.items())
                + rules.joker_value * supply.hand_jokers
            )
        else:
            self.value = supply.played_count
        joker_weight = len(kept.with_joker) + 1
        self.weight = (len(kept.keep) + 1) * joker_weight
        # The melds kept, weighed so that one more of them outweighs every joker term.
        self.tie_break: Expr = sum(kept.keep) * joker_weight + sum(kept.with_joker)
        model.maximize(self.value * self.weight + self.tie_break)

    def extract(self, values: Values) -> int:
        """The value the solution plays."""
        return values(self.value)

    def bound(self, solver: cp_model.CpSolver) -> int | None:
        """The best value still possible, as the solver proved it (None if it has no bound)."""
        bound = solver.best_objective_bound
        return None if math.isnan(bound) else int(bound) // self.weight
