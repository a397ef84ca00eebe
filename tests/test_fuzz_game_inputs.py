"""Arbitrary values into every option and input file of the gin, game and puzzle commands.

The same promise as tests/test_fuzz_inputs.py: exit code 0-3, a failure is one line on stderr (and
with ``--json`` an error object on stdout), never a traceback. Solving here is slow next to parsing,
so the example counts are small.
"""

from __future__ import annotations

import copy
import functools
import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import CliRunner
from tests.test_fuzz_inputs import (
    JSON_VALUES,
    NEARLY_CARDS,
    OPTION_VALUES,
    POSITION_OBJECTS,
    TEXT,
    assert_clean_run,
)
from tests.test_json_schemas import KNOCK_ARGS, PUZZLE

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SLOW_FUZZ = settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
GIN_CARDS = st.lists(
    st.one_of(
        st.sampled_from(["AS", "2S", "3S", "4S", "9C", "9D", "9H", "KH", "QH", "JH", "10H", "*"]),
        st.text(max_size=3),
    ),
    max_size=12,
).map(" ".join)
# Options that take a file or a count are given values that stay on this machine and finish fast:
# --log and --output write files, and --games or --count of 10**20 would run for ever (as asked).
OPTIONS = {
    "deadwood": ["--hand", "--rules", "--upcard", "--first-upcard", "--seen"],
    "layoff": ["--melds", "--hand", "--knocker-deadwood", "--rules", "--upcard", "--first-upcard"],
    "score": ["--rules"],
    "simulate": ["--bots", "--seed", "--players", "--rules", "--time-limit"],
    "puzzle solve": ["--time-limit", "--format"],
    "puzzle grade": ["--time-limit", "--format"],
    "puzzle check": ["--answer", "--number", "--time-limit", "--format"],
}
BASE_ARGS = {
    "deadwood": ["--hand", "4S 5S 6S 3C 4C 5C 3D 4D 5D KD", "--upcard", "6H"],
    "layoff": KNOCK_ARGS,
    "score": [str(EXAMPLES / "gin-hands.jsonl"), "--rules", "gin"],
    "simulate": ["--games", "1", "--rules", "gin", "--players", "2"],
    "puzzle solve": ["{puzzle}"],
    "puzzle grade": ["{puzzle}"],
    "puzzle check": ["{puzzle}", "--answer", "7S 7D 7C | 9S 9H 9D 9C | 6D 7D 8D 9D 10D"],
}


def json_flag(command: str) -> list[str]:
    return ["--format", "json"] if command.startswith("puzzle") else ["--json"]


@pytest.fixture
def puzzle_file(tmp_path: Path) -> Path:
    path = tmp_path / "puzzle.txt"
    path.write_text(PUZZLE, encoding="utf-8")
    return path


@SLOW_FUZZ
@given(command=st.sampled_from(sorted(OPTIONS)), data=st.data(), value=OPTION_VALUES)
def test_any_value_for_any_option_of_the_newer_commands(
    run_cli: CliRunner, puzzle_file: Path, command: str, data: st.DataObject, value: str
) -> None:
    as_json = data.draw(st.booleans())
    option = data.draw(st.sampled_from(OPTIONS[command]))
    base = [arg.replace("{puzzle}", str(puzzle_file)) for arg in BASE_ARGS[command]]
    flag = json_flag(command) if as_json else []
    # A later --format wins over the JSON flag; the flag's promise holds only when it is last.
    args = [*command.split(), *base, option, value, *flag]
    assert_clean_run(run_cli(*args), json_output=as_json)


@SLOW_FUZZ
@given(hand=GIN_CARDS, upcard=st.one_of(st.none(), GIN_CARDS), seen=st.one_of(st.none(), TEXT))
def test_any_cards_into_deadwood(
    run_cli: CliRunner, hand: str, upcard: str | None, seen: str | None
) -> None:
    args = ["deadwood", "--hand", hand, "--json"]
    args += ["--upcard", upcard] if upcard is not None else []
    args += ["--seen", seen] if seen is not None else []
    assert_clean_run(run_cli(*args), json_output=True)


