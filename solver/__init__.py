"""meldsat: exact analysis of rummy melds.

The library API: parse a position (``read_position``), check melds and turns (``judge_meld``,
``check_move``), and find the best play (``best_play``, which loads OR-Tools on first use).
"""

from typing import TYPE_CHECKING

from meldsat.cards import Card, Joker, Notation, Piece, parse_card, parse_piece
from meldsat.errors import (
    AmbiguousJokerError,
    ImpossiblePositionError,
    MeldsatError,
    NotationError,
    RulesError,
    UnsupportedError,
)
from meldsat.melds import MeldKind, MeldVerdict, is_legal_meld, judge_meld
from meldsat.moves import MoveVerdict, Reason, ReasonCode, check_move
from meldsat.notation import (
    Meld,
    Pieces,
    Table,
    format_pieces,
    format_table,
    parse_hand,
    parse_pieces,
    parse_table,
)
from meldsat.play import Objective, Play, Status
from meldsat.position import Position, load_position, read_position
from meldsat.rules import RuleSet
from meldsat.rulesets import PRESETS, RULE_SET_NAMES, get_rules
from meldsat.table import TableVerdict, copy_problems, judge_table

if TYPE_CHECKING:
    from meldsat.engine.search import best_play

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    # The engine imports OR-Tools (a large import): load it only when a caller asks for it, so
    # that parsing and checking stay quick to start.
    if name == "best_play":
        from meldsat.engine.search import best_play

        return best_play
    raise AttributeError(f"module 'meldsat' has no attribute '{name}'")


__all__ = [
    "PRESETS",
    "RULE_SET_NAMES",
    "AmbiguousJokerError",
    "Card",
    "ImpossiblePositionError",
    "Joker",
    "Meld",
    "MeldKind",
    "MeldVerdict",
    "MeldsatError",
    "MoveVerdict",
    "Notation",
    "NotationError",
    "Objective",
    "Piece",
    "Pieces",
    "Play",
    "Position",
    "Reason",
    "ReasonCode",
    "RuleSet",
    "RulesError",
    "Status",
    "Table",
    "TableVerdict",
    "UnsupportedError",
    "__version__",
    "best_play",
    "check_move",
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
