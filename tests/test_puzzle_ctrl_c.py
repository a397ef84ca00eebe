"""Ctrl-C during ``meldsat puzzle generate``, ``solve`` and ``grade``: exit 130 with one line, and
every puzzle or report written before it whole.

Each command runs in a child process of its own process group, which gets SIGINT as a terminal's
Ctrl-C sends it, once the command is busy: its first record is out, or (``-o FILE``) its worker
process has started.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

import pytest

from meldsat.puzzles.puzzle import puzzles_text, read_puzzles
from tests.conftest import CliRunner

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")

MELDSAT = [sys.executable, "-m", "meldsat"]
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "puzzles-hard.json"
PATIENCE = 300.0  # seconds a busy machine may take to start the command and make its first record


def start(*args: str) -> subprocess.Popen[bytes]:
    """``meldsat ARGS`` in a process group of its own, stdout and stderr as unbuffered pipes
    (what a line read here leaves in a buffer, ``communicate`` would not see)."""
    return subprocess.Popen(
        [*MELDSAT, *args],
        bufsize=0,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a shell gives a job
    )


def first_line_starting(stream: IO[bytes], prefix: bytes) -> bytes:
    """Everything ``stream`` gives up to and including the first line that starts with
    ``prefix``."""
    read = b""
    while True:
        ready, _, _ = select.select([stream], [], [], PATIENCE)
        assert ready, f"no line starting {prefix!r} in time; so far {read!r}"
        line = stream.readline()
        assert line, f"the output ended before a line starting {prefix!r}: {read!r}"
        read += line
        if line.startswith(prefix):
            return read


def interrupt(process: subprocess.Popen[bytes]) -> tuple[bytes, bytes]:
    """Send the group Ctrl-C; the rest of stdout, and stderr."""
    os.killpg(process.pid, signal.SIGINT)
    try:
        return process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)


def test_ctrl_c_stops_generate_and_keeps_every_whole_puzzle() -> None:
    process = start("puzzle", "generate", "--level", "expert", "--count", "20")
    assert process.stdout is not None
    first = first_line_starting(process.stdout, b"seed: ")  # the last line of a puzzle
    rest, err = interrupt(process)
    assert process.returncode == 130
    assert err == b"meldsat: error: interrupted\n"
    text = (first + rest).decode()
    puzzles = read_puzzles(text)
    assert 1 <= len(puzzles) < 20
    assert text == puzzles_text(puzzles)  # nothing but whole puzzles
    for puzzle in puzzles:
        assert (puzzle.level, puzzle.seed) == ("expert", 1)
        assert puzzle.solution is not None and puzzle.grade is not None


def test_ctrl_c_stops_generate_to_a_file_and_leaves_no_file(tmp_path: Path) -> None:
    psutil = pytest.importorskip("psutil")
    target = tmp_path / "expert.txt"
    process = start("puzzle", "generate", "--level", "expert", "--count", "20", "-o", str(target))
    deadline = time.monotonic() + PATIENCE
    # Busy: its worker process (beside the fork server and the resource tracker) is up.
    while len(psutil.Process(process.pid).children(recursive=True)) < 3:
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.05)
    out, err = interrupt(process)
    assert (process.returncode, out, err) == (130, b"", b"meldsat: error: interrupted\n")
    assert list(tmp_path.iterdir()) == []  # neither the file nor a temporary one


@pytest.mark.parametrize("command", ["solve", "grade"])
def test_ctrl_c_stops_solve_and_grade_and_keeps_every_whole_report(
    command: str, run_cli: CliRunner, tmp_path: Path
) -> None:
    # A hundred puzzles: the example's four, over and over (within the 64 KiB input limit).
    example = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    many = tmp_path / "many.json"
    many.write_text(json.dumps({**example, "puzzles": example["puzzles"] * 25}), encoding="utf-8")
    process = start("puzzle", command, str(many))
    assert process.stdout is not None
    first = first_line_starting(process.stdout, b"puzzle 1:")
    rest, err = interrupt(process)
    assert process.returncode == 130
    assert err == b"meldsat: error: interrupted\n"
    out = (first + rest).decode()
    reported = out.count("\npuzzle ") + 1
    assert reported < 100
    # The same reports as a run over just as many puzzles: whole, and nothing after them.
    some = tmp_path / "some.json"
    puzzles = (example["puzzles"] * 25)[:reported]
    some.write_text(json.dumps({**example, "puzzles": puzzles}), encoding="utf-8")
    assert out == run_cli("puzzle", command, str(some)).out
