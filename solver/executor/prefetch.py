"""Items read ahead in a thread, so that a slow input never holds back answers already known."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")

# How many items may wait, read but not yet sent: enough to fill chunks, few enough to keep
# memory flat.
PREFETCH_ITEMS = 64
_POLL_SECONDS = 0.25


class _End:
    """Put in the queue after the last item."""


class _Failure:
    """Put in the queue when reading the items raised."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


class Prefetch(Generic[T]):
    """Reads ``items`` in a daemon thread into a small queue; :meth:`take` never waits for more
    than it must.

    A batch read from a pipe may pause for a long time between lines; meanwhile the answers to the
    lines already read must go out, so the loop that sends chunks takes what has arrived instead of
    waiting to fill a chunk.
    """

    def __init__(self, items: Iterable[T], depth: int = PREFETCH_ITEMS) -> None:
        self._queue: queue.Queue[T | _End | _Failure] = queue.Queue(maxsize=depth)
        self._stopped = threading.Event()
        self.exhausted = False
        reader = threading.Thread(target=self._read, args=(iter(items),), daemon=True)
        reader.start()

    def _read(self, items: Iterator[T]) -> None:
        try:
            for item in items:
                if not self._put(item):
                    return
        except BaseException as error:
            self._put(_Failure(error))
            return
        self._put(_End())

    def _put(self, entry: T | _End | _Failure) -> bool:
        # Polls, so that a reader whose consumer went away stops instead of blocking forever.
        while not self._stopped.is_set():
            try:
                self._queue.put(entry, timeout=_POLL_SECONDS)
            except queue.Full:
                continue
            return True
        return False

    def take(self, count: int, *, wait: bool) -> list[T]:
        """Up to ``count`` items that have arrived; with ``wait``, wait for at least one.

        An empty list with :attr:`exhausted` set means the items are all read; an error raised
        while reading them is raised here.
        """
        batch: list[T] = []
        while len(batch) < count and not self.exhausted:
            try:
                entry = self._queue.get(block=wait and not batch, timeout=_POLL_SECONDS)
            except queue.Empty:
                if wait and not batch:
                    continue
                break
            if isinstance(entry, _End):
                self.exhausted = True
            elif isinstance(entry, _Failure):
                self.exhausted = True
                raise entry.error
            else:
                batch.append(entry)
        return batch

    def stop(self) -> None:
        """Let the reading thread end (the consumer wants no more items)."""
        self._stopped.set()
