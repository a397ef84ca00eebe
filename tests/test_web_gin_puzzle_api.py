"""The web API's gin and puzzle endpoints: the commands' JSON objects, errors and schemas."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from meldsat.web import answers
from meldsat.web.app import create_app
from meldsat.web.openapi import SCHEMAS, openapi_document
from tests.conftest import CliRunner
from tests.test_json_schemas import assert_matches
from tests.test_web_api import _documented_keys, assert_error, post_ok

HAND = "4S 5S 6S 3C 4C 5C 3D 4D 5D KD"
KNOCK = {
    "melds": "5H 6H 7H | 9S 9D 9C",
    "knocker_deadwood": "2C 3D 4S AC",
    "hand": "8H 9H 4C 4D KC QC JS 2S 3S 10D",
}
PUZZLE: dict[str, Any] = {
    "rules": "manipulation",
    "players": 4,
    "table": [["7S", "7D", "7C"], ["9H", "9D", "9C"], ["8D", "9D", "10D"]],
    "hand": ["6D", "7D", "9S"],
    "goal": "all",
}
SOLUTION = "7S 7D 7C | 9S 9H 9D 9C | 6D 7D 8D 9D 10D"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture
def puzzle_file(tmp_path: Path) -> Path:
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps(PUZZLE), encoding="utf-8")
    return path


def cli_answer(run_cli: CliRunner, *args: str) -> dict[str, Any]:
    data = json.loads(run_cli(*args).out)
    assert isinstance(data, dict)
    return data


def test_deadwood_answer_is_the_deadwood_command_json(
    client: TestClient, run_cli: CliRunner
) -> None:
    body = {"hand": HAND.split(), "upcard": "6H", "seen": "2C"}
    answer = post_ok(client, "/api/deadwood", body)
    args = ("deadwood", "--hand", HAND, "--upcard", "6H", "--seen", "2C", "--json")
    assert answer == cli_answer(run_cli, *args)
    assert answer["draw"]["advice"] == "upcard"
    assert_matches("deadwood", answer)


def test_layoff_answer_is_the_layoff_command_json(client: TestClient, run_cli: CliRunner) -> None:
    body = {**KNOCK, "melds": [meld.split() for meld in KNOCK["melds"].split(" | ")]}
    answer = post_ok(client, "/api/layoff", body)
    args = [f"--{key.replace('_', '-')}={value}" for key, value in KNOCK.items()]
    assert answer == cli_answer(run_cli, "layoff", *args, "--json")
    assert answer["score"] == {"kind": "knock", "winner": "knocker", "points": 43, "doubled": False}
    assert_matches("layoff", answer)


@pytest.mark.parametrize("command", ["solve", "grade"])
def test_puzzle_solve_and_grade_answers_are_the_commands_json(
    client: TestClient, run_cli: CliRunner, puzzle_file: Path, command: str
) -> None:
    answer = post_ok(client, f"/api/puzzle/{command}", {**PUZZLE, "time_limit": 5})
    expected = cli_answer(run_cli, "puzzle", command, str(puzzle_file), "--format", "json")
    assert answer == expected
    assert answer["results"][0]["verdict"] == "unique"
    assert_matches(f"puzzle-{command}", answer)


def test_puzzle_check_answer_is_the_check_command_json(
    client: TestClient, run_cli: CliRunner, puzzle_file: Path
) -> None:
    for final, solved in ((SOLUTION, True), ("7S 7D 7C | 9H 9D 9C | 8D 9D 10D", False)):
        answer = post_ok(client, "/api/puzzle/check", {**PUZZLE, "answer": final})
        args = ("puzzle", "check", str(puzzle_file), "--answer", final, "--format", "json")
        assert answer == cli_answer(run_cli, *args)
        assert answer["solution"] is solved
        assert_matches("puzzle-check", answer)


@pytest.mark.parametrize(
    ("path", "body", "fragment"),
    [
        ("/api/deadwood", {"hand": "QX KD"}, "QX"),
        ("/api/deadwood", {}, "hand"),
        ("/api/deadwood", {"hand": None}, "hand"),
        ("/api/deadwood", {"hand": HAND, "rules": "manipulation"}, "manipulation"),
        ("/api/deadwood", {"hand": HAND, "rules": 7}, "rules"),
        ("/api/deadwood", {"hand": HAND, "upcard": "6H 7H"}, "6H 7H"),
        ("/api/deadwood", {"hand": HAND, "seen": "2C"}, "--seen"),
        ("/api/deadwood", {"hand": [1, 2]}, "hand"),
        ("/api/deadwood", {"hand": HAND, "hnad": "x"}, "hnad"),
        ("/api/layoff", {"hand": KNOCK["hand"]}, "melds"),
        ("/api/layoff", {**KNOCK, "knocker_deadwood": None}, "knocker"),
        ("/api/layoff", {**KNOCK, "melds": "5H 6H *"}, "joker"),
        ("/api/puzzle/solve", {"table": "QX", "hand": "QH"}, "QX"),
        ("/api/puzzle/solve", {**PUZZLE, "time_limit": "soon"}, "soon"),
        ("/api/puzzle/grade", {**PUZZLE, "rules": "gin"}, "gin"),
        ("/api/puzzle/check", PUZZLE, "answer"),
        ("/api/puzzle/check", {**PUZZLE, "answer": {"melds": 1}}, "answer"),
        ("/api/puzzle/check", {**PUZZLE, "answer": "7S 7D ZZ"}, "ZZ"),
    ],
)
def test_bad_gin_and_puzzle_requests_are_422(
    client: TestClient, path: str, body: dict[str, Any], fragment: str
) -> None:
    assert_error(client.post(path, json=body), 422, "bad_input", fragment)


def test_puzzle_solving_time_is_capped_by_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    from meldsat.puzzles import report

    asked: list[float] = []
    real = report.solve_reports

    def spy(puzzles: Any, time_limit: float) -> Any:
        asked.append(time_limit)
        return real(puzzles, time_limit)

    monkeypatch.setattr(report, "solve_reports", spy)
    answers.puzzle_solve_answer({**PUZZLE, "time_limit": 600}, time_cap=2.5)
    answers.puzzle_solve_answer({**PUZZLE, "time_limit": 0.5}, time_cap=2.5)
    answers.puzzle_solve_answer(PUZZLE, time_cap=2.5)
    assert asked == [2.5, 0.5, 2.5]


def test_gin_and_puzzle_answers_carry_the_keys_their_openapi_schemas_name(
    client: TestClient,
) -> None:
    paths = openapi_document()["paths"]
    calls = {
        "DeadwoodAnswer": ("/api/deadwood", {"hand": HAND, "upcard": "6H"}),
        "LayoffAnswer": ("/api/layoff", KNOCK),
        "PuzzleSolveAnswer": ("/api/puzzle/solve", PUZZLE),
        "PuzzleGradeAnswer": ("/api/puzzle/grade", PUZZLE),
        "PuzzleCheckAnswer": ("/api/puzzle/check", {**PUZZLE, "answer": SOLUTION}),
    }
    for name, (path, body) in calls.items():
        answer = post_ok(client, path, body)
        schema = SCHEMAS[name]
        assert set(schema["required"]) <= set(answer), name
        assert set(answer) <= set(schema["properties"]), name
        response = paths[path]["post"]["responses"]["200"]
        assert response["content"]["application/json"]["schema"]["$ref"].endswith(name)
        for key in ("results",):
            for item in answer.get(key, []):
                assert set(schema["properties"][key]["items"]["required"]) <= set(item)


@pytest.mark.parametrize(
    ("openapi_name", "documented_name"),
    [
        ("DeadwoodAnswer", "deadwood"),
        ("LayoffAnswer", "layoff"),
        ("PuzzleSolveAnswer", "puzzle-solve"),
        ("PuzzleGradeAnswer", "puzzle-grade"),
        ("PuzzleCheckAnswer", "puzzle-check"),
    ],
)
def test_the_gin_and_puzzle_endpoints_describe_the_command_line_keys(
    openapi_name: str, documented_name: str
) -> None:
    assert set(SCHEMAS[openapi_name]["properties"]) == _documented_keys(documented_name)
    documented = json.loads(
        (
            Path(__file__).parent.parent / "solver" / "schema" / f"{documented_name}.schema.json"
        ).read_text(encoding="utf-8")
    )
    assert set(SCHEMAS[openapi_name]["required"]) == set(documented["required"])


def test_rules_answers_are_the_rules_command_json(client: TestClient, run_cli: CliRunner) -> None:
    assert client.get("/api/rules").json() == cli_answer(run_cli, "rules", "--json")
    one = client.get("/api/rules/rummikub?players=2").json()
    assert one == cli_answer(run_cli, "rules", "rummikub", "--players", "2", "--json")
    assert_matches("rules", one)
