"""Atomic file writing: readers see the old file or the whole new one, nothing left over."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from benchmarks.positions import Shape, build_position, write_jsonl
from meldsat.files import write_text_atomic
from meldsat.rulesets import get_rules


def test_write_replaces_the_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old\n", encoding="utf-8")
    write_text_atomic(target, "new ♥\n")
    assert target.read_text(encoding="utf-8") == "new ♥\n"
    assert [path.name for path in tmp_path.iterdir()] == ["out.txt"]


def test_written_file_has_the_mode_of_a_plain_new_file(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        write_text_atomic(tmp_path / "out.txt", "x")
    finally:
        os.umask(umask)
    assert (tmp_path / "out.txt").stat().st_mode & 0o777 == 0o644


def test_failed_rename_keeps_the_old_file_and_removes_the_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old\n", encoding="utf-8")

    def refuse(source: str, destination: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="disk full"):
        write_text_atomic(target, "new\n")
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [path.name for path in tmp_path.iterdir()] == ["out.txt"]


def test_generated_positions_are_written_atomically(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = get_rules("rummikub")
    position = build_position(rules, random.Random(1), Shape(12, 5))
    target = tmp_path / "positions.jsonl"
    target.write_text("old\n", encoding="utf-8")
    monkeypatch.setattr(os, "replace", lambda source, destination: (_ for _ in ()).throw(OSError))
    with pytest.raises(OSError):
        write_jsonl([("p-1", position)], target)
    assert target.read_text(encoding="utf-8") == "old\n"
    monkeypatch.undo()
    write_jsonl([("p-1", position)], target)
    assert target.read_text(encoding="utf-8").startswith('{"id": "p-1"')
    assert [path.name for path in tmp_path.iterdir()] == ["positions.jsonl"]
