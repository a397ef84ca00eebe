"""``meldsat simulate``, ``meldsat replay`` and ``meldsat score`` on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import CliRunner
from tests.test_cli import as_json, assert_one_line_error

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(scope="module")
def game_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from meldsat.cli.main import main

    path = tmp_path_factory.mktemp("games") / "g.jsonl"
    args = ["simulate", "--games", "2", "--seed", "3", "--bots", "knocker,random,hoarder"]
    assert main([*args, "--log", str(path), "--json"]) == 0
    return path


def test_simulate_prints_a_table_per_seat(run_cli: CliRunner) -> None:
    result = run_cli("simulate", "--games", "1", "--seed", "2", "--bots", "knocker,greedy-cards")
    assert result.code == 0
    lines = result.out.splitlines()
    assert lines[0] == "manipulation, 2 players, 1 game, seed 2"
    assert lines[1].split()[:4] == ["seat", "bot", "wins", "win"]
    assert lines[2].split()[:2] == ["0", "knocker"]
    assert lines[3].split()[:2] == ["1", "greedy-cards"]
    assert "hints" in lines[4]


def test_simulate_json_and_the_same_seed_gives_the_same_games(
    run_cli: CliRunner, game_log: Path
) -> None:
    again = game_log.parent / "again.jsonl"
    args = ["simulate", "--games", "2", "--seed", "3", "--bots", "knocker,random,hoarder"]
    data = as_json(run_cli(*args, "--log", str(again), "--json"))
    assert again.read_bytes() == game_log.read_bytes()
    assert data["games"] == 2
    assert [seat["bot"] for seat in data["seats"]] == ["knocker", "random", "hoarder"]
    assert sum(seat["wins"] for seat in data["seats"]) == pytest.approx(2)
    low, high = data["seats"][0]["win_rate_95"]
    assert 0 <= low <= data["seats"][0]["win_rate"] <= high <= 1


def test_replay_confirms_a_simulated_log(run_cli: CliRunner, game_log: Path) -> None:
    result = run_cli("replay", str(game_log))
    assert result.code == 0
    assert result.out.startswith("confirmed: 2 games")


def test_replay_names_the_first_wrong_turn(run_cli: CliRunner, game_log: Path) -> None:
    events = [json.loads(line) for line in game_log.read_text(encoding="utf-8").splitlines()]
    turns = [event for event in events if event["event"] == "turn" and event["played"]]
    target = turns[len(turns) // 2]
    target["hand_left"] = target["hand_left"][1:]
    tampered = game_log.parent / "tampered.jsonl"
    tampered.write_text("".join(json.dumps(event) + "\n" for event in events), encoding="utf-8")
    result = run_cli("replay", str(tampered))
    assert result.code == 1
    line = events.index(target) + 1
    where = f"line {line}: game {target['game']}, round {target['round']}, turn {target['turn']}"
    assert result.out.startswith(f"wrong: {where}")
    assert "'hand_left'" in result.out


def test_replay_of_bad_json_is_bad_input(run_cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"event": "game"\n', encoding="utf-8")
    assert_one_line_error(run_cli("replay", str(path)), "bad JSON", "line 1")


def test_an_unknown_bot_is_bad_input(run_cli: CliRunner) -> None:
    assert_one_line_error(run_cli("simulate", "--bots", "greedy,knocker"), "unknown bot 'greedy'")


def test_bots_must_match_the_players(run_cli: CliRunner) -> None:
    result = run_cli("simulate", "--players", "3", "--bots", "knocker,random")
    assert_one_line_error(result, "2 bots for 3 players")


def test_a_game_nobody_plays_is_bad_input(run_cli: CliRunner) -> None:
    assert_one_line_error(run_cli("simulate", "--rules", "rummikub"), "no game is played")


def test_score_manipulation_rounds(run_cli: CliRunner) -> None:
    data = as_json(run_cli("score", str(EXAMPLES / "manipulation-rounds.jsonl"), "--json"))
    assert [entry["scores"] for entry in data["rounds"]] == [
        [35, 0, 0],  # 22 + 13 for the knocker
        [0, 49, 0],  # undercut: 2 + 37 + 10
        [0, 36, 0],  # knocker tied: 0 + 26 + 10
        [0, 0, 60],  # going out: 20 + 15 + 25
        [0, 66, 0],  # 28 + 38
    ]
    assert data["game_over"] is True
    assert data["bonuses"] == [25, 100, 25]
    assert data["totals"] == [60, 251, 85]
    assert data["winners"] == [1]


def test_score_500_deals_with_the_pool_carried(run_cli: CliRunner) -> None:
    path = str(EXAMPLES / "rummy500-deals.jsonl")
    data = as_json(run_cli("score", "--rules", "rummy500", path, "--json"))
    assert [entry["scores"] for entry in data["rounds"]] == [
        [95 + 30, 40 - 20, 22 - 29],
        [30 - 12, 61 - 12, 45 - 40],  # a tie for the lowest hand: the pool carries over
        [80 - 5, 120 + 60, 15 - 55],  # 30 carried + 30 of this deal
    ]
    killer = as_json(run_cli("score", "--rules", "rummy500-killer", path, "--json"))
    assert killer["totals"] == [20 + 29, 5 + 55, 0]


def test_score_text_sheet(run_cli: CliRunner) -> None:
    result = run_cli("score", str(EXAMPLES / "manipulation-rounds.jsonl"))
    assert result.code == 0
    assert result.out.splitlines()[-1] == "final totals 60 251 85; winner 1"


def test_score_refuses_rounds_after_the_end(run_cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "rounds.jsonl"
    lines = (EXAMPLES / "manipulation-rounds.jsonl").read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([*lines, lines[0]]) + "\n", encoding="utf-8")
    assert_one_line_error(run_cli("score", str(path)), "the game ended after round 5")


def test_score_bad_round_is_bad_input(run_cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "rounds.jsonl"
    path.write_text('{"points": [3, "x"], "knocker": 0}\n', encoding="utf-8")
    assert_one_line_error(run_cli("score", str(path)), "'points' must list 2 whole numbers")


def test_replay_of_a_file_without_games_is_bad_input(run_cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("\n", encoding="utf-8")
    assert_one_line_error(run_cli("replay", str(path)), "holds no game")
