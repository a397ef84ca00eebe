"""The batch loop of ``hint --jsonl``: streaming, -o/--resume, Ctrl-C, a closed pipe, progress."""

from __future__ import annotations

import io
import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.positions import generate, position_record
from meldsat.cli.batchio import read_lines
from meldsat.cli.progress import progress_text
from tests.conftest import CliRunner, distinct_copies
from tests.test_cli import assert_one_line_error

MELDSAT = [sys.executable, "-m", "meldsat"]


@pytest.fixture(scope="module")
def positions() -> list[str]:
    """Twenty Rummikub positions as batch lines, the fifth of them bad input."""
    lines = [json.dumps(position_record(*pair)) for pair in generate("rummikub", 20, 3)]
    lines[4] = '{"rules": "rummikub", "hand": "r1 x9"}'
    return lines


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_resume_answers_only_what_the_interrupted_run_had_not(
    run_cli: CliRunner, tmp_path: Path, positions: list[str]
) -> None:
    batch = _write(tmp_path / "batch.jsonl", positions)
    whole = run_cli("hint", "--jsonl", str(batch))
    answers = whole.out.splitlines()
    out = tmp_path / "answers.jsonl"
    # An interrupted run: seven whole answers and half of the eighth.
    Path(f"{out}.partial").write_text("\n".join(answers[:7]) + "\n" + answers[7][:30])
    resumed = run_cli("hint", "--jsonl", str(batch), "-o", str(out), "--resume")
    assert out.read_text() == whole.out  # nothing repeated, nothing lost
    assert not Path(f"{out}.partial").exists()
    assert resumed.code == whole.code == 2  # the bad line was in the part already done
    assert resumed.out == resumed.err == ""
    again = run_cli("hint", "--jsonl", str(batch), "-o", str(out), "--resume")
    assert (again.code, out.read_text()) == (2, whole.out)  # already complete: nothing to do


def test_resume_against_a_shorter_input_is_refused(
    run_cli: CliRunner, tmp_path: Path, positions: list[str]
) -> None:
    batch = _write(tmp_path / "batch.jsonl", positions[:2])
    out = tmp_path / "answers.jsonl"
    Path(f"{out}.partial").write_text('{"status": "optimal"}\n' * 3)
    result = run_cli("hint", "--jsonl", str(batch), "-o", str(out), "--resume")
    assert_one_line_error(result, "holds 3 answers but the input has only 2")
    assert Path(f"{out}.partial").read_text().count("\n") == 3  # left as it was


def test_an_interrupted_output_is_not_overwritten_without_resume(
    run_cli: CliRunner, tmp_path: Path, positions: list[str]
) -> None:
    batch = _write(tmp_path / "batch.jsonl", positions[:2])
    out = tmp_path / "answers.jsonl"
    Path(f"{out}.partial").write_text("")
    assert_one_line_error(run_cli("hint", "--jsonl", str(batch), "-o", str(out)), "--resume")
    assert_one_line_error(run_cli("hint", "--jsonl", str(batch), "--resume"), "-o FILE")
    assert_one_line_error(run_cli("hint", "--hand", "QH", "-o", str(out)), "--jsonl")
    assert_one_line_error(run_cli("hint", "--hand", "QH", "--workers", "2"), "--jsonl")


def test_workers_and_scheduler_exclude_each_other(run_cli: CliRunner, tmp_path: Path) -> None:
    batch = _write(tmp_path / "batch.jsonl", ['{"hand": "QH"}'])
    result = run_cli("hint", "--jsonl", str(batch), "--workers", "2", "--scheduler", "tcp://x:1")
    assert_one_line_error(result, "exclude each other")


