"""``python -m benchmarks lay-downs``: every round of the bot's games is classed once, and its wins
are the rounds the game log says it won."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from benchmarks.investigate.lay_downs import first_lay_down, read_rounds, report


def test_every_round_is_classed_once_with_the_wins_the_log_gives(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    command = [sys.executable, "-m", "meldsat", "simulate", "--bots"]
    command += ["hoarder,patient,hoarder,hoarder", "--games", "3", "--seed", "7"]
    subprocess.run([*command, "--log", str(log)], check=True, capture_output=True)
    events = [json.loads(line) for line in log.read_text().splitlines()]
    ends = [event for event in events if event["event"] == "round_end"]
    won = sum(1 for event in ends if 1 in event["winners"])
    rounds = read_rounds(log, "patient")
    assert len(rounds) == len(ends)
    assert sum(1 for round_ in rounds if round_[1]) == won
    rows = report(rounds).splitlines()[2:]
    assert sum(int(row.split("|")[2]) for row in rows) == len(rounds)


def test_a_small_meld_of_the_bot_is_not_a_lay_down() -> None:
    turns = [
        {"seat": 1, "played": ["5H", "5S", "5D"]},
        {"seat": 2, "played": []},
        {"seat": 3, "played": ["2C", "3C", "4C", "9H", "9S", "9D"]},
    ]
    assert first_lay_down(turns, seat=1) == 3
    assert first_lay_down(turns[:2], seat=1) is None
    assert first_lay_down(turns, seat=3) == 1  # a three-card meld by another seat counts
