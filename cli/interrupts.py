"""Ctrl-C during a batch: stop at once, but never in the middle of writing a line."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class InterruptGuard:
    """While active, SIGINT raises ``KeyboardInterrupt`` except inside :meth:`deferred` blocks.

    A Ctrl-C that arrives while a line is being written is held until the line is whole.
    Elsewhere (waiting for workers, reading stdin) it stops the run at once.
    """

    def __init__(self) -> None:
        self._deferring = False
        self._pending = False
        self._previous: object = None
        self._installed = False
        # Set by any Ctrl-C, so an error it causes on the way out (a Dask client cut off in the
        # middle of a call reports a lost scheduler) is still reported as the interrupt it is.
        self.interrupted = False

    def __enter__(self) -> InterruptGuard:
        # Signal handlers can only be set from the main thread; elsewhere Ctrl-C is not ours.
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
            self._installed = True
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._previous)  # type: ignore[arg-type]
            self._installed = False

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.interrupted = True
        if self._deferring:
            self._pending = True
        else:
            raise KeyboardInterrupt

    @contextmanager
    def deferred(self) -> Iterator[None]:
        """Hold a Ctrl-C that arrives inside the block until the block is done."""
        self._deferring = True
        try:
            yield
        finally:
            self._deferring = False
        if self._pending:
            self._pending = False
            raise KeyboardInterrupt
