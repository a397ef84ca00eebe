"""meldsat.executor on local processes: order, laziness, chunk sizes, killed workers, errors."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from meldsat.executor import WorkerLostError, local, open_runner, ordered_map
from meldsat.executor.chunks import MAX_CHUNK_SIZE, ChunkSizer
from meldsat.executor.prefetch import PREFETCH_ITEMS
from tests.batch_functions import (
    always_kill_the_worker,
    fail_on_seven,
    kill_the_worker_on_thirteen,
    square_after_a_nap,
)


def test_results_come_in_input_order_from_two_processes() -> None:
    items = [(number, None) for number in range(200)]
    assert list(ordered_map(square_after_a_nap, items, workers=2)) == [n * n for n in range(200)]


def test_input_is_read_only_a_few_chunks_ahead_of_the_results() -> None:
    pulled: list[int] = []

    def numbers() -> Iterator[tuple[int, None]]:
        for number in range(100_000):
            pulled.append(number)
            yield number, None

    results = ordered_map(square_after_a_nap, numbers(), workers=2, chunk_size=4)
    assert next(results) == 0
    # at most 5 chunks of 4 sent (two a worker and one more), the read-ahead queue, and the
    # item its reader holds while the queue is full: not the 100,000 items
    assert len(pulled) <= 5 * 4 + PREFETCH_ITEMS + 1
    results.close()


def test_a_killed_worker_costs_its_chunk_which_is_run_again(tmp_path: Path) -> None:
    marker = str(tmp_path / "killed")
    items = [(number, marker if number == 60 else None) for number in range(150)]
    results = list(ordered_map(square_after_a_nap, items, workers=2, chunk_size=8))
    assert Path(marker).exists()  # the worker really died
    assert results == [n * n for n in range(150)]  # every answer once, in order


def test_a_chunk_that_always_kills_its_worker_is_given_up() -> None:
    with pytest.raises(WorkerLostError, match="items 1-2 lost their worker 3 times"):
        list(ordered_map(always_kill_the_worker, [1, 2], workers=1, chunk_size=2))


def test_unrelated_worker_deaths_charge_only_the_chunk_that_died(tmp_path: Path) -> None:
    # Four chunks in a row each kill their worker once: every chunk in flight around them sees
    # four broken pools, but only the one that was running in the dead worker is charged.
    killers = {20: "a", 28: "b", 36: "c", 44: "d"}
    items = [
        (number, str(tmp_path / killers[number]) if number in killers else None)
        for number in range(120)
    ]
    results = list(ordered_map(square_after_a_nap, items, workers=2, chunk_size=8))
    assert all((tmp_path / name).exists() for name in killers.values())
    assert results == [n * n for n in range(120)]


def test_the_chunk_that_keeps_killing_its_worker_is_the_one_given_up() -> None:
    with pytest.raises(WorkerLostError, match="items 13-16 lost their worker 3 times"):
        list(ordered_map(kill_the_worker_on_thirteen, range(1, 60), workers=2, chunk_size=4))


def test_the_function_s_own_error_reaches_the_caller() -> None:
    with pytest.raises(ArithmeticError, match="seven"):
        list(ordered_map(fail_on_seven, range(20), workers=2))


def test_an_open_runner_serves_several_maps() -> None:
    with open_runner(workers=2) as runner:
        assert runner.capacity() == 2
        first = list(ordered_map(fail_on_seven, range(5), runner=runner))
        second = list(ordered_map(fail_on_seven, range(8, 12), runner=runner))
        assert runner.workers_alive() >= 1
    assert first + second == [0, 1, 2, 3, 4, 8, 9, 10, 11]


def test_chunks_grow_from_one_towards_a_quarter_second_of_work() -> None:
    sizer = ChunkSizer()
    assert [sizer.next_size() for _ in range(4)] == [1, 2, 4, 8]
    sizer.observe(10, 0.01)  # 1 ms an item: 250 items make a quarter second
    assert sizer.next_size() == 16  # at most double at a time
    sizes = [sizer.next_size() for _ in range(6)]
    assert sizes[-1] == 250
    slow = ChunkSizer()
    slow.next_size()
    slow.observe(1, 2.0)  # 2 s an item: one item a chunk
    assert slow.next_size() == 1
    assert ChunkSizer(7).next_size() == 7
    assert max(sizes) <= MAX_CHUNK_SIZE


class _FinishedProcess:
    """A stand-in for a pool's process that has ended with ``exitcode``."""

    def __init__(self, exitcode: int | None) -> None:
        self.exitcode = exitcode

    def is_alive(self) -> bool:
        return self.exitcode is None


def test_a_worker_the_broken_pool_terminated_is_not_taken_for_the_one_that_died() -> None:
    # A broken pool sends SIGTERM to the workers still running; one reaped before the owner
    # looks must not be blamed beside the worker that was killed (a flaky run blamed both).
    processes = {
        1: _FinishedProcess(-signal.SIGKILL),
        2: _FinishedProcess(-signal.SIGTERM),
        3: _FinishedProcess(None),
    }
    assert local._the_workers_that_died(processes) == {1}
    # Every dead worker terminated (a person's SIGTERM): each of them may be the one.
    processes[1] = _FinishedProcess(-signal.SIGTERM)
    assert local._the_workers_that_died(processes) == {1, 2}


def test_a_ctrl_c_while_a_dask_task_is_sent_reaches_the_batchs_guard_after_the_send() -> None:
    from meldsat.cli.interrupts import InterruptGuard
    from meldsat.executor.cluster import _ctrl_c_held

    sent = False
    with InterruptGuard() as guard:
        with pytest.raises(KeyboardInterrupt), _ctrl_c_held():
            signal.raise_signal(signal.SIGINT)
            sent = True  # the block runs to its end: no half-sent task
        assert sent and guard.interrupted


def test_a_ctrl_c_held_while_a_task_is_sent_stays_ignored_where_ctrl_c_is_ignored() -> None:
    from meldsat.executor.cluster import _ctrl_c_held

    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with _ctrl_c_held():
            signal.raise_signal(signal.SIGINT)
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)
