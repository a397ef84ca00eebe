"""Load test of ``meldsat serve`` on loopback: many hint requests at once, none may fail.

Run from the repository root, with the web extra installed (``pip install -e ".[web]"`` plus
``httpx``, which the ``test`` extra holds)::

    python -m benchmarks web --requests 200 --concurrency 200 --seed 1

The script starts ``meldsat serve`` as its own process on 127.0.0.1 (default limits: 2 solving
workers, a queue of 256, 5 s per request), sends one untimed warm-up request, then sends
``--requests`` POST /api/hint requests from one asyncio loop that keeps at most ``--concurrency``
in flight (with the defaults, all 200 at once). The positions are the project's seeded random full
tables (``benchmarks.positions``), half Rummikub and half Manipulation, each sent as its JSON form.

A request fails unless it answers 200 with a hint object. Every answer is also re-checked: its table
must be a legal turn from the position (``meldsat.moves.check_move``, no solver involved), and where
both are proven optimal its value must equal the in-process ``best_play`` of the same position.

Reported: latency per request (wall clock from sending to the full answer, which includes the
wait for a worker: the median and the 99th percentile), the wall time of the whole burst, the
server process's CPU time, and the in-process solve of the same positions one after another as the
baseline (CPU time, ``time.process_time``). The report is Markdown on stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import resource
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from benchmarks.common.units import percentile, program
from benchmarks.positions import generate, position_record
from meldsat.engine.search import best_play
from meldsat.moves import check_move
from meldsat.play import Objective, Status
from meldsat.position import Position, table_field

COMMAND = program("web")
TIME_CAP = 5.0  # the server's default per-request solver limit, used in-process too


@dataclass(frozen=True)
class Outcome:
    """One request: how long it took, its HTTP status and its answer (``None`` if it broke)."""

    seconds: float
    status: int
    answer: dict[str, Any] | None


def positions(count: int, seed: int) -> list[tuple[str, Position]]:
    """``count`` positions: Rummikub and Manipulation alternately."""
    rummikub = list(generate("rummikub", (count + 1) // 2, seed))
    manipulation = list(generate("manipulation", count // 2, seed))
    mixed = [pair for both in zip(rummikub, manipulation, strict=False) for pair in both]
    return (mixed + rummikub[len(manipulation) :])[:count]


def process_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) a running process has used so far; ``None`` off Linux."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(port: int, workers: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "meldsat", "serve", "--port", str(port)]
    command += ["--workers", str(workers), "--time-limit", str(TIME_CAP)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/rules", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start within 30 s")


async def burst(url: str, bodies: list[dict[str, Any]], concurrency: int) -> list[Outcome]:
    """Send every body, at most ``concurrency`` in flight, and time each request."""
    limit = asyncio.Semaphore(concurrency)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)

    async with httpx.AsyncClient(limits=limits, timeout=120) as client:

        async def one(body: dict[str, Any]) -> Outcome:
            async with limit:
                start = time.perf_counter()
                try:
                    response = await client.post(url, json=body)
                    answer = response.json() if response.status_code == 200 else None
                    status = response.status_code
                except httpx.HTTPError:
                    answer, status = None, 0
                return Outcome(time.perf_counter() - start, status, answer)

        return list(await asyncio.gather(*(one(body) for body in bodies)))


def recheck(position: Position, answer: dict[str, Any], solo_points: int | None) -> list[str]:
    """What is wrong with one answer: not a legal turn, or a different optimum."""
    problems = []
    after = table_field(answer["table"], "table", position.rules)
    if answer["status"] in {"optimal", "feasible"}:
        verdict = check_move(position.table, position.hand, after, position.rules)
        if not verdict.legal:
            problems.append(f"illegal answer: {verdict.reasons[0].message}")
    if answer["status"] == "optimal" and solo_points not in {None, answer["points_played"]}:
        problems.append(f"{answer['points_played']} points, in-process {solo_points}")
    return problems


def main(argv: Sequence[str]) -> int:
    """Start the server, send the burst, check every answer; print the Markdown report."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    cases = positions(args.requests, args.seed)
    bodies = [position_record(ident, position) for ident, position in cases]
    for body in bodies:
        body.pop("id")  # the API takes the position itself

    print("solving in-process, one after another (baseline)...", file=sys.stderr)
    solo_cpu: list[float] = []
    solo_points: list[int | None] = []
    for _, position in cases:
        start = time.process_time()
        play = best_play(position, Objective.POINTS, time_limit=TIME_CAP)
        solo_cpu.append(time.process_time() - start)
        solo_points.append(play.points_played if play.status is Status.OPTIMAL else None)

    port = free_port()
    server = start_server(port, args.workers)
    print(f"sending {len(bodies)} hint requests to port {port}...", file=sys.stderr)
    try:
        warm = httpx.post(f"http://127.0.0.1:{port}/api/hint", json=bodies[0], timeout=60)
        assert warm.status_code == 200, warm.text
        server_start = process_cpu(server.pid)
        start, client_start = time.perf_counter(), time.process_time()
        outcomes = asyncio.run(burst(f"http://127.0.0.1:{port}/api/hint", bodies, args.concurrency))
        wall, client_cpu = time.perf_counter() - start, time.process_time() - client_start
        server_end = process_cpu(server.pid)
        burst_cpu = None
        if server_start is not None and server_end is not None:
            burst_cpu = server_end - server_start
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(30)
    server_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)

    failed = [outcome for outcome in outcomes if outcome.answer is None]
    problems = [
        f"{ident}: {problem}"
        for (ident, position), outcome, points in zip(cases, outcomes, solo_points, strict=True)
        if outcome.answer is not None
        for problem in recheck(position, outcome.answer, points)
    ]
    statuses = Counter(outcome.answer["status"] for outcome in outcomes if outcome.answer)
    latency = [outcome.seconds * 1000 for outcome in outcomes]
    timing = Timing(wall, client_cpu, solo_cpu, server_cpu, burst_cpu)
    print(report(args, outcomes, failed, problems, statuses, latency, timing))
    return 1 if failed or problems else 0


