"""``POST /api/puzzle/generate``: the first puzzle of ``meldsat puzzle generate --format json``
with the same options, one puzzle, made within the server's time limit or refused."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from meldsat.puzzles.generate import GenerationTimeoutError, generate_one
from meldsat.rulesets import get_rules
from meldsat.web import answers
from meldsat.web.app import create_app
from tests.conftest import CliRunner
from tests.test_json_schemas import assert_matches
from tests.test_web_api import assert_error, post_ok


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.mark.parametrize(
    ("body", "options"),
    [
        ({"level": "easy", "seed": 3}, ["--level", "easy", "--seed", "3"]),
        (
            {"level": "easy", "seed": 3, "goal": "points"},
            ["-l", "easy", "-s", "3", "--goal", "points"],
        ),
    ],
)
def test_the_puzzle_is_the_first_of_the_generate_command(
    client: TestClient, run_cli: CliRunner, body: dict[str, Any], options: list[str]
) -> None:
    answer = post_ok(client, "/api/puzzle/generate", body)
    made = json.loads(run_cli("puzzle", "generate", *options, "--count", "2", "--json").out)
    assert answer == {**made, "puzzles": made["puzzles"][:1]}
    assert_matches("puzzles", answer)


def test_a_generation_past_its_deadline_stops_with_no_other_puzzle() -> None:
    with pytest.raises(GenerationTimeoutError, match="not made in time"):
        generate_one(get_rules("manipulation"), "easy", 3, 0, deadline=0.0)


class _Clock:
    """A clock that always says ``now``."""

    def __init__(self, now: float) -> None:
        self.now = now

    def monotonic(self) -> float:
        return self.now


def test_the_server_refuses_a_puzzle_not_made_in_its_time(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Long ago: the deadline has passed at the generator's first look.
    monkeypatch.setattr(answers, "time", _Clock(-1e9))
    response = client.post("/api/puzzle/generate", json={"level": "hard", "seed": 7})
    assert_error(response, 422, "time_limit", "within 5 s", "--level hard --seed 7")


def test_the_generation_time_is_capped_by_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    from meldsat.answers import puzzles

    deadlines: list[float] = []

    def spy(request: Any, **options: Any) -> Any:
        deadlines.append(options["deadline"])
        raise GenerationTimeoutError("spied")

    monkeypatch.setattr(puzzles, "generate", spy)
    monkeypatch.setattr(answers, "time", _Clock(100.0))
    for asked in (600, 0.5, None):
        body = {"level": "easy"} if asked is None else {"level": "easy", "time_limit": asked}
        with pytest.raises(GenerationTimeoutError):
            answers.puzzle_generate_answer(body, time_cap=2.5)
    assert deadlines == [102.5, 100.5, 102.5]


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"level": "impossible"}, "impossible"),
        ({"level": 3}, "level"),
        ({"seed": "x"}, "x"),
        ({"seed": True}, "True"),
        ({"goal": "nope"}, "nope"),
        ({"rules": "gin"}, "gin"),
        ({"players": "four"}, "four"),
        ({"count": 5}, "count"),
        ({"time_limit": -1}, "-1"),
    ],
)
def test_bad_generate_requests_are_422(
    client: TestClient, body: dict[str, Any], fragment: str
) -> None:
    assert_error(client.post("/api/puzzle/generate", json=body), 422, "bad_input", fragment)
