"""Cards, tiles and jokers: reading every accepted spelling, writing the canonical one."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldsat import Card, Joker, NotationError, parse_card, parse_piece
from meldsat.cards import Notation, Piece, piece_sort_key, represented_card
from tests.strategies_notation import cards, jokers, pieces

CARDS = Notation.CARDS
TILES = Notation.TILES


@pytest.mark.parametrize(
    ("token", "rank", "suit"),
    [
        ("10H", 10, 1),
        ("TH", 10, 1),
        ("th", 10, 1),
        ("10h", 10, 1),
        ("Q♠", 12, 0),
        ("q♠", 12, 0),
        ("Q♤", 12, 0),  # the "white" suit symbols are accepted too
        ("Q♠\ufe0f", 12, 0),  # emoji presentation: a variation selector after the symbol
        ("AS", 1, 0),
        ("as", 1, 0),
        ("1S", 1, 0),
        ("2D", 2, 2),
        ("9♦", 9, 2),
        ("JC", 11, 3),
        ("j♣", 11, 3),
        ("KH", 13, 1),
        ("k♥", 13, 1),
        ("  7c  ", 7, 3),
    ],
)
def test_card_spellings(token: str, rank: int, suit: int) -> None:
    assert parse_card(token) == Card(rank, suit)
    assert parse_piece(token) == Card(rank, suit)


@pytest.mark.parametrize(
    ("token", "rank", "colour"),
    [
        ("k5", 5, 0),
        ("b5", 5, 1),
        ("o5", 5, 2),
        ("r5", 5, 3),
        ("R13", 13, 3),
        ("K1", 1, 0),
        ("b10", 10, 1),
        (" o7 ", 7, 2),
    ],
)
def test_tile_spellings(token: str, rank: int, colour: int) -> None:
    assert parse_card(token, TILES) == Card(rank, colour)
    assert parse_piece(token, TILES) == Card(rank, colour)


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("*", Joker()),
        ("JK", Joker()),
        ("jk", Joker()),
        ("joker", Joker()),
        ("*=7H", Joker(Card(7, 1))),
        ("*=th", Joker(Card(10, 1))),
        ("JK=Q♠", Joker(Card(12, 0))),
        ("* = 7H", Joker(Card(7, 1))),
    ],
)
def test_card_jokers(token: str, expected: Joker) -> None:
    assert parse_piece(token) == expected


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("j", Joker()),
        ("J", Joker()),
        ("*", Joker()),
        ("jk", Joker()),
        ("j=r7", Joker(Card(7, 3))),
        ("J=K13", Joker(Card(13, 0))),
        ("*=b1", Joker(Card(1, 1))),
    ],
)
def test_tile_jokers(token: str, expected: Joker) -> None:
    assert parse_piece(token, TILES) == expected


@pytest.mark.parametrize(
    ("token", "quoted"),
    [
        ("11H", "11H"),
        ("1H0", "1H0"),
        ("ZH", "ZH"),
        ("7X", "7X"),
        ("H", "H"),
        ("7", "7"),
        ("J", "J"),  # a lone J is a jack without a suit in card notation, not a joker
        ("10", "10"),
        ("r7", "r7"),  # a tile is not a card
        ("♠Q", "♠Q"),
        ("１0H", "１0H"),  # a full-width digit
        ("*=", "*="),
        ("*=r7", "r7"),
        ("*=*", "*"),
        ("x=7H", "x=7H"),
        ("7H=8H", "7H=8H"),
        ("*=7H=8H", "7H=8H"),
    ],
)
def test_bad_card_tokens_are_named(token: str, quoted: str) -> None:
    with pytest.raises(NotationError) as error:
        parse_piece(token)
    assert f"'{quoted}'" in str(error.value)


@pytest.mark.parametrize(
    ("token", "quoted"),
    [
        ("r0", "r0"),
        ("r14", "r14"),
        ("x5", "x5"),
        ("7H", "7H"),
        ("KH", "KH"),
        ("r", "r"),
        ("5r", "5r"),
        ("r²", "r²"),  # str.isdigit() says yes, int() says no: must still be a NotationError
        ("r٧", "r٧"),  # an Arabic-Indic seven is not a tile number
        ("r-1", "r-1"),
        ("j=7H", "7H"),
        ("j=", "j="),
    ],
)
def test_bad_tile_tokens_are_named(token: str, quoted: str) -> None:
    with pytest.raises(NotationError) as error:
        parse_piece(token, TILES)
    assert f"'{quoted}'" in str(error.value)


def test_empty_token() -> None:
    with pytest.raises(NotationError, match="empty"):
        parse_piece("   ")


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError, match="'QQ'"):
        parse_card("QQ")


@pytest.mark.parametrize(("rank", "suit"), [(0, 0), (14, 0), (1, -1), (1, 4)])
def test_card_out_of_range(rank: int, suit: int) -> None:
    with pytest.raises(NotationError):
        Card(rank, suit)


def test_canonical_text() -> None:
    assert Card(10, 1).text() == "10H"
    assert str(Card(10, 1)) == "10H"
    assert Card(12, 0).text() == "QS"
    assert Card(1, 2).text() == "AD"
    assert Card(11, 3).text() == "JC"
    assert Card(10, 1).text(TILES) == "b10"
    assert Card(1, 0).text(TILES) == "k1"
    assert Card(13, 3).text(TILES) == "r13"
    assert Joker().text() == "*"
    assert Joker(Card(7, 1)).text() == "*=7H"
    assert str(Joker(Card(7, 1))) == "*=7H"
    assert Joker().text(TILES) == "j"
    assert Joker(Card(7, 3)).text(TILES) == "j=r7"


def test_repr_is_code() -> None:
    joker = Joker(Card(7, 1))
    assert eval(repr(joker), {"Joker": Joker, "Card": Card}) == joker


def test_represented_card() -> None:
    assert represented_card(Card(5, 2)) == Card(5, 2)
    assert represented_card(Joker(Card(5, 2))) == Card(5, 2)
    assert represented_card(Joker()) is None


def test_sort_key_puts_declared_jokers_beside_their_card_and_wild_jokers_last() -> None:
    pieces_in_order: list[Piece] = [Joker(), Card(13, 0), Joker(Card(5, 1)), Card(5, 1), Card(5, 0)]
    assert sorted(pieces_in_order, key=piece_sort_key) == [
        Card(5, 0),
        Card(5, 1),
        Joker(Card(5, 1)),
        Card(13, 0),
        Joker(),
    ]


@settings(deadline=None)
@given(cards(), st.sampled_from(list(Notation)))
def test_card_round_trip(card: Card, notation: Notation) -> None:
    text = card.text(notation)
    assert parse_card(text, notation) == card
    assert parse_piece(text, notation) == card
    # Reading is case-insensitive.
    assert parse_piece(text.lower(), notation) == card
    assert parse_piece(text.upper(), notation) == card


@settings(deadline=None)
@given(jokers(), st.sampled_from(list(Notation)))
def test_joker_round_trip(joker: Joker, notation: Notation) -> None:
    text = joker.text(notation)
    assert parse_piece(text, notation) == joker
    assert parse_piece(text.swapcase(), notation) == joker


@settings(deadline=None)
@given(pieces(), st.sampled_from(list(Notation)))
def test_canonical_text_is_a_fixed_point(piece: Piece, notation: Notation) -> None:
    text = piece.text(notation)
    assert parse_piece(text, notation).text(notation) == text


@settings(deadline=None)
@given(st.text(max_size=6), st.sampled_from(list(Notation)))
def test_fuzzed_tokens_raise_only_notation_errors(token: str, notation: Notation) -> None:
    try:
        piece = parse_piece(token, notation)
    except NotationError:
        return
    # Whatever was accepted prints as something that reads back to it.
    assert parse_piece(piece.text(notation), notation) == piece
