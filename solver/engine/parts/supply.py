"""The piece supply: for every card, how many pieces can show it at the end of the turn.

Those are the real copies on the table (they stay there), the copies the hand plays, and the jokers
standing for the card. Every joker stands for exactly one card, and at least one piece is played.
"""

from __future__ import annotations

import functools
import operator
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from meldsat.cards import ALL_CARDS, Card, card_of
from meldsat.engine.cpsat import CpModel, Expr, Values, cp_model
from meldsat.engine.inventory import Inventory
from meldsat.group_jokers import JokerPair
from meldsat.rules import RuleSet, rank_at

# Cards by their place in ALL_CARDS: the hot loops of this module index lists instead of hashing
# cards.
CARD_INDEX: dict[Card, int] = {card: index for index, card in enumerate(ALL_CARDS)}
_RANKS = tuple(tuple(CARD_INDEX[card_of(rank, suit)] for suit in range(4)) for rank in range(1, 14))


def card_indexes(cards: Sequence[Card]) -> tuple[int, ...]:
    """The places of ``cards`` in ``ALL_CARDS``."""
    return tuple(CARD_INDEX[card] for card in cards)


@functools.cache
def _windows(positions: range, length: int) -> tuple[tuple[int, ...], ...]:
    """Every window of ``length`` sequence positions of every suit, as card indexes."""
    return tuple(
        card_indexes([card_of(rank_at(p), suit) for p in positions[start : start + length]])
        for suit in range(4)
        for start in range(len(positions) - length + 1)
    )


def joker_candidates(
    present: set[Card], declared: set[Card], joker_total: int, rules: RuleSet
) -> set[Card]:
    """The cards a joker can stand for in some legal meld of this position.

    A meld holds at most ``joker_total`` jokers, so a joker in a group needs at least
    ``group_min - joker_total`` real cards of its rank, and a joker in a run a window of ``run_min``
    ranks around it with at least ``run_min - joker_total`` real cards. Table jokers may also keep
    their cards. Pruning the rest keeps the model small.
    """
    here = [card in present for card in ALL_CARDS]
    declared_at = [card in declared for card in ALL_CARDS]
    chosen = joker_candidates_at(here, declared_at, joker_total, rules)
    return {card for card, yes in zip(ALL_CARDS, chosen, strict=True) if yes}


def joker_candidates_at(
    here: Sequence[bool], declared: Sequence[bool], joker_total: int, rules: RuleSet
) -> list[bool]:
    """:func:`joker_candidates` by the places of cards in ``ALL_CARDS``: ``here`` marks the cards
    with a real copy, ``declared`` those a table joker is declared as; true where a joker may
    stand."""
    if not joker_total:
        return [False] * len(ALL_CARDS)
    if joker_total >= min(rules.group_min, rules.run_min):
        return [True] * len(ALL_CARDS)  # jokers alone could make a meld anywhere
    chosen = list(declared)
    group_need = rules.group_min - joker_total
    for rank_cards in _RANKS:
        if sum([here[index] for index in rank_cards]) >= group_need:
            for index in rank_cards:
                chosen[index] = True
    run_need = rules.run_min - joker_total
    for window in _windows(rules.sequence_positions, rules.run_min):
        if sum([here[index] for index in window]) >= run_need:
            for index in window:
                chosen[index] = True
    return chosen


