"""The one CP-SAT set-up (``meldsat.engine.solving``): its parameters, and Ctrl-C during a solve.

A Ctrl-C must stop a solve that would otherwise run on, be raised as ``KeyboardInterrupt``, and
leave Python's SIGINT handler in place; a handler that only notes the signal lets the solve finish.
The interrupts are sent by the process to itself from CP-SAT's log callback, so they arrive while
the search runs; the checks that could take the process down run in a child process.
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from types import FrameType

import pytest

from meldsat.engine.cpsat import CpModel, cp_model
from meldsat.engine.solving import EngineSearch, new_solver, run_solver, stoppable_solves

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")


def pigeonhole(holes: int) -> CpModel:
    """``holes + 1`` pigeons in ``holes`` holes, as clauses: infeasible, and without an LP or
    presolve a search that takes exponentially long to prove it."""
    model = CpModel()
    sits = {
        (pigeon, hole): model.new_bool_var(f"p{pigeon}h{hole}")
        for pigeon in range(holes + 1)
        for hole in range(holes)
    }
    for pigeon in range(holes + 1):
        model.add_bool_or([sits[pigeon, hole] for hole in range(holes)])
    for hole in range(holes):
        for one, other in itertools.combinations(range(holes + 1), 2):
            model.add_bool_or([~sits[one, hole], ~sits[other, hole]])
    return model


SAT_ONLY = EngineSearch(linearization_level=0)  # the engine's search, without the LP


def interrupted_by_its_log(solver: cp_model.CpSolver) -> None:
    """Let ``solver`` send this process SIGINT when CP-SAT logs its first line."""
    sent: list[bool] = []

    def log(line: str) -> None:
        if not sent:
            sent.append(True)
            os.kill(os.getpid(), signal.SIGINT)

    solver.parameters.log_search_progress = True
    solver.parameters.log_to_stdout = False
    solver.log_callback = log


def test_the_set_up_is_deterministic_and_leaves_sigint_to_python() -> None:
    for search in (None, EngineSearch()):
        params = new_solver(2.5, search=search).parameters
        assert (params.num_workers, params.random_seed, params.max_time_in_seconds) == (1, 0, 2.5)
        assert params.catch_sigint_signal is False
    assert new_solver(num_workers=3).parameters.num_workers == 3


def test_the_puzzles_keep_the_default_search_and_the_engine_its_own() -> None:
    default = cp_model.CpSolver().parameters
    plain = new_solver().parameters
    assert (plain.cp_model_presolve, plain.linearization_level) == (
        default.cp_model_presolve,
        default.linearization_level,
    )
    tuned = new_solver(search=EngineSearch(linearization_level=1)).parameters
    assert (tuned.cp_model_presolve, tuned.linearization_level, tuned.symmetry_level) == (
        False,
        1,
        0,
    )


def test_a_solve_gives_the_same_answer_in_the_main_thread_and_in_another() -> None:
    answers: list[str] = []

    def here() -> None:
        solver = new_solver()
        answers.append(solver.status_name(run_solver(solver, pigeonhole(4))))

    here()
    thread = threading.Thread(target=here)
    thread.start()
    thread.join()
    assert answers == ["INFEASIBLE", "INFEASIBLE"]


class RecordingSolver(cp_model.CpSolver):
    """Notes the thread each solve runs in."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: list[threading.Thread] = []

    def solve(
        self, model: cp_model.CpModel, solution_callback: object = None
    ) -> cp_model.CpSolverStatus:
        self.threads.append(threading.current_thread())
        return super().solve(model)


def test_only_stoppable_solves_leave_the_main_thread() -> None:
    solver = RecordingSolver()
    run_solver(solver, pigeonhole(2))
    with stoppable_solves(), stoppable_solves():
        run_solver(solver, pigeonhole(2))
    run_solver(solver, pigeonhole(2))
    main = threading.main_thread()
    assert [thread is main for thread in solver.threads] == [True, False, True]


