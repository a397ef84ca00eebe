"""Shared command-line options, and the reading of files and of a position's fields from them."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from meldsat import RULE_SET_NAMES, MeldsatError
from meldsat.errors import InputTooLargeError, NotationError, quote
from meldsat.house_rules import house_rule_names
from meldsat.position import MAX_POSITION_CHARS, position_fields

TableOption = Annotated[
    str | None, typer.Option("--table", "-t", help='Table melds, e.g. "7H 8H 9H | QS QH QD".')
]
HandOption = Annotated[str | None, typer.Option("--hand", help='Hand, e.g. "5H 6H KS *".')]
PositionOption = Annotated[
    str | None,
    typer.Option("--position", "-p", help="Position file (text or JSON); - reads stdin."),
]


def complete_rules(incomplete: str) -> list[str]:
    """The rule-set names that start with what was typed (shell completion)."""
    return [name for name in RULE_SET_NAMES if name.startswith(incomplete.lower())]


RulesOption = Annotated[
    str | None,
    typer.Option(
        "--rules",
        "-r",
        help=f"Rule set: {', '.join(RULE_SET_NAMES)} (default: manipulation).",
        autocompletion=complete_rules,
    ),
]
RuleOption = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        metavar="NAME=VALUE",
        help=f"House rule over the preset, repeatable (meldsat rules NAME shows the fields): "
        f"{house_rule_names()}.",
    ),
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


def finite_seconds(value: float) -> float:
    """A ``--time-limit`` callback: click's ``min=`` lets ``inf`` and ``nan`` through, and no
    solve can wait forever."""
    if not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a number of seconds")
    return value


def read_source(path: str, limit: int | None = MAX_POSITION_CHARS) -> str:
    """The UTF-8 text of a file, or of stdin for ``-``, of at most ``limit`` bytes (if not None).

    An unreadable file, bytes that are not UTF-8 and anything longer than ``limit`` are one-line
    errors; reading stops one byte past the limit, so ``/dev/zero`` is refused at once. A byte
    order mark at the start is dropped.
    """
    if not path:
        raise MeldsatError("cannot read '': no file name given")
    try:
        if path == "-":
            data = sys.stdin.buffer.read(-1 if limit is None else limit + 1)
        else:
            with Path(path).open("rb") as stream:
                data = stream.read(-1 if limit is None else limit + 1)
    except (OSError, ValueError) as error:
        raise file_error("read", path, error) from None
    name = "stdin" if path == "-" else quote(path)
    if limit is not None and len(data) > limit:
        raise InputTooLargeError(f"{name} is too large: over {limit} bytes, the limit")
    return decode_utf8(data, name)


def file_error(action: str, path: str, error: OSError | ValueError) -> MeldsatError:
    """The one-line error of a file that cannot be read or written (``action``): the system's
    reason, or for a ``ValueError`` (a NUL byte, which no file name can hold) that it is no name."""
    if isinstance(error, OSError):
        return MeldsatError(f"cannot {action} {quote(path)}: {error.strerror or error}")
    return MeldsatError(f"cannot {action} {quote(path)}: not a possible file name")


def decode_utf8(data: bytes, name: str) -> str:
    """``data`` as UTF-8 text without a leading byte order mark; other bytes are an error."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise NotationError(
            f"cannot read {name}: byte {error.start + 1} is not UTF-8 text"
        ) from None


def gather_fields(table: str | None, hand: str | None, position: str | None) -> dict[str, Any]:
    """The position's fields: from ``--position`` if given, overridden by ``--table``/``--hand``."""
    fields: dict[str, Any] = {} if position is None else position_fields(read_source(position))
    if table is not None:
        fields["table"] = table
    if hand is not None:
        fields["hand"] = hand
    return fields
