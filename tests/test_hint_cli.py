"""``meldsat hint``: single positions, objectives, --all, --initial, batches, exit codes."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from meldsat.answers import hint as hint_cli
from meldsat.moves import check_move
from meldsat.notation import parse_table
from meldsat.play import Play, Status
from meldsat.position import load_position
from tests.conftest import CliRunner
from tests.test_cli import as_json, assert_one_line_error

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
FREE_THE_JOKER = ("--table", "4S 5S 6S *=7S | 7S 7H 7D 7C", "--hand", "QH KH")


def test_hint_frees_the_joker_by_moving_the_seven(run_cli: CliRunner) -> None:
    result = run_cli("hint", *FREE_THE_JOKER, "--json")
    data = as_json(result)
    assert result.code == 0
    assert data["status"] == "optimal"
    assert sorted(data["play"]) == ["KH", "QH"]
    assert data["points_played"] == 20
    assert data["hand_left"] == []
    melds = [" ".join(meld) for meld in data["table"]]
    assert "4S 5S 6S 7S" in melds  # the 7S took the joker's place
    assert any("QH KH" in meld and "*=" in meld for meld in melds)
    assert data["changes"]
    before = parse_table("4S 5S 6S *=7S | 7S 7H 7D 7C")
    after = parse_table(" | ".join(melds))
    position = load_position({"table": "4S 5S 6S *=7S | 7S 7H 7D 7C", "hand": "QH KH"})
    verdict = check_move(before, position.hand, after, position.rules)
    assert verdict.legal, verdict.reasons


def test_changes_say_why_a_joker_may_change_its_card(run_cli: CliRunner) -> None:
    data = as_json(run_cli("hint", "--table", "5H *=6H 7H", "--hand", "6H 8H", "--json"))
    assert data["status"] == "optimal"
    assert any(
        "stood for 6H now stands for" in step and "real 6H is on the table" in step
        for step in data["changes"]
    )


def test_hint_without_the_seven_has_no_move(run_cli: CliRunner) -> None:
    result = run_cli("hint", "--table", "4S 5S 6S *=7S", "--hand", "QH KH", "--json")
    data = as_json(result)
    assert result.code == 1
    assert data["status"] == "no_move"
    assert data["play"] == []
    assert data["table"] == [["4S", "5S", "6S", "*=7S"]]


def test_points_prefers_the_run_over_the_group(run_cli: CliRunner) -> None:
    """The peer's "total value" mode counts tiles; the run o1-o3 is worth 6, the group 3."""
    points = as_json(run_cli("hint", "--rules", "rummikub", "--hand", "k1 b1 o1 o2 o3", "--json"))
    assert points["points_played"] == 6
    assert Counter(points["play"]) == Counter(["o1", "o2", "o3"])
    cards = run_cli(
        "hint", "--rules", "rummikub", "--hand", "k1 b1 o1 o2 o3", "--objective", "cards", "--json"
    )
    assert as_json(cards)["cards_played"] == 3


def test_all_asks_for_the_whole_hand(run_cli: CliRunner) -> None:
    whole = run_cli("hint", "--table", "5H 6H 7H", "--hand", "8H 9H", "--all", "--json")
    assert whole.code == 0
    assert as_json(whole)["hand_left"] == []
    partial = run_cli("hint", "--table", "5H 6H 7H", "--hand", "8H KS", "--all", "--json")
    assert partial.code == 1
    assert as_json(partial)["status"] == "no_move"
    without_all = run_cli("hint", "--table", "5H 6H 7H", "--hand", "8H KS", "--json")
    assert as_json(without_all)["play"] == ["8H"]


def test_initial_meld_needs_thirty_points_from_the_rack(run_cli: CliRunner) -> None:
    args = ("hint", "--rules", "rummikub", "--table", "r3 r4 r5", "--json", "--initial")
    low = run_cli(*args, "--hand", "k2 b2 o2 r6")
    # Without --initial r6 extends the run; as an initial meld 2+2+2 = 6 points is too little.
    assert low.code == 1
    high = as_json(run_cli(*args, "--hand", "k10 b10 o10 r6"))
    assert high["points_played"] == 30
    assert ["r3", "r4", "r5"] in high["table"]  # the table is not touched
    assert "r6" in high["hand_left"]


