"""House rules: reading them (``--rule``, a ``rules:`` block), refusing bad ones, showing them, and
the engine still exact under them (cross-checked against the brute-force oracle)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldsat import Objective, RulesError, get_rules, load_position, read_position
from meldsat.house_rules import HOUSE_RULES, apply_house_rules, house_rules_of
from tests.conftest import CliRunner
from tests.strategies import Game, positions
from tests.test_cli import assert_one_line_error
from tests.test_engine_oracle import assert_matches_oracle

HOUSE_GAMES = (
    Game("manipulation", 4, house=(("run_min", 4),)),
    Game("manipulation", 2, house=(("ace_low", False),)),
    Game("manipulation", 4, house=(("ace_high", False), ("group_max", 3))),
    Game("manipulation", 3, house=(("new_meld_needs_hand_card", True), ("jokers", 3))),
    Game("rummikub", 4, initial=True, house=(("initial_meld_points", 20),)),
    Game("rummy500", 4, house=(("joker_value", 25), ("decks", 1), ("jokers", 1))),
    Game("manipulation", 4, house=(("group_joker_either_missing", True),)),
)


@pytest.mark.parametrize("game", HOUSE_GAMES, ids=str)
@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_engine_matches_oracle_under_house_rules(game: Game, data: st.DataObject) -> None:
    position = data.draw(positions(games=(game,)))
    for objective in Objective:
        assert_matches_oracle(position, objective)


def test_rules_block_in_a_text_position_reads_back() -> None:
    text = "rules: rummikub\n  initial_meld_points: 50\n  jokers: 4\nplayers: 3\nhand: k1 k2 k3\n"
    position = read_position(text)
    assert (position.rules.initial_meld_points, position.rules.jokers) == (50, 4)
    assert house_rules_of(position.rules) == {"jokers": 4, "initial_meld_points": 50}
    assert read_position(position.to_text()) == position
    assert load_position(position.to_json()) == position
    assert position.to_json()["rules"] == {
        "preset": "rummikub",
        "jokers": 4,
        "initial_meld_points": 50,
    }


def test_a_preset_without_house_rules_is_written_as_before() -> None:
    position = read_position("rules: gin\nhand: 2C 3C 4C")
    assert position.to_json()["rules"] == "gin"
    assert position.to_text().startswith("rules: gin\nplayers: 2\n")


def test_another_preset_named_by_the_caller_drops_the_files_house_rules() -> None:
    data = {"rules": {"preset": "rummikub", "initial_meld_points": 50}}
    assert load_position(data, "manipulation").rules == get_rules("manipulation")
    kept = load_position(data, "RUMMIKUB", house={"jokers": "3"}).rules
    assert (kept.initial_meld_points, kept.jokers) == (50, 3)


@pytest.mark.parametrize(
    ("overrides", "fragment"),
    [
        ({"jokerz": 2}, "unknown house rule 'jokerz' (choose from initial_meld_points"),
        ({"run_min": 99}, "from 3 to 7"),
        ({"run_min": "four"}, "'four'"),
        ({"jokers": True}, "'true'"),
        ({"ace_high": 1}, "true or false"),
        ({"ace_low": False, "ace_high": False}, "the ace must be low, high or both"),
        ({"wrap_around": True, "ace_high": False}, "wrap_around needs"),
        ({"knock_limit": "none"}, ""),
    ],
)
def test_bad_house_rules_are_refused_by_name(overrides: dict[str, object], fragment: str) -> None:
    if not fragment:
        assert apply_house_rules(get_rules("gin"), overrides).knock_limit is None
        return
    with pytest.raises(RulesError) as error:
        apply_house_rules(get_rules("manipulation"), overrides)
    assert fragment in str(error.value)


def test_every_house_rule_is_a_rule_set_field() -> None:
    rules = get_rules()
    assert all(
        hasattr(rules.scoring if rule.scoring else rules, name)
        for name, rule in HOUSE_RULES.items()
    )


def test_rule_option_changes_the_answer(run_cli: CliRunner) -> None:
    args = ("hint", "--rules", "rummikub", "--initial", "--hand", "k5 k6 k7", "--json")
    assert json.loads(run_cli(*args).out)["status"] == "no_move"  # 18 points, 30 needed
    answer = json.loads(run_cli(*args, "--rule", "initial_meld_points=15").out)
    assert answer["status"] == "optimal"
    assert answer["house_rules"] == {"initial_meld_points": 15}


def test_wrap_around_is_checked_but_not_solved(run_cli: CliRunner) -> None:
    # The engine has no model of sequences turning the corner: it says so instead of guessing.
    args = ("--table", "KH AH 2H", "--rule", "wrap_around=true")
    assert run_cli("validate", *args).code == 0
    assert_one_line_error(run_cli("hint", *args, "--hand", "3H"), "wrap-around")


def test_rule_option_in_validate_and_check(run_cli: CliRunner) -> None:
    wrap = ("--table", "QH KH AH 2H")
    assert run_cli("validate", *wrap).code == 1
    result = run_cli("validate", *wrap, "--rule", "wrap_around=true")
    assert result.code == 0
    assert "house rules: wrap_around=true" in result.out
    turn = ("check", "--table", "5H 6H 7H", "--hand", "8H", "--after", "5H 6H 7H 8H")
    assert run_cli(*turn).code == 0
    assert run_cli(*turn, "--rule", "run_min=5").code == 2  # the table before is now illegal


def test_bad_rule_option_is_one_line(run_cli: CliRunner) -> None:
    assert_one_line_error(run_cli("validate", "--table", "", "--rule", "jokers"), "NAME=VALUE")
    assert_one_line_error(
        run_cli("validate", "--table", "", "--rule", "colour=red"), "'colour'", "run_min"
    )


def test_rules_command_lists_and_shows(run_cli: CliRunner) -> None:
    listing = run_cli("rules")
    assert listing.code == 0
    assert "rummy500-killer" in listing.out
    shown = run_cli("rules", "gin", "--rule", "knock_limit=5")
    assert "* knock_limit" in shown.out
    assert "house rules: knock_limit=5" in shown.out
    data = json.loads(run_cli("rules", "manipulation", "--players", "2", "--json").out)
    assert (data["fields"]["decks"], data["fields"]["jokers"]) == (1, 1)
    assert_one_line_error(run_cli("rules", "poker"), "'poker'")


def test_batch_line_with_a_rules_block(run_cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "batch.jsonl"
    line = {"rules": {"preset": "rummikub", "initial_meld_points": 15}, "initial": True}
    path.write_text(json.dumps({**line, "hand": "k5 k6 k7"}) + "\n")
    answer = json.loads(run_cli("hint", "--jsonl", str(path)).out)
    assert answer["status"] == "optimal"
    conflict = json.loads(run_cli("hint", "--jsonl", str(path), "--rules", "gin").out)
    assert conflict["error"]["code"] == "conflict"
    refused = run_cli("hint", "--jsonl", str(path), "--rule", "jokers=one")
    assert_one_line_error(refused, "'one'", "jokers")


def test_batch_rule_option_is_a_default_and_a_different_line_value_a_conflict(
    run_cli: CliRunner, tmp_path: Path
) -> None:
    path = tmp_path / "batch.jsonl"
    lines = [
        {"id": "plain", "rules": "manipulation", "table": "4S 5S 6S", "hand": "7S 8S"},
        {"id": "says 3", "rules": {"preset": "manipulation", "run_min": 3}, "hand": "7S"},
        {
            "id": "says 4",
            "rules": {"preset": "manipulation", "run_min": 4},
            "table": "4S 5S 6S 7S",
            "hand": "8S",
        },
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = run_cli("hint", "--jsonl", str(path), "--rule", "RUN_MIN=4")
    answers = [json.loads(line) for line in result.out.splitlines()]
    assert result.code == 2  # a line was bad input
    assert [answer["id"] for answer in answers] == ["plain", "says 3", "says 4"]
    assert answers[0]["error"]["code"] == "impossible_position"  # 4S 5S 6S is too short now
    assert answers[1]["error"]["code"] == "conflict"
    assert "run_min '3' but --rule says run_min=4" in answers[1]["error"]["message"]
    assert answers[2]["status"] == "optimal" and answers[2]["house_rules"] == {"run_min": 4}
    unchanged = json.loads(run_cli("hint", "--jsonl", str(path)).out.splitlines()[0])
    assert unchanged["status"] == "optimal" and unchanged["cards_played"] == 2
