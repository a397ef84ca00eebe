"""Cold start: one ``meldsat hint`` process against the peer's console, and meldsat's imports.

Run from the repository root, with the peer installed (``pip install -r
benchmarks/requirements.txt``)::

    python -m benchmarks cold --runs 7 --out /tmp/cold.md

Part one times whole processes on one Rummikub position (``--position``, an id of
``benchmarks.positions``'s positions; default ``rummikub-1-41``, the median position of
``python -m benchmarks engine --positions 200 --seed 1``): ``meldsat hint --position FILE --json``
against ``rsconsole`` (the peer's console) fed the position on standard input, with GLPK_MI and
with its default backend, and a one-shot ``python -c`` solving once with the peer's library (the
commands of the engine comparison's cold-start part, ``benchmarks/common/cold_start.py``). The
tools take turns, run after run; the report gives the median wall time and the median CPU time
(user + system) of each.

Part two runs ``meldsat hint`` once more under ``python -X importtime`` and sums the import time
of each top-level package (cumulative microseconds as Python reports them), largest first.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.common.cold_start import cold_table, cold_tools, find_executable, run_cold
from benchmarks.common.units import command_line, program, publish
from benchmarks.positions import generate_position, position_record

COMMAND = program("cold")


@dataclass
class Imports:
    """Import times of one process, in microseconds, from ``python -X importtime``.

    ``by_package`` sums each module's own time (without what it imports) by top-level package, so
    the packages add up to ``total``; ``meldsat`` holds the cumulative time of each meldsat module
    (with everything it imports), which shows whose import pulls a large package in.
    """

    by_package: Counter[str] = field(default_factory=Counter)
    meldsat: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.by_package.values())


def import_times(stderr: str) -> Imports:
    """Parse the lines Python prints under ``-X importtime``."""
    found = Imports()
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "imported package" in line:
            continue
        own, cumulative, name = line.removeprefix("import time:").split("|")
        module = name.strip()
        found.by_package[module.split(".")[0]] += int(own)
        if module.startswith("meldsat"):
            found.meldsat[module] = int(cumulative)
    return found


def importtime_run(position_file: Path) -> Imports:
    """Run ``meldsat hint`` once under ``python -X importtime``; its import times."""
    done = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            find_executable("meldsat"),
            "hint",
            "--position",
            str(position_file),
            "--json",
            "--objective",
            "cards",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return import_times(done.stderr)


def report(ident: str, runs: int, cold: Sequence[dict[str, Any]], imports: Imports) -> str:
    """Markdown: the cold-start table, then the import breakdown."""
    out = [
        f"#### Cold start, one process per solve (position `{ident}`; wall and CPU seconds)",
        "",
        *cold_table(cold, runs, cpu=True),
    ]
    total = imports.total
    out += [
        "",
        f"#### Imports of one `meldsat hint` (python -X importtime): {total / 1000:.0f} ms in all",
        "",
        "| package (own time of its modules) | ms | share |",
        "|---|---:|---:|",
    ]
    for name, micros in imports.by_package.most_common(12):
        out.append(f"| {name} | {micros / 1000:.1f} | {micros / total:.0%} |")
    out += ["", "| meldsat module (with what it imports) | cumulative ms |", "|---|---:|"]
    heaviest = sorted(imports.meldsat.items(), key=lambda item: -item[1])[:12]
    out += [f"| {name} | {micros / 1000:.1f} |" for name, micros in heaviest]
    return "\n".join(out) + "\n"


def main(argv: Sequence[str]) -> int:
    """Time the cold starts and the imports; print the Markdown report."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--position", default="rummikub-1-41", help="GAME-SEED-INDEX")
    parser.add_argument("--out", type=Path, default=None, help="also write the report here")
    args = parser.parse_args(argv)
    game, seed, index = args.position.rsplit("-", 2)
    position = generate_position(game, int(seed), int(index))
    with tempfile.TemporaryDirectory() as folder:
        position_file = Path(folder) / "position.json"
        position_file.write_text(json.dumps(position_record(args.position, position)) + "\n")
        tools = cold_tools(position_file, position, "cards")
        cold = run_cold(tools, args.runs, lambda text: print(f"[cold] {text}", file=sys.stderr))
        imports = importtime_run(position_file)
    text = f"Command: `{command_line(COMMAND, argv)}`\n\n" + report(
        args.position, args.runs, cold, imports
    )
    publish(text, args.out)
    return 0
