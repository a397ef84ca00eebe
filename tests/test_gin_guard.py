"""The ``guard`` gin bot: undercuts and hazards on small constructed hands, its imagined hands,
and whole seeded games played legally and the same way twice (its strength is measured in
benchmarks/, not here)."""

from __future__ import annotations

import random

from meldsat.games.agents import GinDiscard
from meldsat.games.gin_guard import GuardGinBot, knocker_wins
from meldsat.gin.bits import cards_mask, mask_cards, mask_value
from meldsat.gin.deadwood import DiscardOption, least_deadwood_mask
from tests.conftest import simulated_twice
from tests.test_gin_racer import GIN, cards, one, view

# The opponent's 10 cards: two melds, 7S 8S and two ten-point cards (35 deadwood). It knocks
# with 10 only on 6S or 9S (a third meld, KD discarded); the other cards here do not help it.
THEIRS = "AH 2H 3H 5C 5D 5S 7S 8S KD QD"
UNSEEN = "6S 9S 2D 3D 4D JC"
# Two melds and AS AC 2C, with 4H (which lays off on the knocker's AH 2H 3H) or KC.
MINE = "6H 7H 8H 9D 9C 9H AS AC 2C 4H KC"


def guard_told_their_hand() -> GuardGinBot:
    bot = GuardGinBot("guard", random.Random(1), rules=GIN)
    # Every card of its hand was taken from the pile: each imagined hand is exactly that.
    bot.opponent.holds = set(cards(THEIRS))
    return bot


def test_a_knock_wins_unless_the_defender_lays_off_down_to_its_deadwood() -> None:
    knocker = cards_mask(cards("AH 2H 3H 5C 5D 5S 7S 8S 9S QD"))
    # 4H lays off on AH 2H 3H: 4 deadwood (AS AC 2C) against 10, an undercut.
    assert not knocker_wins(GIN, knocker, cards_mask(cards("6H 7H 8H 9D 9C 9H AS AC 2C 4H")), None)
    # With KC instead: 14 against 10, the knock wins.
    assert knocker_wins(GIN, knocker, cards_mask(cards("6H 7H 8H 9D 9C 9H AS AC 2C KC")), None)


def test_the_hazard_is_the_chance_of_a_knock_the_kept_cards_do_not_undercut() -> None:
    bot = guard_told_their_hand()
    choices = [DiscardOption(one("KC"), 8), DiscardOption(one("4H"), 14)]
    keeps_4h, keeps_kc = bot.hazards(choices, cards_mask(cards(MINE)), cards(UNSEEN), 10)
    assert keeps_4h == 0.0
    # It draws from the stock at 2 in 3 (no upcard taken yet: the prior), 6S or 9S of 6 cards.
    assert abs(keeps_kc - (2 / 3) * (2 / 6)) < 1e-9


def test_imagined_hands_hold_the_known_cards_and_are_not_yet_knocking() -> None:
    bot = GuardGinBot("guard", random.Random(7), rules=GIN)
    bot.opponent.holds = set(cards("7S 8S"))
    unseen = [
        card
        for card in cards("AH 2H 3H 5C 5D 5S KD QD 6S 9S 2D 3D 4D JC JD JH 10C 10D 4S 4C")
        if card not in bot.opponent.holds
    ]
    hands = bot.imagined_hands(unseen, 10)
    assert hands
    known = cards_mask(bot.opponent.holds)
    for hand in hands:
        assert hand & known == known
        assert hand.bit_count() == 10
        assert set(mask_cards(hand)) <= {*unseen, *bot.opponent.holds}
        assert least_deadwood_mask(hand, mask_value(hand)) > 10
    # The same seed imagines the same hands.
    again = GuardGinBot("guard", random.Random(7), rules=GIN)
    again.opponent.holds = set(bot.opponent.holds)
    assert again.imagined_hands(unseen, 10) == hands


def test_it_knocks_as_soon_as_it_may_and_ends_big_gin_without_a_discard() -> None:
    bot = GuardGinBot("guard", random.Random(1))
    knock = view("AS 2S 3S 4H 5H 6H 7D 8D 9D KC", "QH", seen="JH")
    assert bot.finish_turn(knock, one("3C"), took_upcard=False) == GinDiscard(one("KC"), True)
    big = view("AS 2S 3S 4H 5H 6H 7D 8D 9D 10D", "KH", seen="QH")
    ending = GuardGinBot("guard", random.Random(1)).finish_turn(big, one("JD"), False)
    assert ending == GinDiscard(None, knock=True)


def test_the_same_seed_plays_the_same_legal_games() -> None:
    first, second = simulated_twice("gin", ["guard", "knocker"], 2, 23)
    assert first == second
    assert [event["event"] for event in first].count("game_end") == 2
