"""Where meldsat's time goes: model build, CP-SAT solve, and extraction, per position.

Run as a script from the repository root:
``python benchmarks/bench_phases.py --positions 200 --seed 1``. It times the three phases of
``meldsat.engine.search.best_play`` on the same seeded Rummikub positions as ``bench_engine.py``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.units import percentile
from meldsat.engine.search import build_model, play_from_outcome
from meldsat.generate import generate
from meldsat.play import Objective


def main(argv: list[str] | None = None) -> None:
    """Print the median and p90 of each phase, in milliseconds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default="rummikub", choices=("rummikub", "manipulation"))
    parser.add_argument("--objective", default="cards", choices=("cards", "points"))
    args = parser.parse_args(argv)
    objective = Objective(args.objective)
    phases: dict[str, list[float]] = {"build": [], "solve": [], "extract": [], "total": []}
    for _, position in generate(args.game, args.positions, args.seed):
        start = time.perf_counter()
        model = build_model(position, objective)
        built = time.perf_counter()
        outcome = model.solve(10.0)
        solved = time.perf_counter()
        play_from_outcome(position, objective, model, outcome)
        done = time.perf_counter()
        for name, seconds in zip(
            phases, (built - start, solved - built, done - solved, done - start), strict=True
        ):
            phases[name].append(seconds)
    for name, times in phases.items():
        ordered = sorted(times)
        p90 = percentile(ordered, 90)
        print(
            f"{name:8s} median {statistics.median(ordered) * 1e3:6.2f} ms  p90 {p90 * 1e3:6.2f} ms"
        )


if __name__ == "__main__":
    main()