def test_scheduler_without_dask_names_the_extra(
    run_cli: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if Dask were not installed
    batch = _write(tmp_path / "batch.jsonl", ['{"hand": "QH"}'])
    result = run_cli("hint", "--jsonl", str(batch), "--scheduler", "tcp://127.0.0.1:8786")
    assert_one_line_error(result, "pip install 'meldsat[dask]'")


def test_lines_are_read_one_at_a_time_with_their_numbers_and_ends() -> None:
    data = b"\xef\xbb\xbf{one}\n\n  \r\n" + b"x" * 50 + b"\n{four}\r\n{five}"
    lines = list(read_lines(io.BytesIO(data), max_bytes=20))
    assert [(line.number, line.text[:6]) for line in lines] == [
        (1, "{one}"),
        (4, "x" * 6),
        (5, "{four}"),
        (6, "{five}"),
    ]
    assert len(lines[1].text) == 21  # cut just past the limit, the rest skipped unread
    # A line too long ends, for its reader, where its kept part ends (passed on before the rest
    # is skipped, so that a reader refusing it never waits for an end of line that never comes).
    assert [line.end for line in lines] == [9, 35, 73, 79]
    assert next(read_lines(io.BytesIO(b"\xff{}\n"))).text == "\udcff{}"


def test_answers_stream_out_before_the_input_ends(positions: list[str]) -> None:
    process = subprocess.Popen(
        [*MELDSAT, "hint", "--jsonl", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(positions[0].encode() + b"\n")
        process.stdin.flush()
        ready, _, _ = select.select([process.stdout], [], [], 60)
        assert ready, "no answer while stdin was still open"
        first = json.loads(process.stdout.readline())
        assert first["line"] == 1
        process.stdin.write(positions[1].encode() + b"\n")
        process.stdin.close()
        rest = process.stdout.read().decode().splitlines()
    finally:
        process.kill()
        process.wait()
    assert [json.loads(line)["line"] for line in rest] == [2]


def test_ctrl_c_stops_the_batch_with_130_and_resume_finishes_it(
    run_cli: CliRunner, tmp_path: Path, positions: list[str]
) -> None:
    psutil = pytest.importorskip("psutil")
    batch = _write(tmp_path / "batch.jsonl", distinct_copies(positions, 5))
    out = tmp_path / "answers.jsonl"
    partial = Path(f"{out}.partial")
    process = subprocess.Popen(
        [*MELDSAT, "hint", "--jsonl", str(batch), "--workers", "2", "-o", str(out)],
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a shell gives a job
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and _whole_lines(partial) < 5:
        time.sleep(0.05)
    workers = psutil.Process(process.pid).children(recursive=True)
    assert workers
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C on a terminal does
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130
    assert err.decode().count("\n") == 1
    assert "interrupted" in err.decode()
    assert partial.read_bytes().endswith(b"\n")  # whole lines only
    assert not out.exists()
    _, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive  # the workers ended too
    whole = run_cli("hint", "--jsonl", str(batch))
    resumed = run_cli("hint", "--jsonl", str(batch), "-o", str(out), "--resume")
    assert out.read_text() == whole.out
    assert resumed.code == whole.code


def _whole_lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def test_a_closed_pipe_ends_the_batch_quietly(tmp_path: Path, positions: list[str]) -> None:
    batch = _write(tmp_path / "batch.jsonl", distinct_copies(positions, 20))
    process = subprocess.Popen(
        [*MELDSAT, "hint", "--jsonl", str(batch)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None and process.stderr is not None
    json.loads(process.stdout.readline())
    process.stdout.close()  # as `| head -1` does after its line
    err = process.stderr.read()
    assert process.wait(timeout=60) in (0, 141)
    assert err == b""


def test_progress_shows_on_a_terminal_only(tmp_path: Path, positions: list[str]) -> None:
    batch = _write(tmp_path / "batch.jsonl", distinct_copies(positions, 10))
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [*MELDSAT, "hint", "--jsonl", str(batch)], stdout=subprocess.PIPE, stderr=follower
    )
    os.close(follower)
    out, _ = process.communicate(timeout=120)
    screen = _read_all(leader)
    assert len(out.splitlines()) == 200  # the answers on stdout, untouched
    assert "done" in screen and "worker" in screen and "/s" in screen
    assert screen.endswith("\r")  # the line is wiped at the end


def _read_all(fd: int) -> str:
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks).decode()


def test_progress_text_counts_rate_time_left_and_workers() -> None:
    assert progress_text(1200, 4.0, 0.5, 0.0, 2) == "1,200 done · 300/s · 0:04 left · 2 workers"
    assert progress_text(3, 2.0, None, 0.0, 1) == "3 done · 1.5/s · 1 worker"
    # resumed at 40%: the rate of this run alone predicts the rest
    assert progress_text(10, 10.0, 0.6, 0.4, 3) == "10 done · 1.0/s · 0:20 left · 3 workers"
