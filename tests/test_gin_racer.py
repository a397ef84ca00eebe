"""The ``racer`` gin bot: decisions on small constructed hands, and whole seeded games played
legally and the same way twice (its strength is measured in benchmarks/, not here)."""

from __future__ import annotations

import random

from meldsat.cards import Card
from meldsat.games.agents import GinDiscard, GinView
from meldsat.games.gin_racer import RacerGinBot, feed_risk, hand_score, meld_pairs
from meldsat.gin.bits import card_bit, cards_mask
from meldsat.notation import parse_pieces
from meldsat.rulesets import get_rules
from tests.conftest import simulated_twice

GIN = get_rules("gin")


def cards(text: str) -> tuple[Card, ...]:
    pieces = parse_pieces(text)
    assert all(isinstance(piece, Card) for piece in pieces)
    return tuple(piece for piece in pieces if isinstance(piece, Card))


def one(text: str) -> Card:
    return cards(text)[0]


def view(hand: str, upcard: str, seen: str = "") -> GinView:
    return GinView(GIN, 0, cards(hand), one(upcard), 31, 10, None, cards(seen))


def test_the_pairs_that_meld_with_a_card_are_the_groups_and_the_sequences() -> None:
    pairs = {frozenset(map(str, pair)) for pair in meld_pairs(one("7H"))}
    assert frozenset({"6H", "8H"}) in pairs
    assert frozenset({"8H", "9H"}) in pairs
    assert frozenset({"7S", "7C"}) in pairs
    assert frozenset({"6H", "8S"}) not in pairs
    # Three pairs of the other sevens and three sequences: 5-6, 6-8, 8-9 of hearts.
    assert len(pairs) == 6
    assert len(meld_pairs(one("AS"))) == 3 + 1  # only 2S 3S above it


def test_a_card_next_to_what_the_opponent_took_feeds_it_and_a_refused_pair_does_not() -> None:
    held = {one("8H"): 1.0, one("9H"): 1.0}
    assert feed_risk(one("7H"), held) == 1.0
    assert feed_risk(one("7S"), held) == 0.0
    # Had it held 8H 9H, it would have taken the 10H it refused: the pair is taken as not held.
    assert feed_risk(one("7H"), held, refused=cards("10H")) == 0.0


def test_a_hand_with_live_ways_to_meld_is_worth_more_for_the_next_draw() -> None:
    melded = "AS 2S 3S 4D 5D 6D"
    unseen = [card_bit(card) for card in cards("9H 10H 5C 6C 8C JS QS KS JD QD")]
    connected = cards_mask(cards(f"{melded} 7H 8H 2C 3C"))
    apart = cards_mask(cards(f"{melded} 7H 9C 2C 4H"))
    # The same deadwood (20), but 9H and 10H meld with 7H 8H, nothing with 7H 9C.
    assert hand_score(connected, unseen, 10) < hand_score(apart, unseen, 10)


def test_it_knocks_as_soon_as_it_may_and_ends_big_gin_without_a_discard() -> None:
    bot = RacerGinBot("racer", random.Random(1))
    knock = view("AS 2S 3S 4H 5H 6H 7D 8D 9D KC", "QH", seen="JH")
    assert bot.finish_turn(knock, one("3C"), took_upcard=False) == GinDiscard(one("KC"), True)
    big = view("AS 2S 3S 4H 5H 6H 7D 8D 9D 10D", "KH", seen="QH")
    ending = RacerGinBot("racer", random.Random(1)).finish_turn(big, one("JD"), False)
    assert ending == GinDiscard(None, knock=True)


def test_it_takes_an_upcard_that_allows_a_knock() -> None:
    bot = RacerGinBot("racer", random.Random(1))
    assert bot.take_upcard(view("AS 2S 3S 4H 5H 6H 7D 8D KC QC", "9D", seen="JH"))


def test_the_same_seed_plays_the_same_legal_games() -> None:
    first, second = simulated_twice("gin", ["racer", "knocker"], 2, 23)
    assert first == second
    assert [event["event"] for event in first].count("game_end") == 2


def test_a_new_hand_is_told_from_the_last_even_when_the_stock_is_no_fuller() -> None:
    # Hollywood plays hand after hand with the same bots: here the last hand ended after the
    # bot took the first upcard (the stock still 31) and threw a card the new hand deals it.
    bot = RacerGinBot("racer", random.Random(1))
    hand = cards("AS 2S 5H 6H 9D 10D QC KC 3D 8C")
    bot.take_upcard(GinView(GIN, 0, hand, one("7S"), 31, 10, one("7S"), ()))
    thrown = bot.finish_turn(
        GinView(GIN, 0, hand, one("7S"), 31, 10, one("7S"), ()), one("7S"), True
    )
    assert thrown.discard is not None
    dealt = (thrown.discard, *cards("KD 4S 4H 6C 7C 8D JH QH 2D"))
    # The opponent's turn would have made the pile (7S-less) one card longer: this is a new deal.
    bot.take_upcard(GinView(GIN, 0, dealt, one("5S"), 31, 10, one("5S"), ()))
    assert not bot.opponent.holds
