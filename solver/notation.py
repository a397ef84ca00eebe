"""Reading and writing melds, tables and hands in the notation of docs/NOTATION.md.

Cards are separated by spaces or commas; melds by ``|``, ``;`` or new lines. Reading is
case-insensitive and lenient; writing is canonical, and what is written reads back to itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NewType

from meldsat.cards import (
    Joker,
    Notation,
    Piece,
    parse_piece,
    piece_sort_key,
    require_melds,
    require_pieces,
)
from meldsat.errors import NotationError, require_text

Meld = tuple[Piece, ...]
Table = tuple[Meld, ...]
# A hand, or the pieces played from it: a multiset of pieces kept in canonical order (made only by
# sort_pieces). Unlike a Meld its order carries nothing, and its jokers are wild.
Pieces = NewType("Pieces", tuple[Piece, ...])

_MELD_SEPARATORS = re.compile(r"[|;\n]")
# Meld separators also separate cards, so a hand or a flat list may be written like a table.
_CARD_SEPARATORS = re.compile(r"[\s,|;]+")


def parse_pieces(text: str, notation: Notation = Notation.CARDS) -> Meld:
    """Read cards separated by spaces or commas (``"5H 6H *=7H"``; ``|`` and ``;`` count too)."""
    require_text(text, "text")
    tokens = [token for token in _CARD_SEPARATORS.split(text.strip()) if token]
    return tuple(parse_piece(token, notation) for token in tokens)


def parse_table(text: str, notation: Notation = Notation.CARDS) -> list[Meld]:
    """Read a table: melds separated by ``|``, ``;`` or new lines. Empty text is an empty table."""
    require_text(text, "text")
    melds = [parse_pieces(chunk, notation) for chunk in _MELD_SEPARATORS.split(text)]
    return [meld for meld in melds if meld]


def parse_hand(text: str, notation: Notation = Notation.CARDS) -> Pieces:
    """Read a hand. Jokers in a hand are wild, so a declared joker there is an error."""
    hand = parse_pieces(text, notation)
    check_hand_jokers(hand, notation)
    return sort_pieces(hand)


def check_hand_jokers(hand: Iterable[Piece], notation: Notation) -> None:
    """Reject declared jokers in a hand: a joker only takes a card when it is played."""
    for piece in hand:
        if isinstance(piece, Joker) and piece.declared is not None:
            raise NotationError(
                f"joker '{piece.text(notation)}' in the hand: a joker in hand is not declared "
                f"(write {Joker().text(notation)})"
            )


def sort_pieces(pieces: Iterable[Piece]) -> Pieces:
    """Pieces in canonical order: by rank, then suit, wild jokers last."""
    return Pieces(tuple(sorted(pieces, key=piece_sort_key)))


def format_pieces(pieces: Sequence[Piece], notation: Notation = Notation.CARDS) -> str:
    """Pieces in the order given, separated by spaces."""
    return " ".join(piece.text(notation) for piece in require_pieces(pieces, "pieces"))


def format_table(table: Sequence[Sequence[Piece]], notation: Notation = Notation.CARDS) -> str:
    """A table as text, melds separated by `` | ``."""
    return " | ".join(format_pieces(meld, notation) for meld in require_melds(table, "table"))
