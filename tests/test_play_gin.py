"""``meldsat play`` for gin: a person against a gin bot, driven by scripted answers."""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from meldsat.cli.play_gin import GinNarrator, TerminalGinPlayer
from meldsat.games.engine import first_dealer, play_game, round_deck
from meldsat.games.gin import GinGame
from meldsat.games.gin_bots import make_gin_bot
from meldsat.games.log import MemoryLog
from meldsat.games.replay import replay_events
from meldsat.gin.deadwood import analyse_hand
from meldsat.rulesets import get_rules
from tests.conftest import CliRunner


def _seed_where_the_person_starts() -> int:
    return next(seed for seed in range(1, 100) if first_dealer(seed, 1, 2) == 1)


def test_a_person_plays_a_whole_gin_game_and_its_log_replays() -> None:
    rules = get_rules("gin", 2)
    game = GinGame(rules)
    asked: list[str] = []

    def ask(prompt: str) -> str:
        """Take the hint with one key at every step: the draw, then the discard and knock."""
        asked.append(prompt)
        return "t"

    screen = io.StringIO()
    out = Console(file=screen, width=200)
    log = MemoryLog()
    seats = ["you", "knocker"]
    agents: list[Any] = [TerminalGinPlayer(ask, out), make_gin_bot("knocker", random.Random(1))]
    result = play_game(game, agents, seats, seed=5, log=GinNarrator(log, rules, seats, out))
    assert result["winners"] and asked
    assert replay_events(enumerate(log.events, start=1)).games == 1
    text = screen.getvalue()
    assert "game over: won by " in text and "hand over: " in text
    assert "final totals:\n  player" in text and "  player  " in text and "[" not in text
    assert "\n  you meld " in text  # the person's verb agrees
    # The final totals say what the game's bonuses added to the hands' points; the log keeps
    # the event as the game wrote it.
    last_hand = [event for event in log.events if event["event"] == "round_end"][-1]
    end = log.events[-1]
    assert "bonuses" not in end
    added = [
        total - points for total, points in zip(end["totals"], last_hand["totals"], strict=True)
    ]
    final = text.split("final totals:")[1].splitlines()
    assert final[1].split() == ["player", "bonuses", "total"]
    assert [line.split()[-2:] for line in final[2:4]] == [
        [str(bonus), str(total)] for bonus, total in zip(added, end["totals"], strict=True)
    ]
    bot_draws = [line for line in text.splitlines() if line.startswith("seat 1 (knocker): drew")]
    assert bot_draws and all(
        line.startswith("seat 1 (knocker): drew from the stock") for line in bot_draws
    )  # the card the bot draws from the stock stays hidden


def test_scripted_gin_turn_refuses_an_illegal_discard_and_takes_a_legal_one(
    run_cli: CliRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seed = _seed_where_the_person_starts()
    rules = get_rules("gin", 2)
    game = GinGame(rules)
    game.start_round(1, 1, round_deck(game, seed, 1, 1))
    upcard = game.discards[-1]
    best = analyse_hand([*game.hands[0], upcard], rules, first_upcard=upcard, keep=upcard)
    assert best.discard is not None
    script = ["hint", "u", f"{upcard} knock", "XX", "hint", str(best.discard)]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(script) + "\n"))
    log = tmp_path / "gin.jsonl"
    result = run_cli("play", "--rules", "gin", "--seed", str(seed), "--log", str(log))
    assert result.code == 0, result.err
    out = result.out
    assert "hint: take the upcard" in out or "hint: draw from the stock" in out
    assert f"not allowed: the upcard {upcard} just taken may not be discarded" in out
    assert "not understood: " in out
    assert "hint: discard " in out
    assert "you: took the upcard " in out and ", discarded " in out
    assert out.rstrip().endswith("game abandoned")  # the input ended
    assert run_cli("replay", str(log)).code == 0


def test_gin_play_seats_two_players_by_default(
    run_cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    result = run_cli("play", "--rules", "hollywood-gin")
    assert result.code == 0 and "game abandoned" in result.out
    refused = run_cli("play", "--rules", "gin", "--players", "3")
    assert refused.code == 2 and "players" in refused.err and refused.out == ""
    too_many = run_cli("play", "--rules", "gin", "--bots", "knocker,hoarder")
    assert too_many.code == 2 and "names 2 bots for 1 other seat" in too_many.err
