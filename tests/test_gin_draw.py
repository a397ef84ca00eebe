"""Exact draw advice against the brute-force oracle: every unseen card analysed, no sampling."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from meldsat.cards import ALL_CARDS, Card
from meldsat.gin.draw import draw_advice
from meldsat.rulesets import get_rules
from tests.gin_oracle import least_deadwood
from tests.gin_strategies import card_key, gin_cards

GIN = get_rules("gin")


def best_after_draw(hand: list[Card], drawn: Card, keep: Card | None = None) -> int:
    """The oracle's least deadwood of 10 kept cards after drawing ``drawn``."""
    held = frozenset(map(card_key, [*hand, drawn]))
    return min(
        least_deadwood(held - {card}) for card in held if keep is None or card != card_key(keep)
    )


@settings(max_examples=6, deadline=None)
@given(gin_cards(10), st.data())
def test_draw_advice_matches_the_oracle_on_every_unseen_card(
    hand: list[Card], data: st.DataObject
) -> None:
    rest = [card for card in ALL_CARDS if card not in hand]
    upcard = data.draw(st.sampled_from(rest))
    others = [card for card in rest if card != upcard]
    seen = data.draw(st.lists(st.sampled_from(others), max_size=8, unique=True))
    advice = draw_advice(hand, upcard, GIN, seen=seen)
    unseen = [card for card in others if card not in seen]
    outcomes = Counter(best_after_draw(hand, card) for card in unseen)
    assert advice.unseen == tuple(unseen)
    assert dict(advice.stock_distribution) == outcomes
    assert advice.stock_expected == Fraction(
        sum(deadwood * count for deadwood, count in outcomes.items()), len(unseen)
    )
    taken = best_after_draw(hand, upcard, keep=upcard)
    assert advice.upcard.arrangement.deadwood == taken
    assert advice.take_upcard == (taken < advice.stock_expected)
