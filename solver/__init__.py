"""meldsat: exact analysis of rummy melds.

The library API: parse a position, check melds and turns, and (with the engine) find the best play.
"""

from solver.cards import Card, Joker, Notation, Piece, parse_card, parse_piece
from solver.errors import (
    AmbiguousJokerError,
    ImpossiblePositionError,
    MeldsatError,
    NotationError,
    RulesError,
    UnsupportedError,
)
from solver.melds import MeldKind, MeldVerdict, is_legal_meld, judge_meld
from solver.notation import format_pieces, format_table, parse_hand, parse_pieces, parse_table
from solver.position import Position, load_position, read_position
from solver.rules import PRESETS, RULE_SET_NAMES, RuleSet, get_rules
from solver.table import TableVerdict, copy_problems, judge_table

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "RULE_SET_NAMES",
    "AmbiguousJokerError",
    "Card",
    "ImpossiblePositionError",
    "Joker",
    "MeldKind",
    "MeldVerdict",
    "MeldsatError",
    "Notation",
    "NotationError",
    "Piece",
    "Position",
    "RuleSet",
    "RulesError",
    "TableVerdict",
    "UnsupportedError",
    "__version__",
    "copy_problems",
    "format_pieces",
    "format_table",
    "get_rules",
    "is_legal_meld",
    "judge_meld",
    "judge_table",
    "load_position",
    "parse_card",
    "parse_hand",
    "parse_piece",
    "parse_pieces",
    "parse_table",
    "read_position",
]
