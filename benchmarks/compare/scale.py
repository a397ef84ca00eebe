"""Batch throughput: the same Rummikub positions on 1 process, 2 processes and a Dask cluster.

Run from the repository root (Dask and psutil installed, e.g. ``pip install -e ".[test]"``)::

    python -m benchmarks scale --positions 10000 --rounds 5 --seed 1

Every configuration runs exactly what ``meldsat hint --jsonl`` runs: the batch function
``solve_batch_line`` on each line, through ``meldsat.executor.ordered_map``, on a runner opened
once and warmed up first (so the numbers are steady-state throughput, without start-up). The
positions are cut into ``--rounds`` slices; each round gives one slice to every configuration in
turn, so a change in the machine's load hits them alike, and the report takes medians over rounds.

Two clocks: wall time, and CPU time (user + system) of this process and all its child processes
(psutil), split into this process (the client: it reads, sends and writes; for the Dask cluster it
also runs the scheduler) and the workers. On a shared machine wall time depends on the other
users; CPU time much less. The answers of every configuration are compared byte for byte.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field

import psutil

from benchmarks.common.units import program
from benchmarks.positions import generate, position_record
from meldsat.cli.hint import BatchJob, solve_batch_line
from meldsat.executor import Runner, open_runner, ordered_map

COMMAND = program("scale")
DASK = "Dask LocalCluster, 2 workers"


@dataclass
class Measure:
    """One configuration's numbers, a list entry per round."""

    name: str
    wall: list[float] = field(default_factory=list)
    client_cpu: list[float] = field(default_factory=list)
    worker_cpu: list[float] = field(default_factory=list)
    digests: list[str] = field(default_factory=list)


def _jobs(lines: list[str], first_number: int) -> list[BatchJob]:
    return [
        (first_number + index, line, "points", 10.0, False, None, None, ())
        for index, line in enumerate(lines)
    ]


def _cpu_seconds(process: psutil.Process) -> float:
    times = process.cpu_times()
    return float(times.user + times.system)


def _tree_cpu(me: psutil.Process) -> tuple[float, float]:
    """CPU seconds so far of this process, and of all its descendants together."""
    children = 0.0
    for child in me.children(recursive=True):
        with suppress(psutil.NoSuchProcess):  # a process that ended meanwhile
            children += _cpu_seconds(child)
    return _cpu_seconds(me), children


def _run(runner: Runner, jobs: list[BatchJob], measure: Measure) -> None:
    me = psutil.Process()
    client_before, workers_before = _tree_cpu(me)
    start = time.perf_counter()
    digest = hashlib.sha256()
    for _code, text in ordered_map(solve_batch_line, jobs, runner=runner):
        digest.update(text.encode() + b"\n")
    measure.wall.append(time.perf_counter() - start)
    client_after, workers_after = _tree_cpu(me)
    measure.client_cpu.append(client_after - client_before)
    measure.worker_cpu.append(workers_after - workers_before)
    measure.digests.append(digest.hexdigest())


def _dask_scheduler(stack: ExitStack, workers: int) -> str:
    from distributed import LocalCluster

    cluster = stack.enter_context(
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
    )
    return str(cluster.scheduler_address)


def _positions(count: int, seed: int) -> list[str]:
    return [json.dumps(position_record(*pair)) for pair in generate("rummikub", count, seed)]


def _slices(lines: list[str], rounds: int) -> Iterator[tuple[int, list[str]]]:
    size = -(-len(lines) // rounds)
    for start in range(0, len(lines), size):
        yield start + 1, lines[start : start + size]


def main(argv: Sequence[str]) -> int:
    """Run the benchmark and print a Markdown report on stdout."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    log: Callable[[str], None] = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    log(f"generating {args.positions} + {args.warmup} positions")
    lines = _positions(args.positions, args.seed)
    warmup = _jobs(_positions(args.warmup, args.seed + 1_000_000), 1)
    measures = [
        Measure("1 process"),
        Measure("2 processes"),
        Measure("Dask LocalCluster, 2 workers"),
    ]
    with ExitStack() as stack:
        started = time.perf_counter()
        scheduler = _dask_scheduler(stack, 2)
        runners = [
            stack.enter_context(open_runner(workers=1)),
            stack.enter_context(open_runner(workers=2)),
            stack.enter_context(open_runner(scheduler=scheduler)),
        ]
        for measure, runner in zip(measures, runners, strict=True):
            log(f"warming up: {measure.name}")
            _run(runner, warmup, Measure("warm-up"))
        log(f"start-up and warm-up took {time.perf_counter() - started:.1f} s")
        for number, (first, chunk) in enumerate(_slices(lines, args.rounds), start=1):
            jobs = _jobs(chunk, first)
            for measure, runner in zip(measures, runners, strict=True):
                _run(runner, jobs, measure)
                log(f"round {number}: {measure.name}: {len(jobs) / measure.wall[-1]:.1f}/s wall")
    _report(measures, args, len(lines))
    return 0


def _report(measures: list[Measure], args: argparse.Namespace, count: int) -> None:
    same = len({tuple(measure.digests) for measure in measures}) == 1
    per_round = count / args.rounds
    print(f"Positions: {count} Rummikub positions (seed {args.seed}), {args.rounds} rounds of")
    print(f"{per_round:.0f}, after a warm-up of {args.warmup}; objective points, time limit 10 s.")
    print(f"Answers identical in every configuration (SHA-256 of the output): {same}.\n")
    print("| configuration | positions/s (wall) | CPU ms/position: client | workers | total |")
    print("| --- | ---: | ---: | ---: | ---: |")
    rows = {}
    for measure in measures:
        rate = statistics.median(per_round / wall for wall in measure.wall)
        client = statistics.median(1000 * cpu / per_round for cpu in measure.client_cpu)
        workers = statistics.median(1000 * cpu / per_round for cpu in measure.worker_cpu)
        rows[measure.name] = (rate, client, workers)
        total = client + workers
        print(f"| {measure.name} | {rate:.1f} | {client:.2f} | {workers:.2f} | {total:.2f} |")
    pool = rows["2 processes"]
    dask = rows[DASK]
    one = rows["1 process"]
    print()
    print(f"Speed-up of 2 processes over 1 (wall): {pool[0] / one[0]:.2f}x.")
    print(f"Dask cluster over 2 processes (wall): {dask[0] / pool[0]:.2f}x.")
    extra = (dask[1] + dask[2]) - (pool[1] + pool[2])
    print(
        f"Cluster overhead per position, CPU: {extra:+.2f} ms "
        f"(client+scheduler {dask[1] - pool[1]:+.2f}, workers {dask[2] - pool[2]:+.2f})."
    )
    wall_extra = 1000 / dask[0] - 1000 / pool[0]
    print(f"Cluster overhead per position, wall: {wall_extra:+.2f} ms.")
    for name, (_, client, workers) in rows.items():
        ceiling = 1000 / client if client else float("inf")
        print(
            f"Model, {name}: N dedicated cores give about min(N x {1000 / workers:.0f}, "
            f"{ceiling:.0f}) positions/s (worker CPU {workers:.2f} ms each, client "
            f"{client:.2f} ms each)."
        )
