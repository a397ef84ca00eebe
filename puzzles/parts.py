"""The puzzle's own parts of the CP-SAT model, built on the engine's (``meldsat.engine.parts``).

The engine's parts give the piece supply, joker locking, group shapes and the run flow. A puzzle
adds:

* :class:`PointsGoal`: the hand pieces played are worth at least the goal's points;
* :class:`GrowingMelds`: the grader's restriction, on the engine's kept-meld booleans: a kept meld
  stays whole, keeps its jokers, and may only grow at its ends (a group by its missing suits);
* :func:`forbid_counts`: uniqueness, every final table with given canonical counts excluded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from meldsat.cards import Card, card_of, represented_card
from meldsat.engine.cpsat import CpModel, Expr, Values, cp_model
from meldsat.engine.parts.kept import KeptMelds
from meldsat.engine.parts.supply import PieceSupply
from meldsat.melds import MeldKind, judge_meld
from meldsat.notation import Meld
from meldsat.puzzles.canonical import sequence_places
from meldsat.rules import RuleSet, rank_at


class PointsGoal:
    """The hand pieces played (jokers at ``joker_value``) are worth at least ``points``."""

    def __init__(self, model: CpModel, rules: RuleSet, supply: PieceSupply, points: int) -> None:
        value = sum(rules.card_value(card) * v for card, v in supply.hand_played.items())
        model.add(value + rules.joker_value * supply.hand_jokers >= points)


@dataclass(frozen=True)
class Growth:
    """How an original meld may grow when kept: its shown cards and the chains of cards it may
    take, nearest first; ``room`` (a group) is how many of its missing suits it may take."""

    shown: tuple[Card, ...]
    chains: tuple[tuple[Card, ...], ...]
    room: int | None = None


def growth_of(meld: Meld, rules: RuleSet) -> Growth:
    """What keeping a legal ``meld`` allows: a group its missing suits, a run its ends outward."""
    verdict = judge_meld(meld, rules)
    shown: list[Card] = []
    for piece in verdict.pieces:
        card = represented_card(piece)
        assert card is not None
        shown.append(card)
    if verdict.kind is MeldKind.GROUP:
        suits = {card.suit for card in shown}
        missing = tuple((card_of(shown[0].rank, suit),) for suit in range(4) if suit not in suits)
        room = max(0, rules.group_max - len(shown))
        return Growth(tuple(shown), missing if room else (), room)
    places = sequence_places(verdict.pieces)
    suit = shown[0].suit
    span = rules.sequence_positions
    below = tuple(card_of(rank_at(p), suit) for p in range(places[0] - 1, span.start - 1, -1))
    above = tuple(card_of(rank_at(p), suit) for p in range(places[-1] + 1, span.stop))
    return Growth(tuple(shown), tuple(chain for chain in (below, above) if chain))


class GrowingMelds:
    """The grader's kept melds: ``kept.keep[i]`` keeps original meld ``i`` whole, and ``steps[i]``
    are the cards it grows by, each one needing the one before it in its chain.

    ``holds(card)`` counts the pieces showing ``card`` in kept melds, grown cards included. A kept
    meld keeps its jokers: swapping one out for its real card frees the joker, which is a change.
    """

    def __init__(
        self,
        model: CpModel,
        rules: RuleSet,
        table: Sequence[Meld],
        kept: KeptMelds,
        supply: PieceSupply,
    ) -> None:
        self.kept = kept
        self.growth = [growth_of(meld, rules) for meld in table]
        self.steps: list[list[cp_model.IntVar]] = []
        grown_cards: dict[Card, list[Expr]] = {}
        for keep, growth in zip(kept.keep, self.growth, strict=True):
            steps: list[cp_model.IntVar] = []
            for chain in growth.chains:
                previous: cp_model.IntVar = keep
                for card in chain:
                    step = model.new_bool_var("")
                    # A meld grows only outward from its ends: each card needs the one before it.
                    model.add_implication(step, previous)
                    grown_cards.setdefault(card, []).append(step)
                    steps.append(step)
                    previous = step
            if growth.room is not None and len(steps) > growth.room:
                # A group takes at most the suits it lacks up to the largest group.
                model.add(sum(steps) <= growth.room)
            self.steps.append(steps)
        self._grown: dict[Card, Expr] = {card: sum(terms) for card, terms in grown_cards.items()}
        for card, jokers in kept.jokers.items():
            model.add(supply.jokers_at[card] >= jokers)
        self.changed: Expr = sum(1 - keep for keep in kept.keep)

    def holds(self, card: Card) -> Expr:
        """The pieces showing ``card`` in kept melds, as they were and as they grew."""
        return self.kept.holds(card) + self._grown.get(card, 0)

    def extract(self, values: Values) -> list[list[Card]]:
        """The kept melds with the cards they grew by, in no particular order (the checker
        sorts)."""
        melds: list[list[Card]] = []
        for keep, growth, steps in zip(self.kept.keep, self.growth, self.steps, strict=True):
            if values(keep):
                flat = [card for chain in growth.chains for card in chain]
                taken = [card for card, step in zip(flat, steps, strict=True) if values(step)]
                melds.append([*growth.shown, *taken])
        return melds


def forbid_counts(model: CpModel, terms: Sequence[tuple[Expr, int]]) -> None:
    """At least one of the ``(expression, value)`` terms takes another value than ``value``."""
    differs: list[cp_model.IntVar] = []
    for expr, value in terms:
        if isinstance(expr, int):
            continue
        above = model.new_bool_var("")
        model.add(expr >= value + 1).only_enforce_if(above)
        differs.append(above)
        if value > 0:
            below = model.new_bool_var("")
            model.add(expr <= value - 1).only_enforce_if(below)
            differs.append(below)
    model.add_bool_or(differs)
