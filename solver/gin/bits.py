"""Gin hands as bit masks, and the melds a hand holds.

A card is one bit: ``suit * 16 + rank`` (rank 1-13). Bits 0, 14 and 15 of every suit's block stay
clear, so a shift by one moves a card to its neighbour in the same suit and never across suits: a
sequence is a run of consecutive set bits, and a group is the same bit in three or four blocks.
The gin family melds groups of 3-4 and sequences of 3 or more with the ace low only, and has no
jokers; :func:`check_gin_rules` refuses any other rule set rather than answer it wrongly.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from meldsat.cards import Card, card_of
from meldsat.errors import UnsupportedError
from meldsat.rules import RuleSet

_SUIT_SHIFT = 16
_RANK_BITS = 0x3FFE  # ranks 1-13 of one suit block
# One bit per suit block at rank 0; shifted left by a rank it covers that rank in every suit.
_ALL_SUITS = sum(1 << (suit * _SUIT_SHIFT) for suit in range(4))
# Deadwood value by bit: face cards 10, ace 1 (the gin family's values, checked in check_gin_rules).
BIT_VALUE = tuple(
    min(bit % _SUIT_SHIFT, 10) if 1 <= bit % _SUIT_SHIFT <= 13 else 0 for bit in range(64)
)


# The card of each bit, so masks turn back into cards by lookup.
_BIT_CARD = {
    suit * _SUIT_SHIFT + rank: card_of(rank, suit) for suit in range(4) for rank in range(1, 14)
}


@functools.cache
def check_gin_rules(rules: RuleSet) -> None:
    """Refuse a rule set whose melds or values are not the gin family's (the masks assume them)."""
    standard = (
        rules.jokers == 0
        and not rules.table_rearrangement
        and rules.ace_low
        and not rules.ace_high
        and not rules.wrap_around
        and (rules.group_min, rules.group_max, rules.run_min) == (3, 4, 3)
        and rules.rank_values == tuple(min(rank, 10) for rank in range(1, 14))
    )
    if not standard:
        raise UnsupportedError(
            f"rule set '{rules.name}': deadwood analysis is for the gin family "
            "(gin, oklahoma-gin, hollywood-gin)"
        )


def card_bit(card: Card) -> int:
    """The bit of one card."""
    return 1 << (card.suit * _SUIT_SHIFT + card.rank)


def cards_mask(cards: Iterable[Card]) -> int:
    """The mask of a set of cards."""
    mask = 0
    for card in cards:
        mask |= 1 << (card.suit * _SUIT_SHIFT + card.rank)
    return mask


def mask_cards(mask: int) -> list[Card]:
    """The cards of a mask in bit order (suit by suit, each suit by rank)."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(_BIT_CARD[low.bit_length() - 1])
        mask ^= low
    return cards


def rank_order(card: Card) -> int:
    """A sort key: by rank, then suit (the canonical order of a hand; cheaper than comparing)."""
    return card.rank * 4 + card.suit


def mask_value(mask: int) -> int:
    """The deadwood value of the cards of a mask."""
    value = 0
    while mask:
        low = mask & -mask
        value += BIT_VALUE[low.bit_length() - 1]
        mask ^= low
    return value


def _groups_of_four(rank: int) -> tuple[int, ...]:
    full = _ALL_SUITS << rank
    return (full, *(full & ~(1 << (suit * _SUIT_SHIFT + rank)) for suit in range(4)))


_FOUR_OF_A_KIND = tuple(_groups_of_four(rank) if rank else () for rank in range(14))


def hand_melds(hand: int) -> list[int]:
    """Every legal meld whose cards are all in ``hand``, each once (groups first, by rank)."""
    melds: list[int] = []
    spades = hand & _RANK_BITS
    hearts = (hand >> 16) & _RANK_BITS
    diamonds = (hand >> 32) & _RANK_BITS
    clubs = (hand >> 48) & _RANK_BITS
    # Ranks held in at least three suits.
    three_suits = (spades & hearts & (diamonds | clubs)) | ((spades | hearts) & diamonds & clubs)
    while three_suits:
        low = three_suits & -three_suits
        rank = low.bit_length() - 1
        present = hand & (_ALL_SUITS << rank)
        if present == _ALL_SUITS << rank:
            melds.extend(_FOUR_OF_A_KIND[rank])
        else:
            melds.append(present)
        three_suits ^= low
    # Bits that start three cards in a row; each such start extends to every longer sequence.
    starts = hand & (hand >> 1) & (hand >> 2)
    while starts:
        low = starts & -starts
        run = low * 7
        melds.append(run)
        following = low << 3
        while hand & following:
            run |= following
            melds.append(run)
            following <<= 1
        starts ^= low
    return melds
