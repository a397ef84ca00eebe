"""Hypothesis strategies for gin hands: distinct cards, dense enough that melds are common."""

from __future__ import annotations

from hypothesis import strategies as st

from meldsat.cards import Card


@st.composite
def gin_cards(draw: st.DrawFn, count: int) -> list[Card]:
    """``count`` distinct cards drawn from a few neighbouring ranks, so melds overlap and tie."""
    width = draw(st.integers(min_value=4, max_value=9))
    low = draw(st.integers(min_value=1, max_value=14 - width))
    pool = [Card(rank, suit) for rank in range(low, low + width) for suit in range(4)]
    picked = draw(st.lists(st.sampled_from(pool), min_size=count, max_size=count, unique=True))
    return sorted(picked)


def card_key(card: Card) -> tuple[int, int]:
    """A card as the oracle's (rank, suit) pair."""
    return (card.rank, card.suit)
