"""The CP-SAT floor: can any solver setting bring the solve alone under half the peer's time?

That is the floor under issue 12's target for the buckets.

Run from the repository root, with the peer installed (``pip install -r
benchmarks/requirements.txt``)::

    python -m benchmarks solve-floor --positions 30 --seed 1 --out /tmp/floor.md

The positions are those of ``python -m benchmarks buckets`` (same buckets, same seed, same
positions: ``benchmarks/common/buckets.py``). For every position, each measurement is the least
CPU time of ``--repeats`` runs (least, not median: the floor is the question, so noise from the
shared machine is taken out on both sides):

* the peer, ``rummikub-solver`` with GLPK_MI (its model compiled once), tile-count mode;
* meldsat's whole ``best_play`` (objective cards), its answer re-checked by the rule checker;
* the CP-SAT solve alone of meldsat's model (built beforehand, not timed) with the engine's
  parameters, and with LP linearization levels 0 and 1 instead (the one setting that changes the
  cost of small models: level 0 drops the LP), all three proving the same optimum;
* the best of those three settings for each position, chosen with hindsight.

A bucket can meet the target (median and p90 at most half the peer's) only if the solve alone,
under the best setting for every position, is under half the peer's: the report counts the buckets
where even that is over. It also gives CP-SAT's cost for a model of one variable, the fixed cost of
any solve.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from benchmarks.common.buckets import (
    PEER_BACKEND,
    Bucket,
    add_bucket_options,
    bucket_positions,
    chosen_buckets,
)
from benchmarks.common.environment import load_average
from benchmarks.common.peer import Peer, load_peer
from benchmarks.common.units import command_line, least_cpu, ms, percentile, program, publish
from benchmarks.common.verdicts import meldsat_problem
from meldsat.engine.cpsat import CpModel, cp_model
from meldsat.engine.model import RearrangementModel
from meldsat.engine.search import DEFAULT_TIME_LIMIT, best_play, build_model
from meldsat.play import Objective
from meldsat.position import Position

COMMAND = program("solve-floor")
# The solver settings compared: the engine's, and each LP linearization level in its place.
SETTINGS: dict[str, dict[str, int]] = {
    "engine": {},
    "linearization 0": {"linearization_level": 0},
    "linearization 1": {"linearization_level": 1},
}
SIDES = ("peer", "meldsat", *SETTINGS, "best setting")


def solve_with(model: RearrangementModel, overrides: dict[str, int]) -> tuple[str, float]:
    """Solve ``model`` with the engine's parameters and ``overrides``: (status, objective)."""
    solver = model.solver(DEFAULT_TIME_LIMIT)
    for name, value in overrides.items():
        setattr(solver.parameters, name, value)
    code = solver.solve(model.model)
    objective = solver.objective_value if code == cp_model.OPTIMAL else float("nan")
    return solver.status_name(code), objective


def one_variable_floor(repeats: int) -> float:
    """Least CPU seconds of a CP-SAT solve (one worker, no presolve) of a one-boolean model."""
    model = CpModel()
    model.maximize(model.new_bool_var("x"))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.cp_model_presolve = False
    return least_cpu(lambda: solver.solve(model), repeats)[0]


@dataclass
class Cell:
    """One bucket's least CPU times, per side, and the problems found in meldsat's answers."""

    times: dict[str, list[float]] = field(default_factory=lambda: {side: [] for side in SIDES})
    problems: list[str] = field(default_factory=list)

    def stat(self, side: str, q: float) -> float:
        return percentile(self.times[side], q)


