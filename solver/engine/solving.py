"""Every CP-SAT solve in meldsat is set up and run here: parameters, time limit, workers, Ctrl-C.

Two searches share the set-up. The engine's (:class:`EngineSearch`) switches off what was measured
to cost more than it saves on its small models (docs/ENGINE.md, "Solver parameters"). The puzzles
keep CP-SAT's default search (``search=None``): which of several optimal tables the generator's
random objectives get follows the search, and a seed must keep giving the same puzzles.
Either way the seed is fixed and, by default, there is one worker, so a solve is deterministic.

Ctrl-C: CP-SAT's own SIGINT handler is switched off, since it would turn the interrupt into a
false "time limit" answer and leave SIGINT at its default afterwards (the next Ctrl-C would then
kill the process silently). Python's handler, in turn, cannot run while the main thread is inside
CP-SAT: by default a Ctrl-C is raised as soon as the solve returns, which for the engine's solves
(milliseconds, as a rule) is at once. Inside :func:`stoppable_solves` (the puzzle commands, whose
solves may take up to their time limit), :func:`run_solver` lets a helper thread solve while the
main thread waits; a ``KeyboardInterrupt`` raised during the wait stops the search and is raised
again as soon as the solve has returned. A handler that holds the interrupt for a while
(``meldsat.cli.interrupts``' deferred blocks) lets the solve finish. The helper thread is not the
default because starting it and handing the solve over costs a tenth of a millisecond or more, a
share of the engine's median solve that its benchmarks would show.

Another thread (the web server's event loop, when a request's client goes away) stops the solves
of a piece of work through a :class:`SolveStop`: the work runs inside ``stop.solves()`` in its own
thread, and ``stop.stop()`` stops the solve running there at once and every later one before it
starts; each raises :class:`SolveStoppedError`, so the work ends instead of answering nobody.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from meldsat.engine.cpsat import cp_model

if TYPE_CHECKING:
    from ortools.sat.python.cp_model_helper import CpSolverStatus

# How often an interrupted solve is told again to stop: a stop asked for before CP-SAT has begun
# the search is not seen by it.
_STOP_REPEAT_SECONDS = 0.05

# One entry for each stoppable_solves block open (they may nest).
_open_blocks: list[None] = []
# The SolveStop of the work running in this thread, if any (``SolveStop.solves``).
_thread_stop = threading.local()


class SolveStoppedError(Exception):
    """The solve was stopped by its :class:`SolveStop`: nobody wants its answer any more."""


class SolveStop:
    """Stops, from any thread, the solves of the work run inside :meth:`solves` in one thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stopped = False
        self._running: cp_model.CpSolver | None = None
        self._over = threading.Event()  # set when the running solve has returned

    @property
    def stopped(self) -> bool:
        """True once :meth:`stop` was called."""
        return self._stopped

    @contextmanager
    def solves(self) -> Iterator[None]:
        """Run this thread's solves under this stop (for the block's duration)."""
        previous = getattr(_thread_stop, "stop", None)
        _thread_stop.stop = self
        try:
            yield
        finally:
            _thread_stop.stop = previous

    def stop(self) -> None:
        """Stop the running solve at once, and refuse every later one (each raises
        :class:`SolveStoppedError`)."""
        with self._lock:
            self._stopped = True
            running = self._running
        if running is not None:
            # Told again until it returns: a stop asked before CP-SAT began its search is not seen.
            threading.Thread(target=self._keep_stopping, args=(running,), daemon=True).start()

    def _keep_stopping(self, solver: cp_model.CpSolver) -> None:
        while True:
            solver.stop_search()
            if self._over.wait(_STOP_REPEAT_SECONDS):
                return

    def _solve(self, solver: cp_model.CpSolver, model: cp_model.CpModel) -> CpSolverStatus:
        with self._lock:
            if self._stopped:
                raise SolveStoppedError("stopped before the solve began")
            self._running = solver
            self._over.clear()
        try:
            status = solver.solve(model)
        finally:
            with self._lock:
                self._running = None
                self._over.set()
        if self._stopped:
            raise SolveStoppedError("stopped during the solve")
        return status


@dataclass(frozen=True)
class EngineSearch:
    """The engine's search. ``linearization_level`` says which constraints go into the LP: 2 (all
    of them) for the plain model, 1 for 500 rummy's larger models with their weak LP.
    ``follow_strategy`` makes CP-SAT branch in the order of the model's decision strategies
    (its fixed search) instead of its own choice (``meldsat.engine.small_hands`` sets them)."""

    linearization_level: int = 2
    follow_strategy: bool = False


