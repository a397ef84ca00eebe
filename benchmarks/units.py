"""How the benchmarks' reports print a time and summarise many: one percentile rule for all."""

from __future__ import annotations

from collections.abc import Iterable


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
