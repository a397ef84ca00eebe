"""Cards, hands and tables as JSON values in game logs, and back.

A log holds pieces in canonical text (``10H``, ``*=7H``) so that it reads like the command line.
Reading a log back goes through the library's notation, so a mangled card is a one-line error.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from meldsat.cards import Piece, parse_piece
from meldsat.errors import NotationError
from meldsat.notation import Meld, Table
from meldsat.rules import RuleSet
from meldsat.table import judge_table

JsonTable = list[list[str]]


def pieces_json(pieces: Iterable[Piece], rules: RuleSet) -> list[str]:
    """Pieces as canonical text, in the order given."""
    return [piece.text(rules.notation) for piece in pieces]


def table_json(table: Sequence[Sequence[Piece]], rules: RuleSet) -> JsonTable:
    """A table as a list of melds of canonical text."""
    return [pieces_json(meld, rules) for meld in table]


def read_pieces(value: Any, rules: RuleSet, what: str) -> Meld:
    """Pieces from a JSON list of card texts; anything else is a :class:`NotationError`."""
    if not isinstance(value, list) or not all(isinstance(token, str) for token in value):
        raise NotationError(f"'{what}' must be a list of cards")
    return tuple(parse_piece(token, rules.notation) for token in value)


def read_melds(value: Any, rules: RuleSet, what: str) -> Table:
    """Melds from a JSON list of melds, each as written."""
    if not isinstance(value, list):
        raise NotationError(f"'{what}' must be a list of melds")
    return tuple(read_pieces(meld, rules, what) for meld in value)


def read_table(value: Any, rules: RuleSet, what: str) -> Table:
    """A table from a JSON list of melds, each meld in the meld checker's canonical order."""
    return canonical_table(read_melds(value, rules, what), rules)


def canonical_table(melds: Sequence[Sequence[Piece]], rules: RuleSet) -> Table:
    """Each meld in the meld checker's order (illegal melds sorted); the melds as given."""
    return tuple(verdict.pieces for verdict in judge_table(melds, rules).melds)
