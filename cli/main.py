"""Entry point of the ``meldsat`` command: the Typer app, its commands, and error handling.

Every library error becomes one line on stderr and exit code 2; nothing reaches the user as a
traceback. Commands live in their own modules and are registered here.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from meldsat import MeldsatError, __version__
from meldsat.cli import check, hint, validate
from meldsat.cli import puzzle as puzzle_cli

# Typer ships its own copy of click in recent versions and depends on click in older ones; either
# way its usage errors derive from a class named ClickException, found here without naming the copy.
_USAGE_ERROR: type[Exception] = next(
    cls for cls in typer.BadParameter.__mro__ if cls.__name__ == "ClickException"
)

app = typer.Typer(
    name="meldsat",
    help="Exact rummy meld analysis: validate melds, check turns, find the best play.",
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


def _show_version(value: bool) -> None:
    if value:
        print(f"meldsat {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", help="Print the version and exit.", callback=_show_version),
    ] = False,
) -> None:
    """meldsat: exact rummy meld analysis."""


app.command("validate")(validate.validate_command)
app.command("check")(check.check_command)
app.command("hint")(hint.hint_command)
app.add_typer(puzzle_cli.app, name="puzzle")


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``) and return the exit code."""
    try:
        result = app(args=argv, prog_name="meldsat", standalone_mode=False)
    except MeldsatError as error:
        return _fail(str(error), 2)
    except _USAGE_ERROR as error:
        format_message = getattr(error, "format_message", None)
        message = format_message() if callable(format_message) else str(error)
        return _fail(str(message), int(getattr(error, "exit_code", 2)))
    except typer.Abort:
        return _fail("aborted", 130)
    return result if isinstance(result, int) else 0


def _fail(message: str, code: int) -> int:
    first_line = " ".join(str(message).split())
    print(f"meldsat: error: {first_line}", file=sys.stderr)
    return code


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
