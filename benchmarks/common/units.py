"""What the benchmarks share: how they time a call (least CPU time of a few), print a time,
summarise many (one percentile rule for all), quote the command that made a report, and put the
report out (printed, and written atomically)."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TypeVar

from meldsat.files import write_text_atomic

R = TypeVar("R")


def ms(seconds: float) -> str:
    """``seconds`` as milliseconds with one decimal, as every report table shows them."""
    return f"{seconds * 1000:.1f}"


def percentile(values: Iterable[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values``, linear between the closest ranks (numpy's
    default; the median is the 50th)."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    rank = (len(ordered) - 1) * q / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def program(name: str) -> str:
    """How the benchmark ``name`` is run from the repository root (``benchmarks/registry.py``)."""
    return f"python -m benchmarks {name}"


def command_line(command: str, argv: Sequence[str]) -> str:
    """The command line that ran ``command`` (a :func:`program`) with ``argv``, as the reports
    quote it."""
    return " ".join([command, *argv])


def publish(text: str, out: Path | None) -> None:
    """Print a report on standard output and, when ``out`` is given, write it there atomically."""
    print(text)
    if out is not None:
        write_text_atomic(out, text)


def least_cpu(run: Callable[[], R], repeats: int) -> tuple[float, R]:
    """The least CPU seconds of ``repeats`` calls of ``run`` (a collection before each), and
    what the last call returned."""
    best = float("inf")
    for _ in range(repeats):
        gc.collect()
        start = time.process_time()
        result = run()
        best = min(best, time.process_time() - start)
    return best, result