@dataclass(frozen=True)
class PieceBounds:
    """How many pieces can show each card: its real copies, plus ``jokers`` for the cards a joker
    may stand for (``joker_cards``). The meld parts size their variables by these bounds.

    ``joker_limit`` false leaves out what ``melds_of`` does with the jokers (see there): the plain
    bound, the least of the cards' own.
    """

    real: Counter[Card]
    jokers: int = 0
    joker_cards: frozenset[Card] = frozenset()
    joker_limit: bool = True
    # Every card's bounds, worked out once and listed in ALL_CARDS order: the parts ask for them
    # thousands of times a model, and indexing a list is cheaper than hashing a card.
    _real_at: list[int] = field(init=False, repr=False, compare=False)
    _most_at: list[int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # From the counts there are (a Counter's missing card costs a Python call), by index.
        real_at = [0] * len(ALL_CARDS)
        for card, count in self.real.items():
            real_at[CARD_INDEX[card]] = count
        most_at = real_at.copy()
        if self.jokers:
            for card in self.joker_cards:
                most_at[CARD_INDEX[card]] += self.jokers
        object.__setattr__(self, "_real_at", real_at)
        object.__setattr__(self, "_most_at", most_at)

    def most(self, card: Card) -> int:
        """The most pieces that can show ``card``."""
        return self._most_at[CARD_INDEX[card]]

    @property
    def most_at(self) -> Sequence[int]:
        """:meth:`most` of every card, by its place in ``ALL_CARDS``."""
        return self._most_at

    def melds_of(self, cards: Sequence[Card]) -> int:
        """The most melds that each hold one piece of every card of ``cards``.

        Each meld takes a real copy of a card where one is left and a joker otherwise, and there
        are only ``jokers`` jokers in all: a shape or run that needs more jokers than exist gets
        no variable at all.
        """
        return self.melds_at(card_indexes(cards))

    def melds_at(self, indexes: Sequence[int]) -> int:
        """:meth:`melds_of` for cards given by their places in ``ALL_CARDS``."""
        return self.melds_picked(picker(indexes))

    def melds_picked(self, pick: Picker) -> int:
        """:meth:`melds_of` for the cards whose places ``pick`` (a :func:`picker`) picks: the
        direct builds, which ask for every shape and window of every model, keep the pickers."""
        count = min(pick(self._most_at))
        if not self.jokers or not count or not self.joker_limit:
            return count
        real = pick(self._real_at)
        if min(real) >= count:
            return count  # real copies for every meld: no joker needed
        jokers = self.jokers
        while count and sum([count - have for have in real if have < count]) > jokers:
            count -= 1
        return count


# Picks the entries of a list at some places, as a tuple (``operator.itemgetter``, in C).
Picker = Callable[[Sequence[int]], tuple[int, ...]]


def picker(indexes: Sequence[int]) -> Picker:
    """The :data:`Picker` of ``indexes`` (at least one)."""
    if len(indexes) == 1:
        (only,) = indexes
        return lambda values: (values[only],)
    return operator.itemgetter(*indexes)


@dataclass(frozen=True)
class SupplyValues:
    """The supply's share of a solution: hand cards and jokers played, jokers by card shown."""

    hand_played: Counter[Card]
    hand_jokers_played: int
    jokers_at: Counter[Card]


class PieceSupply:
    """Hand cards played (``hand_played``), hand jokers played and jokers by the card they show.

    ``table_used`` is false when the table stays as it is (initial meld, gin): then the supply is
    the hand alone. ``bounds`` says how many pieces can show each card, ``hand_bounds`` and
    ``table_bounds`` how many of them come from the hand and from the table. ``play_all``
    requires the whole hand to be played, ``least_played`` at least that many pieces (a turn plays
    one; a puzzle's own goal says what it needs, and arranging given pieces may play none).

    ``prune`` false gives the plain bounds instead of the pruned ones: a joker may stand for any
    card, and a meld is bounded by the least of its cards' bounds (``PieceBounds.joker_limit``).
    The answers are the same, but the search differs, and so does which of several equally good
    answers it returns: the puzzle generator draws its puzzles from such answers, and keeps the
    plain bounds so that a seed gives the same puzzles as before.
    """

    def __init__(
        self,
        model: CpModel,
        inventory: Inventory,
        rules: RuleSet,
        *,
        table_used: bool = True,
        play_all: bool = False,
        least_played: int = 1,
        prune: bool = True,
    ) -> None:
        self.table_real: Counter[Card] = inventory.table_real if table_used else Counter()
        self.table_jokers: Counter[Card] = inventory.table_jokers if table_used else Counter()
        # Jokers in groups of three that either missing card may free (Rummikub), by pair.
        self.group_jokers: Counter[JokerPair] = (
            inventory.group_jokers if table_used and rules.group_joker_either_missing else Counter()
        )
        self.hand_played: dict[Card, cp_model.IntVar] = {
            card: model.new_int_var(count if play_all else 0, count, f"h_{card}")
            # In the inventory's order: the search, and so which of equally good answers it
            # returns, follows the order of the variables.
            for card, count in inventory.hand_real.items()
        }
        hand_jokers = inventory.hand_jokers
        self.hand_jokers: Expr = (
            model.new_int_var(hand_jokers if play_all else 0, hand_jokers, "hj")
            if hand_jokers
            else 0
        )
        self.played_count: Expr = sum(self.hand_played.values()) + self.hand_jokers
        if least_played:
            model.add(self.played_count >= least_played)
        self.joker_total = self.table_jokers.total() + hand_jokers
        present = {card for card, count in (self.table_real + inventory.hand_real).items() if count}
        candidates = (
            joker_candidates(present, set(self.table_jokers), self.joker_total, rules)
            if prune
            else (set(ALL_CARDS) if self.joker_total else set())
        )
        self._hand_real = inventory.hand_real
        self._joker_cards = frozenset(candidates)
        self._prune = prune
        self.bounds = PieceBounds(
            self.table_real + inventory.hand_real, self.joker_total, self._joker_cards, prune
        )
        self.jokers_at: dict[Card, Expr] = {
            card: model.new_int_var(0, self.joker_total, f"j_{card}") if card in candidates else 0
            for card in ALL_CARDS
        }
        if self.joker_total:
            model.add(sum(self.jokers_at.values()) == self.table_jokers.total() + self.hand_jokers)

    # Only 500 rummy's parts tell pieces by origin: these are worked out when first asked for.
    @functools.cached_property
    def hand_bounds(self) -> PieceBounds:
        """How many pieces showing each card can come from the hand."""
        jokers = self.joker_total - self.table_jokers.total()
        return PieceBounds(self._hand_real, jokers, self._joker_cards, self._prune)

    @functools.cached_property
    def table_bounds(self) -> PieceBounds:
        """How many pieces showing each card can come from the table."""
        return PieceBounds(
            self.table_real, self.table_jokers.total(), self._joker_cards, self._prune
        )

    def real_at_end(self, card: Card) -> Expr:
        """Real copies of ``card`` on the table after the turn: the table's and those played."""
        return self.table_real[card] + self.hand_played.get(card, 0)

    def shown(self, card: Card) -> Expr:
        """Every piece showing ``card`` after the turn: real copies and jokers standing for it."""
        return self.real_at_end(card) + self.jokers_at[card]

    def extract(self, values: Values) -> SupplyValues:
        """What the solution plays from the hand and where the jokers stand."""
        return SupplyValues(
            hand_played=Counter({card: values(v) for card, v in self.hand_played.items()}),
            hand_jokers_played=values(self.hand_jokers),
            jokers_at=Counter({card: values(v) for card, v in self.jokers_at.items()}),
        )
