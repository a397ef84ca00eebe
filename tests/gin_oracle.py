"""A brute-force oracle for gin deadwood and layoffs, written independently of ``meldsat.gin``.

Cards are (rank, suit) pairs. A meld is checked from its definition: 3-4 cards of one rank in
distinct suits, or 3+ cards of one suit in consecutive ranks (ace low only, no wrap). The least
deadwood splits the hand by always deciding the lowest card left: it is deadwood, or it joins a meld
made of it and some of the other cards (every subset is tried), memoised on the cards left.
Layoffs try every subset of the defender's cards as the cards laid off, and every order of laying
them off one at a time onto the knocker's melds as they grow.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from functools import cache

CardKey = tuple[int, int]


def card_value(card: CardKey) -> int:
    """Face cards 10, ace 1, others their rank."""
    return min(card[0], 10)


def is_meld(cards: Iterable[CardKey]) -> bool:
    """A legal gin meld: a group of 3-4 distinct suits of one rank, or a sequence of 3+."""
    cards = sorted(cards)
    if len(cards) < 3:
        return False
    ranks = [rank for rank, _ in cards]
    suits = [suit for _, suit in cards]
    if len(set(ranks)) == 1:
        return len(cards) <= 4 and len(set(suits)) == len(cards)
    if len(set(suits)) != 1:
        return False
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


@cache
def least_deadwood(cards: frozenset[CardKey]) -> int:
    """The least deadwood of a set of cards, by exhaustive search."""
    if not cards:
        return 0
    lowest = min(cards)
    rest = cards - {lowest}
    best = card_value(lowest) + least_deadwood(rest)
    partners = [card for card in rest if card[0] == lowest[0] or card[1] == lowest[1]]
    for size in range(2, len(partners) + 1):
        for others in itertools.combinations(partners, size):
            if is_meld((lowest, *others)):
                best = min(best, least_deadwood(rest - set(others)))
    return best


@cache
def _lay_off_all(melds: tuple[frozenset[CardKey], ...], cards: frozenset[CardKey]) -> bool:
    """Whether every card can be laid off, one at a time, each extending a meld into a legal one."""
    if not cards:
        return True
    for card in cards:
        for index, meld in enumerate(melds):
            grown = meld | {card}
            if is_meld(grown):
                new_melds = (*melds[:index], grown, *melds[index + 1 :])
                if _lay_off_all(new_melds, cards - {card}):
                    return True
    return False


def least_deadwood_after_layoff(
    hand: frozenset[CardKey], knocker_melds: Iterable[Iterable[CardKey]]
) -> int:
    """The defender's least deadwood when it may also lay cards off on the knocker's melds."""
    melds = tuple(frozenset(meld) for meld in knocker_melds)
    best = least_deadwood(hand)
    cards = sorted(hand)
    for size in range(1, len(cards) + 1):
        for laid in itertools.combinations(cards, size):
            if _lay_off_all(melds, frozenset(laid)):
                best = min(best, least_deadwood(hand - set(laid)))
    return best
