"""Misbehaving clients against ``meldsat serve``: unread answers, slow solves, abandons, slowloris.

Run from the repository root, with the web extra and the test extra (httpx, psutil)::

    python -m benchmarks web-abuse
    python -m benchmarks web-abuse --python /path/to/other/venv/bin/python   # another checkout

Each scenario starts a fresh ``meldsat serve`` (default limits, 2 solving workers) on loopback with
the interpreter given by ``--python`` (by default this one), so the same script measures the
server of any checkout, and talks to it with real concurrent clients (asyncio sockets):

- ``unread``: 60 clients each send ``POST /api/validate?draw=1`` with a 63 KB table (21,000 cards,
  a 10 MB drawn answer) and never read the answer (a 4 KB receive buffer). Reported: the server's
  resident memory before, its peak over 15 s and at the end, and the statuses the clients got.
- ``stall``: 2, then 6 slow hints sent at once (the slowest position of the worst-case hunt,
  about 0.7 s of CP-SAT each on a quiet machine) and 0.1 s later one small ``/api/validate``: its
  latency (median of 5 rounds), against the same request with no hint in flight.
- ``abandoned``: 8 slow hints sent and their connections closed at once, then one small hint:
  its latency, and the server's CPU seconds over the next 10 s (what the abandoned work cost).
- ``slowloris``: 50 connections trickle a request head, one byte every 0.5 s: the latency of a
  normal ``GET /api/rules`` meanwhile, and how many of the 50 the server closed within 15 s.

The report is Markdown on stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import psutil

from benchmarks.common.units import program

COMMAND = program("web-abuse")
WORST = Path(__file__).resolve().parent.parent / "worst-positions.jsonl"


@dataclass(frozen=True)
class Server:
    """A running ``meldsat serve``: its port and process."""

    port: int
    process: psutil.Process

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def rss_mb(self) -> float:
        return float(self.process.memory_info().rss) / 2**20

    def cpu(self) -> float:
        times = self.process.cpu_times()
        return float(times.user + times.system)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(python: str) -> Iterator[Server]:
    """``meldsat serve`` with its default limits, run by ``python``, until the block ends."""
    port = free_port()
    command = [python, "-m", "meldsat", "serve", "--port", str(port)]
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/rules", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            raise SystemExit("the server did not start within 60 s")
        yield Server(port, psutil.Process(child.pid))
    finally:
        child.send_signal(signal.SIGINT)
        try:
            child.wait(20)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def request(path: str, body: dict[str, object] | None = None) -> bytes:
    """A whole HTTP/1.1 request: a GET, or a POST of ``body`` as JSON."""
    if body is None:
        return f"GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n".encode()
    data = json.dumps(body).encode()
    head = f"POST {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
    return head.encode() + f"Content-Length: {len(data)}\r\n\r\n".encode() + data


async def connection(
    port: int, receive_buffer: int | None = None
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    raw = socket.socket()
    if receive_buffer is not None:
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    raw.setblocking(False)
    await asyncio.get_running_loop().sock_connect(raw, ("127.0.0.1", port))
    return await asyncio.open_connection(sock=raw, limit=1 << 16)


def slow_hint() -> dict[str, object]:
    """The slowest hint the worst-case hunt kept (``benchmarks/worst-positions.jsonl``,
    ``hunt-rummy300-3-0``, by cards played): 0.7 s of CPU when it was found, up to the server's
    5 s cap on a loaded machine."""
    for line in WORST.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["id"] == "hunt-rummy300-3-0":
            fields = {key: record[key] for key in ("rules", "players", "table", "hand")}
            return {**fields, "objective": "cards"}
    raise LookupError("hunt-rummy300-3-0 is not in " + str(WORST))


SMALL = {"table": "4S 5S 6S *=7S | 7S 7H 7D 7C", "hand": "QH KH 8D 2C"}


async def timed(ask: Callable[[], Awaitable[object]]) -> float:
    start = time.perf_counter()
    await ask()
    return time.perf_counter() - start


# --- the scenarios --------------------------------------------------------------------------------


async def unread(server: Server) -> list[str]:
    body = request("/api/validate?draw=1", {"table": " ".join(["4S"] * 21_000)})
    before = server.rss_mb()
    clients = [await connection(server.port, receive_buffer=4096) for _ in range(60)]
    for _, writer in clients:
        writer.write(body)
    await asyncio.gather(*(writer.drain() for _, writer in clients))
    peak = before
    start = time.monotonic()
    while time.monotonic() - start < 15:
        peak = max(peak, server.rss_mb())
        await asyncio.sleep(0.25)
    end = server.rss_mb()
    statuses: Counter[str] = Counter()
    for reader, _ in clients:
        try:
            line = await asyncio.wait_for(reader.readline(), 5)
            statuses[line.split(b" ")[1].decode() if line else "closed"] += 1
        except (TimeoutError, ConnectionError, IndexError):
            statuses["closed"] += 1
    for _, writer in clients:
        writer.close()
    counts = ", ".join(f"{status} x{count}" for status, count in sorted(statuses.items()))
    return [
        f"| unread: 60 clients, 63 KB in, answers never read | RSS {before:.0f} MB before, "
        f"peak {peak:.0f} MB, {end:.0f} MB after 15 s; statuses {counts} |"
    ]


async def stall(server: Server) -> list[str]:
    async with httpx.AsyncClient(base_url=server.base, timeout=120) as client:

        async def validate() -> None:
            response = await client.post("/api/validate", json=SMALL)
            assert response.status_code == 200, response.text

        await validate()  # untimed: the first answer of each kind loads its modules
        quiet = [await timed(validate) for _ in range(5)]
        lines = [f"| stall: small validate, nothing in flight | median {_ms(quiet)} |"]
        for hints in (2, 6):
            loaded, solving = [], []
            for _ in range(5):  # rounds: the hints sent, then one validate behind them
                start = time.perf_counter()
                tasks = [
                    asyncio.create_task(client.post("/api/hint", json=slow_hint()))
                    for _ in range(hints)
                ]
                await asyncio.sleep(0.1)
                loaded.append(await timed(validate))
                codes = [(await task).status_code for task in tasks]
                assert codes == [200] * hints, codes
                solving.append(time.perf_counter() - start)
            lines.append(
                f"| stall: small validate, {hints} slow hints in flight | median {_ms(loaded)}, "
                f"max {max(loaded) * 1000:.0f} ms (the hints took {_ms(solving)}) |"
            )
    return lines


async def abandoned(server: Server) -> list[str]:
    cpu_before = server.cpu()
    for _ in range(8):
        _, writer = await connection(server.port)
        writer.write(request("/api/hint", slow_hint()))
        await writer.drain()
        writer.close()
    async with httpx.AsyncClient(base_url=server.base, timeout=120) as client:
        latency = await timed(lambda: client.post("/api/hint", json=SMALL))
    await asyncio.sleep(max(0.0, 10 - latency))
    spent = server.cpu() - cpu_before
    return [
        f"| abandoned: 8 slow hints whose clients left, then one small hint | "
        f"{latency * 1000:.0f} ms for the small hint; server CPU over 10 s {spent:.1f} s |"
    ]


async def slowloris(server: Server) -> list[str]:
    head = b"GET /api/rules HTTP/1.1\r\nHost: bench\r\n" + b"X-Slow: " + b"x" * 200
    clients = [await connection(server.port) for _ in range(50)]
    closed_at: list[float] = []
    start = time.monotonic()

    async def trickle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        for byte in head:
            if time.monotonic() - start > 15:
                return  # still open: the server has not closed it
            try:
                writer.write(bytes([byte]))
                await writer.drain()
                await asyncio.wait_for(reader.read(4096), 0.5)  # an answer (408) or the end
            except TimeoutError:
                continue  # nothing from the server: go on trickling
            except ConnectionError:
                pass
            closed_at.append(time.monotonic() - start)
            return

    tricklers = [asyncio.create_task(trickle(*pair)) for pair in clients]
    await asyncio.sleep(1)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as client:
        latency = await timed(lambda: client.get("/api/rules"))
    await asyncio.gather(*tricklers)
    for _, writer in clients:
        writer.close()
    when = f", the last at {max(closed_at):.1f} s" if closed_at else ""
    return [
        f"| slowloris: 50 connections trickling a request head | GET /api/rules meanwhile "
        f"{latency * 1000:.0f} ms; {len(closed_at)} of 50 closed by the server within 15 s{when} |"
    ]


def _ms(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1000:.0f} ms"


SCENARIOS = ("unread", "stall", "abandoned", "slowloris")


def main(argv: Sequence[str]) -> int:
    """Run each scenario against a fresh server; print the Markdown table."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="runs the server")
    parser.add_argument("--only", choices=SCENARIOS, action="append")
    args = parser.parse_args(argv)
    lines = [
        f"`{COMMAND}` (server run by {args.python}; "
        f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores, "
        "shared with other work while it ran)",
        "",
        "| scenario | measured |",
        "| --- | --- |",
    ]
    for name in args.only or SCENARIOS:
        print(f"{name}...", file=sys.stderr)
        with serving(args.python) as server:
            if name == "unread":
                lines += asyncio.run(unread(server))
            elif name == "stall":
                lines += asyncio.run(stall(server))
            elif name == "abandoned":
                lines += asyncio.run(abandoned(server))
            else:
                lines += asyncio.run(slowloris(server))
    print("\n".join(lines))
    return 0
