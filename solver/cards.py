"""Cards, Rummikub tiles and jokers, with their notations.

A playing card and a Rummikub tile are the same thing to the engine: a rank 1-13 and one of four
suits (colours). Only the notation differs, so one ``Card`` type serves both and the rule set says
which notation to read and write.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from meldsat.errors import NotationError, quote, require_text


class Notation(enum.Enum):
    """How pieces are written: playing cards (``10H``) or Rummikub tiles (``r10``)."""

    CARDS = "cards"
    TILES = "tiles"


SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
COLOUR_LETTERS = "kbor"
COLOUR_NAMES = ("black", "blue", "orange", "red")
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANK_BY_NAME = {name: rank for rank, name in enumerate(RANK_NAMES, start=1)}
_RANK_BY_NAME["T"] = 10
_RANK_BY_NAME["1"] = 1
_SUIT_BY_TOKEN = {letter: suit for suit, letter in enumerate(SUIT_LETTERS)}
_SUIT_BY_TOKEN.update({symbol: suit for suit, symbol in enumerate(SUIT_SYMBOLS)})
# Symbols sometimes arrive in their "white" or emoji-variant forms; accept those too.
_SUIT_BY_TOKEN.update({"♤": 0, "♡": 1, "♢": 2, "♧": 3})
_JOKER_TOKENS = {"*", "JK", "JOKER"}


@dataclass(frozen=True, order=True)
class Card:
    """A real card (or tile): ``rank`` 1 (ace) to 13 (king), ``suit`` 0-3 (S H D C or k b o r)."""

    rank: int
    suit: int

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13 or not 0 <= self.suit <= 3:
            raise NotationError(f"no such card: rank {self.rank}, suit {self.suit}")

    def __hash__(self) -> int:
        # Cheaper than the generated hash of a (rank, suit) tuple; the engine hashes cards a lot.
        return self.suit * 16 + self.rank

    def text(self, notation: Notation = Notation.CARDS) -> str:
        """The canonical notation of this card: ``10H`` for cards, ``r10`` for tiles."""
        if notation is Notation.TILES:
            return f"{COLOUR_LETTERS[self.suit]}{self.rank}"
        return f"{RANK_NAMES[self.rank - 1]}{SUIT_LETTERS[self.suit]}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        # Notation you can paste back, as python-chess prints moves and boards.
        return f"Card.parse({self.text()!r})"

    @classmethod
    def parse(cls, token: str, notation: Notation = Notation.CARDS) -> Card:
        """Read one card (``10H``, ``Q♠``) or, with ``Notation.TILES``, one tile (``r7``)."""
        return parse_card(token, notation)


@dataclass(frozen=True, order=True)
class Joker:
    """A joker; ``declared`` is the card it stands for, or ``None`` while it is still wild."""

    declared: Card | None = None

    def text(self, notation: Notation = Notation.CARDS) -> str:
        """``*`` or ``*=7H`` for cards, ``j`` or ``j=r7`` for tiles."""
        mark = "j" if notation is Notation.TILES else "*"
        if self.declared is None:
            return mark
        return f"{mark}={self.declared.text(notation)}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Joker.parse({self.text()!r})"

    @classmethod
    def parse(cls, token: str, notation: Notation = Notation.CARDS) -> Joker:
        """Read a joker: ``*``, ``JK`` or declared ``*=7H`` (``j``, ``j=r7`` for tiles)."""
        piece = parse_piece(token, notation)
        if not isinstance(piece, Joker):
            raise NotationError(f"'{token}' is a card, not a joker")
        return piece


Piece = Card | Joker


_PIECE_TYPES = (Card, Joker)


def require_pieces(value: object, argument: str) -> tuple[Piece, ...]:
    """``value`` as a tuple of pieces, or a ``TypeError`` naming ``argument``.

    The library's checks of its callers' arguments: a string or anything holding other than
    :class:`Card` and :class:`Joker` values is refused at once, not deep inside the engine.
    """
    pieces: tuple[Any, ...]
    if isinstance(value, tuple):  # the common case, without the slower Iterable test
        pieces = value if type(value) is tuple else tuple(value)
    elif isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise TypeError(f"{argument} must be a sequence of Card and Joker values")
    else:
        pieces = tuple(value)
    if not all(isinstance(piece, _PIECE_TYPES) for piece in pieces):
        raise TypeError(f"{argument} must hold only Card and Joker values")
    return pieces


def require_melds(value: object, argument: str) -> tuple[tuple[Piece, ...], ...]:
    """``value`` as a tuple of melds (each a tuple of pieces), or a ``TypeError``."""
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise TypeError(f"{argument} must be a sequence of melds")
    return tuple(require_pieces(meld, f"each meld of {argument}") for meld in value)


# Any joker, undeclared: what every joker is physically, whatever card it stands for.
WILD_JOKER = Joker()


def piece_identity(piece: Piece) -> Piece:
    """The physical piece: a real card as it is, any joker as :data:`WILD_JOKER`.

    Jokers are interchangeable, so two pieces are the same piece exactly when their identities
    are equal; this is how pieces are matched between a hand, a table before and a table after.
    """
    return WILD_JOKER if isinstance(piece, Joker) else piece


def count_pieces(pieces: Iterable[Piece]) -> Counter[Piece]:
    """How many of each physical piece (see :func:`piece_identity`): jokers under WILD_JOKER."""
    return Counter(map(piece_identity, pieces))


# Every card once, so hot loops can look a card up instead of building (and validating) it anew.
_CARD_TABLE = tuple(tuple(Card(rank, suit) for rank in range(1, 14)) for suit in range(4))
ALL_CARDS: tuple[Card, ...] = tuple(card for row in _CARD_TABLE for card in row)


def card_pool(copies: int) -> Counter[Card]:
    """``copies`` of every card (the real cards of a game's decks), rank by rank, suits in order
    within a rank: the order random draws from the pool follow."""
    return Counter({card_of(rank, suit): copies for rank in range(1, 14) for suit in range(4)})


def card_of(rank: int, suit: int) -> Card:
    """The card of ``rank`` (1-13) and ``suit`` (0-3), without building a new object."""
    return _CARD_TABLE[suit][rank - 1]


def represented_card(piece: Piece) -> Card | None:
    """The card a piece stands for on the table: itself, a joker's declaration, or ``None``."""
    if isinstance(piece, Joker):
        return piece.declared
    return piece


def piece_sort_key(piece: Piece) -> tuple[int, int, int]:
    """Order real cards by rank then suit, declared jokers beside their card, wild jokers last."""
    if isinstance(piece, Card):
        return (piece.rank, piece.suit, 0)
    if piece.declared is None:
        return (99, 99, 1)
    return (piece.declared.rank, piece.declared.suit, 1)


def parse_card(token: str, notation: Notation = Notation.CARDS) -> Card:
    """Read one real card (``10H``, ``th``, ``Q♠``) or tile (``r7``, ``K13``)."""
    require_text(token, "token")
    # Emoji presentation (Q♠️) adds an invisible variation selector after the suit symbol.
    text = token.strip().replace("\ufe0f", "").replace("\ufe0e", "")
    if notation is Notation.TILES:
        return _parse_tile(text, token)
    upper = text.upper()
    if len(upper) < 2 or upper[-1] not in _SUIT_BY_TOKEN:
        raise NotationError(
            f"unknown card {quote(token)} (expected rank then suit, like 10H or Q♠)"
        )
    rank = _RANK_BY_NAME.get(upper[:-1])
    if rank is None:
        raise NotationError(f"unknown card {quote(token)} (rank must be A, 2-10, T, J, Q or K)")
    return Card(rank, _SUIT_BY_TOKEN[upper[-1]])


def _parse_tile(text: str, token: str) -> Card:
    lower = text.lower()
    # isdigit() alone accepts "²" and other digits that int() cannot read; only 0-9 may follow,
    # and at most two of them (int() of thousands of digits is slow, then refused).
    digits = lower[1:]
    if (
        len(lower) < 2
        or lower[0] not in COLOUR_LETTERS
        or not (digits.isascii() and digits.isdigit())
        or len(digits) > 2
    ):
        raise NotationError(
            f"unknown tile {quote(token)} (expected colour k, b, o or r then 1-13, like r7)"
        )
    number = int(lower[1:])
    if not 1 <= number <= 13:
        raise NotationError(f"unknown tile {quote(token)} (numbers run from 1 to 13)")
    return Card(number, COLOUR_LETTERS.index(lower[0]))


# Tokens read before, by (token, notation): batches read the same few hundred tokens again and
# again, and pieces are immutable. Bounded, as a long batch of odd spellings must not grow it.
_READ: dict[tuple[str, Notation], Piece] = {}
_READ_LIMIT = 4096


def parse_piece(token: str, notation: Notation = Notation.CARDS) -> Piece:
    """Read a card, tile or joker (``*``, ``JK``, ``*=7H``; ``j``, ``j=r7`` for tiles)."""
    if type(token) is str:
        known = _READ.get((token, notation))
        if known is not None:
            return known
    piece = _parse_piece(token, notation)
    if len(_READ) < _READ_LIMIT:
        _READ[token, notation] = piece
    return piece


def _parse_piece(token: str, notation: Notation) -> Piece:
    require_text(token, "token")
    text = token.strip()
    if not text:
        raise NotationError("empty card token")
    head, equals, declared = text.partition("=")
    head_upper = head.strip().upper()
    is_joker = head_upper in _JOKER_TOKENS or (notation is Notation.TILES and head_upper == "J")
    if is_joker:
        if not equals:
            return Joker()
        if not declared.strip():
            raise NotationError(f"joker {quote(token)} has '=' but no card after it")
        return Joker(parse_card(declared, notation))
    if equals:
        raise NotationError(f"unknown joker {quote(token)} (write a joker as * or *=7H)")
    return parse_card(text, notation)
