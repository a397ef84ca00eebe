"""``ordered_map``: results in input order, as soon as they and those before them are known."""

from __future__ import annotations

import concurrent.futures as cf
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from meldsat.executor.chunks import ChunkSizer, run_chunk
from meldsat.executor.prefetch import Prefetch
from meldsat.executor.runner import Runner, WorkerLostError, open_runner

T = TypeVar("T")
R = TypeVar("R")

# A chunk whose worker dies this often is given up (it may be what kills its workers).
MAX_ATTEMPTS = 3
# While waiting, ``on_wait`` is called this often (the progress line's clock).
_POLL_SECONDS = 0.25
# While waiting with room for more chunks, new input is looked for this often.
_INPUT_POLL_SECONDS = 0.02

ChunkFuture = cf.Future[tuple[list[R], float]]


@dataclass
class _Chunk(Generic[T, R]):
    first: int  # index of its first item in the whole run
    items: list[T]
    future: ChunkFuture[R]
    attempts: int = 1


def ordered_map(
    function: Callable[[T], R],
    items: Iterable[T],
    *,
    workers: int = 1,
    scheduler: str | None = None,
    runner: Runner | None = None,
    chunk_size: int | None = None,
    on_wait: Callable[[], None] | None = None,
) -> Generator[R, None, None]:
    """``function(item)`` for every item, in the order of ``items``.

    The work runs on ``workers`` local processes, or on the Dask cluster whose scheduler is at
    ``scheduler``, or on an open ``runner`` (see :func:`open_runner`). ``items`` is read only a
    few chunks ahead of the results, so memory stays flat however long it is. A chunk whose
    worker dies is sent again; ``on_wait`` is called every quarter second while waiting.
    """
    sizer = ChunkSizer(chunk_size)
    source = Prefetch(items)
    try:
        if runner is not None:
            yield from _in_order(function, source, runner, sizer, on_wait)
            return
        with open_runner(workers, scheduler) as own_runner:
            yield from _in_order(function, source, own_runner, sizer, on_wait)
    finally:
        source.stop()  # the reading thread ends too, even if the caller stopped early


def _in_order(
    function: Callable[[T], R],
    source: Prefetch[T],
    runner: Runner,
    sizer: ChunkSizer,
    on_wait: Callable[[], None] | None,
) -> Iterator[R]:
    pending: deque[_Chunk[T, R]] = deque()
    sent = 0
    while True:
        # Two chunks a worker keep every worker busy while the head of the line is awaited.
        window = 2 * runner.capacity() + 1
        while len(pending) < window:
            batch = source.take(sizer.next_size(), wait=not pending)
            if not batch:
                break
            pending.append(_Chunk(sent, batch, _send(runner, function, batch)))
            sent += len(batch)
        if not pending:
            return
        head = pending[0]
        if not head.future.done():
            # While more input may come and there is room, look back at it soon.
            more = len(pending) < window and not source.exhausted
            cf.wait([head.future], timeout=_INPUT_POLL_SECONDS if more else _POLL_SECONDS)
            if on_wait is not None:
                on_wait()
            if not head.future.done():
                runner.check()
            continue
        try:
            results, seconds = head.future.result()
        except Exception as error:
            if not runner.recover(error):
                raise
            _resend_unfinished(pending, runner, function)
            continue
        pending.popleft()
        sizer.observe(len(head.items), seconds)
        yield from results


def _send(runner: Runner, function: Callable[[T], R], items: list[T]) -> ChunkFuture[R]:
    # A pool that broke since the last chunk refuses new ones; the failure is handled like a
    # chunk that failed, when its turn comes.
    try:
        return runner.submit(run_chunk, function, items)
    except Exception as error:
        failed: ChunkFuture[R] = cf.Future()
        failed.set_exception(error)
        return failed


def _resend_unfinished(
    pending: deque[_Chunk[T, R]], runner: Runner, function: Callable[[T], R]
) -> None:
    """Send again every chunk without a result; the ones with a result keep it.

    Only a chunk the runner blames for the loss (it ran in the worker that died) is charged an
    attempt: three unrelated deaths do not end a run, one chunk that kills three workers does.
    """
    blamed = getattr(runner, "blamed", None)
    for chunk in pending:
        future = chunk.future
        if future.done() and not future.cancelled() and future.exception() is None:
            continue
        if blamed is None or blamed(future):
            chunk.attempts += 1
        if chunk.attempts > MAX_ATTEMPTS:
            last = chunk.first + len(chunk.items)
            message = f"items {chunk.first + 1}-{last} lost their worker {MAX_ATTEMPTS} times"
            raise WorkerLostError(message)
        chunk.future = _send(runner, function, chunk.items)
