"""Melds, tables and hands as text: separators, leniency on input, canonical output, round trips."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldsat import (
    Card,
    Joker,
    NotationError,
    format_pieces,
    format_table,
    parse_hand,
    parse_pieces,
    parse_table,
)
from meldsat.cards import Notation, Piece
from meldsat.notation import sort_pieces
from tests.strategies_notation import cards, pieces

TILES = Notation.TILES

C7, C8, C9 = Card(7, 1), Card(8, 1), Card(9, 1)  # 7H 8H 9H


def test_meld_with_spaces_or_commas() -> None:
    expected = (C7, C8, C9)
    assert parse_pieces("7H 8H 9H") == expected
    assert parse_pieces("7H,8H,9H") == expected
    assert parse_pieces(" 7h , 8h\t9h ") == expected
    assert parse_pieces("") == ()


def test_meld_keeps_the_order_given() -> None:
    assert parse_pieces("9H 7H 8H") == (C9, C7, C8)


@pytest.mark.parametrize(
    "text",
    [
        "7H 8H 9H | QS QH QD | *=5C 6C 7C",
        "7H 8H 9H; QS QH QD; *=5C 6C 7C",
        "7H 8H 9H\nQS QH QD\n*=5C 6C 7C",
        "7H,8H,9H|QS,QH,QD|*=5C,6C,7C",
        "\n7H 8H 9H ||\n QS QH QD ;\n\n*=5C 6C 7C |\n",
        "7h 8h 9h | qs qh qd | *=5c 6c 7c",
        "7♥ 8♥ 9♥ | Q♠ Q♥ Q♦ | JK=5♣ 6♣ 7♣",
    ],
)
def test_table_separators(text: str) -> None:
    assert parse_table(text) == [
        (C7, C8, C9),
        (Card(12, 0), Card(12, 1), Card(12, 2)),
        (Joker(Card(5, 3)), Card(6, 3), Card(7, 3)),
    ]


def test_empty_table() -> None:
    assert parse_table("") == []
    assert parse_table(" | ; \n ") == []


def test_rummikub_table() -> None:
    table = parse_table("k5 b5 o5 r5 | j=r7 r8 r9\nb1 b2 b3", TILES)
    assert table == [
        (Card(5, 0), Card(5, 1), Card(5, 2), Card(5, 3)),
        (Joker(Card(7, 3)), Card(8, 3), Card(9, 3)),
        (Card(1, 1), Card(2, 1), Card(3, 1)),
    ]
    assert format_table(table, TILES) == "k5 b5 o5 r5 | j=r7 r8 r9 | b1 b2 b3"


def test_hand_is_sorted_and_takes_any_separator() -> None:
    expected = (Card(5, 1), Card(6, 1), Card(13, 0), Joker())
    assert parse_hand("5H 6H KS *") == expected
    assert parse_hand("* KS 6H 5H") == expected
    assert parse_hand("KS | 5H; *\n6H") == expected
    assert parse_hand("") == ()
    assert parse_hand("j k5 b1", TILES) == (Card(1, 1), Card(5, 0), Joker())


def test_hand_joker_may_not_be_declared() -> None:
    with pytest.raises(NotationError, match=r"'\*=7H'.*in the hand"):
        parse_hand("5H *=7H")
    with pytest.raises(NotationError, match="'j=r7'"):
        parse_hand("r5 j=r7", TILES)


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("7H 8H 9X", "9X"),
        ("7H 8H | QS QQ QD", "QQ"),
        ("7H 8H k9", "k9"),
        ("*=7H *=", "*="),
        ("5H * = 7H", "="),  # no spaces around '=' inside a meld
    ],
)
def test_bad_token_in_table_is_named(text: str, quoted: str) -> None:
    with pytest.raises(NotationError) as error:
        parse_table(text)
    assert f"'{quoted}'" in str(error.value)


def test_bad_token_in_tile_table_is_named() -> None:
    with pytest.raises(NotationError, match="'7H'"):
        parse_table("r5 r6 r7 | 7H", TILES)


def test_format_keeps_order_and_is_canonical() -> None:
    meld = parse_pieces("th jh qh *=kh")
    assert format_pieces(meld) == "10H JH QH *=KH"
    assert format_table([meld, parse_pieces("as ad ac")]) == "10H JH QH *=KH | AS AD AC"
    assert format_table([]) == ""


def test_sort_pieces() -> None:
    assert sort_pieces(parse_pieces("* KS 5H *=5H 5S")) == parse_pieces("5S 5H *=5H KS *")


melds = st.lists(pieces(), min_size=1, max_size=14).map(tuple)
notations = st.sampled_from(list(Notation))


@settings(deadline=None)
@given(melds, notations)
def test_meld_round_trip(meld: tuple[Piece, ...], notation: Notation) -> None:
    text = format_pieces(meld, notation)
    assert parse_pieces(text, notation) == meld
    assert parse_pieces(text.swapcase(), notation) == meld
    assert parse_pieces(text.replace(" ", ","), notation) == meld


@settings(deadline=None)
@given(st.lists(melds, max_size=8), notations)
def test_table_round_trip(table: list[tuple[Piece, ...]], notation: Notation) -> None:
    text = format_table(table, notation)
    assert parse_table(text, notation) == table
    for separator in (";", "\n"):
        assert parse_table(text.replace(" | ", separator), notation) == table


@settings(deadline=None)
@given(st.lists(st.one_of(cards(), st.just(Joker())), max_size=20), notations)
def test_hand_round_trip(hand: list[Piece], notation: Notation) -> None:
    parsed = parse_hand(format_pieces(hand, notation), notation)
    assert sorted(parsed, key=str) == sorted(hand, key=str)
    assert parse_hand(format_pieces(parsed, notation), notation) == parsed


@settings(deadline=None)
@given(st.text(alphabet="|;,\n *=jkborJKHSDCQAT0123456789♠²", max_size=30), notations)
def test_fuzzed_tables_raise_only_notation_errors(text: str, notation: Notation) -> None:
    try:
        table = parse_table(text, notation)
    except NotationError:
        return
    assert parse_table(format_table(table, notation), notation) == table
