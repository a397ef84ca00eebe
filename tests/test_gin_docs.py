"""The gin commands shown in docs/GIN.md print what the document says they print."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tests.conftest import CliRunner

ROOT = Path(__file__).resolve().parent.parent
_BLOCK = re.compile(r"```\n(\$ meldsat .*?)```", re.DOTALL)


def _examples() -> list[tuple[str, str]]:
    """(command, expected output) for every ``$ meldsat`` example except the ones writing files."""
    examples = []
    for block in _BLOCK.findall((ROOT / "docs" / "GIN.md").read_text(encoding="utf-8")):
        for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            command, _, output = chunk.partition("\n")
            if "--log" not in command and "replay" not in command:
                examples.append((command, output))
    return examples


@pytest.mark.parametrize(("command", "expected"), _examples())
def test_documented_gin_example_prints_what_the_document_shows(
    run_cli: CliRunner, monkeypatch: pytest.MonkeyPatch, command: str, expected: str
) -> None:
    monkeypatch.chdir(ROOT)
    result = run_cli(*shlex.split(command)[1:])
    assert result.code == 0
    assert result.out == expected
