"""A Dask cluster as the runner: ``distributed.Client`` and its ``concurrent.futures`` executor.

Dask (the ``meldsat[dask]`` extra) is imported here only, so the rest of meldsat runs without it.
The scheduler already reruns the tasks of a worker that dies; only a task that keeps killing
workers (Dask's ``allowed-failures``, 3 by default) comes back as an error.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from meldsat.errors import quote
from meldsat.executor.runner import DASK_EXTRA, ExecutorError, WorkerLostError

R = TypeVar("R")

_CONNECT_SECONDS = 10
# The cluster's size is asked of the scheduler at most this often (each ask is a round trip).
_INFO_SECONDS = 1.0


def _check_address(address: str) -> None:
    """Refuse an address that no Dask transport can use (its scheme, a missing port, a host
    that does not resolve) before a client is made.

    A client that fails on its address is left half made, and closing it at exit waits 20 s and
    prints a traceback: the address is judged first, at once.
    """
    from distributed.comm.addressing import parse_address, resolve_address
    from distributed.comm.registry import backends

    try:
        scheme, _ = parse_address(address)
    except (TypeError, ValueError) as error:
        raise ExecutorError(f"bad Dask scheduler address {quote(address)}: {error}") from None
    if scheme not in backends:
        known = ", ".join(sorted(backends))
        raise ExecutorError(
            f"bad Dask scheduler address {quote(address)}: unknown scheme {quote(scheme)} "
            f"(known: {known}; like tcp://host:8786)"
        )
    try:
        resolve_address(address)
    except (OSError, ValueError) as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        raise ExecutorError(f"bad Dask scheduler address {quote(address)}: {reason}") from None


@contextlib.contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Hold Ctrl-C back until the block is done, then hand it to the handler the block found
    (main thread only).

    A ``KeyboardInterrupt`` inside ``distributed``'s ``Future`` constructor leaves a half-made
    future whose ``__del__`` prints a traceback at exit ("'Future' object has no attribute
    '_client'"); a task sent whole is cancelled like the others. The held Ctrl-C goes to that
    handler, not straight up as ``KeyboardInterrupt``, so that a batch's
    :class:`~meldsat.cli.interrupts.InterruptGuard` notes it as it notes any other.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: caught.append(signum))
    # (None: a handler not set from Python; the default one is the nearest.)
    handler = signal.default_int_handler if previous is None else previous
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler)
    if caught and callable(handler):
        handler(signal.SIGINT, None)
    elif caught and handler != signal.SIG_IGN:
        raise KeyboardInterrupt


class ClusterRunner:
    """A client of the Dask scheduler at ``address``; chunks run as Dask tasks."""

    def __init__(self, address: str) -> None:
        try:
            import distributed
        except ImportError:
            message = f"a Dask scheduler needs the optional extra: pip install '{DASK_EXTRA}'"
            raise ExecutorError(message) from None
        if not address.strip():
            # distributed.Client would start a cluster of its own on this machine instead.
            raise ExecutorError("no Dask scheduler address: give one like tcp://host:8786")
        self.address = address
        _check_address(address)
        self._killed_worker = distributed.KilledWorker
        try:
            self._client = distributed.Client(  # type: ignore[no-untyped-call]
                address, timeout=_CONNECT_SECONDS, set_as_default=False
            )
        except (OSError, TimeoutError, ValueError) as error:
            reason = " ".join(str(error).split()) or type(error).__name__
            raise ExecutorError(f"cannot reach the Dask scheduler '{address}': {reason}") from None
        # pure=False: every chunk is its own task, even if two chunks hold equal items.
        self._executor = self._client.get_executor(pure=False)  # type: ignore[no-untyped-call]
        self._info: dict[str, Any] = {}
        self._info_time = -_INFO_SECONDS

    def submit(self, function: Callable[..., R], /, *args: Any) -> cf.Future[R]:
        """Start ``function(*args)`` as a task on the cluster."""
        with _ctrl_c_held():
            future: cf.Future[R] = self._executor.submit(function, *args)
        return future

    def _workers(self) -> dict[str, Any]:
        now = time.monotonic()
        if now - self._info_time >= _INFO_SECONDS:
            self._info = dict(self._client.scheduler_info())
            self._info_time = now
        workers: dict[str, Any] = self._info.get("workers", {})
        return workers

    def capacity(self) -> int:
        """Worker threads in the cluster now (at least 1, so a run waits for workers to join)."""
        return max(1, sum(int(worker.get("nthreads", 1)) for worker in self._workers().values()))

    def workers_alive(self) -> int:
        """Workers the scheduler knows now."""
        return len(self._workers())

    def check(self) -> None:
        """A client that gave up reconnecting to its scheduler leaves its tasks unfinished."""
        if self._client.status in ("closing", "closed"):
            raise ExecutorError(f"lost the Dask scheduler '{self.address}'")

    def recover(self, error: BaseException) -> bool:
        """Dask already retried the task elsewhere: a lost worker here is final."""
        if isinstance(error, self._killed_worker):
            # (The error's own text needs the scheduler's worker record; it is not printable here.)
            message = "a chunk killed its Dask worker too often (Dask's allowed-failures)"
            raise WorkerLostError(message) from None
        if isinstance(error, ImportError):
            # A worker without meldsat (or another version) cannot even read the task.
            message = f"a Dask worker cannot run meldsat ({error}): install {DASK_EXTRA} there"
            raise ExecutorError(message) from None
        if isinstance(error, cf.CancelledError):
            # The client cancels every task when it loses the scheduler.
            raise ExecutorError(f"lost the Dask scheduler '{self.address}'") from None
        return False

    def close(self, *, abandon: bool) -> None:
        """Wait for (or, ``abandon``, cancel) the tasks sent, then disconnect."""
        try:
            self._executor.shutdown(wait=not abandon)
        finally:
            self._client.close()  # type: ignore[no-untyped-call]
