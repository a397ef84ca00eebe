"""What runs the chunks: the interface shared by the local process pool and the Dask cluster."""

from __future__ import annotations

import concurrent.futures as cf
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

from meldsat.errors import MeldsatError

R = TypeVar("R")

# The name users install: `pip install 'meldsat[dask]'`.
DASK_EXTRA = "meldsat[dask]"
SCHEDULER_VARIABLE = "MELDSAT_SCHEDULER"


class ExecutorError(MeldsatError):
    """A batch cannot go on: Dask is missing, the scheduler is unreachable or was lost."""


class WorkerLostError(ExecutorError):
    """The same chunk lost its worker too often (it may be what kills the worker)."""


class Runner(Protocol):
    """Local processes or a cluster, seen through the ``concurrent.futures`` interface."""

    def submit(self, function: Callable[..., R], /, *args: Any) -> cf.Future[R]:
        """Start ``function(*args)`` on a worker."""
        ...

    def capacity(self) -> int:
        """How many chunks can run at once (worker threads in all)."""
        ...

    def workers_alive(self) -> int:
        """Worker processes running now (for the progress line)."""
        ...

    def check(self) -> None:
        """Raise :class:`ExecutorError` if the runner can no longer finish anything."""
        ...

    def recover(self, error: BaseException) -> bool:
        """After ``error`` from a chunk: True if a worker was lost and chunks can be sent again.

        False means the error is the function's own and should reach the caller; a loss the
        runner cannot recover from raises :class:`ExecutorError`.
        """
        ...

    def close(self, *, abandon: bool) -> None:
        """Release the workers; ``abandon`` stops the running chunks instead of waiting."""
        ...


def scheduler_from_environment() -> str | None:
    """The Dask scheduler address in ``MELDSAT_SCHEDULER``, or None when unset or empty."""
    return os.environ.get(SCHEDULER_VARIABLE, "").strip() or None


@contextmanager
def open_runner(workers: int = 1, scheduler: str | None = None) -> Iterator[Runner]:
    """Local worker processes, or a client of the Dask scheduler at ``scheduler`` when given.

    Leaving the block normally waits for the workers to finish; leaving it by an exception
    (Ctrl-C included) stops them at once.
    """
    runner: Runner
    if scheduler is not None:
        from meldsat.executor.cluster import ClusterRunner

        runner = ClusterRunner(scheduler)
    else:
        from meldsat.executor.local import LocalRunner

        runner = LocalRunner(workers)
    try:
        yield runner
    except BaseException:
        runner.close(abandon=True)
        raise
    runner.close(abandon=False)
