"""Simulated games replay clean through the rule checker, and tampered logs are refused."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from meldsat.games.agents import TurnView
from meldsat.games.bots import HintBot, make_bot
from meldsat.games.engine import IllegalTurnError, play_game
from meldsat.games.log import JsonlLog, MemoryLog, read_events
from meldsat.games.registry import new_game
from meldsat.games.replay import WrongTurnError, replay_events
from meldsat.games.simulate import simulate
from meldsat.notation import Table

BOTS = ["greedy-points", "hoarder", "knocker", "random"]


@pytest.fixture(scope="module")
def manipulation_log() -> list[dict[str, Any]]:
    log = MemoryLog()
    simulate("manipulation", BOTS, 2, 7, log, time_limit=5.0)
    return log.events


def _replay(events: list[dict[str, Any]]) -> None:
    replay_events(enumerate(events, start=1))


def test_simulated_games_replay_clean(manipulation_log: list[dict[str, Any]]) -> None:
    report = replay_events(enumerate(manipulation_log, start=1))
    assert report.games == 2
    assert report.turns == sum(1 for event in manipulation_log if event["event"] == "turn")
    assert report.incomplete_game is None


def test_round_scores_add_up_to_the_totals(manipulation_log: list[dict[str, Any]]) -> None:
    running: dict[int, list[int]] = {}
    for event in manipulation_log:
        if event["event"] == "round_end":
            totals = running.setdefault(event["game"], [0] * len(event["scores"]))
            totals[:] = [
                total + score for total, score in zip(totals, event["scores"], strict=True)
            ]
            assert event["totals"] == totals
        if event["event"] == "game_end":
            bonuses = event["bonuses"]
            final = [t + b for t, b in zip(running[event["game"]], bonuses, strict=True)]
            assert event["totals"] == final
            assert max(final) >= 150 + 100


def _first(events: list[dict[str, Any]], kind: str, **match: Any) -> dict[str, Any]:
    return next(
        event
        for event in events
        if event["event"] == kind and all(event.get(k) == v for k, v in match.items())
    )


def test_a_card_slipped_into_a_play_is_refused(manipulation_log: list[dict[str, Any]]) -> None:
    events = copy.deepcopy(manipulation_log)
    turn = next(e for e in events if e["event"] == "turn" and e["table_after"])
    turn["table_after"][0].append("KS")
    with pytest.raises(WrongTurnError) as caught:
        _replay(events)
    assert f"turn {turn['turn']}" in str(caught.value)
    assert "card_not_in_hand" in str(caught.value)


def test_a_changed_round_score_is_refused(manipulation_log: list[dict[str, Any]]) -> None:
    events = copy.deepcopy(manipulation_log)
    end = _first(events, "round_end")
    winner = end["winners"][0]
    end["scores"][winner] += 1
    with pytest.raises(WrongTurnError, match="'scores' is"):
        _replay(events)


def test_a_knock_above_the_limit_is_refused(manipulation_log: list[dict[str, Any]]) -> None:
    events = copy.deepcopy(manipulation_log)
    turn = next(e for e in events if e["event"] == "turn" and e["hand_points"] > 5)
    turn["knock"] = True
    with pytest.raises(WrongTurnError, match="knocking needs a hand of 5 points or less"):
        _replay(events)


def test_a_reshuffled_deck_is_refused(manipulation_log: list[dict[str, Any]]) -> None:
    events = copy.deepcopy(manipulation_log)
    deal = _first(events, "deal")
    deal["deck"][0], deal["deck"][1] = deal["deck"][1], deal["deck"][0]
    with pytest.raises(WrongTurnError, match="not the one the seed shuffles"):
        _replay(events)


def test_the_log_file_keeps_every_finished_game_of_an_interrupted_run(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    with JsonlLog(path) as log:
        simulate("manipulation", ["greedy-cards", "knocker"], 2, 3, log, time_limit=5.0)
    lines = path.read_text(encoding="utf-8").splitlines()
    second_game = next(
        i
        for i, line in enumerate(lines)
        if json.loads(line) == {**json.loads(line), "event": "game", "game": 2}
    )
    cut = lines[: second_game + 5]
    report = replay_events(read_events(cut, "cut"))
    assert report.games == 1
    assert report.incomplete_game == 2


class _TwoCardMelder(HintBot):
    """A broken bot: lays its first two cards as a meld (never legal)."""

    def choose_meld(self, view: TurnView) -> Table | None:
        return (*view.table, view.hand[:2])


def test_a_bot_that_breaks_a_rule_stops_the_game() -> None:
    game = new_game("manipulation", 2)
    bots = [_TwoCardMelder("broken", random.Random(0)), make_bot("knocker", random.Random(1))]
    with pytest.raises(IllegalTurnError, match="illegal_meld"):
        play_game(game, bots, ["broken", "knocker"], seed=1, log=MemoryLog())
