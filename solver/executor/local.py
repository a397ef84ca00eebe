"""Worker processes on this machine: a ``ProcessPoolExecutor`` that survives a killed worker."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import itertools
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

R = TypeVar("R")

# Seconds between a worker's checks that the process that started the pool is still there.
_OWNER_CHECK_SECONDS = 1.0


class LocalRunner:
    """``workers`` processes on this machine, replaced all together when one is killed.

    A killed worker breaks every chunk in flight, but only the chunk that was running in the
    dead process is to blame (:meth:`blamed`): each worker says which chunk it starts, and the
    pool's processes say which died. A worker killed from outside (the OOM killer, a person)
    while others ran charges no chunk but its own.
    """

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        self.workers = workers
        self._tokens = itertools.count()
        self._token_of: dict[cf.Future[Any], int] = {}
        self._blamed: set[int] = set()
        self._pool = self._new_pool()

    def _new_pool(self) -> cf.ProcessPoolExecutor:
        # forkserver, not fork: the caller may run threads (a Dask client, a test runner), and
        # forking a threaded process can deadlock the child. (spawn where there is no forkserver.)
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        # Each worker puts (chunk token, its pid) here as it starts a chunk.
        self._starts: Any = context.SimpleQueue()
        return cf.ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=context,
            initializer=_start_worker,
            initargs=(os.getpid(), self._starts),
        )

    def submit(self, function: Callable[..., R], /, *args: Any) -> cf.Future[R]:
        """Start ``function(*args)`` in a worker process."""
        token = next(self._tokens)
        future = self._pool.submit(_run_marked, token, function, *args)
        self._token_of[future] = token
        future.add_done_callback(self._forget_if_answered)
        return future

    def _forget_if_answered(self, future: cf.Future[Any]) -> None:
        if not future.cancelled() and future.exception() is None:
            self._token_of.pop(future, None)

    def blamed(self, future: cf.Future[Any]) -> bool:
        """True if the chunk of ``future`` was running in a worker that died."""
        return self._token_of.pop(future, None) in self._blamed

    def capacity(self) -> int:
        """One chunk per worker process."""
        return self.workers

    def workers_alive(self) -> int:
        """Worker processes started and not dead."""
        # The pool keeps no public list of its processes.
        processes = self._pool._processes or {}
        return sum(1 for process in processes.values() if process.is_alive())

    def check(self) -> None:
        """A local pool always can: a killed worker shows as a failed chunk instead."""

    def recover(self, error: BaseException) -> bool:
        """A killed worker breaks the whole pool: start a fresh one for the chunks not done."""
        if not isinstance(error, BrokenProcessPool):
            return False
        # Before the pool is stopped: which processes died, and which chunk each was running.
        processes = self._pool._processes or {}
        dead = _the_workers_that_died(processes)
        running: dict[int, int] = {}
        with contextlib.suppress(OSError, EOFError):
            while not self._starts.empty():
                token, pid = self._starts.get()
                running[pid] = token  # a worker's latest start is the chunk it was running
        self._blamed = {token for pid, token in running.items() if pid in dead}
        self._stop_pool()
        self._pool = self._new_pool()
        return True

    def close(self, *, abandon: bool) -> None:
        """Wait for the workers, or (``abandon``) stop them now."""
        if abandon:
            self._stop_pool()
        else:
            self._pool.shutdown(wait=True)

    def _stop_pool(self) -> None:
        processes = list((self._pool._processes or {}).values())
        for process in processes:
            if process.is_alive():
                process.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)


def _the_workers_that_died(processes: Mapping[int, Any]) -> set[int]:
    """The pids of the workers that died of their own, not of the pool's clean-up.

    A broken pool terminates (SIGTERM) every worker still running, so by the time the owner
    looks, a worker that was only finishing a chunk may be dead too. Those are told apart by
    their exit code; if every dead worker was terminated (a person's SIGTERM), all are.
    """
    dead = {pid: process.exitcode for pid, process in processes.items() if not process.is_alive()}
    died = {pid for pid, exitcode in dead.items() if exitcode != -signal.SIGTERM}
    return died or set(dead)


_STARTS: Any = None  # in a worker: where it says which chunk it starts


def _run_marked(token: int, function: Callable[..., R], /, *args: Any) -> R:
    """Say that chunk ``token`` starts in this process, then run it."""
    _STARTS.put((token, os.getpid()))
    return function(*args)


def _start_worker(owner_pid: int, starts: Any) -> None:
    """Set up a worker process: deaf to the terminal's Ctrl-C, and gone when its owner is.

    A Ctrl-C reaching a worker would interrupt the line it is solving, which the owner would then
    have to tell from an answer. In a process group of its own the worker never sees the
    terminal's signal; the owner stops it instead.
    """
    global _STARTS  # noqa: PLW0603 (one queue a worker process, set once as it starts)
    _STARTS = starts
    if hasattr(os, "setpgrp"):  # POSIX
        os.setpgrp()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watchdog = threading.Thread(target=_exit_with_owner, args=(owner_pid,), daemon=True)
    watchdog.start()


def _exit_with_owner(owner_pid: int) -> None:
    # An owner killed outright (SIGKILL) cannot stop its workers, and under forkserver they are
    # not its children (each also keeps the fork server alive): they watch for it and leave.
    while True:
        time.sleep(_OWNER_CHECK_SECONDS)
        try:
            os.kill(owner_pid, 0)
        except ProcessLookupError:
            os._exit(1)
        except PermissionError:  # alive, under another user: keep going
            pass
