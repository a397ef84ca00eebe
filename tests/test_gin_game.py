"""The gin games played by bots: legal turns, melds the rule checker accepts, replayable logs."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from meldsat.cards import Card
from meldsat.games.engine import IllegalTurnError
from meldsat.games.gin import GinGame
from meldsat.games.log import MemoryLog
from meldsat.games.replay import WrongTurnError, replay_events
from meldsat.games.simulate import simulate
from meldsat.melds import is_legal_meld
from meldsat.notation import parse_pieces
from meldsat.rulesets import get_rules
from tests.conftest import CliRunner
from tests.test_cli import as_json


@pytest.fixture(scope="module")
def hollywood_log() -> list[dict[str, Any]]:
    log = MemoryLog()
    simulate("hollywood-gin", ["knocker", "hoarder"], 2, 3, log, time_limit=5.0)
    return log.events


def cards(texts: list[str]) -> list[Card]:
    return [piece for piece in parse_pieces(" ".join(texts)) if isinstance(piece, Card)]


def test_hollywood_games_end_with_three_columns_and_replay_clean(
    hollywood_log: list[dict[str, Any]],
) -> None:
    ends = [event for event in hollywood_log if event["event"] == "game_end"]
    assert len(ends) == 2
    for end in ends:
        assert [column["game"] for column in end["columns"]] == [1, 2, 3]
        assert all(column["finished"] for column in end["columns"])
        assert end["totals"] == [
            sum(column["totals"][seat] for column in end["columns"]) for seat in (0, 1)
        ]
    report = replay_events(enumerate(hollywood_log, start=1))
    assert report.games == 2 and report.incomplete_game is None


def test_every_knock_shows_legal_melds_and_the_score_of_its_deadwood(
    hollywood_log: list[dict[str, Any]],
) -> None:
    rules = get_rules("hollywood-gin")
    knocks = [e for e in hollywood_log if e["event"] == "round_end" and e["ends"] != "dead"]
    assert knocks
    for end in knocks:
        melds = [cards(meld) for meld in end["knocker_melds"] + end["defender_melds"]]
        assert all(is_legal_meld(meld, rules) for meld in melds)
        difference = end["defender_deadwood"] - end["knocker_deadwood"]
        expected = {
            "knock": difference,
            "undercut": 25 - difference,
            "gin": end["defender_deadwood"] + 25,
            "big_gin": end["defender_deadwood"] + 31,
        }[end["ends"]]
        assert sum(end["scores"]) == expected


def test_a_tampered_score_is_refused(hollywood_log: list[dict[str, Any]]) -> None:
    events = copy.deepcopy(hollywood_log)
    end = next(event for event in events if event["event"] == "round_end" and event["winners"])
    end["scores"] = [score + 1 if score else 0 for score in end["scores"]]
    with pytest.raises(WrongTurnError, match="scores"):
        replay_events(enumerate(events, start=1))


def _dealt_game(rules: str = "gin") -> GinGame:
    game = GinGame(get_rules(rules, 2))
    deck = [Card(rank, suit) for suit in range(4) for rank in range(1, 14)]
    game.start_round(1, 0, list(deck))
    return game


def test_the_upcard_taken_may_not_be_discarded_and_knocks_need_the_limit() -> None:
    game = _dealt_game()
    upcard = str(game.discards[-1])
    with pytest.raises(IllegalTurnError, match="may not be discarded"):
        game.apply_turn({"source": "upcard", "discard": upcard, "knock": False})
    game = _dealt_game()
    discard = str(game.hands[game.to_move][0])
    with pytest.raises(IllegalTurnError, match="limit"):
        game.apply_turn({"source": "stock", "discard": discard, "knock": True})


def test_oklahoma_deal_sets_the_knock_limit_from_the_upcard() -> None:
    game = _dealt_game("oklahoma-gin")
    upcard = game.discards[-1]
    expected = 0 if upcard.rank == 1 else min(upcard.rank, 10)
    assert game.limit == expected


def test_simulate_and_replay_commands_play_gin(run_cli: CliRunner, tmp_path: Path) -> None:
    log = tmp_path / "gin.jsonl"
    result = run_cli(
        "simulate",
        "--rules",
        "oklahoma-gin",
        "--games",
        "2",
        "--seed",
        "3",
        "--log",
        str(log),
        "--json",
    )
    data = as_json(result)
    assert data["games"] == 2 and len(data["seats"]) == 2
    assert sum(seat["wins"] for seat in data["seats"]) == 2
    replay = run_cli("replay", str(log))
    assert replay.code == 0 and replay.out.startswith("confirmed: 2 games")
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    upcards = {(e["game"], e["round"]): e["upcard"] for e in lines if e["event"] == "deal"}
    scored = [e for e in lines if e["event"] == "round_end" and e["ends"] != "dead"]
    assert scored
    for end in scored:
        assert end["doubled"] == upcards[end["game"], end["round"]].endswith("S")


def test_unknown_gin_bot_is_bad_input(run_cli: CliRunner) -> None:
    result = run_cli("simulate", "--rules", "gin", "--bots", "knocker,cheater", "--games", "1")
    assert result.code == 2 and "cheater" in result.err and result.out == ""
