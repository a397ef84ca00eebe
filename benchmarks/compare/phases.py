"""Where meldsat's time goes: model build, CP-SAT solve, and extraction, per position.

Run from the repository root: ``python -m benchmarks phases --positions 200 --seed 1``. It times
the three phases of ``meldsat.engine.search.best_play`` (the model it solves, from
``solving_model``) on the same seeded Rummikub positions as
``python -m benchmarks engine`` (wall clock, one solve each). With ``--file`` it reads the
positions of a JSONL file instead (as ``python -m benchmarks hunt-worst --sample`` writes them)
and times each position for both objectives, each phase the least CPU time
(``time.process_time``) of ``--repeats`` runs: steadier on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.common.units import percentile, program
from benchmarks.positions import generate
from meldsat.engine.search import play_from_outcome, solving_model
from meldsat.play import Objective
from meldsat.position import load_position

COMMAND = program("phases")


def main(argv: Sequence[str]) -> int:
    """Print the median and p90 of each phase, in milliseconds."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default="rummikub", choices=("rummikub", "manipulation"))
    parser.add_argument("--objective", default="cards", choices=("cards", "points"))
    parser.add_argument("--file", type=Path, help="JSONL positions (both objectives, CPU time)")
    parser.add_argument("--repeats", type=int, default=3, help="with --file: least of this many")
    args = parser.parse_args(argv)
    phases: dict[str, list[float]] = {"build": [], "solve": [], "extract": [], "total": []}
    if args.file:
        lines = args.file.read_text(encoding="utf-8").splitlines()
        runs = [
            (load_position(json.loads(line)), objective, time.process_time, args.repeats)
            for line in lines
            if line.strip()
            for objective in Objective
        ]
    else:
        objective = Objective(args.objective)
        runs = [
            (position, objective, time.perf_counter, 1)
            for _, position in generate(args.game, args.positions, args.seed)
        ]
    for position, objective, clock, repeats in runs:
        least = [math.inf] * 4
        for _ in range(repeats):
            start = clock()
            model = solving_model(position, objective)
            built = clock()
            outcome = model.solve(10.0)
            solved = clock()
            play_from_outcome(position, objective, model, outcome)
            done = clock()
            spans = (built - start, solved - built, done - solved, done - start)
            least = [min(old, new) for old, new in zip(least, spans, strict=True)]
        for name, seconds in zip(phases, least, strict=True):
            phases[name].append(seconds)
    for name, times in phases.items():
        ordered = sorted(times)
        p90 = percentile(ordered, 90)
        print(
            f"{name:8s} median {statistics.median(ordered) * 1e3:6.2f} ms  p90 {p90 * 1e3:6.2f} ms"
        )
    return 0
