"""The server's lanes: bounded pools of worker threads, one per kind of work.

A lane runs a request's work in one of its ``workers`` threads, off the event loop; at most
``queue`` more requests wait for a thread, and one more is refused at once (:class:`BusyError`, the
answer 503). The solving answers have their own lane and the quick ones (no solver) theirs, so a
quick answer never waits behind a solve.

While a request's work waits or runs, its client is watched: when it disconnects, a waiting
request leaves the queue without running, and a running one has its solve stopped
(``meldsat.engine.solving.SolveStop``: the solve in progress ends at once and no later one
starts), then :class:`ClientGoneError` is raised so that nothing is answered to nobody.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import anyio
import anyio.to_thread

T = TypeVar("T")
# Waits for the next message of the request's client: for a request whose body was read, only
# ``http.disconnect`` is left to come (when the client goes, or once the answer is sent).
Receive = Callable[[], Awaitable[object]]


class BusyError(Exception):
    """Every worker of the lane is busy and its queue is full."""


class ClientGoneError(Exception):
    """The client disconnected before its answer was ready: the work was dropped."""


class Lane:
    """``workers`` threads for one kind of work, and at most ``queue`` requests waiting."""

    def __init__(self, name: str, workers: int, queue: int) -> None:
        self.name = name
        self.workers = workers
        self.queue = queue
        self.limiter = anyio.CapacityLimiter(workers)
        self.admitted = 0  # requests running in or waiting for a worker
        self.dropped = 0  # requests whose client went away before their answer

    async def run(self, work: Callable[[], T], receive: Receive) -> T:
        """``work()`` in a worker thread; :class:`BusyError` when the lane is full,
        :class:`ClientGoneError` when the client disconnects first (``receive`` gives its next
        message)."""
        # OR-Tools loads with the engine's warm-up, not when the app is imported.
        from meldsat.engine.solving import SolveStop, SolveStoppedError

        if self.admitted >= self.workers + self.queue:
            raise BusyError(f"the server is busy ({self.name} lane full): try again in a moment")
        self.admitted += 1
        stop = SolveStop()
        outcome: list[T] = []
        failure: list[Exception] = []

        def stoppable() -> T:
            with stop.solves():
                return work()

        try:
            async with anyio.create_task_group() as group:

                async def watch() -> None:
                    message = await receive()
                    if isinstance(message, dict) and message.get("type") == "http.disconnect":
                        stop.stop()
                        group.cancel_scope.cancel()

                group.start_soon(watch)
                # The work's own failure is raised after the group: inside it, anyio would wrap it.
                try:
                    outcome.append(await anyio.to_thread.run_sync(stoppable, limiter=self.limiter))
                except SolveStoppedError:
                    pass  # stopped because the client went: the watcher has cancelled the group
                except Exception as error:
                    failure.append(error)
                group.cancel_scope.cancel()
        finally:
            self.admitted -= 1
        if failure:
            raise failure[0]
        if not outcome:
            self.dropped += 1
            raise ClientGoneError("the client went away before its answer")
        return outcome[0]
