"""Engine speed by position size: meldsat against rummikub-solver, bucket by bucket.

Run from the repository root, with the peer installed (``pip install -r
benchmarks/requirements.txt``)::

    python benchmarks/bench_buckets.py --positions 30 --seed 1 --out /tmp/buckets.md

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
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: make the ``benchmarks`` package importable
    sys.path.insert(0, str(ROOT))

from benchmarks.bench_engine import (  # noqa: E402
    EQUAL,
    PEER_JOKER_SETS,
    PEER_LOCKING,
    Peer,
    classify,
    load_peer,
    meldsat_problem,
)
from benchmarks.positions import Shape, build_position, position_record  # noqa: E402
from benchmarks.units import command_line, ms, percentile, publish  # noqa: E402
from meldsat.engine.search import DEFAULT_TIME_LIMIT, best_play, build_model  # noqa: E402
from meldsat.files import write_text_atomic  # noqa: E402
from meldsat.play import Objective, Play  # noqa: E402
from meldsat.position import Position  # noqa: E402
from meldsat.rules import get_rules  # noqa: E402

TABLES = ("10", "20", "40", "60", "80-100")
RACKS = (5, 10, 15, 25)
RACK_JOKERS = (0, 1)
BACKEND = "GLPK_MI"
# Short names for the verdicts of bench_engine.classify in the table; others keep their text.
SHORT_VERDICTS = {
    EQUAL: "equal",
    PEER_LOCKING: "peer more, locked joker",
    PEER_JOKER_SETS: "peer fewer, omitted joker set",
}


@dataclass(frozen=True)
class Bucket:
    """One cell of the table: a table size (or range), a rack size and the jokers in the rack."""

    table: str
    rack: int
    jokers: int

    def table_range(self, total: int) -> tuple[int, int]:
        """The table sizes this bucket draws from, for a game of ``total`` pieces."""
        low, _, high = self.table.partition("-")
        top = min(int(high or low), total - self.rack)
        return int(low), top

    @property
    def name(self) -> str:
        return f"table {self.table}, rack {self.rack}, {self.jokers} rack joker(s)"


def bucket_position(bucket: Bucket, seed: int, index: int) -> Position:
    """Position ``index`` of a bucket: a Rummikub table and rack of the bucket's sizes."""
    rules = get_rules("rummikub")
    rng = random.Random(
        f"meldsat-buckets/{seed}/{bucket.table}/{bucket.rack}/{bucket.jokers}/{index}"
    )
    low, high = bucket.table_range(52 * rules.decks + rules.jokers)
    shape = Shape(rng.randint(low, high), bucket.rack, hand_jokers=bucket.jokers)
    return build_position(rules, rng, shape)


def bucket_positions(bucket: Bucket, seed: int, count: int) -> Iterator[tuple[str, Position]]:
    """``count`` positions of a bucket with their ids (``b-1-t40-r10-j1-7``)."""
    for index in range(count):
        ident = f"b-{seed}-t{bucket.table}-r{bucket.rack}-j{bucket.jokers}-{index}"
        yield ident, bucket_position(bucket, seed, index)


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
    """CPU seconds of the CP-SAT solve alone (``RearrangementModel.solve``, reading the numbers of
    the solution back included) on the model of ``position``, built beforehand."""
    model = build_model(position, Objective.CARDS)
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
        self.peer = Peer(load_peer(), BACKEND, fresh=False, clock=time.process_time)
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


def add_bucket_options(parser: argparse.ArgumentParser) -> None:
    """The options choosing the positions: how many a bucket, the seed, and the buckets."""
    parser.add_argument("--positions", type=int, default=30, help="positions a bucket")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tables", default=",".join(TABLES), help="table sizes or ranges")
    parser.add_argument("--racks", default=",".join(map(str, RACKS)), help="rack sizes")
    parser.add_argument("--rack-jokers", default=",".join(map(str, RACK_JOKERS)))


def chosen_buckets(args: argparse.Namespace) -> list[Bucket]:
    """The buckets the options of :func:`add_bucket_options` name, rack jokers outermost."""
    tables = [text.strip() for text in args.tables.split(",") if text.strip()]
    racks = [int(text) for text in args.racks.split(",") if text.strip()]
    jokers = [int(text) for text in args.rack_jokers.split(",") if text.strip()]
    return [Bucket(t, r, j) for j in jokers for t in tables for r in racks]


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_bucket_options(parser)
    parser.add_argument("--out", type=Path, default=None, help="also write the report here")
    parser.add_argument("--json", type=Path, default=None, help="per-position results (JSONL)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
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
    command = command_line("bench_buckets.py", argv)
    load = f"{os.getloadavg()[0]:.2f}"
    text = (
        f"Command: `{command}`  \nLoad average (1 min) at the end: {load} (shared machine; "
        "times are CPU time of the benchmark process)\n\n"
        + report(bench.cells, tables, racks, jokers)
    )
    publish(text, args.out)
    if args.json:
        write_text_atomic(args.json, "".join(json.dumps(row) + "\n" for row in bench.rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