def test_position_file_example(run_cli: CliRunner) -> None:
    data = as_json(run_cli("hint", "--position", str(EXAMPLES / "manipulation.txt"), "--json"))
    assert data["status"] == "optimal"
    assert data["points_played"] == 28
    assert data["hand_left"] == ["2C"]
    assert data["can_knock"] is True


def test_human_output_draws_the_new_table(run_cli: CliRunner) -> None:
    result = run_cli("hint", *FREE_THE_JOKER)
    assert result.code == 0
    assert result.err == ""
    assert "optimal" in result.out
    assert "4♠ 5♠ 6♠ 7♠" in result.out
    assert "changes:" in result.out
    assert "\x1b" not in result.out  # not a terminal: no colour codes


def test_bad_input_is_one_line(run_cli: CliRunner) -> None:
    assert_one_line_error(run_cli("hint", "--table", "4S 5S 6S", "--hand", "QX"), "QX")
    assert_one_line_error(run_cli("hint", "--table", "4S 5S 7S", "--hand", "QH"), "illegal meld")
    assert_one_line_error(run_cli("hint", "--hand", "QH", "--rules", "poker"), "poker")
    assert_one_line_error(run_cli("hint"), "no position")
    assert_one_line_error(run_cli("hint", "--jsonl", "-", "--hand", "QH"), "--jsonl")


def test_time_limit_hit_exits_3(run_cli: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    """A play not proven optimal before the limit is 'feasible' with its bound, exit code 3."""
    real_solve = hint_cli._solve

    def cut_short(*args: Any, **kwargs: Any) -> Play:
        play = real_solve(*args, **kwargs)
        return Play(**{**play.__dict__, "status": Status.FEASIBLE, "bound": 99})

    monkeypatch.setattr(hint_cli, "_solve", cut_short)
    result = run_cli("hint", *FREE_THE_JOKER, "--json")
    assert result.code == 3
    assert as_json(result)["status"] == "feasible"
    assert as_json(result)["bound"] == 99


def _batch_lines(tmp_path: Path) -> Path:
    lines = [
        json.dumps({"id": "a", "table": [["4S", "5S", "6S", "*=7S"]], "hand": ["QH", "KH"]}),
        json.dumps({"id": "b", "rules": "rummikub", "hand": ["k1", "b1", "o1", "o2", "o3"]}),
        "{not json",
        json.dumps({"id": "d", "table": "5H 6H 7H", "hand": "8H 9H"}),
    ]
    path = tmp_path / "batch.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_batch_keeps_input_order_and_reports_bad_lines(run_cli: CliRunner, tmp_path: Path) -> None:
    result = run_cli("hint", "--jsonl", str(_batch_lines(tmp_path)))
    assert result.code == 2  # one line was bad input
    answers = [json.loads(line) for line in result.out.splitlines()]
    assert [answer["line"] for answer in answers] == [1, 2, 3, 4]
    assert [answer.get("id") for answer in answers] == ["a", "b", None, "d"]
    assert [answer["status"] for answer in answers] == ["no_move", "optimal", "error", "optimal"]
    assert answers[2]["error"]["code"] == "notation"
    assert "bad JSON" in answers[2]["error"]["message"]


def test_batch_with_workers_gives_the_same_answers(run_cli: CliRunner, tmp_path: Path) -> None:
    path = _batch_lines(tmp_path)
    alone = run_cli("hint", "--jsonl", str(path))
    spread = run_cli("hint", "--jsonl", str(path), "--workers", "2")
    assert spread.out == alone.out
    assert spread.code == alone.code


def test_dev_positions_batch_matches_expectations(run_cli: CliRunner, tmp_path: Path) -> None:
    source = Path(__file__).parent / "data" / "rummikub-dev.jsonl"
    first = source.read_text(encoding="utf-8").splitlines()[:6]
    path = tmp_path / "dev.jsonl"
    path.write_text("\n".join(first) + "\n", encoding="utf-8")
    result = run_cli("hint", "--jsonl", str(path), "--objective", "cards")
    assert result.code == 0
    for line, answer_text in zip(first, result.out.splitlines(), strict=True):
        answer = json.loads(answer_text)
        assert answer["status"] == "optimal"
        assert answer["cards_played"] == json.loads(line)["expect"]["cards"]
