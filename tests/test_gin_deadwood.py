"""Gin deadwood, discard and knock: the fast search against the oracle, and known hands."""

from __future__ import annotations

from hypothesis import given, settings

from meldsat.cards import Card
from meldsat.gin import Arrangement, analyse_hand, knock_limit, least_deadwood
from meldsat.melds import is_legal_meld
from meldsat.notation import parse_pieces
from meldsat.rulesets import get_rules
from tests.gin_oracle import least_deadwood as oracle_least_deadwood
from tests.gin_strategies import card_key, gin_cards

GIN = get_rules("gin")
OKLAHOMA = get_rules("oklahoma-gin")


def cards(text: str) -> list[Card]:
    return [piece for piece in parse_pieces(text) if isinstance(piece, Card)]


def oracle(hand: list[Card]) -> int:
    return oracle_least_deadwood(frozenset(map(card_key, hand)))


def assert_sound(arrangement: Arrangement, hand: list[Card]) -> None:
    """The melds are legal (by the rule checker), disjoint, and the deadwood is what is left."""
    melded = [card for meld in arrangement.melds for card in meld]
    assert all(is_legal_meld(meld, GIN) for meld in arrangement.melds)
    assert len(melded) == len(set(melded))
    assert sorted([*melded, *arrangement.deadwood_cards]) == sorted(hand)
    assert arrangement.deadwood == sum(GIN.card_value(card) for card in arrangement.deadwood_cards)


@settings(max_examples=150, deadline=None)
@given(gin_cards(10))
def test_ten_cards_least_deadwood_matches_the_oracle(hand: list[Card]) -> None:
    analysis = analyse_hand(hand, GIN)
    assert analysis.arrangement.deadwood == oracle(hand)
    assert_sound(analysis.arrangement, hand)
    assert analysis.gin == (analysis.arrangement.deadwood == 0)
    assert analysis.can_knock == (analysis.arrangement.deadwood <= 10)


@settings(max_examples=100, deadline=None)
@given(gin_cards(11))
def test_eleven_cards_weigh_every_discard_like_the_oracle(hand: list[Card]) -> None:
    analysis = analyse_hand(hand, GIN)
    after = {card: oracle([other for other in hand if other != card]) for card in hand}
    weighed = {option.discard: option.deadwood for option in analysis.discards}
    assert weighed == after
    assert analysis.discard is not None
    assert analysis.arrangement.deadwood == min(after.values()) == after[analysis.discard]
    assert_sound(analysis.arrangement, [card for card in hand if card != analysis.discard])
    assert analysis.big_gin == (oracle(hand) == 0)


def test_tied_meld_groups_do_not_hide_the_gin_discard() -> None:
    analysis = analyse_hand(cards("4S 5S 6S 3C 4C 5C 3D 4D 5D 6D 6H"), GIN)
    assert analysis.discard == Card(6, 1)
    assert analysis.arrangement.deadwood == 0
    assert analysis.gin and not analysis.big_gin and analysis.can_knock


def test_big_gin_melds_all_eleven_cards() -> None:
    analysis = analyse_hand(cards("AS 2S 3S 4S 7H 7D 7C 9C 10C JC QC"), GIN)
    assert analysis.big_gin and analysis.can_knock


def test_upcard_taken_may_not_be_discarded() -> None:
    hand = cards("4S 5S 6S 3C 4C 5C 3D 4D 5D 6D 6H")
    analysis = analyse_hand(hand, GIN, keep=Card(6, 1))
    assert analysis.discard != Card(6, 1)
    assert all(option.discard != Card(6, 1) for option in analysis.discards)


def test_oklahoma_knock_limit_is_the_first_upcard_and_an_ace_means_gin_only() -> None:
    assert knock_limit(OKLAHOMA, Card(7, 0)) == 7
    assert knock_limit(OKLAHOMA, Card(12, 2)) == 10
    assert knock_limit(OKLAHOMA, Card(1, 3)) == 0
    assert knock_limit(GIN, Card(3, 0)) == 10
    hand = cards("4S 5S 6S 3C 4C 5C 3D 4D 5D 2H")
    assert analyse_hand(hand, OKLAHOMA, first_upcard=Card(2, 0)).can_knock
    assert not analyse_hand(hand, OKLAHOMA, first_upcard=Card(1, 0)).can_knock


@settings(max_examples=50, deadline=None)
@given(gin_cards(10))
def test_quick_least_deadwood_agrees_with_the_full_analysis(hand: list[Card]) -> None:
    assert least_deadwood(hand) == analyse_hand(hand, GIN).arrangement.deadwood == oracle(hand)
