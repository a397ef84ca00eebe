"""Shared test helpers: run the ``meldsat`` command line in-process and capture what it prints;
batches whose every line is solved."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest


@dataclass(frozen=True)
class CliResult:
    """What one run of the command line returned and printed."""

    code: int
    out: str
    err: str


CliRunner = Callable[..., CliResult]


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> CliRunner:
    """Call ``meldsat.cli.main.main`` with these arguments, so its error handling runs too."""

    # Imported here so that tests which do not use the command line never depend on it.
    from meldsat.cli.main import main

    def run(*args: str) -> CliResult:
        capsys.readouterr()  # drop anything printed before this run
        code = main(list(args))
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run


def distinct_copies(lines: list[str], times: int) -> list[str]:
    """The batch ``lines`` ``times`` over, each JSON line of each copy with its own ``id`` (blank
    lines kept): a batch answers a line it holds twice from the first answer, and the tests of a
    batch that must last need every line solved."""
    out = []
    for copy in range(times):
        for line in lines:
            if not line.strip():
                out.append(line)
                continue
            record = json.loads(line)
            record["id"] = f"{record.get('id', 'line')}-{copy}"
            out.append(json.dumps(record))
    return out
