"""Every file meldsat writes: the output path is checked before any work, and a full disk is one
line with what was written kept (a batch's ``.partial`` for ``--resume``, a log's whole games).

The checks are one function (:func:`meldsat.files.check_output_path`) that every writer calls;
the tests try each kind of bad path on each writer, so a writer that skips it is caught.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliRunner
from tests.test_cli import assert_one_line_error

POSITION = '{"table": "7H 8H 9H", "hand": "10H KS"}\n'


def _writers(tmp: Path) -> dict[str, Callable[[str], list[str]]]:
    """Each command that writes a file, as the arguments that make it write ``path``."""
    source = tmp / "in.jsonl"
    return {
        "hint -o": lambda path: ["hint", "--jsonl", str(source), "-o", path],
        "simulate --log": lambda path: [
            "simulate",
            "--games",
            "1",
            "--bots",
            "random",
            "--log",
            path,
        ],
        "puzzle generate -o": lambda path: ["puzzle", "generate", "-o", path],
        "play --log": lambda path: ["play", "--log", path],
    }


def _bad_paths(tmp: Path) -> dict[str, tuple[str, str]]:
    """Each kind of output path no write may touch, and what its error line says."""
    source = tmp / "in.jsonl"
    (tmp / "folder").mkdir()
    (tmp / "link.jsonl").symlink_to(source)
    os.link(source, tmp / "hard.jsonl")
    return {
        "empty": ("", "no file name given"),
        "directory": (str(tmp / "folder"), "it is a directory"),
        "missing folder": (str(tmp / "nowhere" / "out.jsonl"), "does not exist"),
        "device": (os.devnull, "not a regular file"),
        "NUL byte": ("out\0.jsonl", "not a possible file name"),
        "the input": (str(source), "it is the input"),
        "a symbolic link to the input": (str(tmp / "link.jsonl"), "it is the input"),
        "a hard link to the input": (str(tmp / "hard.jsonl"), "it is the input"),
    }


@pytest.mark.parametrize(
    "writer", ["hint -o", "simulate --log", "puzzle generate -o", "play --log"]
)
def test_every_writer_refuses_every_bad_output_path_before_any_work(
    run_cli: CliRunner, tmp_path: Path, writer: str
) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(POSITION, encoding="utf-8")
    arguments = _writers(tmp_path)[writer]
    for kind, (path, words) in _bad_paths(tmp_path).items():
        if kind.endswith("input") and writer != "hint -o":
            continue  # only the batch has an input file
        before = sorted(p.name for p in tmp_path.iterdir())
        result = run_cli(*arguments(path))
        assert_one_line_error(result, words)
        assert source.read_text(encoding="utf-8") == POSITION, kind
        assert sorted(p.name for p in tmp_path.iterdir()) == before, kind
        assert Path(os.devnull).is_char_device()
        # Clean for the next kind (hard and symbolic links are made once).
        for path_made in tmp_path.iterdir():
            if path_made.name not in before:
                path_made.unlink()


def _small_disk(limit: int) -> Callable[[], None]:
    """A child process whose files cannot grow past ``limit`` bytes: a disk that is full."""

    def limit_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails (EFBIG) instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return limit_files


def _meldsat(
    *args: str, cwd: Path, limit: Callable[[], None] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "meldsat", *args],
        cwd=cwd,
        preexec_fn=limit,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def _one_line(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("meldsat: error: ")
    for fragment in fragments:
        assert fragment in result.stderr


def test_a_full_disk_stops_a_batch_with_one_line_and_resume_finishes_it(tmp_path: Path) -> None:
    (tmp_path / "in.jsonl").write_text(POSITION * 30, encoding="utf-8")
    args = ("hint", "--jsonl", "in.jsonl", "-o", "out.jsonl")
    cut = _meldsat(*args, cwd=tmp_path, limit=_small_disk(2000))
    _one_line(cut, "out.jsonl.partial", "--resume")
    assert 0 < len((tmp_path / "out.jsonl.partial").read_bytes()) <= 2000
    assert not (tmp_path / "out.jsonl").exists()
    done = _meldsat(*args, "--resume", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    whole = _meldsat("hint", "--jsonl", "in.jsonl", "-o", "again.jsonl", cwd=tmp_path)
    assert whole.returncode == 0
    assert (tmp_path / "out.jsonl").read_bytes() == (tmp_path / "again.jsonl").read_bytes()


def test_a_log_cut_by_a_full_disk_keeps_only_whole_games_and_replays(tmp_path: Path) -> None:
    args = ("simulate", "--games", "4", "--bots", "random", "--seed", "3", "--log", "g.jsonl")
    cut = _meldsat(*args, cwd=tmp_path, limit=_small_disk(60_000))
    _one_line(cut, "g.jsonl", "whole games")
    lines = (tmp_path / "g.jsonl").read_text(encoding="utf-8").splitlines()
    assert lines, "at least one game fits"
    assert '"event":"game_end"' in lines[-1]
    replay = _meldsat("replay", "g.jsonl", cwd=tmp_path)
    assert replay.returncode == 0, replay.stderr
    assert "incomplete" not in replay.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("rules",),
        ("validate", "--table", "7H 8H 9H", "--json"),
        ("hint", "--table", "7H 8H 9H", "--hand", "10H"),
        ("replay", "-"),
        ("puzzle", "generate"),
    ],
)
def test_a_full_stdout_is_one_line_and_exit_2(tmp_path: Path, args: tuple[str, ...]) -> None:
    (tmp_path / "g.jsonl").write_text("", encoding="utf-8")
    with Path("/dev/full").open("w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "meldsat", *args],
            input="" if args[0] != "replay" else _one_game_log(tmp_path),
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            timeout=120,
        )
    assert result.returncode == 2, result.stderr
    assert result.stderr == "meldsat: error: cannot write the output: No space left on device\n"


def _one_game_log(tmp: Path) -> str:
    made = _meldsat("simulate", "--games", "1", "--bots", "random", "--log", "one.jsonl", cwd=tmp)
    assert made.returncode == 0
    return (tmp / "one.jsonl").read_text(encoding="utf-8")


def test_a_batch_never_writes_over_the_file_its_stdin_comes_from(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(POSITION, encoding="utf-8")
    with source.open("rb") as stdin:
        result = subprocess.run(
            [sys.executable, "-m", "meldsat", "hint", "--jsonl", "-", "-o", str(source)],
            stdin=stdin,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
    _one_line(result, "it is the input '-'")
    assert source.read_text(encoding="utf-8") == POSITION
