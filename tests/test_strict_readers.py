"""Every reader of a file or a request: one strict JSON reader, bounded lines, closed keys, and
what was read shown with its control characters escaped.

The strict reader (:mod:`meldsat.jsonload`) is checked as a property, then each kind of bad JSON
is fed to every reader (a game log, a score sheet, a puzzle file, a batch line, a position file,
an API body), so a reader that parses JSON its own way is caught. Replay's tamper checks (game
numbers, the header's keys and seats) are fuzzed over the order of a log's games.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldsat.cli.batchio import read_bounded_line, read_lines
from meldsat.errors import InputTooLargeError
from meldsat.games.log import read_events
from meldsat.games.replay import WrongTurnError, replay_piece, split_games
from meldsat.jsonload import MAX_JSON_DEPTH, JsonError, loads
from tests.conftest import CliRunner
from tests.test_cli import assert_one_line_error

_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(_JSON)
def test_strict_reader_reads_every_plain_json_value_as_json_does(value: Any) -> None:
    text = json.dumps(value)
    assert loads(text) == json.loads(text)


# Each kind of JSON that no reader may take, as (a document holding it inside an object, words).
BAD_JSON = {
    "a key given twice": ('{"hand": "5H", "hand": "6H"}', "given twice"),
    "NaN": ('{"hand": NaN}', "NaN is not a JSON number"),
    "Infinity": ('{"hand": -Infinity}', "Infinity is not a JSON number"),
    "a 5000-digit number": ('{"hand": ' + "9" * 5000 + "}", "a number of 5000 characters"),
    "a huge float": ('{"hand": 1e999}', "too large"),
    "deep nesting": ('{"hand": ' + "[" * 2000 + "]" * 2000 + "}", "levels deep"),
}


@settings(max_examples=60, deadline=None)
@given(
    value=_JSON,
    kind=st.sampled_from(sorted(BAD_JSON)),
    key=st.text("abc", min_size=1, max_size=3),
)
def test_strict_reader_refuses_each_bad_kind_wherever_it_hides(
    value: Any, kind: str, key: str
) -> None:
    bad, words = BAD_JSON[kind]
    inner = bad[len('{"hand": ') : -1]
    if kind == "a key given twice":
        text = json.dumps({"x": value})[:-1] + f', "{key}": 1, "{key}": 2}}'
    else:
        text = "[" + json.dumps(value) + ', {"' + key + '": ' + inner + "}]"
    with pytest.raises(JsonError, match=words):
        loads(text)


def test_the_depth_limit_is_the_documented_one() -> None:
    assert loads("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH) is not None
    with pytest.raises(JsonError):
        loads("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1))
    assert loads('["' + "[{" * 40 + '"]') == ["[{" * 40]  # brackets inside strings do not count


# --- every reader --------------------------------------------------------------------------------


def _log_line(document: str) -> str:
    return document.replace('{"hand":', '{"event": "game", "hand":')


READERS: dict[str, tuple[Callable[[str], str], Callable[[str], list[str]]]] = {
    "replay (a game log)": (lambda d: _log_line(d) + "\n", lambda p: ["replay", p]),
    "score (a score sheet)": (lambda d: d + "\n", lambda p: ["score", p]),
    "puzzle (a puzzle file)": (lambda d: d, lambda p: ["puzzle", "solve", p]),
    "hint (a position file)": (lambda d: d, lambda p: ["hint", "-p", p]),
}


@pytest.mark.parametrize("reader", sorted(READERS))
def test_every_file_reader_refuses_every_kind_of_bad_json(
    run_cli: CliRunner, tmp_path: Path, reader: str
) -> None:
    write, arguments = READERS[reader]
    for kind, (document, words) in BAD_JSON.items():
        path = tmp_path / "input"
        path.write_text(write(document), encoding="utf-8")
        result = run_cli(*arguments(str(path)))
        assert_one_line_error(result, words)
        assert kind


def test_a_batch_line_of_bad_json_is_answered_as_an_error(
    run_cli: CliRunner, tmp_path: Path
) -> None:
    path = tmp_path / "batch.jsonl"
    path.write_text("".join(document + "\n" for document, _ in BAD_JSON.values()))
    result = run_cli("hint", "--jsonl", str(path))
    answers = [json.loads(line) for line in result.out.splitlines()]
    assert result.code == 2
    assert [answer["status"] for answer in answers] == ["error"] * len(BAD_JSON)
    for answer, (_, words) in zip(answers, BAD_JSON.values(), strict=True):
        assert words in answer["error"]["message"]


def test_an_api_body_of_bad_json_is_a_400() -> None:
    from starlette.testclient import TestClient

    from meldsat.web.app import create_app  # type: ignore[attr-defined,unused-ignore]

    with TestClient(create_app(), raise_server_exceptions=False) as client:
        for document, words in BAD_JSON.values():
            response = client.post(
                "/api/validate", content=document, headers={"content-type": "application/json"}
            )
            assert response.status_code == 400
            assert words in response.json()["error"]["message"]


# --- bounded lines -------------------------------------------------------------------------------


class _Endless(io.RawIOBase):
    """A stream of NUL bytes without end (``/dev/zero``) that counts what was taken from it."""

    def __init__(self) -> None:
        self.taken = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        buffer[:] = b"\0" * len(buffer)
        self.taken += len(buffer)
        return len(buffer)


def test_no_line_reader_takes_an_endless_line_into_memory() -> None:
    endless = _Endless()
    text = io.TextIOWrapper(io.BufferedReader(endless), encoding="utf-8")
    with pytest.raises(InputTooLargeError, match="over 1000 characters"):
        read_bounded_line(text, 1000)
    assert endless.taken < 100_000
    binary = _Endless()
    first = next(read_lines(io.BufferedReader(binary), max_bytes=1000))
    assert len(first.text) == 1001  # passed on (to be refused) before the rest is skipped
    assert binary.taken < 100_000


def test_play_stops_at_a_line_longer_than_any_answer(tmp_path: Path) -> None:
    with Path("/dev/zero").open("rb") as zero:
        result = subprocess.run(
            [sys.executable, "-m", "meldsat", "play", "--bots", "random"],
            stdin=zero,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
    assert result.returncode == 2
    assert result.stderr.endswith("a line of stdin is too long: over 65536 characters\n")


@pytest.mark.parametrize("command", [["replay"], ["score"], ["hint", "--jsonl"]])
def test_a_line_over_the_limit_is_refused_by_name(
    run_cli: CliRunner, tmp_path: Path, command: list[str]
) -> None:
    path = tmp_path / "long.jsonl"
    path.write_bytes(b" " * (1 << 20) + b"x\n")
    result = run_cli(*command, str(path))
    if command[0] == "hint":
        assert "too large" in json.loads(result.out)["error"]["message"]
    else:
        assert_one_line_error(result, "line 1 of", "is too long")


# --- replay's tamper checks ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def three_games(tmp_path_factory: pytest.TempPathFactory) -> list[list[str]]:
    """A 3-game log (2 players, random bots), as each game's lines."""
    folder = tmp_path_factory.mktemp("log")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "meldsat",
            "simulate",
            "--games",
            "3",
            "--bots",
            "random",
            "--players",
            "2",
            "--seed",
            "4",
            "--log",
            "g.jsonl",
        ],
        cwd=folder,
        check=True,
        capture_output=True,
        timeout=120,
    )
    games: list[list[str]] = []
    for line in (folder / "g.jsonl").read_text(encoding="utf-8").splitlines():
        if json.loads(line)["event"] == "game":
            games.append([])
        games[-1].append(line)
    assert len(games) == 3
    return games


