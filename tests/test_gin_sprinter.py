"""The ``sprinter`` gin bot: its second-draw chance and capped score on small constructed hands,
and whole seeded games played legally and the same way twice (its strength is measured in
benchmarks/, not here)."""

from __future__ import annotations

import random
from fractions import Fraction

from meldsat.games.agents import GinAgent, GinView
from meldsat.games.deck import seeded_rng, shuffled_deck
from meldsat.games.engine import Record
from meldsat.games.gin_bots import make_gin_bot
from meldsat.games.gin_racer import hand_score
from meldsat.games.gin_sprinter import SprinterGinBot, second_knock_chance, takes_at_random
from meldsat.games.registry import new_game
from meldsat.gin.bits import card_bit, cards_mask
from tests.test_gin_racer import GIN, cards, one

# Two melds and 7D 8D: 9D or 6D makes a third, leaving the two ten-point cards (one discarded).
HAND = cards_mask(cards("AS 2S 3S 4H 5H 6H 7D 8D KC QC"))


def bits(text: str) -> list[int]:
    return [card_bit(card) for card in cards(text)]


def test_the_second_draw_counts_only_the_pairs_that_knock_on_the_second_card() -> None:
    # Of the 6 ordered pairs, 9D or 6D first knocks at once (not counted); 2C first leaves
    # 27 deadwood, and then either of the other two knocks: 2 pairs of 6.
    chance = second_knock_chance(HAND, bits("9D 6D 2C"), 10)
    assert Fraction(chance).limit_denominator(100) == Fraction(1, 3)
    # With nothing that melds the 7D 8D, no pair knocks.
    assert second_knock_chance(HAND, bits("2C 3C JH"), 10) == 0.0
    assert second_knock_chance(HAND, bits("9D"), 10) == 0.0


def test_a_cap_counts_every_draw_far_from_the_knock_alike() -> None:
    unseen = bits("2C 3C JH")
    # Each draw leaves 27-35 deadwood: capped at 25, all three count 25.
    assert hand_score(HAND, unseen, 10, cap=25) == 25.0
    assert hand_score(HAND, unseen, 10) > 25.0


def play_hands(count: int, seed: int) -> list[Record]:
    """``count`` seeded hands of sprinter against knocker, seats swapped: every turn's record."""
    records: list[Record] = []
    for number in range(count):
        game = new_game("gin", 2)
        agents: list[GinAgent] = [
            make_gin_bot("sprinter", seeded_rng(seed, number, "bot")),
            make_gin_bot("knocker", seeded_rng(seed, number, "other")),
        ]
        if number % 2:
            agents.reverse()
        game.start_round(1, 0, shuffled_deck(game.rules, seeded_rng(seed, number, "deal")))
        while not game.round_over:
            # The game checks every turn (an illegal one stops it with an error).
            records.append(game.play_turn(game.choose_turn(agents[game.to_move])))
        records.append(game.end_round())
    return records


def test_the_same_seed_plays_the_same_legal_hands() -> None:
    first = play_hands(3, 23)
    assert first == play_hands(3, 23)
    assert sum(1 for record in first if "scores" in record) == 3


def test_an_opponent_taking_half_the_upcards_takes_at_random() -> None:
    assert not takes_at_random(0, 0)  # no evidence yet: the prior, one in three
    assert takes_at_random(4, 2)
    assert not takes_at_random(6, 1)


def test_the_pile_memory_counts_the_upcards_offered_and_taken() -> None:
    bot = SprinterGinBot("sprinter", random.Random(1))
    hand = cards("AS 2S 5H 6H 9D 10D QC KC 3D 8C")
    first = GinView(GIN, 0, hand, one("7S"), 31, 10, one("7S"), ())
    bot.take_upcard(first)
    ending = bot.finish_turn(first, one("4C"), False)
    assert ending.discard is not None
    kept = tuple(card for card in (*hand, one("4C")) if card != ending.discard)
    # The opponent took that discard and threw JH: one offer, one take.
    bot.take_upcard(GinView(GIN, 0, kept, one("JH"), 30, 10, one("7S"), (one("7S"),)))
    assert (bot.opponent.offers, bot.opponent.takes) == (1, 1)