def test_an_error_in_the_solve_reaches_the_caller() -> None:
    class Broken(cp_model.CpSolver):
        def solve(self, *args: object, **kwargs: object) -> cp_model.CpSolverStatus:
            raise ValueError("broken on purpose")

    with pytest.raises(ValueError, match="broken on purpose"), stoppable_solves():
        run_solver(Broken(), pigeonhole(2))


class _CtrlCJustAfterTheWait:
    """A lock that, the second time a wait for it without a time limit succeeds (the first takes
    it before the solve starts), raises ``KeyboardInterrupt`` while holding it: a Ctrl-C handled
    just after the wait for the solve's end returned. A wait with a time limit on the held lock
    fails, and after 100 of them (5 s) it says so: a waiting loop that never ends fails the test
    instead of hanging it."""

    def __init__(self, lock: threading.Lock) -> None:
        self._lock = lock
        self._interrupted = False
        self._taken = 0
        self._timed_out = 0

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        got = self._lock.acquire(blocking, timeout)
        if got and timeout == -1:
            self._taken += 1
            if self._taken == 2:
                self._interrupted = True
                raise KeyboardInterrupt
        if not got:
            self._timed_out += 1
            assert self._timed_out < 100, "still waiting for a solve that is over"
        return got

    def release(self) -> None:
        self._lock.release()


def test_a_ctrl_c_just_after_the_solve_ended_is_raised_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The solve's end and the Ctrl-C race: the interrupt may be handled just after the wait for
    # the helper thread returned, the lock already taken. (That once waited for the lock again,
    # forever: ``meldsat puzzle solve`` hung on a busy machine.)
    made: list[_CtrlCJustAfterTheWait] = []
    real_lock = threading.Lock

    def lock() -> object:
        if made:
            return real_lock()  # the locks of the helper thread's own start-up
        made.append(_CtrlCJustAfterTheWait(real_lock()))
        return made[0]

    solver, model = new_solver(5.0), pigeonhole(2)  # (the solver has a lock of its own)
    monkeypatch.setattr(threading, "Lock", lock)
    with pytest.raises(KeyboardInterrupt), stoppable_solves():
        run_solver(solver, model)
    monkeypatch.undo()
    assert made and made[0]._interrupted


def test_a_ctrl_c_the_handler_only_notes_lets_the_solve_finish() -> None:
    noted: list[int] = []

    def note(signum: int, frame: FrameType | None) -> None:
        noted.append(signum)

    previous = signal.signal(signal.SIGINT, note)
    try:
        solver = new_solver(search=SAT_ONLY)
        interrupted_by_its_log(solver)
        with stoppable_solves():
            code = run_solver(solver, pigeonhole(5))
    finally:
        signal.signal(signal.SIGINT, previous)
    assert solver.status_name(code) == "INFEASIBLE"  # proven, not cut short
    assert noted == [signal.SIGINT]


# The child solves, stoppably, a pigeonhole that takes far longer than any test (no time limit) and
# is interrupted by its own log callback, or, with "start", in the middle of starting the helper
# thread. It prints what the solver last answered, then sends SIGINT once more.
CHILD = """
import os, signal, sys, threading, time
from tests.test_engine_solving import SAT_ONLY, interrupted_by_its_log, pigeonhole
from meldsat.engine.solving import new_solver, run_solver, stoppable_solves

solver = new_solver(search=SAT_ONLY)
if sys.argv[1] == "start":
    start = threading.Thread.start

    def start_interrupted(thread):
        os.kill(os.getpid(), signal.SIGINT)
        start(thread)

    threading.Thread.start = start_interrupted
else:
    interrupted_by_its_log(solver)
try:
    with stoppable_solves():
        run_solver(solver, pigeonhole(14))
except KeyboardInterrupt:
    print("KeyboardInterrupt", solver.status_name(solver.response_proto.status))
try:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(30)
except KeyboardInterrupt:
    print("KeyboardInterrupt again")
"""


@pytest.mark.parametrize("when", ["searching", "start"])
def test_ctrl_c_stops_the_search_and_keeps_pythons_handler(when: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", CHILD, when],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parent.parent,
        timeout=120,  # a safety net: without the stop the search would go on for hours
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == "KeyboardInterrupt UNKNOWN\nKeyboardInterrupt again\n"