def _replayed(lines: list[str]) -> int | str:
    """The games confirmed, replayed piece by piece as ``meldsat replay`` does, or the refusal."""
    try:
        return sum(
            replay_piece(piece).games
            for piece in split_games(read_events(lines, "log"), seats=True)
        )
    except WrongTurnError as error:
        return error.reason


@settings(max_examples=12, deadline=None)
@given(order=st.lists(st.integers(0, 2), min_size=1, max_size=4))
def test_replay_confirms_games_only_in_the_order_1_2_3(
    three_games: list[list[str]], order: list[int]
) -> None:
    outcome = _replayed([line for index in order for line in three_games[index]])
    if order == list(range(len(order))):
        assert outcome == len(order)
    else:
        assert isinstance(outcome, str)
        assert "without a repeat or a gap" in outcome


def _header(games: list[list[str]], **changes: Any) -> list[str]:
    header = json.loads(games[0][0])
    header.update(changes)
    header = {key: value for key, value in header.items() if value is not None}
    return [json.dumps(header), *games[0][1:]]


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"seats": ["random", "greedy-evil"]}, "seat 1 is 'greedy-evil'"),
        ({"seats": ["random"]}, "'seats' must list 2 seat names"),
        ({"seats": "random"}, "'seats' must list 2"),
        ({"comment": "hi"}, "unknown key 'comment'"),
        ({"options": {"max_rounds": "x"}}, "option 'max_rounds' is 'x'"),
        ({"options": {"max_rounds": 10**30}}, "not a whole number from 1"),
        ({"options": {"max_rounds": 100, "cheat": 1}}, "unknown option 'cheat'"),
        ({"game": 2}, "game number 2, expected 1"),
        ({"seats": ["random", "\x1b]0;title\x07"]}, "seat 1 is '\\x1b]0;title\\x07'"),
    ],
)
def test_replay_refuses_a_changed_header(
    three_games: list[list[str]], changes: dict[str, Any], words: str
) -> None:
    outcome = _replayed(_header(three_games, **changes))
    assert isinstance(outcome, str)
    assert words in outcome


