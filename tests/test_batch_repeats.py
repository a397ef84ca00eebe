"""A batch line asked again is answered from the first answer: the same bytes but its own line
number, without a second solve; errors are answered afresh (their words may name the line)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from meldsat.answers.hint import hint_line
from meldsat.cli import hint as hint_cli

LINE = json.dumps({"rules": "manipulation", "table": ["3H 4H 5H"], "hand": ["6H", "KS"]})


def _job(number: int, line: str = LINE) -> hint_cli.BatchJob:
    return (number, line, "points", 5.0, False, None, None, ())


def test_a_repeated_line_is_solved_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hint_cli, "_ANSWERED", type(hint_cli._ANSWERED)())
    first = hint_cli.solve_batch_line(_job(1))
    calls: list[int] = []
    real = hint_line

    def counted(number: int, *args: Any, **options: Any) -> dict[str, Any]:
        calls.append(number)
        return real(number, *args, **options)

    monkeypatch.setattr(hint_cli, "hint_line", counted)
    again = hint_cli.solve_batch_line(_job(7))
    assert calls == []
    assert again == (first[0], first[1].replace('"line": 1', '"line": 7'))
    assert json.loads(again[1])["line"] == 7
    hint_cli.solve_batch_line(_job(8, "{not json"))
    hint_cli.solve_batch_line(_job(9, "{not json"))
    assert calls == [8, 9]