class FloorBench:
    """Times every side on a position and checks that they agree."""

    def __init__(self, repeats: int) -> None:
        self.repeats = repeats
        self.peer = Peer(load_peer(), PEER_BACKEND, fresh=False, clock=time.process_time)
        self.cells: dict[Bucket, Cell] = {}

    def run(self, bucket: Bucket, ident: str, position: Position) -> None:
        cell = self.cells.setdefault(bucket, Cell())
        times = cell.times
        peer, _ = least_cpu(lambda: self.peer.solve(position, "tiles"), self.repeats)
        times["peer"].append(peer)
        ours, play = least_cpu(lambda: best_play(position, Objective.CARDS), self.repeats)
        times["meldsat"].append(ours)
        problem = meldsat_problem(position, play)
        if problem:
            cell.problems.append(f"{ident}: {problem}")
        model = build_model(position, Objective.CARDS)
        answers = {}
        for name, overrides in SETTINGS.items():
            seconds, answers[name] = least_cpu(partial(solve_with, model, overrides), self.repeats)
            times[name].append(seconds)
        if len(set(map(str, answers.values()))) != 1:
            cell.problems.append(f"{ident}: the settings disagree: {answers}")
        times["best setting"].append(min(times[name][-1] for name in SETTINGS))


def report(cells: dict[Bucket, Cell], floor: float) -> str:
    """The Markdown table, one row per bucket, and the counts under it."""
    out = [
        "| bucket (table / rack, rack jokers) | half the peer, median / p90 | meldsat "
        "| CP-SAT alone, engine | linearization 0 | linearization 1 | best setting | verdict |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    met = over = 0
    for bucket, cell in cells.items():
        half = {q: cell.stat("peer", q) / 2 for q in (50, 90)}

        def pair(side: str, c: Cell = cell) -> str:
            return f"{ms(c.stat(side, 50))} / {ms(c.stat(side, 90))}"

        def under(side: str, c: Cell = cell, h: dict[int, float] = half) -> bool:
            return all(c.stat(side, q) <= h[q] for q in (50, 90))

        if under("meldsat"):
            met += 1
            verdict = "target met"
        elif not under("best setting"):
            over += 1
            verdict = "solve alone over half the peer"
        else:
            verdict = "solve alone under, whole play over"
        out.append(
            f"| {bucket.table} / {bucket.rack}, {bucket.jokers} | {ms(half[50])} / {ms(half[90])} "
            f"| {pair('meldsat')} | {pair('engine')} | {pair('linearization 0')} "
            f"| {pair('linearization 1')} | {pair('best setting')} | {verdict} |"
        )
    problems = [problem for cell in cells.values() for problem in cell.problems]
    out += [
        "",
        f"Target met (meldsat's median and p90 at most half the peer's): {met} of {len(cells)}. "
        f"The CP-SAT solve alone, with the best of the three settings for every position chosen "
        f"with hindsight, over half the peer's median or p90: {over} of {len(cells)}. CP-SAT on "
        f"a model of one variable: {floor * 1000:.3f} ms. "
        + ("Every meldsat answer legal and proven optimal." if not problems else ""),
        *problems,
    ]
    return "\n".join(out) + "\n"


def _arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    add_bucket_options(parser)
    parser.add_argument("--repeats", type=int, default=3, help="runs per measurement (least)")
    parser.add_argument("--out", type=Path, default=None, help="also write the report here")
    return parser.parse_args(argv)


def main(argv: Sequence[str]) -> int:
    """Time every side on every bucket's positions; print the Markdown report."""
    args = _arguments(argv)
    buckets = chosen_buckets(args)
    bench = FloorBench(args.repeats)
    warm_up = next(bucket_positions(Bucket("40", 10, 1), args.seed + 1_000_000, 1))[1]
    bench.run(Bucket("warm-up", 0, 0), "warm-up", warm_up)
    bench.cells.clear()
    for number, bucket in enumerate(buckets, start=1):
        for ident, position in bucket_positions(bucket, args.seed, args.positions):
            bench.run(bucket, ident, position)
        print(f"[floor] {number}/{len(buckets)} {bucket.name}", file=sys.stderr, flush=True)
    heading = (
        f"Command: `{command_line(COMMAND, argv)}`  \n"
        f"Load average (1 min) at the end: {load_average()} "
        "(CPU time of the benchmark process, least of the repeats)\n\n"
    )
    text = heading + report(bench.cells, one_variable_floor(100))
    publish(text, args.out)
    return 0
