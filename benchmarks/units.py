"""How the benchmarks' reports print a time."""

from __future__ import annotations


def ms(seconds: float) -> str:
    """``seconds`` as milliseconds with one decimal, as every report table shows them."""
    return f"{seconds * 1000:.1f}"
