"""Shared test helpers: run the ``meldsat`` command line in-process and capture what it prints;
batches whose every line is solved; a seeded simulation played twice."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

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


def simulated_twice(
    rules: str, bots: Sequence[str], games: int, seed: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The log events of two runs of the same seeded ``simulate`` (a bot's test asserts they
    are equal). The game re-checks every turn: an illegal one stops it with an error."""
    # Imported here, as in run_cli: the tests that play no game do not load the games.
    from meldsat.games.log import MemoryLog
    from meldsat.games.simulate import simulate

    logs = []
    for _ in range(2):
        log = MemoryLog()
        simulate(rules, bots, games, seed, log, time_limit=2.0)
        logs.append(log.events)
    return logs[0], logs[1]
