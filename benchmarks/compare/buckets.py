"""Engine speed by position size: meldsat against rummikub-solver, bucket by bucket.

Run from the repository root, with the peer installed (``pip install -r
benchmarks/requirements.txt``)::

    python -m benchmarks buckets --positions 30 --seed 1 --out /tmp/buckets.md

Rummikub positions are made in buckets of table size (10, 20, 40, 60 and 80-100 tiles) by rack size
(5, 10, 15 and 25 tiles), once with no joker in the rack and once with one (``--rack-jokers``);
the table holds 0-2 jokers at random, as many as the rack leaves. Every position is solved in one
run by meldsat (``best_play``, objective cards) and by the peer (``RuleSet.solve`` in tile-count
mode, GLPK_MI, its model compiled once and reused), interleaved position by position. Only the
solve call is timed, by the CPU time of this process (``time.process_time``: the machine is shared,
so wall time would count other people's work); the wall time is kept in the JSON. Both optima are
compared and meldsat's play is re-checked by the rule checker (``meldsat.moves.check_move``). The
report gives the median and p90 of each side per bucket and their ratio (meldsat / peer: below 1,
meldsat is faster).
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.common.buckets import (
    PEER_BACKEND,
    Bucket,
    add_bucket_options,
    bucket_position,
    bucket_positions,
    chosen_buckets,
)
from benchmarks.common.environment import load_average
from benchmarks.common.peer import Peer, load_peer
from benchmarks.common.units import command_line, ms, percentile, program, publish
from benchmarks.common.verdicts import (
    EQUAL,
    PEER_JOKER_SETS,
    PEER_LOCKING,
    classify,
    meldsat_problem,
)
from benchmarks.positions import position_record
from meldsat.engine.search import DEFAULT_TIME_LIMIT, best_play, solving_model
from meldsat.files import write_text_atomic
from meldsat.play import Objective, Play
from meldsat.position import Position

COMMAND = program("buckets")
# Short names for the verdicts of benchmarks.common.verdicts.classify in the table; others keep
# their text.
SHORT_VERDICTS = {
    EQUAL: "equal",
    PEER_LOCKING: "peer more, locked joker",
    PEER_JOKER_SETS: "peer fewer, omitted joker set",
}


@dataclass
class Cell:
    """The CPU times and answer verdicts of one bucket."""

    meldsat: list[float] = field(default_factory=list)
    peer: list[float] = field(default_factory=list)
    # The solve alone (CP-SAT on the position's model, built beforehand and not timed).
    solve: list[float] = field(default_factory=list)
    verdicts: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)

    def stat(self, side: str, what: str) -> float:
        data = sorted({"meldsat": self.meldsat, "peer": self.peer, "solve": self.solve}[side])
        return percentile(data, 50 if what == "median" else 90)


def timed_solve(position: Position) -> float:
    """CPU seconds of the CP-SAT solve alone (the ``solve`` of the model ``best_play`` solves,
    reading the numbers of the solution back included) on the model of ``position``, built
    beforehand."""
    model = solving_model(position, Objective.CARDS)
    cpu = time.process_time()
    model.solve(DEFAULT_TIME_LIMIT)
    return time.process_time() - cpu


def timed_meldsat(position: Position) -> tuple[float, float, Play]:
    """(CPU seconds, wall seconds, play) of one ``best_play(position, CARDS)``."""
    wall, cpu = time.perf_counter(), time.process_time()
    play = best_play(position, Objective.CARDS)
    return time.process_time() - cpu, time.perf_counter() - wall, play


class BucketBench:
    """Solves positions with both sides, timing by CPU and comparing the answers."""

    def __init__(self) -> None:
        self.peer = Peer(load_peer(), PEER_BACKEND, fresh=False, clock=time.process_time)
        self.cells: dict[Bucket, Cell] = {}
        self.rows: list[dict[str, Any]] = []

    def warm_up(self, position: Position) -> None:
        """Untimed: imports, lazy set-up, and the peer's compile of its problem."""
        best_play(position, Objective.CARDS)
        self.peer.solve(position, "tiles")

    def run(self, bucket: Bucket, ident: str, position: Position) -> None:
        gc.collect()
        cell = self.cells.setdefault(bucket, Cell())
        cpu, wall, play = timed_meldsat(position)
        peer_cpu, answer = self.peer.solve(position, "tiles")
        gc.collect()
        solve_cpu = timed_solve(position)
        cell.meldsat.append(cpu)
        cell.peer.append(peer_cpu)
        cell.solve.append(solve_cpu)
        verdict = classify(position, play, answer, Objective.CARDS)
        cell.verdicts[verdict] += 1
        problem = meldsat_problem(position, play)
        if problem:
            cell.problems.append(f"{ident}: {problem}")
        self.rows.append(
            {
                **position_record(ident, position),
                "meldsat_cpu": cpu,
                "meldsat_wall": wall,
                "peer_cpu": peer_cpu,
                "meldsat_solve_cpu": solve_cpu,
                "meldsat_cards": play.cards_played,
                "peer_cards": len(answer.tiles),
                "verdict": verdict,
                "meldsat_problem": problem,
            }
        )


