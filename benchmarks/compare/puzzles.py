"""Puzzle generation speed: verified puzzles per minute per level on one core.

Run from the repository root:
``python -m benchmarks puzzles --count 20 --seed 1 [--goal points] [--levels hard]``. For
every rule set and level it
generates ``count`` puzzles in this one process (CP-SAT runs with one worker, so one core) and
reports CPU time (``time.process_time``, so other work on a shared machine does not count), the
puzzles per CPU minute, the attempts the generator needed, and the share of the CPU time spent in
uniqueness proofs (the answer's own and the puzzle's). Every puzzle counted was verified by the
generator: unique by CP-SAT, the solution accepted by the rule checker, the level confirmed by the
grader. No peer generator is run: none is installable here (see RESULTS.md).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from benchmarks.common.units import program
from meldsat.puzzles.generate import Stats, generate_one
from meldsat.puzzles.puzzle import LEVELS
from meldsat.rulesets import get_rules

COMMAND = program("puzzles")
SETUPS = (("manipulation", 4), ("manipulation", 2), ("rummikub", 4))


def main(argv: Sequence[str]) -> int:
    """Print one Markdown table row per rule set and level."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20, help="puzzles per rule set and level")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--goal", choices=("all", "points"), default="all")
    parser.add_argument("--levels", default=",".join(LEVELS), help="comma-separated")
    args = parser.parse_args(argv)
    levels = [level for level in args.levels.split(",") if level]
    print(
        "| rules | players | level | puzzles | CPU s | puzzles / CPU min | median CPU s "
        "| attempts / puzzle | uniqueness share |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, players in SETUPS:
        rules = get_rules(name, players)
        for level in levels:
            stats = Stats()
            times = []
            for number in range(args.count):
                started = time.process_time()
                generate_one(rules, level, args.seed, number, goal=args.goal, stats=stats)
                times.append(time.process_time() - started)
            total = sum(times)
            print(
                f"| {name} | {players} | {level} | {args.count} | {total:.1f} "
                f"| {args.count / total * 60:.0f} | {statistics.median(times):.3f} "
                f"| {stats.attempts / args.count:.1f} "
                f"| {stats.uniqueness_seconds / total:.0%} |",
                flush=True,
            )
    return 0
