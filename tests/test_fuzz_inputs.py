"""Arbitrary text, bytes and JSON into every reader and option: only the library's errors escape.

The library may raise :class:`MeldsatError` (a ``ValueError``) on bad input, and ``TypeError`` or
``ValueError`` on a wrong argument; nothing else (no ``RecursionError``, ``AttributeError``, bare
``ValueError`` from ``int()``). The command line turns every failure into exit code 2 with one line
on stderr, and whatever it prints as JSON parses with a strict parser.
"""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meldsat
from meldsat import (
    Card,
    Joker,
    MeldsatError,
    Notation,
    Objective,
    get_rules,
    load_position,
    parse_card,
    parse_hand,
    parse_piece,
    parse_pieces,
    parse_table,
    read_position,
)
from meldsat.errors import escape_controls
from meldsat.house_rules import HOUSE_RULES
from meldsat.position import position_fields
from tests.conftest import CliResult, CliRunner

# Tokens a real position is made of, so that generated text often gets past the first token.
CARD_WORDS = st.sampled_from(
    ["QH", "KH", "AH", "10h", "*", "*=7H", "JK", "r7", "j", "k13", "5C", "|", ";", ",", "=", "\n"]
)
POSITION_KEYS = st.sampled_from(
    ["rules", "players", "table", "hand", "initial", "draws", "after", "id", "tabel"]
)
NEARLY_CARDS = st.lists(st.one_of(CARD_WORDS, st.text(max_size=4)), max_size=12).map(" ".join)
TEXT = st.one_of(st.text(max_size=60), NEARLY_CARDS)
JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    TEXT,
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
RULE_NAMES = st.sampled_from(["manipulation", "rummikub", "gin", "rummy500"])
RULES_BLOCKS = st.dictionaries(
    st.one_of(st.sampled_from([*HOUSE_RULES, "preset"]), st.text(max_size=6)),
    st.one_of(JSON_SCALARS, RULE_NAMES),
    max_size=4,
)
POSITION_OBJECTS = st.one_of(
    st.dictionaries(POSITION_KEYS, JSON_VALUES, max_size=5),
    st.fixed_dictionaries({"rules": RULES_BLOCKS}, optional={"hand": NEARLY_CARDS}),
)
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# The CLI fixture is function-scoped but only captures output: one per test is enough.
CLI_FUZZ = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


# Every public function of the library (``best_play`` loads the engine).
LIBRARY_FUNCTIONS = [
    getattr(meldsat, name)
    for name in meldsat.__all__
    if name[0].islower() and callable(getattr(meldsat, name))
]


def strict_json(text: str) -> Any:
    """Parse ``text`` as JSON the way a strict parser would (no NaN or Infinity)."""

    def refuse(name: str) -> Any:
        raise ValueError(f"not JSON: {name}")

    return json.loads(text, parse_constant=refuse)


def assert_clean_run(result: CliResult, *, json_output: bool = False) -> None:
    """Exit 0-3; a failure is one escaped line on stderr; JSON output parses strictly."""
    assert result.code in {0, 1, 2, 3}, result
    assert "Traceback" not in result.err
    if result.err:  # a batch reports bad lines on stdout only
        last = result.err.splitlines()[-1]
        assert last.startswith("meldsat: error: ")
        assert escape_controls(last) == last  # no raw control character reaches the terminal
    if json_output:
        for line in result.out.splitlines():
            strict_json(line)


def library_call(function: Any, *args: Any) -> None:
    with contextlib.suppress(MeldsatError):
        function(*args)


@FUZZ
@given(text=TEXT, rules=RULE_NAMES)
def test_any_text_into_the_readers_is_read_or_refused_cleanly(text: str, rules: str) -> None:
    rule_set = get_rules(rules)
    for notation in Notation:
        library_call(parse_card, text, notation)
        library_call(parse_piece, text, notation)
        library_call(parse_pieces, text, notation)
        library_call(parse_table, text, notation)
        library_call(parse_hand, text, notation)
    library_call(get_rules, text)
    library_call(read_position, text)
    library_call(read_position, f"rules: {rules}\ntable: {text}\nhand: {text}")
    library_call(read_position, f"players: {text}")
    library_call(read_position, text, rule_set.name)
    assert rule_set == get_rules(rules)


