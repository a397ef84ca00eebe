"""Entry point of the ``meldsat`` command: the Typer app, its commands, and error handling.

Every library error becomes one line on stderr and exit code 2; nothing reaches the user as a
traceback. With ``--json`` (the puzzle commands: ``--format json``) the failure is also one JSON
object on stdout, so a program never parses prose. Ctrl-C exits 130 with one line; a closed output
pipe (``| head``) ends the run quietly with 141, the shell's code for SIGPIPE; stdout that cannot
be written (a full disk, ``> /dev/full``) is one line and exit 2. Commands live in their own
modules and are registered here.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import itertools
import os
import sys
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from meldsat import MeldsatError, __version__
from meldsat.answers.jsonform import error_json, to_json
from meldsat.cli.exits import EXIT_BAD_INPUT, EXIT_BROKEN_PIPE, EXIT_INTERRUPTED
from meldsat.errors import escape_controls, quote

# Typer ships its own copy of click in recent versions and depends on click in older ones; either
# way its usage errors derive from a class named ClickException, found here without naming the copy.
_USAGE_ERROR: type[Exception] = next(
    cls for cls in typer.BadParameter.__mro__ if cls.__name__ == "ClickException"
)

# An error line never repeats more than this much of a message (a usage error quotes its token).
_MAX_ERROR_CHARS = 400


class _InterruptedError(Exception):
    """Ctrl-C inside a command (Typer would turn a KeyboardInterrupt into a silent exit 130)."""


class _OutputClosedError(Exception):
    """stdout's reader went away (Typer would turn the broken pipe into exit 1, "illegal")."""


class _GuardedGroup(TyperGroup):
    """The root command group: Ctrl-C and a broken pipe in any command reach :func:`main` intact.

    Every command (and every sub-app added with ``add_typer``) runs inside this ``invoke``, so no
    command needs to handle either itself.
    """

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise _InterruptedError from None
        except BrokenPipeError:
            raise _OutputClosedError from None

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        # Reading the arguments (start-up, before any command runs) is covered too: Typer would
        # turn a Ctrl-C here into a silent exit 130.
        try:
            return super().make_context(*args, **kwargs)
        except KeyboardInterrupt:
            raise _InterruptedError from None


# Every command, in the order the help lists them. Command ``name`` is the function
# ``<name>_command`` of module ``meldsat.cli.<name>``, or, for a group of commands, that module's
# Typer ``app``. A command's module is imported only when that command runs (or for the full help
# and completion): the commands' imports together cost about 70 ms, a fifth of a cold
# ``meldsat hint``.
COMMANDS = (
    "validate",
    "check",
    "hint",
    "rules",
    "deadwood",
    "layoff",
    "simulate",
    "replay",
    "score",
    "play",
    "serve",
    "puzzle",
)
GROUPS = frozenset({"puzzle"})


def _show_version(value: bool) -> None:
    if value:
        print(f"meldsat {__version__}")
        raise typer.Exit(0)


def _root(
    version: Annotated[
        bool,
        typer.Option("--version", help="Print the version and exit.", callback=_show_version),
    ] = False,
) -> None:
    """meldsat: exact rummy meld analysis."""


