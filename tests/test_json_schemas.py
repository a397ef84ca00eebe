"""Every command's JSON output, answers and failures alike, matches its schema in docs/schema/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from tests.conftest import CliRunner

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "docs" / "schema"


def _registry() -> Registry[Any]:
    resources = []
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(schema)
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


REGISTRY = _registry()


def assert_matches(name: str, answer: Any) -> None:
    """``answer`` is valid against ``docs/schema/<name>.schema.json``."""
    validator = Draft202012Validator({"$ref": f"urn:meldsat:{name}"}, registry=REGISTRY)
    errors = [error.message for error in validator.iter_errors(answer)]
    assert not errors, errors


def answers(out: str) -> list[Any]:
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize(
    "args",
    [
        ("--table", "QH KH AH"),
        ("--table", "QH KH AH | 7S 8S", "--players", "2"),
        ("--rules", "rummikub", "--table", "r12 r13 r1 | j=r5 r6 r7"),
        ("--table", "7S 7S 7S 7H", "--players", "2"),
    ],
)
def test_validate_output_matches_its_schema(run_cli: CliRunner, args: tuple[str, ...]) -> None:
    (answer,) = answers(run_cli("validate", "--json", *args).out)
    assert_matches("validate", answer)


@pytest.mark.parametrize(
    "args",
    [
        ("--table", "4S 5S 6S *=7S", "--hand", "7S QH KH", "--after", "4S 5S 6S 7S | QH KH *=AH"),
        ("--table", "4S 5S 6S *=7S", "--hand", "QH KH", "--after", "4S 5S 6S | QH KH *=AH"),
        ("--rules", "rummikub", "--initial", "--hand", "k1 k2 k3", "--after", "k1 k2 k3"),
    ],
)
def test_check_output_matches_its_schema(run_cli: CliRunner, args: tuple[str, ...]) -> None:
    (answer,) = answers(run_cli("check", "--json", *args).out)
    assert_matches("check", answer)


@pytest.mark.parametrize(
    "args",
    [
        ("--table", "4S 5S 6S *=7S | 7S 7H 7D 7C", "--hand", "QH KH 2C"),
        ("--table", "4S 5S 6S *=7S", "--hand", "QH KH"),
        ("--rules", "rummikub", "--hand", "k1 b1 o1 o2 o3", "--objective", "cards"),
        ("--rules", "gin", "--table", "2C 3C 4C", "--hand", "5C 9D", "--all"),
    ],
)
def test_hint_output_matches_its_schema(run_cli: CliRunner, args: tuple[str, ...]) -> None:
    (answer,) = answers(run_cli("hint", "--json", *args).out)
    assert_matches("hint", answer)
    assert answer["played"] == answer["play"]


def test_batch_lines_match_their_schema(run_cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "batch.jsonl"
    path.write_text(
        '{"id": "a", "hand": "QH KH AH"}\n'
        '{"id": {"deep": [1, 2]}, "hand": "QX"}\n'
        "not json at all\n"
        '{"rules": "rummikub", "table": [["k1", "k2", "k3"]], "hand": ["k4"]}\n'
    )
    lines = answers(run_cli("hint", "--jsonl", str(path)).out)
    assert len(lines) == 4
    for answer in lines:
        assert_matches("hint-line", answer)
    assert lines[1]["id"] == {"deep": [1, 2]}


@pytest.mark.parametrize(
    "args",
    [
        ("validate", "--json", "--table", "QX"),
        ("validate", "--json", "--table", "8S 8H *"),
        ("check", "--json", "--table", "QH KH AH"),
        ("hint", "--json", "--hand", "QH", "--rules", "poker"),
        ("hint", "--json", "--hand", "QH", "--players", "many"),
        ("validate", "--json", "--position", "/dev/zero"),
    ],
)
def test_failures_with_json_match_the_error_schema(
    run_cli: CliRunner, args: tuple[str, ...]
) -> None:
    result = run_cli(*args)
    assert result.code == 2
    (answer,) = answers(result.out)
    assert_matches("error", answer)


def test_all_without_a_way_to_empty_the_hand_gives_the_best_partial_value(
    run_cli: CliRunner,
) -> None:
    args = ("hint", "--table", "4S 5S 6S", "--hand", "7S 9D KC", "--all")
    result = run_cli(*args, "--json")
    assert result.code == 1
    (answer,) = answers(result.out)
    assert_matches("hint", answer)
    assert answer["best_partial"] == {"status": "optimal", "cards_played": 1, "points_played": 7}
    human = run_cli(*args).out
    assert "no play empties the hand" in human
    assert "1 card worth 7 points" in human


@pytest.mark.parametrize(
    "args",
    [
        ("validate", "--table", "KH AH 2H", "--rule", "wrap_around=true"),
        ("check", "--hand", "5H 6H 7H", "--after", "5H 6H 7H", "--rule", "jokers=0"),
        ("hint", "--hand", "5H 6H 7H 8H", "--rule", "run_min=4", "--rule", "knock_limit=none"),
    ],
)
def test_house_rules_in_the_output_match_the_schemas(
    run_cli: CliRunner, args: tuple[str, ...]
) -> None:
    (answer,) = answers(run_cli(*args, "--json").out)
    assert_matches(args[0], answer)
    assert answer["house_rules"]


def test_rules_output_matches_its_schema(run_cli: CliRunner) -> None:
    for args in (("rules",), ("rules", "rummikub"), ("rules", "gin", "--rule", "knock_limit=5")):
        (answer,) = answers(run_cli(*args, "--json").out)
        assert_matches("rules", answer)
