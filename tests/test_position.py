"""Positions: the text and JSON forms, the checks a position must pass, and round trips."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings

from meldsat import (
    AmbiguousJokerError,
    Card,
    ImpossiblePositionError,
    Joker,
    NotationError,
    Position,
    RulesError,
    get_rules,
    load_position,
    parse_hand,
    parse_table,
    read_position,
)
from tests.strategies_notation import positions

DESIGN_TEXT = """\
rules: manipulation
players: 4
table: 7H 8H 9H | QS QH QD | *=5C 6C 7C
hand: 5H 6H KS *
"""
DESIGN_JSON = (
    '{"rules": "manipulation", "players": 4, "table": [["7H","8H","9H"], ["QS","QH","QD"],'
    ' ["*=5C","6C","7C"]], "hand": ["5H","6H","KS","*"]}'
)


def test_design_example_text_and_json_agree() -> None:
    from_text = read_position(DESIGN_TEXT)
    from_json = read_position(DESIGN_JSON)
    assert from_text == from_json
    assert from_text.rules == get_rules("manipulation", 4)
    assert from_text.table == tuple(parse_table("7H 8H 9H | QS QH QD | *=5C 6C 7C"))
    assert from_text.hand == parse_hand("5H 6H KS *")
    assert not from_text.initial
    assert from_text.to_text() == DESIGN_TEXT
    assert from_text.to_json() == json.loads(DESIGN_JSON)


def test_text_form_is_lenient() -> None:
    text = """
    # a comment line
    RULES: Manipulation
    players: 4   # four players: two decks
    table: 9h 8h 7h; qd qs qh | 7c *=5c 6c
    hand: * ks 6h 5h
    """
    assert read_position(text) == read_position(DESIGN_TEXT)


def test_output_is_canonical() -> None:
    position = read_position("table: 9H 7H 8H | 5C * 7C\nhand: * KS 5H")
    assert position.to_text() == (
        "rules: manipulation\nplayers: 4\ntable: 7H 8H 9H | 5C *=6C 7C\nhand: 5H KS *\n"
    )
    assert position.to_json()["table"] == [["7H", "8H", "9H"], ["5C", "*=6C", "7C"]]


def test_defaults() -> None:
    position = read_position("")
    assert position.rules == get_rules("manipulation")
    assert position.table == ()
    assert position.hand == ()
    assert read_position("{}") == position
    assert read_position('{"table": null}') == position


def test_rummikub_position() -> None:
    text = "rules: rummikub\nplayers: 2\ntable: r3 r1 r2 | k5 b5 o5 j\nhand: j r13 k1\ninitial: yes"
    position = read_position(text)
    assert position.rules.name == "rummikub"
    assert position.rules.players == 2
    assert position.initial
    assert position.table[1] == (Card(5, 0), Card(5, 1), Card(5, 2), Joker(Card(5, 3)))
    assert position.to_text() == (
        "rules: rummikub\nplayers: 2\ntable: r1 r2 r3 | k5 b5 o5 j=r5\nhand: k1 r13 j\n"
        "initial: true\n"
    )
    assert position.to_json() == {
        "rules": "rummikub",
        "players": 2,
        "table": [["r1", "r2", "r3"], ["k5", "b5", "o5", "j=r5"]],
        "hand": ["k1", "r13", "j"],
        "initial": True,
    }


def test_json_fields_as_text_or_lists() -> None:
    expected = read_position(DESIGN_TEXT)
    as_text = {
        "rules": "manipulation",
        "players": 4,
        "table": "7H 8H 9H | QS QH QD | *=5C 6C 7C",
        "hand": "5H 6H KS *",
    }
    assert load_position(as_text) == expected
    as_meld_strings = {**as_text, "table": ["7H 8H 9H", "QS QH QD", "*=5C 6C 7C"]}
    assert load_position(as_meld_strings) == expected


def test_extra_keys_are_allowed() -> None:
    data = json.loads(DESIGN_JSON)
    data.update({"expect": {"cards": 3}, "id": 7, "comment": "x", "name": "n"})
    assert load_position(data) == read_position(DESIGN_TEXT)


def test_command_line_options_win() -> None:
    data = {"rules": "gin", "players": 2, "table": "AS 2S 3S", "hand": "4S"}
    position = load_position(data, "manipulation", 3)
    assert position.rules == get_rules("manipulation", 3)


def test_illegal_table_meld_is_rejected() -> None:
    with pytest.raises(ImpossiblePositionError) as error:
        read_position("table: 7H 8H 9H | 8S 8H 8H\nhand: 5H")
    message = str(error.value)
    assert "meld 2" in message
    assert "'8S 8H 8H'" in message
    assert "twice" in message


@pytest.mark.parametrize(
    ("rules", "table"),
    [
        ("manipulation", "KH AH 2H"),
        ("gin", "QH KH AH"),
        ("rummikub", "r12 r13 r1"),
        ("manipulation", "5C *=6H 7C"),
        ("manipulation", "5H 6H"),
    ],
)
def test_illegal_melds_per_rule_set(rules: str, table: str) -> None:
    with pytest.raises(ImpossiblePositionError, match="illegal meld 1"):
        read_position(f"rules: {rules}\ntable: {table}")


def test_ambiguous_joker_on_the_table() -> None:
    with pytest.raises(AmbiguousJokerError, match=r"\*=8D or \*=8C"):
        read_position("table: 8S 8H *")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("players: 4\ntable: 7H 8H 9H | 7H 7S 7C\nhand: 7H", "3 copies of 7H"),
        ("players: 2\ntable: 7H 8H 9H | 7S 7D 7C\nhand: 7H", "2 copies of 7H"),
        ("players: 2\ntable: 7H 8H 9H\nhand: * *", "2 jokers"),
        ("players: 4\ntable: 7H 8H *=9H\nhand: * *", "3 jokers"),
        ("rules: gin\nhand: AS *", "1 joker,"),
        ("rules: rummikub\ntable: r7 r8 r9 | r7 b7 k7\nhand: r7", "3 copies of r7"),
    ],
)
def test_too_many_copies(text: str, words: str) -> None:
    with pytest.raises(ImpossiblePositionError) as error:
        read_position(text)
    assert words in str(error.value)


def test_same_card_twice_with_two_decks() -> None:
    position = read_position("players: 3\ntable: 7H 8H 9H | 7S 7H 7C\nhand: 8H 9H")
    assert len(position.hand) == 2


@pytest.mark.parametrize(
    ("text", "error_type", "fragment"),
    [
        ("hand: 5H *=7H", NotationError, "'*=7H'"),
        ('{"hand": ["*=5H"]}', NotationError, "'*=5H'"),
        ("hand: 5H 7X", NotationError, "'7X'"),
        ("table: 7H 8H QQ", NotationError, "'QQ'"),
        ("rules: rummikub\nhand: 7H", NotationError, "'7H'"),
        ("colour: red", NotationError, "'colour: red'"),
        ("table 7H 8H 9H", NotationError, "'table 7H 8H 9H'"),
        ("players: four", NotationError, "'four'"),
        ("initial: maybe", NotationError, "'maybe'"),
        ('{"initial": "yes"}', NotationError, '"yes"'),
        ('{"bogus": 1}', NotationError, "'bogus'"),
        ('{"table": 5}', NotationError, "'table'"),
        ('{"hand": [5]}', NotationError, "'hand'"),
        ("rules: rumikub", RulesError, "'rumikub'"),
        ('{"rules": 4}', RulesError, "'4'"),
        ("players: 7", RulesError, "'7'"),
        ("rules: gin\nplayers: 3", RulesError, "'3'"),
        ('{"players": "4"}', RulesError, "'4'"),
        ('{"players": true}', RulesError, "'true'"),
    ],
)
def test_bad_positions_name_the_problem(
    text: str, error_type: type[Exception], fragment: str
) -> None:
    with pytest.raises(error_type) as error:
        read_position(text)
    assert fragment in str(error.value)  # the offending input, quoted
    assert "\n" not in str(error.value)


def test_bad_json() -> None:
    with pytest.raises(NotationError, match="bad JSON"):
        read_position('{"table": [["7H", "8H"')


def test_build_checks_the_table_and_normalises() -> None:
    rules = get_rules("manipulation")
    position = Position.build(rules, parse_table("9H 7H 8H | 5C * 7C"), parse_hand("* 5H"))
    assert position.table[1] == (Card(5, 3), Joker(Card(6, 3)), Card(7, 3))
    assert position.hand == (Card(5, 1), Joker())
    with pytest.raises(ImpossiblePositionError):
        Position.build(rules, parse_table("9H 7H"), ())


@settings(max_examples=150, deadline=None)
@given(positions())
def test_text_round_trip(position: Position) -> None:
    text = position.to_text()
    again = read_position(text)
    assert again == position
    assert again.to_text() == text


@settings(max_examples=150, deadline=None)
@given(positions())
def test_json_round_trip(position: Position) -> None:
    data = position.to_json()
    line = json.dumps(data)
    assert "\n" not in line  # one position a line in a batch file
    again = read_position(line)
    assert again == position
    assert again.to_json() == data
    assert load_position(data) == position
