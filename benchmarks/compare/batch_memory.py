"""Peak memory of ``meldsat hint --jsonl -`` against the length of the batch (it should be flat).

Run from the repository root (psutil installed, e.g. with ``pip install -e ".[test]"``)::

    python -m benchmarks batch-memory --lines 20000 200000

Each run feeds that many lines to the command's stdin from a thread, reads its answers, and samples
the resident memory of the command's own process (not its workers) every 50 ms. The lines are bad
input (a card that does not exist), answered without solving, so the run measures the batch loop
(reading, sending, ordering, writing), not the engine.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
import time
from collections.abc import Sequence

import psutil

from benchmarks.common.units import program

COMMAND = program("batch-memory")
LINE = b'{"hand": "QX", "id": "%d"}\n'


def peak_memory(lines: int) -> tuple[int, int, float]:
    """(answers read, peak resident bytes of the command's process, seconds) for one run."""
    command = [sys.executable, "-m", "meldsat", "hint", "--jsonl", "-", "--workers", "2"]
    child = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert child.stdin is not None and child.stdout is not None
    stdin, stdout = child.stdin, child.stdout

    def feed() -> None:
        for number in range(lines):
            stdin.write(LINE % number)
        stdin.close()

    answers = [0]

    def drain() -> None:
        for _ in stdout:
            answers[0] += 1

    threads = [threading.Thread(target=feed), threading.Thread(target=drain)]
    for thread in threads:
        thread.start()
    process = psutil.Process(child.pid)
    peak = 0
    start = time.perf_counter()
    while child.poll() is None:
        try:
            peak = max(peak, process.memory_info().rss)
        except psutil.NoSuchProcess:
            break
        time.sleep(0.05)
    for thread in threads:
        thread.join()
    return answers[0], peak, time.perf_counter() - start


def main(argv: Sequence[str]) -> int:
    """Print one Markdown table row per batch length."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[20_000, 200_000])
    args = parser.parse_args(argv)
    print("| lines | answers | peak memory of the command's process | seconds |")
    print("| ---: | ---: | ---: | ---: |")
    for lines in args.lines:
        answers, peak, seconds = peak_memory(lines)
        print(f"| {lines:,} | {answers:,} | {peak / 1e6:.1f} MB | {seconds:.1f} |")
    return 0
