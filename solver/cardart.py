"""Cards and tiles drawn as SVG, shared by the puzzle sheet and the web page.

Every drawing is a self-contained ``<svg>`` element (no fonts or images fetched from anywhere), so a
page can inline it and print it. Playing cards show their rank and suit symbol in the corners and a
large symbol in the middle, hearts and diamonds in red; Rummikub tiles show their number in their
colour. A joker shows a star and, once declared, the card it stands for (``= 7♥``), so a reader of a
solved table sees every joker's card.

The drawing is plain text built from escaped values: nothing a user typed reaches the markup raw.
Colours and sizes come from the CSS classes below (``CARD_CSS``), so a page can restyle them.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from meldsat.cards import (
    COLOUR_NAMES,
    RANK_NAMES,
    SUIT_SYMBOLS,
    Card,
    Joker,
    Notation,
    Piece,
)

#: The drawing's own coordinate box; pages scale it with CSS (``.card { width: … }``).
CARD_WIDTH = 60
CARD_HEIGHT = 84

_RED_SUITS = frozenset({1, 2})  # hearts, diamonds
_TILE_COLOURS = ("#1b1b1b", "#1457c2", "#d66a00", "#c8102e")  # black, blue, orange, red

#: Styles for the classes the drawings use. Pages include it once in a ``<style>`` element.
CARD_CSS = """
svg.card { width: 3.2em; height: auto; vertical-align: middle; }
svg.card .face { fill: #fff; stroke: #555; stroke-width: 1.2; }
svg.card .black { fill: #1b1b1b; }
svg.card .red { fill: #c8102e; }
svg.card .joker-star { fill: #7a3db8; }
svg.card .joker-word { fill: #7a3db8; font-size: 9px; letter-spacing: 0.5px; }
svg.card text { font-family: 'DejaVu Sans', 'Segoe UI Symbol', 'Arial', sans-serif;
                font-weight: 600; }
svg.card.highlight .face { stroke: #e0a100; stroke-width: 4; }
svg.card.new .face { fill: #f3fbf1; }
@media print { svg.card .face { stroke: #000; } }
""".strip()


def piece_label(piece: Piece, notation: Notation = Notation.CARDS) -> str:
    """A short human label for a piece, with suit symbols: ``10♥``, ``r7``, ``joker = 7♥``."""
    if isinstance(piece, Joker):
        if piece.declared is None:
            return "joker"
        return f"joker = {_card_label(piece.declared, notation)}"
    return _card_label(piece, notation)


def _card_label(card: Card, notation: Notation) -> str:
    if notation is Notation.TILES:
        return f"{COLOUR_NAMES[card.suit]} {card.rank}"
    return f"{RANK_NAMES[card.rank - 1]}{SUIT_SYMBOLS[card.suit]}"


def card_svg(
    piece: Piece,
    notation: Notation = Notation.CARDS,
    *,
    classes: Iterable[str] = (),
    attributes: dict[str, str] | None = None,
) -> str:
    """One piece as an inline ``<svg>`` element.

    ``classes`` are added to the element's ``class`` (``card`` is always there; ``highlight`` and
    ``new`` have styles in ``CARD_CSS``); ``attributes`` are extra attributes such as
    ``data-card``, escaped here. The element carries ``role="img"`` and an ``aria-label``.
    """
    class_text = " ".join(["card", *classes])
    extra = "".join(
        f' {escape(name)}="{escape(value, quote=True)}"'
        for name, value in (attributes or {}).items()
    )
    label = escape(piece_label(piece, notation), quote=True)
    body = _joker_body(piece, notation) if isinstance(piece, Joker) else _card_body(piece, notation)
    return (
        f'<svg class="{escape(class_text, quote=True)}" viewBox="0 0 {CARD_WIDTH} {CARD_HEIGHT}"'
        f' xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{label}"{extra}>'
        f"<title>{label}</title>"
        f'<rect class="face" x="1" y="1" width="{CARD_WIDTH - 2}" height="{CARD_HEIGHT - 2}"'
        f' rx="6" ry="6"/>{body}</svg>'
    )


def _card_body(card: Card, notation: Notation) -> str:
    if notation is Notation.TILES:
        colour = _TILE_COLOURS[card.suit]
        return (
            f'<text x="30" y="52" text-anchor="middle" font-size="30" fill="{colour}">'
            f"{card.rank}</text>"
            f'<circle cx="30" cy="68" r="4" fill="{colour}"/>'
        )
    rank = RANK_NAMES[card.rank - 1]
    suit = SUIT_SYMBOLS[card.suit]
    tone = "red" if card.suit in _RED_SUITS else "black"
    return (
        f'<text class="{tone}" x="6" y="19" font-size="15">{rank}</text>'
        f'<text class="{tone}" x="6" y="33" font-size="13">{suit}</text>'
        f'<text class="{tone}" x="34" y="64" text-anchor="middle" font-size="30">{suit}</text>'
    )


def _joker_body(joker: Joker, notation: Notation) -> str:
    star = '<text class="joker-star" x="30" y="42" text-anchor="middle" font-size="26">★</text>'
    word = '<text class="joker-word" x="30" y="18" text-anchor="middle">JOKER</text>'
    if joker.declared is None:
        return f"{star}{word}"
    declared = joker.declared
    if notation is Notation.TILES:
        colour = _TILE_COLOURS[declared.suit]
        name = f'<tspan fill="{colour}">{declared.rank}</tspan>'
    else:
        tone = "red" if declared.suit in _RED_SUITS else "black"
        text = f"{RANK_NAMES[declared.rank - 1]}{SUIT_SYMBOLS[declared.suit]}"
        name = f'<tspan class="{tone}">{text}</tspan>'
    return f'{star}{word}<text x="30" y="70" text-anchor="middle" font-size="14">= {name}</text>'


def meld_svg(
    pieces: Iterable[Piece],
    notation: Notation = Notation.CARDS,
    *,
    classes: Iterable[str] = (),
) -> str:
    """A meld as a row of cards inside ``<span class="meld">``; a page lays the rows out."""
    cards = "".join(card_svg(piece, notation) for piece in pieces)
    class_text = " ".join(["meld", *classes])
    return f'<span class="{escape(class_text, quote=True)}">{cards}</span>'


__all__ = ["CARD_CSS", "CARD_HEIGHT", "CARD_WIDTH", "card_svg", "meld_svg", "piece_label"]