def test_replay_prints_what_a_log_holds_with_control_characters_escaped(
    run_cli: CliRunner, tmp_path: Path, three_games: list[list[str]]
) -> None:
    path = tmp_path / "bad.jsonl"
    lines = _header(three_games, seats=["random", "\x1b[2J"])
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_cli("replay", str(path))
    assert result.code == 1
    assert "\x1b" not in result.out
    assert "\\x1b[2J" in result.out


# --- score sheets --------------------------------------------------------------------------------

_MANIPULATION = '{"points": [4, 4, 30], "cards": [2, 1, 5], "knocker": 0}'


@pytest.mark.parametrize(
    ("rules", "lines", "words"),
    [
        ("manipulation", ['{"points": [-5, 4, 30], "knocker": 0}'], "points -5 for seat 0"),
        ("manipulation", ['{"points": [' + "1" + "0" * 30 + ", 4, 30]}"], "is impossible"),
        ("manipulation", ['{"points": [5, 4, 30], "knockr": 0}'], "unknown key 'knockr'"),
        ("manipulation", ['{"hands": [["AS", "AS", "AS"], [], ["2C"]]}'], "3 copies of AS"),
        ("manipulation", ['{"points": [5, 0, 30], "cards": [1, 2, 3]}'], "which no hand can"),
        ("manipulation", ['{"points": [5, 4, 30], "cards": [1, 1, 999]}'], "cards 999"),
        ("rummy500", ['{"laid": [9, 4, 2], "hands": [["KS"], [], []], "went_out": 0}'], "went out"),
        ("rummy500", ['{"laid": [-9, 4, 2], "points": [0, 5, 5], "went_out": 0}'], "laid -9"),
        (
            "gin",
            [
                '{"players": ["A", "B"]}',
                '{"knocker": "A", "knocker_deadwood": 4, "defender_deadwood": 100000}',
            ],
            "from 0 to 110",
        ),
        ("gin", ['{"players": ["A", "A"]}'], "both named 'A'"),
    ],
)
def test_score_refuses_the_impossible(
    run_cli: CliRunner, tmp_path: Path, rules: str, lines: list[str], words: str
) -> None:
    path = tmp_path / "sheet.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert_one_line_error(run_cli("score", "-r", rules, str(path)), words)


def test_score_still_takes_a_good_sheet(run_cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "sheet.jsonl"
    path.write_text(_MANIPULATION + "\n", encoding="utf-8")
    assert run_cli("score", str(path)).code == 0


def test_score_prints_player_names_with_control_characters_escaped(
    run_cli: CliRunner, tmp_path: Path
) -> None:
    path = tmp_path / "gin.jsonl"
    name = "Ann\x1b]0;owned\x07\x1b[2J"
    lines = [
        {"players": [name, "Bob"]},
        {"knocker": name, "knocker_deadwood": 4, "defender_deadwood": 15},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    result = run_cli("score", "-r", "gin", str(path))
    assert result.code == 0
    assert "\x1b" not in result.out
    assert "Ann\\x1b]0;owned\\x1b[2J" in result.out


# --- puzzle files and options --------------------------------------------------------------------

_PUZZLE = "rules: manipulation\nplayers: 4\ntable: 7H 8H 9H\nhand: 10H\n"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (_PUZZLE.replace("players: 4", "players: ²"), "bad players '²'"),
        (_PUZZLE + "hand: 5H\n", "'hand:' given twice"),
        ('{"schema_version": 1, "puzzles": []}', "'puzzles' is empty"),
        ('{"schema_version": 99, "puzzles": [{"hand": "5H"}]}', "schema_version '99'"),
        ('{"schema_version": 1, "puzzles": [], "more": 1}', "unknown key 'more'"),
    ],
)
def test_puzzle_files_refuse_the_impossible(
    run_cli: CliRunner, tmp_path: Path, text: str, words: str
) -> None:
    path = tmp_path / "puzzle.txt"
    path.write_text(text, encoding="utf-8")
    assert_one_line_error(run_cli("puzzle", "solve", str(path)), words)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["simulate", "--bots", "random,,random"], "bot 2 has no name"),
        (["simulate", "--log", ""], "no file name given"),
        (["simulate", "--time-limit", "inf"], "inf is not a number of seconds"),
        (["hint", "-t", "7H 8H 9H", "--hand", "10H", "--time-limit", "nan"], "--time-limit"),
        (["puzzle", "solve", "-", "--time-limit", "inf"], "inf is not a number of seconds"),
        (["puzzle", "check", "-", "--answer", ""], "--answer is empty"),
    ],
)
def test_options_refuse_the_impossible(run_cli: CliRunner, args: list[str], words: str) -> None:
    import sys as system

    stdin = system.stdin
    system.stdin = io.TextIOWrapper(io.BytesIO(_PUZZLE.encode()), encoding="utf-8")
    try:
        result = run_cli(*args)
    finally:
        system.stdin = stdin
    assert result.code == 2
    assert words in result.err
    assert "Traceback" not in result.err