@functools.cache
def build_app(names: tuple[str, ...] = COMMANDS) -> typer.Typer:
    """The ``meldsat`` command group holding the commands ``names`` (by default all of them)."""
    app = typer.Typer(
        cls=_GuardedGroup,
        name="meldsat",
        help=(
            "Exact rummy meld analysis: check melds and turns, find the best play, analyse gin"
            " hands, play and score whole games, make puzzles."
        ),
        add_completion=True,
        no_args_is_help=True,
        rich_markup_mode=None,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    app.callback()(_root)
    for name in names:
        module = importlib.import_module(f"meldsat.cli.{name}")
        if name in GROUPS:
            app.add_typer(module.app, name=name)
        else:
            app.command(name)(getattr(module, f"{name}_command"))
    return app


def _app_for(args: list[str]) -> typer.Typer:
    """The group with only the command ``args`` name, or every command (help, version,
    completion, an unknown name: what they print or refuse must know every command)."""
    completing = any(key.startswith("_MELDSAT") and key.endswith("_COMPLETE") for key in os.environ)
    name = next((arg for arg in args if not arg.startswith("-")), None)
    if completing or name not in COMMANDS:
        return build_app()
    return build_app((name,))


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``) and return the exit code."""
    args = sys.argv[1:] if argv is None else list(argv)
    # With no arguments at all, the full help (click would flatten it into one error line).
    if not args:
        args = ["--help"]
    wants_json = _wants_json(args)
    try:
        result = _app_for(args)(args=args, prog_name="meldsat", standalone_mode=False)
    except MeldsatError as error:
        return _fail(str(error), EXIT_BAD_INPUT, error.code, wants_json)
    except _USAGE_ERROR as error:
        _print_usage(error)
        code = int(getattr(error, "exit_code", EXIT_BAD_INPUT))
        return _fail(_usage_message(error), code, "usage", wants_json)
    except (KeyboardInterrupt, _InterruptedError):
        return _fail("interrupted", EXIT_INTERRUPTED)
    except (BrokenPipeError, _OutputClosedError):
        return quiet_broken_pipe()
    except OSError as error:
        return system_error(error)
    return result if isinstance(result, int) else 0


def system_error(error: OSError) -> int:
    """An error of the system that no command turned into its own line: most often stdout that
    cannot take more (``> /dev/full``, a disk gone read-only). One line, exit 2."""
    where = "the output" if error.filename is None else quote(str(error.filename))
    code = _fail(f"cannot write {where}: {error.strerror or error}", EXIT_BAD_INPUT, "io")
    quiet_broken_pipe()  # what stdout still holds goes nowhere, not to another error at exit
    return code


def _wants_json(args: list[str]) -> bool:
    """``--json``, or the puzzle commands' ``--format json`` (``-f json``, ``--format=json``)."""
    if "--json" in args or "--format=json" in args or "-fjson" in args:
        return True
    return any(
        word in ("--format", "-f") and value == "json" for word, value in itertools.pairwise(args)
    )


def _usage_message(error: Exception) -> str:
    format_message = getattr(error, "format_message", None)
    return str(format_message() if callable(format_message) else error)


def _print_usage(error: Exception) -> None:
    """Click's usage line and its "Try 'meldsat hint -h' for help." above the error line."""
    context: Any = getattr(error, "ctx", None)
    if context is None:
        return
    help_option = context.help_option_names[0] if context.help_option_names else "--help"
    print(context.get_usage(), file=sys.stderr)
    print(f"Try '{context.command_path} {help_option}' for help.", file=sys.stderr)


def _fail(message: str, code: int, error_code: str = "", as_json: bool = False) -> int:
    first_line = escape_controls(" ".join(str(message).split()))
    if len(first_line) > _MAX_ERROR_CHARS:
        first_line = first_line[:_MAX_ERROR_CHARS] + "..."
    if as_json:
        with contextlib.suppress(BrokenPipeError):
            print(to_json(error_json(error_code, first_line)))
    print(f"meldsat: error: {first_line}", file=sys.stderr)
    return code


def quiet_broken_pipe() -> int:
    """The reader of stdout went away (``| head``): stop quietly, exit 141 like a shell tool.

    Whatever is still buffered for stdout is sent to /dev/null, so Python does not complain about
    the closed pipe when it flushes at exit.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass  # stdout is not a real file (captured in tests): nothing is left to silence
    return EXIT_BROKEN_PIPE


def run() -> None:
    """Console-script entry point."""
    try:
        code = main()
        sys.stdout.flush()
    except KeyboardInterrupt:
        code = _fail("interrupted", EXIT_INTERRUPTED)
    except BrokenPipeError:
        code = quiet_broken_pipe()
    except OSError as error:
        code = system_error(error)
    sys.exit(code)