@dataclass(frozen=True)
class Timing:
    """The burst's wall and client CPU time, the baseline's CPU times, the server's resource use."""

    wall: float
    client_cpu: float
    solo_cpu: list[float]
    server: resource.struct_rusage
    server_burst: float | None  # the server's CPU seconds during the burst alone


def report(  # noqa: PLR0917 (one argument per part of the report)
    args: argparse.Namespace,
    outcomes: list[Outcome],
    failed: list[Outcome],
    problems: list[str],
    statuses: Counter[str],
    latency: list[float],
    timing: Timing,
) -> str:
    wall, solo_cpu = timing.wall, timing.solo_cpu
    cpu = timing.server.ru_utime + timing.server.ru_stime
    counts = ", ".join(f"{name} {count}" for name, count in sorted(statuses.items()))
    solo_median = statistics.median(solo_cpu) * 1000
    burst_text = "not measured (no /proc)"
    if timing.server_burst is not None:
        per_request = timing.server_burst / len(outcomes) * 1000
        burst_text = f"{timing.server_burst:.2f} s ({per_request:.1f} ms a request)"
    lines = [
        f"`{COMMAND} --requests {args.requests} "
        f"--concurrency {args.concurrency} --workers {args.workers} --seed {args.seed}` "
        f"({platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores, shared with other work while it ran)",
        "",
        "| measure | value |",
        "| --- | --- |",
        f"| requests (in flight at once) | {len(outcomes)} ({args.concurrency}) |",
        f"| failed (not 200 with a hint) | {len(failed)} |",
        f"| answers re-checked wrong | {len(problems)} |",
        f"| statuses | {counts} |",
        f"| latency median | {statistics.median(latency):.0f} ms |",
        f"| latency p99 | {percentile(latency, 99):.0f} ms |",
        f"| latency max | {max(latency):.0f} ms |",
        f"| whole burst (wall) | {wall:.2f} s ({len(outcomes) / wall:.1f} requests/s) |",
        f"| server process CPU (start-up included) | {cpu:.2f} s |",
        f"| server CPU during the burst | {burst_text} |",
        f"| client CPU during the burst (this script) | {timing.client_cpu:.2f} s |",
        f"| in-process solve, median CPU per position | {solo_median:.1f} ms |",
        f"| in-process solve, total CPU | {sum(solo_cpu):.2f} s "
        f"({sum(solo_cpu) / len(solo_cpu) * 1000:.1f} ms a position) |",
    ]
    lines.extend(f"- {problem}" for problem in problems[:10])
    return "\n".join(lines)