def _ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:.2f}" if theirs > 0 else "n/a"


def report(
    cells: dict[Bucket, Cell], tables: Sequence[str], racks: Sequence[int], jokers: Sequence[int]
) -> str:
    """The Markdown tables: a grid per rack-joker count and statistic, then every bucket."""
    out: list[str] = []
    for count in jokers:
        for what in ("median", "p90"):
            out += [
                f"#### {what} CPU ms, meldsat / peer (ratio), {count} joker(s) in the rack",
                "",
                "| table \\ rack | " + " | ".join(str(rack) for rack in racks) + " |",
                "|---|" + "---|" * len(racks),
            ]
            for table in tables:
                cells_text = []
                for rack in racks:
                    cell = cells.get(Bucket(table, rack, count))
                    if cell is None or not cell.meldsat:
                        cells_text.append("—")
                        continue
                    ours, theirs = cell.stat("meldsat", what), cell.stat("peer", what)
                    cells_text.append(f"{ms(ours)} / {ms(theirs)} ({_ratio(ours, theirs)})")
                out.append(f"| {table} | " + " | ".join(cells_text) + " |")
            out.append("")
    out += [
        "#### Every bucket",
        "",
        "| bucket | n | meldsat median | meldsat p90 | peer median | peer p90 | ratio median "
        "| ratio p90 | CP-SAT solve alone, median / p90 | answers | meldsat checked |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for bucket, cell in cells.items():
        m50, m90 = cell.stat("meldsat", "median"), cell.stat("meldsat", "p90")
        p50, p90 = cell.stat("peer", "median"), cell.stat("peer", "p90")
        answers = ", ".join(
            f"{SHORT_VERDICTS.get(verdict, verdict)}: {n}"
            for verdict, n in sorted(cell.verdicts.items())
        )
        checked = "all legal, all optimal" if not cell.problems else "; ".join(cell.problems)
        out.append(
            f"| {bucket.name} | {len(cell.meldsat)} | {ms(m50)} | {ms(m90)} | {ms(p50)} "
            f"| {ms(p90)} | {_ratio(m50, p50)} | {_ratio(m90, p90)} "
            f"| {ms(cell.stat('solve', 'median'))} / {ms(cell.stat('solve', 'p90'))} "
            f"| {answers} | {checked} |"
        )
    out.append("")
    met = sum(
        1
        for cell in cells.values()
        if cell.stat("meldsat", "median") <= cell.stat("peer", "median") / 2
        and cell.stat("meldsat", "p90") <= cell.stat("peer", "p90") / 2
    )
    floor = sum(
        1
        for cell in cells.values()
        if cell.stat("solve", "median") > cell.stat("peer", "median") / 2
        or cell.stat("solve", "p90") > cell.stat("peer", "p90") / 2
    )
    out.append(
        f"Buckets where meldsat's median and p90 are at most half the peer's: {met} of "
        f"{len(cells)}. Buckets where the CP-SAT solve alone, before any Python around it, "
        f"already takes more than half the peer's median or p90: {floor} of {len(cells)}. "
        "Answers: *equal*, the same number of tiles played; "
        f"*{SHORT_VERDICTS[PEER_LOCKING]}*: {PEER_LOCKING}; "
        f"*{SHORT_VERDICTS[PEER_JOKER_SETS]}*: {PEER_JOKER_SETS}."
    )
    return "\n".join(out) + "\n"


def _arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    add_bucket_options(parser)
    parser.add_argument("--out", type=Path, default=None, help="also write the report here")
    parser.add_argument("--json", type=Path, default=None, help="per-position results (JSONL)")
    return parser.parse_args(argv)


def main(argv: Sequence[str]) -> int:
    """Time both sides on every bucket's positions; print the Markdown report."""
    args = _arguments(argv)
    buckets = chosen_buckets(args)
    tables = list(dict.fromkeys(bucket.table for bucket in buckets))
    racks = list(dict.fromkeys(bucket.rack for bucket in buckets))
    jokers = list(dict.fromkeys(bucket.jokers for bucket in buckets))
    bench = BucketBench()
    bench.warm_up(bucket_position(Bucket("40", 10, 1), args.seed + 1_000_000, 0))
    for number, bucket in enumerate(buckets, start=1):
        for ident, position in bucket_positions(bucket, args.seed, args.positions):
            bench.run(bucket, ident, position)
        print(f"[buckets] {number}/{len(buckets)} {bucket.name}", file=sys.stderr, flush=True)
    command = command_line(COMMAND, argv)
    load = load_average()
    text = (
        f"Command: `{command}`  \nLoad average (1 min) at the end: {load} (shared machine; "
        "times are CPU time of the benchmark process)\n\n"
        + report(bench.cells, tables, racks, jokers)
    )
    publish(text, args.out)
    if args.json:
        write_text_atomic(args.json, "".join(json.dumps(row) + "\n" for row in bench.rows))
    return 0