@SLOW_FUZZ
@given(melds=NEARLY_CARDS, hand=GIN_CARDS, knocker=st.one_of(st.none(), GIN_CARDS))
def test_any_cards_into_layoff(
    run_cli: CliRunner, melds: str, hand: str, knocker: str | None
) -> None:
    args = ["layoff", "--melds", melds, "--hand", hand, "--json"]
    args += ["--knocker-deadwood", knocker] if knocker is not None else []
    assert_clean_run(run_cli(*args), json_output=True)


SCORE_KEYS = st.sampled_from(
    ["hand_points", "knocker", "laid", "went_out", "players", "winner", "kind", "points", "x"]
)
SCORE_LINES = st.one_of(
    st.dictionaries(SCORE_KEYS, JSON_VALUES, max_size=5).map(json.dumps),
    POSITION_OBJECTS.map(json.dumps),
    TEXT,
)


def _stdin(monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> None:
    text = "\n".join(line.replace("\n", " ").replace("\r", " ") for line in lines)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))


def _example_lines(name: str) -> list[str]:
    return (EXAMPLES / name).read_text(encoding="utf-8").splitlines()


@SLOW_FUZZ
@given(
    rules=st.sampled_from(["gin", "oklahoma-gin", "manipulation", "rummy500", "rummy500-killer"]),
    example=st.sampled_from(
        ["gin-hands.jsonl", "manipulation-rounds.jsonl", "rummy500-deals.jsonl"]
    ),
    data=st.data(),
)
def test_any_lines_into_score(
    run_cli: CliRunner,
    monkeypatch: pytest.MonkeyPatch,
    rules: str,
    example: str,
    data: st.DataObject,
) -> None:
    lines = _example_lines(example)
    # Replace some real lines with arbitrary ones, or change one key of a real line.
    for _ in range(data.draw(st.integers(0, 2))):
        lines[data.draw(st.integers(0, len(lines) - 1))] = data.draw(SCORE_LINES)
    lines = [_mutated_line(line, data) for line in lines]
    _stdin(monkeypatch, lines)
    assert_clean_run(run_cli("score", "-", "--rules", rules, "--json"), json_output=True)


def _mutated_line(line: str, data: st.DataObject) -> str:
    """``line`` itself, or (sometimes) the same JSON object with one value changed."""
    try:
        entry = json.loads(line)
    except json.JSONDecodeError:
        return line
    if not isinstance(entry, dict) or not entry or not data.draw(st.booleans()):
        return line
    key = data.draw(st.sampled_from(sorted(entry)))
    entry[key] = data.draw(JSON_VALUES)
    return json.dumps(entry)


@functools.cache
def _game_log() -> tuple[str, ...]:
    """The event lines of one short simulated gin game (made once, through the library)."""
    from meldsat.games.log import MemoryLog, dump_event
    from meldsat.games.simulate import simulate

    log = MemoryLog()
    simulate("gin", ["greedy-points", "random"], 1, 5, log, time_limit=1.0)
    return tuple(dump_event(event) for event in log.events)


@SLOW_FUZZ
@given(data=st.data())
def test_any_change_to_a_game_log_is_replayed_or_refused_cleanly(
    run_cli: CliRunner, monkeypatch: pytest.MonkeyPatch, data: st.DataObject
) -> None:
    events = [json.loads(line) for line in _game_log()]
    changed = copy.deepcopy(events)
    for _ in range(data.draw(st.integers(1, 3))):
        event = changed[data.draw(st.integers(0, len(changed) - 1))]
        key = data.draw(st.sampled_from(sorted(event)))
        event[key] = data.draw(st.one_of(JSON_VALUES, st.just(copy.deepcopy(event[key]))))
    if data.draw(st.booleans()):
        del changed[data.draw(st.integers(0, len(changed) - 1))]
    _stdin(monkeypatch, [json.dumps(event) for event in changed])
    result = run_cli("replay", "-", "--json")
    assert_clean_run(result, json_output=True)


PUZZLE_KEYS = st.sampled_from(
    ["rules", "players", "table", "hand", "goal", "solution", "level", "grade", "seed"]
)


