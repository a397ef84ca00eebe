"""Shared command-line options and the reading of a position from them."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from meldsat import MeldsatError, Position, RuleSet
from meldsat.errors import NotationError
from meldsat.notation import Meld, check_hand_jokers
from meldsat.position import (
    check_position_keys,
    load_position,
    pieces_field,
    position_fields,
    rules_from_fields,
    table_field,
)

TableOption = Annotated[
    str | None, typer.Option("--table", "-t", help='Table melds, e.g. "7H 8H 9H | QS QH QD".')
]
HandOption = Annotated[str | None, typer.Option("--hand", help='Hand, e.g. "5H 6H KS *".')]
PositionOption = Annotated[
    str | None,
    typer.Option("--position", "-p", help="Position file (text or JSON); - reads stdin."),
]
RulesOption = Annotated[
    str | None, typer.Option("--rules", "-r", help="Rule set (default: manipulation).")
]
PlayersOption = Annotated[
    int | None, typer.Option("--players", help="Number of players (sets decks and jokers).")
]
JsonOption = Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")]
AfterOption = Annotated[
    str | None,
    typer.Option("--after", "-a", help='The table after the turn, e.g. "7H 8H 9H 10H | QS QH QD".'),
]
DrawsOption = Annotated[
    int | None,
    typer.Option(
        "--draws", min=0, help="Cards drawn this turn (Manipulation: no melding after the 3rd)."
    ),
]
InitialOption = Annotated[
    bool,
    typer.Option("--initial", help="The player has not made the initial meld yet (Rummikub)."),
]


def read_source(path: str) -> str:
    """The text of a file, or of stdin for ``-``; an unreadable file is a one-line error."""
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise MeldsatError(f"cannot read '{path}': {reason}") from None


def gather_fields(table: str | None, hand: str | None, position: str | None) -> dict[str, Any]:
    """The position's fields: from ``--position`` if given, overridden by ``--table``/``--hand``."""
    fields: dict[str, Any] = position_fields(read_source(position)) if position else {}
    if table is not None:
        fields["table"] = table
    if hand is not None:
        fields["hand"] = hand
    return fields


# Positional for the commands that already call it; each argument is one command-line option.
def load_cli_position(  # noqa: PLR0917
    table: str | None,
    hand: str | None,
    position: str | None,
    rules: str | None,
    players: int | None,
    initial: bool = False,
) -> Position:
    """The position given on the command line, checked (illegal tables are errors)."""
    fields = gather_fields(table, hand, position)
    if initial:
        fields["initial"] = True
    return load_position(fields, rules, players)


def load_cli_table(
    table: str | None,
    hand: str | None,
    position: str | None,
    rules: str | None,
    players: int | None,
) -> tuple[RuleSet, list[Meld], Meld]:
    """The rule set, table and hand given on the command line, read but not judged.

    Unlike :func:`load_cli_position` an illegal table is returned as it is, for ``validate``.
    """
    if table is None and position is None:
        raise MeldsatError("no table given: use --table or --position")
    return table_from_fields(gather_fields(table, hand, position), rules, players)


def table_from_fields(
    fields: dict[str, Any], rules: str | None = None, players: int | None = None
) -> tuple[RuleSet, list[Meld], Meld]:
    """The rule set, table and hand of a position's fields, read but not judged (for validate)."""
    check_position_keys(fields)
    rule_set = rules_from_fields(fields, rules, players)
    melds = table_field(fields.get("table"), "table", rule_set)
    hand_pieces = pieces_field(fields.get("hand", []), "hand", rule_set)
    check_hand_jokers(hand_pieces, rule_set.notation)
    return rule_set, melds, hand_pieces


def draws_field(value: Any) -> int | None:
    """The ``draws`` of a position file: absent, or a whole number of at least 0."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise NotationError(f"bad draws '{value}' (expected a whole number, 0 or more)")
    return value
