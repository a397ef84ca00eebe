"""The cards a game is played with, and their seeded shuffle."""

from __future__ import annotations

import random
from typing import TypeVar

from meldsat.cards import ALL_CARDS, Joker, Piece
from meldsat.rules import RuleSet

CardT = TypeVar("CardT", bound=Piece)


def full_deck(rules: RuleSet) -> list[Piece]:
    """Every card of the game: ``rules.decks`` copies of each card, then ``rules.jokers`` jokers."""
    deck: list[Piece] = [card for _ in range(rules.decks) for card in ALL_CARDS]
    deck.extend(Joker() for _ in range(rules.jokers))
    return deck


def seeded_rng(*parts: object) -> random.Random:
    """A random generator seeded by ``parts`` joined as text (stable across runs and platforms)."""
    # String seeds go through SHA-512, so the stream never depends on hash randomisation.
    return random.Random(":".join(str(part) for part in ("meldsat", *parts)))


def shuffled_deck(rules: RuleSet, rng: random.Random) -> list[Piece]:
    """The full deck in an order drawn from ``rng``; the stock is drawn from the end."""
    deck = full_deck(rules)
    rng.shuffle(deck)
    return deck


def deal_hands(stock: list[CardT], players: int, hand_size: int, dealer: int) -> list[list[CardT]]:
    """Deal ``hand_size`` cards to each seat from the end of ``stock`` (which loses them), one
    at a time starting left of ``dealer``; the hands are in the order dealt."""
    dealt: list[list[CardT]] = [[] for _ in range(players)]
    for _ in range(hand_size):
        for offset in range(1, players + 1):
            dealt[(dealer + offset) % players].append(stock.pop())
    return dealt
