"""The ``meldsat`` console script: a Ctrl-C while the command line itself is still loading is the
same one line and exit 130 as one during a command (Python would print a traceback)."""

from __future__ import annotations

import sys

_EXIT_INTERRUPTED = 130  # meldsat.cli.exits.EXIT_INTERRUPTED, not imported: it is the point


def run() -> None:
    """Load the command line, then run it (:func:`meldsat.cli.main.run`)."""
    try:
        from meldsat.cli.main import run as run_command_line
    except KeyboardInterrupt:
        print("meldsat: error: interrupted", file=sys.stderr)
        sys.exit(_EXIT_INTERRUPTED)
    run_command_line()
