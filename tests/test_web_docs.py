"""docs/WEB.md's API examples are the server's answers: each ``$ curl ... -d 'BODY'`` is sent to the
app and the JSON line under it (with ``-i``, the status line too) must be what it answers.

``python -m tests.test_web_docs`` writes the server's answers into docs/WEB.md (then read them).
"""

from __future__ import annotations

import json
import re
import sys
import warnings
from pathlib import Path
from typing import NamedTuple

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from meldsat.answers.jsonform import to_json
from meldsat.web.app import create_app

WEB_MD = Path(__file__).parent.parent / "docs" / "WEB.md"
CURL = re.compile(
    r"^\$ curl -s (?P<head>-i )?-X POST http://127\.0\.0\.1:8000(?P<path>\S+) -d '(?P<body>.*)'$"
)
STATUS = re.compile(r"^HTTP/1\.1 (\d+) ")


class Example(NamedTuple):
    """One ``curl`` of the page: its path and body, and the line numbers of its answer."""

    path: str
    body: str
    status_line: int | None  # with -i: the line of "HTTP/1.1 422 ..."
    answer_line: int


def examples(lines: list[str]) -> list[Example]:
    found = []
    for number, line in enumerate(lines):
        match = CURL.match(line)
        if match is None:
            continue
        if match["head"]:  # the status line, the headers shown as "...", then the body
            found.append(Example(match["path"], match["body"], number + 1, number + 3))
        else:
            found.append(Example(match["path"], match["body"], None, number + 1))
    return found


def status_text(status: int) -> str:
    return {200: "OK", 422: "Unprocessable Entity"}[status]


def answered(client: TestClient, example: Example) -> tuple[int, str]:
    response = client.post(example.path, content=example.body.encode("utf-8"))
    return response.status_code, to_json(response.json())


LINES = WEB_MD.read_text(encoding="utf-8").splitlines()
EXAMPLES = examples(LINES)


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), raise_server_exceptions=False)


def test_web_md_shows_an_example_of_every_kind() -> None:
    paths = {example.path for example in EXAMPLES}
    assert {"/api/hint", "/api/check", "/api/puzzle/generate", "/api/validate"} <= paths
    assert any(example.status_line is not None for example in EXAMPLES)  # an error, with its status


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.path for example in EXAMPLES])
def test_each_example_answer_is_the_servers(client: TestClient, example: Example) -> None:
    status, answer = answered(client, example)
    assert json.loads(LINES[example.answer_line]) == json.loads(answer)
    if example.status_line is not None:
        assert LINES[example.status_line] == f"HTTP/1.1 {status} {status_text(status)}"
    else:
        assert status == 200


def main() -> int:
    """Write the server's answers under each example of docs/WEB.md."""
    lines = list(LINES)
    with TestClient(create_app()) as client:
        for example in EXAMPLES:
            status, answer = answered(client, example)
            lines[example.answer_line] = answer
            if example.status_line is not None:
                lines[example.status_line] = f"HTTP/1.1 {status} {status_text(status)}"
    WEB_MD.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
