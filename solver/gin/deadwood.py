"""Least deadwood of a gin hand, exactly: 10 cards, or 11 cards with every discard weighed.

The search lists the melds a hand holds (:func:`meldsat.gin.bits.hand_melds`) and then every set of
pairwise disjoint melds among them (a packing). A hand of 10 or 11 cards holds at most three
disjoint melds, so the packings are few and the enumeration is exact and quick. The deadwood of a
packing is the value of the cards it leaves out; the least deadwood is the best packing's.

For 11 cards (after the draw) one enumeration serves every discard: the deadwood after discarding
``d`` is the best packing that avoids ``d``, so two arrangements that tie on the 11 cards can never
hide a discard that is better (``4S 5S 6S 3C 4C 5C 3D 4D 5D 6D 6H`` discards 6H for gin).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from meldsat.cards import Card
from meldsat.errors import ImpossiblePositionError, MeldsatError
from meldsat.gin.bits import (
    BIT_VALUE,
    card_bit,
    cards_mask,
    check_gin_rules,
    hand_melds,
    mask_cards,
    mask_value,
    rank_order,
)
from meldsat.rules import RuleSet

Meld = tuple[Card, ...]

# The value of every meld of the whole deck, so the search looks a meld's value up.
_MELD_VALUE = {
    meld: mask_value(meld)
    for meld in hand_melds(
        cards_mask(Card(rank, suit) for suit in range(4) for rank in range(1, 14))
    )
}


@dataclass(frozen=True)
class Arrangement:
    """Melds and deadwood of a hand: ``deadwood`` is the value of ``deadwood_cards``."""

    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int


@dataclass(frozen=True)
class DiscardOption:
    """One discard from 11 cards and the least deadwood of the 10 cards kept."""

    discard: Card
    deadwood: int


@dataclass(frozen=True)
class HandAnalysis:
    """What :func:`analyse_hand` finds.

    For 10 cards ``arrangement`` is the hand's best; for 11 it is the best after ``discard``, and
    ``discards`` weighs every allowed discard (best first). ``gin``: no deadwood after the discard
    (10 cards: none at all); ``big_gin``: all 11 cards melded. ``can_knock``: the deadwood is within
    ``knock_limit`` (a big gin may always end the hand).
    """

    hand: tuple[Card, ...]
    arrangement: Arrangement
    discard: Card | None
    discards: tuple[DiscardOption, ...]
    knock_limit: int
    can_knock: bool
    gin: bool
    big_gin: bool


def least_deadwood_mask(hand: int, total: int) -> int:
    """The least deadwood of the hand ``hand`` (a mask) whose cards are worth ``total``."""
    melds = hand_melds(hand)
    if not melds:
        return total
    return total - _best_packed_value(melds, [_MELD_VALUE[meld] for meld in melds], 0, 0)


def least_deadwood(cards: Sequence[Card]) -> int:
    """The least deadwood of distinct cards (no checks, no arrangement: the quick question)."""
    hand = cards_mask(cards)
    return least_deadwood_mask(hand, mask_value(hand))


def _best_packed_value(melds: list[int], values: list[int], start: int, used: int) -> int:
    best = 0
    for index in range(start, len(melds)):
        meld = melds[index]
        if not meld & used:
            value = values[index] + _best_packed_value(melds, values, index + 1, used | meld)
            if value > best:  # noqa: PLR1730 (a call to max() costs more in this hot loop)
                best = value
    return best


def _packings(
    melds: list[int], start: int, used: int, value: int, chosen: tuple[int, ...]
) -> Iterator[tuple[int, int, tuple[int, ...]]]:
    """Every set of disjoint melds of ``melds[start:]`` avoiding ``used``: (cards, value, melds)."""
    yield used, value, chosen
    for index in range(start, len(melds)):
        meld = melds[index]
        if not meld & used:
            yield from _packings(
                melds, index + 1, used | meld, value + _MELD_VALUE[meld], (*chosen, meld)
            )


def _arrangement(hand: int, chosen: Sequence[int]) -> Arrangement:
    used = 0
    for meld in chosen:
        used |= meld
    left = hand & ~used
    melds = sorted(
        (tuple(mask_cards(meld)) for meld in chosen),
        key=lambda cards: (cards[0].rank, cards[0].suit),
    )
    # Cards order by rank, then suit: the canonical order of a hand.
    return Arrangement(
        tuple(melds), tuple(sorted(mask_cards(left), key=rank_order)), mask_value(left)
    )


def best_arrangement(cards: Sequence[Card]) -> Arrangement:
    """The least-deadwood arrangement of distinct cards (ties: the first packing found)."""
    return _best_arrangement(cards_mask(cards))


def _best_arrangement(hand: int) -> Arrangement:
    melds = hand_melds(hand)
    if not melds:
        return _arrangement(hand, ())
    best: tuple[int, tuple[int, ...]] = (-1, ())
    for _, value, chosen in _packings(melds, 0, 0, 0, ()):
        if value > best[0]:
            best = (value, chosen)
    return _arrangement(hand, best[1])


def knock_limit(rules: RuleSet, first_upcard: Card | None = None) -> int:
    """The most deadwood a player may knock with in this hand.

    Oklahoma (``knock_limit_from_upcard``): the first upcard's value, face cards 10, and an ace
    means gin only (limit 0). Raises :class:`MeldsatError` when that upcard is needed but missing.
    """
    if rules.knock_limit_from_upcard:
        if first_upcard is None:
            raise MeldsatError(
                f"rule set '{rules.name}': the first upcard sets the knock limit; give it "
                "(--upcard or --first-upcard)"
            )
        return 0 if first_upcard.rank == 1 else rules.card_value(first_upcard)
    return rules.knock_limit if rules.knock_limit is not None else 0


def check_gin_hand(cards: Sequence[Card], sizes: tuple[int, ...] = (10, 11)) -> None:
    """Refuse a hand with a repeated card or a size not in ``sizes`` (one deck, no jokers)."""
    # Distinct cards set one bit each (cheaper than hashing every card).
    if cards_mask(cards).bit_count() != len(cards):
        repeated = next(card for card in cards if cards.count(card) > 1)
        raise ImpossiblePositionError(f"card '{repeated}' appears twice (gin uses one deck)")
    if len(cards) not in sizes:
        wanted = " or ".join(str(size) for size in sizes)
        raise MeldsatError(f"a gin hand here holds {wanted} cards, got {len(cards)}")


def analyse_hand(
    cards: Sequence[Card],
    rules: RuleSet,
    *,
    first_upcard: Card | None = None,
    keep: Card | None = None,
) -> HandAnalysis:
    """Exact gin analysis of 10 cards, or of 11 cards with every discard weighed.

    ``keep`` is a card of an 11-card hand that may not be discarded (the upcard just taken).
    ``first_upcard`` sets Oklahoma's knock limit.
    """
    check_gin_rules(rules)
    check_gin_hand(cards)
    limit = knock_limit(rules, first_upcard)
    hand = cards_mask(cards)
    ordered = tuple(sorted(cards, key=rank_order))
    if len(cards) == 10:
        arrangement = _best_arrangement(hand)
        gin = arrangement.deadwood == 0
        return HandAnalysis(
            ordered, arrangement, None, (), limit, arrangement.deadwood <= limit, gin, False
        )
    options, best_melds, big_gin = _discard_options(hand, ordered, keep)
    best = _arrangement(hand & ~card_bit(options[0].discard), best_melds)
    can_knock = big_gin or best.deadwood <= limit
    return HandAnalysis(
        ordered,
        best,
        options[0].discard,
        options,
        limit,
        can_knock,
        best.deadwood == 0,
        big_gin,
    )


def _discard_options(
    hand: int, cards: Sequence[Card], keep: Card | None
) -> tuple[tuple[DiscardOption, ...], tuple[int, ...], bool]:
    """Every discard with the least deadwood of the rest (best first), the melds of the best
    discard's arrangement, and whether all the cards meld (big gin): one enumeration of the
    packings answers all three."""
    bits = [card_bit(card) for card in cards]
    # For each card, the best packing that leaves it out: its melded value and its melds.
    best_value = [-1] * len(cards)
    best_melds: list[tuple[int, ...]] = [()] * len(cards)
    most = 0
    for used, value, chosen in _packings(hand_melds(hand), 0, 0, 0, ()):
        most = max(most, value)
        for index, bit in enumerate(bits):
            if value > best_value[index] and not used & bit:
                best_value[index] = value
                best_melds[index] = chosen
    total = mask_value(hand)
    worth = [BIT_VALUE[bit.bit_length() - 1] for bit in bits]
    after = [total - worth[index] - best_value[index] for index in range(len(cards))]
    ranked = sorted(
        (index for index, card in enumerate(cards) if card != keep),
        # Least deadwood first; among ties the highest card goes (it would cost most if caught).
        key=lambda index: (after[index], -worth[index], -cards[index].rank, cards[index].suit),
    )
    options = tuple(DiscardOption(cards[index], after[index]) for index in ranked)
    return options, best_melds[ranked[0]], most == total
