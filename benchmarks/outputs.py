"""Record every output byte of the engine's commands, to compare two versions of meldsat.

Run from the repository root::

    PYTHONPATH=/path/to/old/package python -m benchmarks outputs --write /tmp/out-before
    python -m benchmarks outputs --write /tmp/out-after --compare /tmp/out-before

Each command (``hint`` on the bundled examples and on generated positions of every bucket size,
both objectives, text and JSON, ``--all``; ``simulate`` of every game family with its logs) runs as
``python -m meldsat`` in a subprocess, so ``PYTHONPATH`` chooses which meldsat answers; its
standard output, standard error, exit code and any log it writes are kept in the directory.
The positions are written by this checkout's generators (``benchmarks.positions``,
``benchmarks.common.buckets``) with fixed seeds, the same for both runs. ``--compare`` lists every
file that differs and exits 1 if any does: a speed-up of the engine must leave them all equal.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from benchmarks.common.buckets import Bucket, bucket_positions
from benchmarks.common.units import program
from benchmarks.positions import generate, position_record

COMMAND = program("outputs")
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _inputs(folder: Path) -> None:
    """The generated positions, one JSONL file a kind, in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for game in ("rummikub", "manipulation"):
        lines = [json.dumps(position_record(i, p)) for i, p in generate(game, 60, 5)]
        (folder / f"{game}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    small = [
        json.dumps(position_record(ident, position))
        for table in ("10", "20", "40", "60", "80-100")
        for rack in (5, 10, 15, 25)
        for jokers in (0, 1)
        for ident, position in bucket_positions(Bucket(table, rack, jokers), 12, 4)
    ]
    (folder / "buckets.jsonl").write_text("\n".join(small) + "\n", encoding="utf-8")


def commands(inputs: str) -> dict[str, list[str]]:
    """Every command by the name of its output files (paths relative to the output directory)."""
    manipulation = str(EXAMPLES / "manipulation.txt")
    initial = str(EXAMPLES / "rummikub-initial.json")
    batch = str(EXAMPLES / "rummikub-batch.jsonl")
    out: dict[str, list[str]] = {
        "hint-manipulation": ["hint", "--position", manipulation],
        "hint-manipulation-json": ["hint", "--position", manipulation, "--json"],
        "hint-manipulation-all": ["hint", "--position", manipulation, "--all", "--json"],
        "hint-initial": ["hint", "--position", initial],
        "hint-initial-json": ["hint", "--position", initial, "--json", "--objective", "cards"],
        "hint-gin": ["hint", "--rules", "gin", "--hand", "AS 2S 3S 5H 5D 5C 9C 10C JC KD"],
        "hint-rummy500": [
            "hint", "--rules", "rummy500", "--table", "7H 8H 9H | QS QH QD",
            "--hand", "10H 6H QC 2S 3S 4S",
        ],
        "hint-batch-cards": ["hint", "--jsonl", batch, "--objective", "cards"],
        "hint-batch-points": ["hint", "--jsonl", batch],
        "hint-batch-all": ["hint", "--jsonl", batch, "--all"],
    }  # fmt: skip
    for name in ("rummikub", "manipulation", "buckets"):
        for objective in ("points", "cards"):
            path = f"{inputs}/{name}.jsonl"
            out[f"hint-{name}-{objective}"] = ["hint", "--jsonl", path, "--objective", objective]
    simulations = {
        "manipulation": ["--games", "3", "--players", "3"],
        "rummy500-killer": ["--games", "1", "--bots", "greedy-points,greedy-cards"],
        "rummy500": ["--games", "2", "--bots", "greedy-points,greedy-cards,hoarder,random"],
        "gin": ["--games", "6", "--bots", "knocker,greedy-points"],
    }
    for rules, options in simulations.items():
        log = f"simulate-{rules}.log.jsonl"
        out[f"simulate-{rules}"] = ["simulate", "--rules", rules, *options, "--json", "--log", log]
    return out


def write(folder: Path) -> None:
    """Run every command, keeping its outputs in ``folder``."""
    _inputs(folder / "inputs")
    for name, argv in commands("inputs").items():
        done = subprocess.run(
            [sys.executable, "-m", "meldsat", *argv],
            cwd=folder,
            capture_output=True,
            env={**os.environ, "COLUMNS": "100"},
            check=False,
        )
        (folder / f"{name}.out").write_bytes(done.stdout)
        (folder / f"{name}.err").write_bytes(done.stderr)
        (folder / f"{name}.code").write_text(f"{done.returncode}\n", encoding="utf-8")
        print(f"[outputs] {name}: exit {done.returncode}", file=sys.stderr, flush=True)


def compare(ours: Path, theirs: Path) -> list[str]:
    """The names of the files that differ between two runs (or exist in one only)."""
    names = sorted(
        {str(p.relative_to(ours)) for p in ours.rglob("*") if p.is_file()}
        | {str(p.relative_to(theirs)) for p in theirs.rglob("*") if p.is_file()}
    )
    return [
        name
        for name in names
        if not (ours / name).exists()
        or not (theirs / name).exists()
        or (ours / name).read_bytes() != (theirs / name).read_bytes()
    ]


def main(argv: Sequence[str]) -> int:
    """Write the outputs, compare them with an earlier run if asked."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, required=True, help="directory for the outputs")
    parser.add_argument("--compare", type=Path, help="an earlier run's directory")
    args = parser.parse_args(argv)
    write(args.write)
    if args.compare is None:
        return 0
    differ = compare(args.write, args.compare)
    for name in differ:
        print(f"differs: {name}")
    files = sum(1 for path in args.write.rglob("*") if path.is_file())
    print(f"{files - len(differ)} of {files} files the same byte for byte")
    return 1 if differ else 0
