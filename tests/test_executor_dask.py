"""meldsat.executor and ``hint --jsonl`` on a real Dask cluster of several worker processes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.positions import generate, position_record
from meldsat.executor import ExecutorError, WorkerLostError, ordered_map
from tests.batch_functions import square_after_a_nap
from tests.conftest import CliRunner, distinct_copies

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a LocalCluster: 3 worker processes of one thread each."""
    with distributed.LocalCluster(
        n_workers=3, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Thirty Rummikub positions, a blank line and a bad line."""
    lines = [json.dumps(position_record(*pair)) for pair in generate("rummikub", 30, 5)]
    lines[10:10] = ["", '{"hand": "QX"}']
    path = tmp_path_factory.mktemp("batch") / "positions.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_cluster_prints_the_same_bytes_as_one_process(
    run_cli: CliRunner, scheduler: str, batch: Path
) -> None:
    alone = run_cli("hint", "--jsonl", str(batch), "--workers", "1")
    cluster = run_cli("hint", "--jsonl", str(batch), "--scheduler", scheduler)
    assert cluster.out == alone.out
    assert (cluster.code, cluster.err) == (alone.code, alone.err) == (2, "")
    assert len(alone.out.splitlines()) == 31


def test_the_scheduler_can_come_from_the_environment(
    run_cli: CliRunner, scheduler: str, batch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = run_cli("hint", "--jsonl", str(batch), "--objective", "cards")
    monkeypatch.setenv("MELDSAT_SCHEDULER", scheduler)
    cluster = run_cli("hint", "--jsonl", str(batch), "--objective", "cards")
    assert cluster.out == alone.out


def test_a_worker_killed_mid_run_loses_nothing_and_doubles_nothing(
    scheduler: str, tmp_path: Path
) -> None:
    marker = str(tmp_path / "killed")
    items = [(number, marker if number == 90 else None) for number in range(240)]
    results = list(ordered_map(square_after_a_nap, items, scheduler=scheduler, chunk_size=10))
    assert Path(marker).exists()  # a worker process really died mid-run
    assert results == [n * n for n in range(240)]


def test_workers_killed_or_without_meldsat_are_clean_errors(scheduler: str) -> None:
    from meldsat.executor.cluster import ClusterRunner

    runner = ClusterRunner(scheduler)
    try:
        killed = distributed.KilledWorker("chunk-1", "tcp://127.0.0.1:1", allowed_failures=3)
        with pytest.raises(WorkerLostError, match="killed its Dask worker"):
            runner.recover(killed)
        missing = ModuleNotFoundError("No module named 'meldsat'")
        with pytest.raises(ExecutorError, match="install meldsat\\[dask\\] there"):
            runner.recover(missing)
        assert runner.recover(ArithmeticError("the function's own")) is False
        assert 1 <= runner.workers_alive() <= 3
    finally:
        runner.close(abandon=False)


def test_an_unknown_or_empty_scheduler_address_is_a_one_line_error() -> None:
    with pytest.raises(ExecutorError, match="'nonsense://x': unknown scheme 'nonsense'"):
        list(ordered_map(abs, [1], scheduler="nonsense://x"))
    with pytest.raises(ExecutorError, match="'tcp://': missing port number"):
        list(ordered_map(abs, [1], scheduler="tcp://"))
    with pytest.raises(ExecutorError, match="no Dask scheduler address"):
        list(ordered_map(abs, [1], scheduler=" "))


@pytest.mark.parametrize("address", ["nonsense://x", "tcp://", "x y"])
def test_a_bad_address_leaves_no_half_made_client_behind(address: str, batch: Path) -> None:
    # A client that failed on its address used to wait 20 s at exit and print a traceback.
    result = subprocess.run(
        [sys.executable, "-m", "meldsat", "hint", "--jsonl", str(batch), "--scheduler", address],
        capture_output=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 2
    assert result.stderr.startswith(b"meldsat: error: bad Dask scheduler address")
    assert result.stderr.count(b"\n") == 1, result.stderr


def test_ctrl_c_stops_a_cluster_batch_with_130(scheduler: str, batch: Path, tmp_path: Path) -> None:
    # Long enough that the chunks in flight (a few, of about a quarter second of work each) can
    # never hold the whole batch: with ten copies a fast cluster sometimes finished it before the
    # signal came.
    longer = tmp_path / "longer.jsonl"
    lines = distinct_copies(batch.read_text(encoding="utf-8").splitlines(), 100)
    longer.write_text("\n".join(lines) + "\n", encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "meldsat", "hint", "--jsonl", str(longer), "--scheduler", scheduler],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a shell gives a job
    )
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    os.killpg(process.pid, signal.SIGINT)
    # Read on through the same buffered stream (communicate() would skip what it holds).
    out = first + process.stdout.read()
    err = process.stderr.read()
    assert process.wait(timeout=60) == 130
    assert err.decode().startswith("meldsat: error: interrupted") and err.count(b"\n") == 1
    written = int(err.split(b": ")[3].split()[0])  # "... interrupted: N answers written"
    answers = [json.loads(line) for line in out.splitlines()]  # whole lines only, every one
    assert len(answers) == written
