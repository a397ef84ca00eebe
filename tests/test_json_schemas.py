"""Every command's JSON output, answers and failures alike, matches its schema in solver/schema/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from tests.conftest import CliRunner

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "solver" / "schema"


def _registry() -> Registry[Any]:
    resources = []
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(schema)
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


REGISTRY = _registry()


def assert_matches(name: str, answer: Any) -> None:
    """``answer`` is valid against ``solver/schema/<name>.schema.json``."""
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
        ("deadwood", "--json", "--hand", "QX"),
        ("deadwood", "--json", "--hand", "4S 5S", "--rules", "manipulation"),
        ("layoff", "--json", "--melds", "5H 6H 7H", "--hand", "8H"),
        ("score", "--json", "/dev/null"),
        ("score", "--json", "--rules", "rummikub", "/dev/null"),
        ("simulate", "--json", "--bots", "nobody", "--games", "1"),
        ("simulate", "--json", "--games", "0"),
        ("replay", "--json", "/no/such/log"),
        ("puzzle", "generate", "--level", "trivial", "--format", "json"),
        ("puzzle", "solve", "/no/such/file", "--format", "json"),
        ("puzzle", "grade", "/dev/null", "-f", "json"),
        ("puzzle", "check", "/dev/null", "--answer", "QX", "--format=json"),
    ],
)
def test_failures_with_json_match_the_error_schema(
    run_cli: CliRunner, args: tuple[str, ...]
) -> None:
    result = run_cli(*args)
    assert result.code == 2
    (answer,) = answers(result.out)
    assert_matches("error", answer)
    assert result.err.splitlines()[-1].startswith("meldsat: error: ")


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


# --- the gin, game and puzzle commands ------------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize(
    "args",
    [
        ("--hand", "4S 5S 6S 3C 4C 5C 3D 4D 5D 6D 6H"),
        ("--hand", "4S 5S 6S 3C 4C 5C 3D 4D 5D KD", "--upcard", "6H", "--seen", "2C"),
        ("--rules", "oklahoma-gin", "--hand", "AS 2S 3S 9C 9D KH QH JH 10H 7D", "--upcard", "AH"),
    ],
)
def test_deadwood_output_matches_its_schema(run_cli: CliRunner, args: tuple[str, ...]) -> None:
    (answer,) = answers(run_cli("deadwood", "--json", *args).out)
    assert_matches("deadwood", answer)


# A knock the defender answers by laying 8H and 9H off (a test of the schemas and of the fuzzers).
KNOCK_ARGS = [
    "--melds",
    "5H 6H 7H | 9S 9D 9C",
    "--knocker-deadwood",
    "2C 3D 4S AC",
    "--hand",
    "8H 9H 4C 4D KC QC JS 2S 3S 10D",
]


def test_layoff_output_matches_its_schema(run_cli: CliRunner) -> None:
    (answer,) = answers(run_cli("layoff", "--json", *KNOCK_ARGS).out)
    assert_matches("layoff", answer)
    assert answer["laid_off"] == [{"card": "8H", "meld": 1}, {"card": "9H", "meld": 2}]


@pytest.mark.parametrize(
    ("rules", "example"),
    [
        ("gin", "gin-hands.jsonl"),
        ("manipulation", "manipulation-rounds.jsonl"),
        ("rummy500", "rummy500-deals.jsonl"),
    ],
)
def test_score_sheets_match_their_schema(run_cli: CliRunner, rules: str, example: str) -> None:
    (answer,) = answers(run_cli("score", "--rules", rules, str(EXAMPLES / example), "--json").out)
    assert_matches("score", answer)


def test_simulate_and_replay_output_match_their_schemas(run_cli: CliRunner, tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    simulated = run_cli("simulate", "--rules", "gin", "--games", "1", "--log", str(log), "--json")
    (answer,) = answers(simulated.out)
    assert_matches("simulate", answer)
    (confirmed,) = answers(run_cli("replay", str(log), "--json").out)
    assert_matches("replay", confirmed)
    assert confirmed["confirmed"] is True
    # A tampered turn: the log's first turn claims one more point of deadwood than it holds.
    events = answers(log.read_text())
    turn = next(event for event in events if event["event"] == "turn")
    turn["deadwood"] += 1
    log.write_text("".join(json.dumps(event) + "\n" for event in events))
    wrong = run_cli("replay", str(log), "--json")
    assert wrong.code == 1
    (refused,) = answers(wrong.out)
    assert_matches("replay", refused)
    assert refused["confirmed"] is False


PUZZLE = (
    "rules: manipulation\nplayers: 4\ntable: 7S 7D 7C | 9H 9D 9C | 8D 9D 10D\nhand: 6D 7D 9S\n"
    "goal: all\n"
)


def test_puzzle_outputs_match_their_schemas(run_cli: CliRunner, tmp_path: Path) -> None:
    generated = run_cli("puzzle", "generate", "--level", "easy", "--format", "json")
    (puzzles,) = answers(generated.out)
    assert_matches("puzzles", puzzles)
    path = tmp_path / "puzzle.txt"
    path.write_text(PUZZLE)
    for command in ("solve", "grade"):
        (report,) = answers(run_cli("puzzle", command, str(path), "--format", "json").out)
        assert_matches(f"puzzle-{command}", report)
    solution = "7S 7D 7C | 9S 9H 9D 9C | 6D 7D 8D 9D 10D"
    for answer_table, code in ((solution, 0), ("7S 7D 7C | 9H 9D 9C | 8D 9D 10D", 1)):
        checked = run_cli("puzzle", "check", str(path), "--answer", answer_table, "-f", "json")
        assert checked.code == code
        (report,) = answers(checked.out)
        assert_matches("puzzle-check", report)
        # The reasons are check's {code, message} objects, with the goal's own code.
        assert ("goal" in [reason["code"] for reason in report["reasons"]]) is (code == 1)


def test_json_flag_of_the_puzzle_commands_is_format_json(
    run_cli: CliRunner, tmp_path: Path
) -> None:
    path = tmp_path / "puzzle.txt"
    path.write_text(PUZZLE)
    for args in (
        ("generate", "--level", "easy"),
        ("solve", str(path)),
        ("grade", str(path)),
        ("check", str(path), "--answer", "7S 7D 7C | 9S 9H 9D 9C | 6D 7D 8D 9D 10D"),
    ):
        flagged = run_cli("puzzle", *args, "--json")
        assert flagged.out == run_cli("puzzle", *args, "--format", "json").out
        assert flagged.out.startswith('{"schema_version": 1')


def test_every_command_that_answers_in_json_has_a_schema() -> None:
    from meldsat.cli import puzzle
    from meldsat.cli.main import build_app

    app = build_app()

    # play talks to a person and serve runs the web API (its OpenAPI document names these schemas).
    commands = {str(command.name) for command in app.registered_commands} - {"play", "serve"}
    commands |= {f"puzzle-{command.name}" for command in puzzle.app.registered_commands}
    schemas = {path.name.removesuffix(".schema.json") for path in SCHEMA_DIR.glob("*.json")}
    named = {"puzzle-generate": "puzzles"}
    assert {named.get(command, command) for command in commands} <= schemas
