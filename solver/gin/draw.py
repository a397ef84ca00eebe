"""Draw advice, exact: take the upcard, or draw from the stock?

Taking the upcard gives a known 11-card hand; the deadwood after its best discard (the upcard
itself may not go straight back: docs/RULES.md) is exact. Drawing from the stock gives one of the
unseen cards, each equally likely from the player's point of view; every one of them is analysed
(11 cards, every discard weighed), so the expected least deadwood and its distribution are exact.
No sampling.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from meldsat.cards import ALL_CARDS, Card
from meldsat.errors import ImpossiblePositionError
from meldsat.gin.deadwood import HandAnalysis, analyse_hand, check_gin_hand
from meldsat.rules import RuleSet


@dataclass(frozen=True)
class DrawAdvice:
    """The two draws compared.

    ``upcard``: the analysis of the hand with the upcard taken. ``stock_distribution``: for each
    least deadwood after a stock draw, how many unseen cards give it (lowest deadwood first).
    ``take_upcard``: the upcard leaves strictly less deadwood than the stock's expectation.
    """

    upcard: HandAnalysis
    unseen: tuple[Card, ...]
    stock_distribution: tuple[tuple[int, int], ...]
    stock_expected: Fraction
    stock_gin_chance: Fraction
    stock_knock_chance: Fraction
    take_upcard: bool


def unseen_cards(hand: Sequence[Card], upcard: Card, seen: Iterable[Card]) -> tuple[Card, ...]:
    """The cards the player has not seen: not in the hand, not the upcard, not in ``seen``."""
    known = {*hand, upcard}
    for card in seen:
        if card in known:
            raise ImpossiblePositionError(
                f"seen card '{card}' is already in the hand or the upcard"
            )
        known.add(card)
    return tuple(card for card in ALL_CARDS if card not in known)


def draw_advice(
    hand: Sequence[Card],
    upcard: Card,
    rules: RuleSet,
    *,
    seen: Iterable[Card] = (),
    first_upcard: Card | None = None,
) -> DrawAdvice:
    """Compare taking ``upcard`` with drawing from the stock, for a 10-card ``hand``."""
    check_gin_hand(hand, (10,))
    if upcard in hand:
        raise ImpossiblePositionError(f"upcard '{upcard}' is also in the hand")
    unseen = unseen_cards(hand, upcard, seen)
    if not unseen:
        raise ImpossiblePositionError("no unseen card is left: the stock would be empty")
    taken = analyse_hand([*hand, upcard], rules, first_upcard=first_upcard, keep=upcard)
    counts: Counter[int] = Counter()
    gins = knocks = 0
    for card in unseen:
        drawn = analyse_hand([*hand, card], rules, first_upcard=first_upcard)
        counts[drawn.arrangement.deadwood] += 1
        gins += drawn.gin or drawn.big_gin
        knocks += drawn.can_knock
    total = len(unseen)
    expected = Fraction(sum(deadwood * count for deadwood, count in counts.items()), total)
    return DrawAdvice(
        upcard=taken,
        unseen=unseen,
        stock_distribution=tuple(sorted(counts.items())),
        stock_expected=expected,
        stock_gin_chance=Fraction(gins, total),
        stock_knock_chance=Fraction(knocks, total),
        take_upcard=taken.arrangement.deadwood < expected,
    )
