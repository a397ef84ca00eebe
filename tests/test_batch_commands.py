"""``puzzle generate``, ``simulate`` and ``replay``: the same bytes on one or several workers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from meldsat.errors import MeldsatError
from meldsat.games.log import MemoryLog, read_events
from meldsat.games.replay import (
    ReplayReport,
    WrongTurnError,
    replay_events,
    replay_piece,
    split_games,
)
from meldsat.games.simulate import simulate
from meldsat.puzzles.generate import generate_puzzles
from meldsat.puzzles.puzzle import puzzles_text
from meldsat.rulesets import get_rules
from tests.conftest import CliRunner

SIMULATE = ["simulate", "--games", "3", "--seed", "5", "--bots", "knocker,random,hoarder"]


def test_puzzle_generate_is_the_same_on_one_or_two_workers(run_cli: CliRunner) -> None:
    args = ["puzzle", "generate", "--count", "3", "--level", "easy", "--seed", "4"]
    one = run_cli(*args, "--workers", "1")
    two = run_cli(*args, "--workers", "2")
    assert (one.code, two.code) == (0, 0)
    assert two.out == one.out
    # ... and the same as made in this process, one after the other.
    assert one.out == puzzles_text(generate_puzzles(get_rules("manipulation"), "easy", 3, 4))


def test_a_puzzle_is_the_same_in_a_shorter_run_and_on_any_worker() -> None:
    rules = get_rules("manipulation")
    three = generate_puzzles(rules, "easy", 3, 8, workers=2)
    assert generate_puzzles(rules, "easy", 2, 8) == three[:2]


def test_simulate_log_and_table_are_the_same_on_one_or_two_workers(
    run_cli: CliRunner, tmp_path: Path
) -> None:
    one = run_cli(*SIMULATE, "--workers", "1", "--log", str(tmp_path / "one.jsonl"))
    two = run_cli(*SIMULATE, "--workers", "2", "--log", str(tmp_path / "two.jsonl"), "--json")
    two_text = run_cli(*SIMULATE, "--workers", "2")
    assert (one.code, two.code) == (0, 0)
    assert two_text.out == one.out
    assert (tmp_path / "two.jsonl").read_bytes() == (tmp_path / "one.jsonl").read_bytes()
    # ... and the same as played in this process, game after game.
    log = MemoryLog()
    alone = simulate("manipulation", ["knocker", "random", "hoarder"], 3, 5, log, time_limit=10)
    assert json.loads(two.out)["seats"] == alone.to_json()["seats"]
    lines = (tmp_path / "one.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == log.events


def test_replay_of_several_logs_is_the_same_on_one_or_two_workers(
    run_cli: CliRunner, tmp_path: Path
) -> None:
    good = tmp_path / "good.jsonl"
    run_cli(*SIMULATE, "--log", str(good))
    events = [json.loads(line) for line in good.read_text(encoding="utf-8").splitlines()]
    turn = [event for event in events if event["event"] == "turn" and event["played"]][-1]
    turn["hand_left"] = turn["hand_left"][1:]
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text("".join(json.dumps(event) + "\n" for event in events), encoding="utf-8")
    logs = [str(wrong), str(good), str(good)]
    here = run_cli("replay", *logs)
    one = run_cli("replay", *logs, "--workers", "1")
    two = run_cli("replay", *logs, "--workers", "2")
    assert here.out == one.out == two.out
    assert here.code == one.code == two.code == 1
    first, second, third = here.out.splitlines()
    assert first.startswith(f"{wrong}: wrong: line {events.index(turn) + 1}: game 3")
    assert second == third and second.startswith(f"{good}: confirmed: 3 games")
    as_json = run_cli("replay", *logs, "--workers", "2", "--json").out.splitlines()
    assert [json.loads(line)["confirmed"] for line in as_json] == [False, True, True]
    alone = run_cli("replay", str(good), "--workers", "2")
    assert alone.out == second.removeprefix(f"{good}: ") + "\n"


def _pieces_report(lines: list[str]) -> object:
    """The outcome of replaying ``lines`` game by game, summed as the command sums them."""
    total = ReplayReport()
    try:
        for piece in split_games(read_events(lines, "log")):
            report = replay_piece(piece)
            total.games += report.games
            total.rounds += report.rounds
            total.turns += report.turns
            total.incomplete_game = report.incomplete_game
    except MeldsatError as error:  # a wrong turn, or a line that is not JSON
        return type(error), str(error)
    return total


def _whole_report(lines: list[str]) -> object:
    try:
        return replay_events(read_events(lines, "log"))
    except MeldsatError as error:
        return type(error), str(error)


def test_a_log_replayed_game_by_game_gives_the_whole_replay_answer() -> None:
    log = MemoryLog()
    simulate("manipulation", ["random", "random"], 4, 2, log, time_limit=10)
    lines = [json.dumps(event) for event in log.events]
    kinds = [event["event"] for event in log.events]
    starts = [i for i, kind in enumerate(kinds) if kind == "game"]
    ends = [i for i, kind in enumerate(kinds) if kind == "game_end"]
    bad_header = json.loads(lines[starts[2]])
    bad_header["schema_version"] = 99
    variants = {
        "whole": lines,
        "cut in a game": lines[: ends[2] - 2],
        "a game without its end": lines[: ends[1]] + lines[ends[1] + 1 :],
        "not JSON": [*lines[: ends[2]], "{", *lines[ends[2] :]],
        "a turn before any game": [lines[starts[0] + 2], *lines],
        "a bad game event": [*lines[: starts[2]], json.dumps(bad_header), *lines[starts[2] + 1 :]],
        "wrong, then not JSON": [*lines[: ends[0]], *lines[ends[0] + 1 : ends[3]], "{"],
    }
    for name, variant in variants.items():
        assert _pieces_report(variant) == _whole_report(variant), name
    assert _whole_report(variants["whole"]) == ReplayReport(4, *_counts(kinds), None)
    refused = _whole_report(variants["a game without its end"])
    assert isinstance(refused, tuple) and refused[0] is WrongTurnError


def _counts(kinds: list[str]) -> tuple[int, int]:
    return kinds.count("round_end"), kinds.count("turn")


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")
def test_an_interrupted_simulation_keeps_every_finished_game_whole(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    command = [sys.executable, "-m", "meldsat", *SIMULATE[:2], "200", "--workers", "2"]
    process = subprocess.Popen(
        [*command, "--log", str(log)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        while _finished_games(log) < 2:
            assert process.poll() is None, process.communicate()
            time.sleep(0.1)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
    assert process.returncode == 130
    assert err.strip() == "meldsat: error: interrupted"
    lines = log.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[-1])["event"] == "game_end"
    report = replay_events(read_events(lines, "games"))
    assert report.games >= 2 and report.incomplete_game is None


def _finished_games(log: Path) -> int:
    return log.read_text(encoding="utf-8").count('"event":"game_end"') if log.exists() else 0
