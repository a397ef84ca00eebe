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


@st.composite
def knock_positions(draw: st.DrawFn) -> tuple[list[list[Card]], list[Card]]:
    """Knocker's melds (a sequence and a group, sometimes a second sequence) and a defender's 10
    cards from the same neighbourhood, so that many of them could be laid off."""
    suit = draw(st.integers(min_value=0, max_value=3))
    length = draw(st.integers(min_value=3, max_value=5))
    start = draw(st.integers(min_value=2, max_value=12 - length))
    melds = [[Card(rank, suit) for rank in range(start, start + length)]]
    group_rank = draw(st.integers(min_value=1, max_value=13).filter(lambda rank: rank != start))
    group_suits = draw(st.sets(st.integers(0, 3), min_size=3, max_size=3).map(sorted))
    group = [Card(group_rank, group_suit) for group_suit in group_suits]
    if not set(group) & set(melds[0]):
        melds.append(group)
    if draw(st.booleans()):
        other = (suit + 1) % 4
        second = [Card(rank, other) for rank in range(start, start + 3)]
        if not {card for meld in melds for card in meld} & set(second):
            melds.append(second)
    used = {card for meld in melds for card in meld}
    low, high = max(1, start - 4), min(13, start + length + 4)
    pool = [
        Card(rank, any_suit)
        for rank in {*range(low, high + 1), group_rank}
        for any_suit in range(4)
        if Card(rank, any_suit) not in used
    ]
    hand = draw(st.lists(st.sampled_from(pool), min_size=10, max_size=10, unique=True))
    return melds, sorted(hand)
