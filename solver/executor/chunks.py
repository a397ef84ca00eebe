"""Chunks of items: what a worker runs in one go, and how big to make them.

A chunk should take long enough that sending it (pickling, a round trip, a Dask task) costs little
beside it, and short enough that results keep flowing and a lost worker costs little. The sizes
start at 1, so the first results come at once, and grow to about a quarter of a second of work.
Chunk sizes never change the results, only how fast they come.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

TARGET_CHUNK_SECONDS = 0.25
MAX_CHUNK_SIZE = 512


def run_chunk(function: Callable[[T], R], items: list[T]) -> tuple[list[R], float]:
    """Run ``function`` on each item, in order, in this worker; also the seconds it took."""
    start = time.perf_counter()
    results = [function(item) for item in items]
    return results, time.perf_counter() - start


class ChunkSizer:
    """The size of the next chunk: ``fixed`` if given, else grown from measured item times."""

    def __init__(self, fixed: int | None = None) -> None:
        if fixed is not None and fixed < 1:
            raise ValueError(f"chunk_size must be at least 1, not {fixed}")
        self.fixed = fixed
        self._last = 0
        self._items = 0
        self._seconds = 0.0

    def next_size(self) -> int:
        """The number of items to put in the next chunk."""
        if self.fixed is not None:
            return self.fixed
        wanted = MAX_CHUNK_SIZE
        if self._items and self._seconds > 0:
            wanted = int(TARGET_CHUNK_SECONDS * self._items / self._seconds)
        # At most double each time: one slow item early must not make a huge first chunk.
        self._last = max(1, min(wanted, 2 * self._last, MAX_CHUNK_SIZE))
        return self._last

    def observe(self, items: int, seconds: float) -> None:
        """Record that a chunk of ``items`` items took ``seconds`` in its worker."""
        self._items += items
        self._seconds += seconds
