"""500 rummy's groups: every group holds a piece from the hand, so groups are counted by it.

Each group names one of its hand pieces as its *own* (the first, say): ``own[shape]`` counts, per
suit of the shape, the groups whose own hand piece shows that suit, and the groups of a shape are
exactly those (``count[shape]`` is their sum, no variable of its own). Any further hand pieces of
a card (``extra[card]``) go to groups of that card that do not own a hand piece of it, and there
is room for them exactly when the hand pieces of the card in groups are no more than the pieces
of the card in groups. A shape no hand piece can reach makes no group at all.

This is exact (take the first hand piece of every group as its own) and its LP is the same as
counting each shape's hand pieces per suit (at most one a group, at least as many as groups),
with fewer variables and constraints.
"""

from __future__ import annotations

from meldsat.cards import Card
from meldsat.engine.cpsat import CpModel, Expr, Values
from meldsat.engine.parts.groups import GroupShape, group_shapes
from meldsat.engine.parts.supply import PieceBounds
from meldsat.engine.trace import Origin, Slot
from meldsat.rules import RuleSet


class MarkedGroups:
    """``count[shape]`` groups of each shape, ``pieces[card]`` the pieces of ``card`` in groups and
    ``hand_pieces[card]`` those of them from the hand. Shapes are sized by the pieces there are
    (``bounds``) and their own hand pieces by those the hand can show (``hand_bounds``)."""

    def __init__(
        self, model: CpModel, rules: RuleSet, bounds: PieceBounds, hand_bounds: PieceBounds
    ) -> None:
        self.own: dict[GroupShape, tuple[Expr, ...]] = {}
        self.count: dict[GroupShape, Expr] = {}
        parts: dict[Card, list[Expr]] = {}
        owned: dict[Card, list[Expr]] = {}
        for shape in group_shapes(rules):
            cards = shape.cards
            bound = bounds.melds_of(cards)
            if not bound:
                continue
            own: list[Expr] = []
            name = f"go_{shape.rank}_{''.join(map(str, shape.suits))}"
            for card in cards:
                most = min(bound, hand_bounds.most(card))
                var = model.new_int_var(0, most, f"{name}_{card.suit}") if most else 0
                own.append(var)
                if most:
                    owned.setdefault(card, []).append(var)
            count: Expr = sum(own)
            if isinstance(count, int):
                continue  # no hand piece can show a card of the shape
            self.own[shape] = tuple(own)
            self.count[shape] = count
            for card in cards:
                parts.setdefault(card, []).append(count)
        self.pieces: dict[Card, Expr] = {card: sum(terms) for card, terms in parts.items()}
        self.extra: dict[Card, Expr] = {}
        self.hand_pieces: dict[Card, Expr] = {}
        for card, terms in owned.items():
            extra = model.new_int_var(0, hand_bounds.most(card), f"gx_{card}")
            self.extra[card] = extra
            self.hand_pieces[card] = sum(terms) + extra
            model.add(self.hand_pieces[card] <= self.pieces[card])

    def extract(self, values: Values) -> dict[GroupShape, tuple[int, ...]]:
        """Per shape with groups in the solution, how many own a hand piece of each suit."""
        owned = {shape: tuple(values(var) for var in own) for shape, own in self.own.items()}
        return {shape: own for shape, own in owned.items() if sum(own)}

    def slots(self, values: Values) -> list[list[Slot]]:
        """Every group, each place saying whether its piece comes from the hand
        (:func:`group_slots`)."""
        extra = {card: values(var) for card, var in self.extra.items()}
        return group_slots(self.extract(values), extra)


def group_slots(
    owned: dict[GroupShape, tuple[int, ...]], extra: dict[Card, int]
) -> list[list[Slot]]:
    """Every group of a solution, each place saying whether its piece comes from the hand: a
    group's own hand piece (``owned``: per shape, the groups owning a hand piece of each suit),
    then the extra hand pieces of each card in the first groups with room."""
    groups: list[tuple[GroupShape, list[bool]]] = []
    for shape, own in sorted(owned.items()):
        for place, owning in enumerate(own):
            for _ in range(owning):
                flags = [False] * len(shape.suits)
                flags[place] = True
                groups.append((shape, flags))
    extra = dict(extra)
    for shape, flags in groups:
        for place, card in enumerate(shape.cards):
            if extra.get(card) and not flags[place]:
                flags[place] = True
                extra[card] -= 1
    return [
        [
            (card, Origin.HAND if hand else Origin.TABLE)
            for card, hand in zip(shape.cards, flags, strict=True)
        ]
        for shape, flags in groups
    ]
