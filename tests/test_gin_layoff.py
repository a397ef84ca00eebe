"""Layoffs after a knock: the exact search against the brute-force oracle, and settling a knock."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from meldsat.cards import Card
from meldsat.errors import MeldsatError
from meldsat.gin.layoff import best_layoff, settle_knock
from meldsat.melds import is_legal_meld
from meldsat.notation import parse_pieces, parse_table
from meldsat.rulesets import get_rules
from tests.gin_oracle import least_deadwood_after_layoff
from tests.gin_strategies import card_key, knock_positions

GIN = get_rules("gin")


def cards(text: str) -> list[Card]:
    return [piece for piece in parse_pieces(text) if isinstance(piece, Card)]


def melds(text: str) -> list[list[Card]]:
    return [[piece for piece in meld if isinstance(piece, Card)] for meld in parse_table(text)]


@settings(max_examples=60, deadline=None)
@given(knock_positions())
def test_layoff_deadwood_matches_the_oracle(position: tuple[list[list[Card]], list[Card]]) -> None:
    knocker, hand = position
    layoff = best_layoff(hand, [tuple(meld) for meld in knocker])
    expected = least_deadwood_after_layoff(
        frozenset(map(card_key, hand)), [map(card_key, meld) for meld in knocker]
    )
    assert layoff.arrangement.deadwood == expected
    # Every card laid off leaves its meld legal (by the rule checker), and nothing is lost.
    grown = [list(meld) for meld in knocker]
    for item in layoff.laid_off:
        grown[item.meld].append(item.card)
    assert all(is_legal_meld(meld, GIN) for meld in grown)
    kept = [card for meld in layoff.arrangement.melds for card in meld]
    laid = [item.card for item in layoff.laid_off]
    assert sorted([*kept, *layoff.arrangement.deadwood_cards, *laid]) == sorted(hand)


def test_layoff_extends_a_sequence_at_both_ends_and_completes_a_group() -> None:
    result = settle_knock(
        GIN,
        melds("5H 6H 7H | 9S 9D 9C | JC QC KC"),
        cards("2S"),
        cards("3H 4H 8H 9H AC AD AS 2D 3D 10C"),
    )
    assert result.defender.arrangement.deadwood == 2
    assert {item.card for item in result.defender.laid_off} == set(cards("3H 4H 8H 9H 10C"))
    assert result.score.kind == "undercut" and result.score.winner == "defender"
    assert result.score.points == 25


def test_no_layoff_after_gin() -> None:
    result = settle_knock(
        GIN,
        melds("5H 6H 7H | 9S 9D 9C | JC QC KC AC"[:0] + "5H 6H 7H 8H | 9S 9D 9C | JC QC KC"),
        [],
        cards("3H 4H 9H AC AD AS 2D 3D 10C 2C"),
    )
    assert result.defender.laid_off == ()
    assert result.score.kind == "gin"
    assert result.score.points == result.defender.arrangement.deadwood + 25


def test_knock_above_the_limit_and_short_knocker_hands_are_refused() -> None:
    with pytest.raises(MeldsatError, match="knock limit"):
        settle_knock(
            GIN,
            melds("5H 6H 7H | 9S 9D 9C"),
            cards("KS QS 2C 3C"),
            cards("3H 4H 8H 9H AC AD AS 2D 3D 10C"),
        )
    with pytest.raises(MeldsatError, match="knocker-deadwood"):
        settle_knock(GIN, melds("5H 6H 7H | 9S 9D 9C"), [], cards("3H 4H 8H 9H AC AD AS 2D 3D 10C"))
