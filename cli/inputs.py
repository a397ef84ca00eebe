"""Shared command-line options and the reading of a position from them."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from solver import MeldsatError, Position
from solver.position import load_position, position_fields

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


def gather_fields(
    table: str | None, hand: str | None, position: str | None
) -> dict[str, Any]:
    """The position's fields: from ``--position`` if given, overridden by ``--table``/``--hand``."""
    fields: dict[str, Any] = position_fields(read_source(position)) if position else {}
    if table is not None:
        fields["table"] = table
    if hand is not None:
        fields["hand"] = hand
    return fields


def load_cli_position(
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
