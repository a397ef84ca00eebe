"""The SVG card drawing shared by the puzzle sheet and the web page."""

from __future__ import annotations

from xml.etree import ElementTree

from meldsat import Notation, parse_piece, parse_pieces
from meldsat.cardart import card_svg, meld_svg, piece_label


def _text_of(svg: str) -> str:
    return "".join(ElementTree.fromstring(svg).itertext())


def test_a_card_is_well_formed_svg_with_rank_and_suit() -> None:
    svg = card_svg(parse_piece("10H"))
    root = ElementTree.fromstring(svg)
    assert root.tag.endswith("svg")
    assert root.get("aria-label") == "10♥"
    assert "10" in _text_of(svg)
    assert "♥" in _text_of(svg)


def test_hearts_and_diamonds_are_red_spades_and_clubs_black() -> None:
    assert 'class="red"' in card_svg(parse_piece("3D"))
    assert 'class="red"' not in card_svg(parse_piece("3C"))
    assert 'class="black"' in card_svg(parse_piece("3S"))


def test_a_declared_joker_shows_its_card() -> None:
    svg = card_svg(parse_piece("*=KH"))
    assert "JOKER" in _text_of(svg)
    assert "K♥" in _text_of(svg)
    assert piece_label(parse_piece("*=KH")) == "joker = K♥"
    assert piece_label(parse_piece("*")) == "joker"


def test_tiles_show_their_number_in_their_colour() -> None:
    svg = card_svg(parse_piece("o7", Notation.TILES), Notation.TILES)
    assert "7" in _text_of(svg)
    assert "#d66a00" in svg
    assert piece_label(parse_piece("j=o7", Notation.TILES), Notation.TILES) == "joker = orange 7"


def test_attributes_and_classes_are_escaped() -> None:
    svg = card_svg(parse_piece("QS"), classes=["highlight"], attributes={"data-note": '"><script>'})
    root = ElementTree.fromstring(svg)
    assert root.get("class") == "card highlight"
    assert root.get("data-note") == '"><script>'
    assert "<script>" not in svg


def test_a_meld_is_a_row_of_its_cards() -> None:
    html = meld_svg(parse_pieces("7H 8H 9H"), classes=["changed"])
    root = ElementTree.fromstring(html)
    assert root.get("class") == "meld changed"
    assert len(list(root)) == 3