@FUZZ
@given(data=POSITION_OBJECTS, rules=st.one_of(st.none(), RULE_NAMES), house=RULES_BLOCKS)
def test_any_json_object_is_a_position_or_a_clean_error(
    data: dict[str, Any], rules: str | None, house: dict[str, Any]
) -> None:
    library_call(load_position, data)
    library_call(load_position, data, rules, None, house)
    library_call(read_position, json.dumps(data))
    library_call(read_position, json.dumps(data), rules)


@FUZZ
@given(value=JSON_VALUES)
def test_any_json_value_as_a_whole_position_is_refused_cleanly(value: Any) -> None:
    library_call(read_position, json.dumps(value))


@FUZZ
@given(data=st.binary(max_size=80))
def test_any_bytes_as_text_are_refused_cleanly(data: bytes) -> None:
    library_call(read_position, data.decode("utf-8", errors="surrogateescape"))
    library_call(read_position, data.decode("latin-1"))


@pytest.mark.parametrize(
    "text",
    [
        "players: ²",
        "players: " + "9" * 5000,
        '{"players": ' + "9" * 5000 + "}",
        '{"players": 1e999}',
        '{"id": NaN}',
        "[" * 100_000,
        '{"a":' * 100_000,
        "hand: r" + "1" * 5000,
        '{"rules": 0}',
        '{"rules": ""}',
        '{"rules": false}',
        '{"rules": []}',
        "x" * 1_000_000,
    ],
)
def test_known_escapes_are_clean_errors(text: str) -> None:
    with pytest.raises(MeldsatError) as error:
        read_position(text)
    assert len(str(error.value)) < 300


@CLI_FUZZ
@given(table=TEXT, hand=TEXT, rules=st.one_of(TEXT, RULE_NAMES), json_flag=st.booleans())
def test_any_text_in_the_options_of_validate_and_check(
    run_cli: CliRunner, table: str, hand: str, rules: str, json_flag: bool
) -> None:
    flag = ["--json"] if json_flag else []
    assert_clean_run(
        run_cli("validate", "--table", table, "--hand", hand, "--rules", rules, *flag),
        json_output=json_flag,
    )
    assert_clean_run(
        run_cli("check", "--table", hand, "--hand", table, "--after", table, *flag),
        json_output=json_flag,
    )


@CLI_FUZZ
@given(
    table=NEARLY_CARDS,
    hand=NEARLY_CARDS,
    players=st.one_of(TEXT, st.integers(-3, 9).map(str)),
    extra=st.sampled_from(
        [[], ["--all"], ["--objective", "cards"], ["--time-limit", "-1"], ["--draws", "x"]]
    ),
)
def test_any_text_in_the_options_of_hint(
    run_cli: CliRunner, table: str, hand: str, players: str, extra: list[str]
) -> None:
    result = run_cli(
        "hint", "--table", table, "--hand", hand, "--players", players, "--json", *extra
    )
    assert_clean_run(result, json_output=True)


OPTION_VALUES = st.one_of(
    TEXT,
    st.sampled_from(["inf", "-inf", "nan", "1e999", "-0", "0", "99999999999999999999", "²", ""]),
)
OPTIONS = {
    "validate": ["--rules", "--players", "--table", "--hand", "--position", "--rule"],
    "check": ["--draws", "--after", "--players", "--rule", "--rules"],
    "hint": ["--time-limit", "--objective", "--players", "--workers", "--rule", "--jsonl"],
    "rules": ["--players", "--rule"],
}
BASE_ARGS = {
    "validate": ["--table", "QH KH AH"],
    "check": ["--after", "QH KH AH"],
    "hint": ["--hand", "QH KH AH"],
    "rules": ["gin"],
}


