"""The kept-meld booleans: an original table meld left showing the same cards as before.

A kept meld takes its pieces out of the count (they are already a legal meld), so only the pieces of
new and changed melds need groups and runs. The objective prefers plays keeping more of them.
"""

from __future__ import annotations

from collections.abc import Sequence

from meldsat.cards import Card
from meldsat.engine.cpsat import CpModel, Expr, Values, cp_model
from meldsat.engine.inventory import MeldContents


class KeptMelds:
    """``keep[i]`` is true when original meld ``i`` stays as it was.

    A meld counts as kept when it shows the same cards, so a joker swapped for its real card still
    leaves it kept. ``real[card]`` and ``jokers[card]`` count the pieces of ``card`` that kept melds
    hold as real cards and as jokers.
    """

    def __init__(self, model: CpModel, melds: Sequence[MeldContents]) -> None:
        self.keep = [model.new_bool_var(f"keep_{index}") for index in range(len(melds))]
        self.with_joker: list[cp_model.IntVar] = [
            keep for keep, meld in zip(self.keep, melds, strict=True) if meld.jokers.total()
        ]
        real_holders: dict[Card, list[Expr]] = {}
        joker_holders: dict[Card, list[Expr]] = {}
        for keep, meld in zip(self.keep, melds, strict=True):
            for holders, counts in ((real_holders, meld.real), (joker_holders, meld.jokers)):
                for card, count in counts.items():
                    holders.setdefault(card, []).append(keep * count)
        self.real: dict[Card, Expr] = {card: sum(terms) for card, terms in real_holders.items()}
        self.jokers: dict[Card, Expr] = {card: sum(terms) for card, terms in joker_holders.items()}

    def holds(self, card: Card) -> Expr:
        """The pieces showing ``card`` that kept melds hold."""
        return self.real.get(card, 0) + self.jokers.get(card, 0)

    def extract(self, values: Values) -> tuple[int, ...]:
        """The indexes of the original melds the solution keeps."""
        return tuple(index for index, keep in enumerate(self.keep) if values(keep))