def new_solver(
    time_limit: float | None = None,
    *,
    search: EngineSearch | None = None,
    num_workers: int = 1,
    log_search_progress: bool = False,
) -> cp_model.CpSolver:
    """A CP-SAT solver set up the one way meldsat solves: fixed seed, ``num_workers`` workers,
    ``time_limit`` seconds (``None``: no limit), CP-SAT's SIGINT handler off, and the engine's
    ``search`` or (``None``) CP-SAT's default one. Run it with :func:`run_solver`.

    ``log_search_progress`` prints CP-SAT's log of the search to standard output.
    """
    # Looked up at each call, so a benchmark may put a subclass in its place for a while.
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers = num_workers
    params.random_seed = 0
    params.log_search_progress = log_search_progress
    params.catch_sigint_signal = False
    if search is not None:
        # Measured on full-table positions (benchmarks/): these models are small and their LP is
        # tight, so CP-SAT's presolve, probing, symmetry detection, cuts and inprocessing cost
        # more time than they save, and putting every constraint in the LP at once beats adding
        # them lazily (median solve 2 ms instead of 5 on the dev positions).
        params.cp_model_presolve = False
        params.cp_model_probing_level = 0
        params.symmetry_level = 0
        params.linearization_level = search.linearization_level
        params.add_cg_cuts = False
        params.add_mir_cuts = False
        params.add_zero_half_cuts = False
        params.add_clique_cuts = False
        params.use_sat_inprocessing = False
        params.add_lp_constraints_lazily = False
        if search.follow_strategy:
            params.search_branching = cp_model.FIXED_SEARCH
    if time_limit is not None:
        params.max_time_in_seconds = time_limit
    return solver


@contextmanager
def stoppable_solves() -> Iterator[None]:
    """Inside this block, a Ctrl-C stops a solve of the main thread at once (see the module's
    docstring) instead of when the solve returns."""
    _open_blocks.append(None)
    try:
        yield
    finally:
        _open_blocks.pop()


def run_solver(solver: cp_model.CpSolver, model: cp_model.CpModel) -> CpSolverStatus:
    """``solver.solve(model)``; inside :func:`stoppable_solves`, stopped at once by Ctrl-C (which
    is then raised again).

    Only the main thread receives Ctrl-C, and only while a Python handler is installed; anywhere
    else (a worker process that ignores SIGINT, a server's thread) the solve runs in place, where
    a :class:`SolveStop` the thread runs under may stop it (:class:`SolveStoppedError` is raised).
    """
    stop: SolveStop | None = getattr(_thread_stop, "stop", None)
    if stop is not None:
        return stop._solve(solver, model)
    if (
        not _open_blocks
        or threading.current_thread() is not threading.main_thread()
        or not callable(signal.getsignal(signal.SIGINT))
    ):
        return solver.solve(model)
    return _solve_beside(solver, model)


def _solve_beside(solver: cp_model.CpSolver, model: cp_model.CpModel) -> CpSolverStatus:
    """Solve in a helper thread while this one waits, ready to stop the search."""
    # Released by the helper when the solve is over. (Not ``Thread.join``: up to Python 3.12 a
    # join cut short by an exception marks the thread as finished while it still runs.)
    over = threading.Lock()
    over.acquire()
    outcome: list[CpSolverStatus] = []
    failure: list[BaseException] = []

    def solve() -> None:
        try:
            outcome.append(solver.solve(model))
        except BaseException as error:  # handed to the waiting thread, which raises it
            failure.append(error)
        finally:
            over.release()

    # While the helper starts, a Ctrl-C is only noted: raised in the middle of ``start`` it would
    # leave nobody knowing whether there is a solve to stop and wait for.
    previous = signal.getsignal(signal.SIGINT)
    held: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    try:
        threading.Thread(target=solve, name="cp-sat solve", daemon=True).start()
    except BaseException:
        signal.signal(signal.SIGINT, previous)
        raise
    try:
        signal.signal(signal.SIGINT, previous)
        if held and callable(previous):
            previous(signal.SIGINT, None)  # the Ctrl-C noted above, handled as it would have been
        over.acquire()
    except BaseException:
        # Stop the search and wait for it: leaving CP-SAT running while the interpreter exits
        # would abort the process. A second Ctrl-C meanwhile changes nothing. The helper hands
        # over its outcome before it releases ``over``, so an outcome says the solve is over: a
        # Ctrl-C raised just after ``over.acquire()`` returned finds the lock already taken (by
        # this thread), and waiting for it again would never end.
        while not (outcome or failure):
            try:
                solver.stop_search()
                if over.acquire(timeout=_STOP_REPEAT_SECONDS):
                    break
            except KeyboardInterrupt:
                continue
        raise
    if failure:
        raise failure[0]
    return outcome[0]


__all__ = [
    "EngineSearch",
    "SolveStop",
    "SolveStoppedError",
    "new_solver",
    "run_solver",
    "stoppable_solves",
]