@CLI_FUZZ
@given(
    command=st.sampled_from(sorted(OPTIONS)),
    data=st.data(),
    value=OPTION_VALUES,
    json_flag=st.booleans(),
)
def test_any_value_for_any_option(
    run_cli: CliRunner, command: str, data: st.DataObject, value: str, json_flag: bool
) -> None:
    option = data.draw(st.sampled_from(OPTIONS[command]))
    # --jsonl takes no position options; everything else gets a small valid position.
    args = [command] if option == "--jsonl" else [command, *BASE_ARGS[command]]
    flag = ["--json"] if json_flag else []
    assert_clean_run(run_cli(*args, option, value, *flag), json_output=json_flag)


@CLI_FUZZ
@given(
    data=st.one_of(st.binary(max_size=100), POSITION_OBJECTS.map(lambda d: json.dumps(d).encode()))
)
def test_any_bytes_on_stdin_as_a_position(
    run_cli: CliRunner, monkeypatch: pytest.MonkeyPatch, data: bytes
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert_clean_run(run_cli("validate", "--position", "-", "--json"), json_output=True)


@CLI_FUZZ
@given(
    lines=st.lists(st.one_of(POSITION_OBJECTS.map(json.dumps), TEXT), max_size=4),
    options=st.lists(
        st.one_of(
            RULE_NAMES.map(lambda name: ["--rules", name]),
            st.integers(2, 6).map(lambda count: ["--players", str(count)]),
        ),
        max_size=2,
    ),
)
def test_any_batch_lines_each_get_one_strict_json_answer(
    run_cli: CliRunner, monkeypatch: pytest.MonkeyPatch, lines: list[str], options: list[list[str]]
) -> None:
    text = "\n".join(line.replace("\n", " ").replace("\r", " ") for line in lines)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    flat = [word for option in options for word in option]
    result = run_cli("hint", "--jsonl", "-", "--time-limit", "1", *flat)
    assert_clean_run(result, json_output=True)
    answers = [strict_json(line) for line in result.out.splitlines()]
    assert all(isinstance(answer, dict) and "line" in answer for answer in answers)


@FUZZ
@given(
    objective=st.one_of(JSON_SCALARS, st.sampled_from(["points", "cards", "CARDS"])),
    time_limit=st.one_of(JSON_SCALARS, st.floats()),
    play_all=JSON_SCALARS,
)
def test_best_play_refuses_bad_arguments_by_name(
    objective: Any, time_limit: Any, play_all: Any
) -> None:
    from meldsat import best_play

    position = read_position("table: 5H 6H 7H\nhand: 8H")
    try:
        play = best_play(position, objective, play_all=play_all, time_limit=time_limit)
    except (TypeError, ValueError) as error:
        assert any(name in str(error) for name in ("objective", "time_limit", "play_all"))
    else:
        assert play.objective.value == str(objective).lower()


def test_position_fields_refuses_json_nested_deeper_than_a_position_needs() -> None:
    with pytest.raises(MeldsatError, match="nested"):
        position_fields('{"id": ' + "[" * 40 + "]" * 40 + "}")
    assert position_fields('{"id": [[1]], "hand": "QH"}')["id"] == [[1]]


ANY_ARGUMENT = st.one_of(
    JSON_VALUES,
    st.sampled_from([Objective.POINTS, get_rules("gin"), (Card(1, 1),), [[Joker()]], b"QH", 1.5]),
)


@FUZZ
@given(function=st.sampled_from(LIBRARY_FUNCTIONS), arguments=st.lists(ANY_ARGUMENT, max_size=4))
def test_library_functions_refuse_wrong_arguments_with_type_or_value_errors(
    function: Any, arguments: list[Any]
) -> None:
    with contextlib.suppress(TypeError, ValueError):
        function(*arguments)
