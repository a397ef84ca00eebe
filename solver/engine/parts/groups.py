"""Groups, counted per shape: a rank and a set of suits (at most five shapes a rank).

Counting shapes rather than individual groups leaves no symmetric copies of a solution, and its LP
relaxation is tighter than counting groups per rank. (500 rummy counts its groups by their hand
pieces instead: ``marked_groups``.)
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

from meldsat.cards import Card, card_of
from meldsat.engine.cpsat import CpModel, Expr, Values, cp_model
from meldsat.engine.parts.supply import PieceBounds, card_indexes
from meldsat.engine.trace import Origin, Slot
from meldsat.rules import RuleSet


@dataclass(frozen=True, order=True)
class GroupShape:
    """One rank in a set of distinct suits: the cards of a group, in table order."""

    rank: int
    suits: tuple[int, ...]

    @property
    def cards(self) -> list[Card]:
        """The group's cards, by suit."""
        return [card_of(self.rank, suit) for suit in self.suits]


def group_shapes(rules: RuleSet) -> list[GroupShape]:
    """Every shape a group may take under ``rules`` (3 or 4 suits of one rank, in the presets)."""
    return [shape for shape, _, _ in _shapes(rules.group_min, rules.group_max)]


@functools.cache
def _shapes(
    group_min: int, group_max: int
) -> tuple[tuple[GroupShape, list[Card], tuple[int, ...]], ...]:
    """Every shape with its cards and their indexes, listed once per group size range (models
    ask for them often)."""
    sizes = range(group_min, min(group_max, 4) + 1)
    shapes = [
        GroupShape(rank, suits)
        for rank in range(1, 14)
        for size in sizes
        for suits in itertools.combinations(range(4), size)
    ]
    return tuple((shape, shape.cards, card_indexes(shape.cards)) for shape in shapes)


class GroupShapes:
    """``count[shape]`` groups of each shape; ``pieces[card]`` the pieces of ``card`` they hold.

    A shape gets a variable only when the pieces there are (``bounds``, from the piece supply)
    can make one group of it.
    """

    def __init__(self, model: CpModel, rules: RuleSet, bounds: PieceBounds) -> None:
        self.count: dict[GroupShape, cp_model.IntVar] = {}
        self.bound: dict[GroupShape, int] = {}
        # The group counts holding each card, summed into ``pieces`` when first asked for.
        self.holders: dict[Card, list[cp_model.IntVar]] = {}
        for shape, cards, indexes in _shapes(rules.group_min, rules.group_max):
            bound = bounds.melds_at(indexes)
            if not bound:
                continue
            self.bound[shape] = bound
            count = model.new_int_var(0, bound, f"g_{shape.rank}_{''.join(map(str, shape.suits))}")
            self.count[shape] = count
            for card in cards:
                self.holders.setdefault(card, []).append(count)

    @functools.cached_property
    def pieces(self) -> dict[Card, Expr]:
        """The pieces of each card in groups (cards no group can hold are left out)."""
        return {card: sum(terms) for card, terms in self.holders.items()}

    def extract(self, values: Values) -> dict[GroupShape, int]:
        """How many groups of each shape the solution lays (shapes with none left out)."""
        counts = {shape: values(count) for shape, count in self.count.items()}
        return {shape: count for shape, count in counts.items() if count}

    def slots(self, values: Values) -> list[list[Slot]]:
        """Every group of the solution, each place fillable by any piece showing its card."""
        return [
            [(card, Origin.ANY) for card in shape.cards]
            for shape, count in sorted(self.extract(values).items())
            for _ in range(count)
        ]
