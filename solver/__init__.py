"""meldsat: exact analysis of rummy melds.

The library API: parse a position (``read_position``), check melds and turns (``judge_meld``,
``check_move``), and find the best play (``best_play``, which loads OR-Tools on first use).
"""

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from meldsat.cards import Card, Joker, Notation, Piece, parse_card, parse_piece
    from meldsat.engine.search import best_play
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

__version__ = "0.1.0"

# Where each name of the API lives. Nothing is imported until it is asked for: `import meldsat`
# (and so the `meldsat` command's start) stays instant, a Ctrl-C while the command line loads is
# caught by meldsat.cli.entry, and the engine's OR-Tools loads only when best_play is used.
_HOMES = {
    "Card": "meldsat.cards",
    "Joker": "meldsat.cards",
    "Notation": "meldsat.cards",
    "Piece": "meldsat.cards",
    "parse_card": "meldsat.cards",
    "parse_piece": "meldsat.cards",
    "AmbiguousJokerError": "meldsat.errors",
    "ImpossiblePositionError": "meldsat.errors",
    "MeldsatError": "meldsat.errors",
    "NotationError": "meldsat.errors",
    "RulesError": "meldsat.errors",
    "UnsupportedError": "meldsat.errors",
    "MeldKind": "meldsat.melds",
    "MeldVerdict": "meldsat.melds",
    "is_legal_meld": "meldsat.melds",
    "judge_meld": "meldsat.melds",
    "MoveVerdict": "meldsat.moves",
    "Reason": "meldsat.moves",
    "ReasonCode": "meldsat.moves",
    "check_move": "meldsat.moves",
    "Meld": "meldsat.notation",
    "Pieces": "meldsat.notation",
    "Table": "meldsat.notation",
    "format_pieces": "meldsat.notation",
    "format_table": "meldsat.notation",
    "parse_hand": "meldsat.notation",
    "parse_pieces": "meldsat.notation",
    "parse_table": "meldsat.notation",
    "Objective": "meldsat.play",
    "Play": "meldsat.play",
    "Status": "meldsat.play",
    "Position": "meldsat.position",
    "load_position": "meldsat.position",
    "read_position": "meldsat.position",
    "RuleSet": "meldsat.rules",
    "PRESETS": "meldsat.rulesets",
    "RULE_SET_NAMES": "meldsat.rulesets",
    "get_rules": "meldsat.rulesets",
    "TableVerdict": "meldsat.table",
    "copy_problems": "meldsat.table",
    "judge_table": "meldsat.table",
    "best_play": "meldsat.engine.search",
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'meldsat' has no attribute '{name}'")
    value = getattr(import_module(home), name)
    globals()[name] = value  # asked once: later lookups find it without this function
    return value


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


def __dir__() -> list[str]:
    return sorted(__all__)