@SLOW_FUZZ
@given(
    data=st.data(),
    command=st.sampled_from(["solve", "grade", "check"]),
    as_json=st.booleans(),
)
def test_any_puzzle_file_is_read_or_refused_cleanly(
    run_cli: CliRunner,
    monkeypatch: pytest.MonkeyPatch,
    data: st.DataObject,
    command: str,
    as_json: bool,
) -> None:
    puzzle = {
        "rules": "manipulation",
        "players": 4,
        "table": [["7S", "7D", "7C"], ["9H", "9D", "9C"], ["8D", "9D", "10D"]],
        "hand": ["6D", "7D", "9S"],
        "goal": "all",
    }
    for _ in range(data.draw(st.integers(0, 2))):
        puzzle[data.draw(PUZZLE_KEYS)] = data.draw(st.one_of(JSON_VALUES, NEARLY_CARDS))
    text = data.draw(
        st.one_of(
            st.just(json.dumps({"schema_version": 1, "puzzles": [puzzle]})),
            st.just(json.dumps(puzzle)),
            st.just("\n".join(f"{key}: {value}" for key, value in puzzle.items())),
            TEXT,
        )
    )
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    args = ["puzzle", command, "-", "--time-limit", "2"]
    if command == "check":
        args += ["--answer", data.draw(NEARLY_CARDS)]
    flag = ["--format", "json"] if as_json else []
    assert_clean_run(run_cli(*args, *flag), json_output=as_json)


@pytest.mark.parametrize("log", [".", "/no/such/folder/game.jsonl"])
def test_simulate_log_that_cannot_be_written_is_a_clean_error(run_cli: CliRunner, log: str) -> None:
    args = ["simulate", "--games", "1", "--rules", "gin", "--log", log, "--json"]
    result = run_cli(*args)
    assert_clean_run(result, json_output=True)
    assert result.code == 2


@pytest.mark.parametrize("command", ["simulate", "play"])
@pytest.mark.parametrize("players", ["9223372036854775808", "22337203685", "-3"])
def test_a_player_count_too_large_to_seat_is_refused_before_seats_are_made(
    run_cli: CliRunner, command: str, players: str
) -> None:
    result = run_cli(
        command, "--players", players, "--games" if command == "simulate" else "--seed", "1"
    )
    assert_clean_run(result)
    assert result.code == 2


@pytest.mark.parametrize(("key", "value"), [("players", False), ("players", True), ("game", True)])
def test_a_game_event_with_true_or_false_for_a_number_is_refused(
    run_cli: CliRunner, monkeypatch: pytest.MonkeyPatch, key: str, value: bool
) -> None:
    events = [json.loads(line) for line in _game_log()]
    events[0][key] = value
    _stdin(monkeypatch, [json.dumps(event) for event in events])
    result = run_cli("replay", "-", "--json")
    assert_clean_run(result, json_output=True)
    assert result.code == 1
    assert json.loads(result.out)["confirmed"] is False


@pytest.mark.parametrize("hand", ["", "hand: \n", "hand:\n"])
def test_a_puzzle_without_a_hand_is_refused(run_cli: CliRunner, tmp_path: Path, hand: str) -> None:
    path = tmp_path / "puzzle.txt"
    path.write_text(PUZZLE.replace("hand: 6D 7D 9S\n", hand))
    for command in ("solve", "grade"):
        result = run_cli("puzzle", command, str(path), "--json")
        assert_clean_run(result, json_output=True)
        assert result.code == 2
        assert "hand" in json.loads(result.out)["error"]["message"]


@pytest.mark.parametrize(
    "args",
    [
        ("score", "a\x00b"),
        ("replay", "a\x00b"),
        ("puzzle", "solve", "a\x00b"),
        ("simulate", "--games", "1", "--rules", "gin", "--log", "a\x00b"),
        ("puzzle", "generate", "--level", "easy", "--output", "a\x00b"),
        ("hint", "--jsonl", "\x00"),
    ],
)
def test_a_file_name_with_a_nul_byte_is_a_clean_error(
    run_cli: CliRunner, args: tuple[str, ...]
) -> None:
    result = run_cli(*args, "--json")
    assert_clean_run(result, json_output=True)
    assert result.code == 2
    assert "not a possible file name" in result.err
