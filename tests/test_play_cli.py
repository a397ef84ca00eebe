"""``meldsat play``: a person against bots, driven by scripted input and through a real terminal."""

from __future__ import annotations

import io
import itertools
import random
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from rich.console import Console

from meldsat import Position, best_play, format_table
from meldsat.cards import Card
from meldsat.cli.render import render_meld
from meldsat.games.engine import first_dealer, round_deck
from meldsat.games.manipulation import ManipulationGame
from meldsat.melds import is_legal_meld
from meldsat.notation import format_pieces
from meldsat.rulesets import get_rules
from tests.conftest import CliRunner

SEED = 3  # with two players and this seed, seat 0 (the person) moves first and can meld at once


def _first_hand() -> Position:
    """The person's position after the first draw, rebuilt from the seed like the engine does."""
    game = ManipulationGame(get_rules("manipulation", 2))
    assert first_dealer(SEED, 1, 2) == 1
    game.start_round(1, 1, round_deck(game, SEED, 1, 1))
    return Position.build(game.rules, (), (*game.hands[0], game.stock[-1]))


def test_a_scripted_game_refuses_an_illegal_play_and_takes_a_legal_one(
    run_cli: CliRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    position = _first_hand()
    play = best_play(position)
    assert play.found
    # A change that breaks four rules, played anyway (refused), undone; then the hint's table
    # typed whole and played with an empty line.
    script = ["h", "n AS 2S 3H", "", "u", f"table: {format_table(play.table)}", ""]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(script) + "\n"))
    log = tmp_path / "p.jsonl"
    result = run_cli("play", "--players", "2", "--seed", str(SEED), "--log", str(log))
    assert result.code == 0
    out = result.out
    assert "your hand: " in out and "♦" in out
    assert f"hint: play A♦ Q♦ K♦ ({play.points_played} points" in out
    assert "not legal yet (4 reasons):" in out and "illegal (4 reasons):" in out
    assert "x card_not_in_hand: AS came to the table" in out
    assert "   1. A♠ 2♠ 3♥  new: not a legal meld" in out
    assert "legal: plays 21 points; Enter plays it" in out
    assert "you drew 6♠\n" in out  # the card just drawn is named
    assert "you: drew 6♠, played A♦ Q♦ K♦" in out
    assert "table: Q♦ K♦ A♦" in out
    assert out.rstrip().endswith("game abandoned")  # the input ended
    assert run_cli("replay", str(log)).code == 0


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_play_in_a_real_terminal() -> None:
    meldsat = Path(sys.executable).parent / "meldsat"
    session = f"meldsat-test-{uuid.uuid4().hex[:8]}"
    command = f"{meldsat} play --players 2 --seed {SEED}"
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "50", command],
        check=True,
    )
    # Keep the pane (and its last screen) after the program ends, to read "game abandoned".
    subprocess.run(["tmux", "set-option", "-t", session, "remain-on-exit", "on"], check=True)
    try:
        screen = _wait_for(session, "your play")
        assert "your hand:" in screen and "you drew 6♠" in screen
        _send(session, "n qd kd ad")  # a new meld, meld by meld
        assert "   1. Q♦ K♦ A♦  new" in _wait_for(session, "legal: plays 21 points")
        _send(session, "1+ jd")  # a card the hand does not hold
        _wait_for(session, "x card_not_in_hand: JD")
        _send(session, "r")
        _send(session, "t")  # take the hint with one key; the bot moves, the person's turn again
        screen = _wait_for(session, "you drew J♠")
        assert "you: drew 6♠, played A♦ Q♦ K♦" in screen and "   2. Q♠ K♠ A♠" in screen
        _send(session, "q")
        assert "game abandoned" in _wait_for(session, "game abandoned")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False, capture_output=True)


def _send(session: str, line: str) -> None:
    subprocess.run(["tmux", "send-keys", "-t", session, "-l", line], check=True)
    subprocess.run(["tmux", "send-keys", "-t", session, "Enter"], check=True)


def _wait_for(session: str, text: str) -> str:
    """The pane's text once it shows ``text`` (polling; the program is slow on a loaded machine)."""
    screen = ""
    for _ in range(300):
        done = subprocess.run(
            ["tmux", "capture-pane", "-p", "-t", session],
            check=True,
            capture_output=True,
            text=True,
        )
        screen = done.stdout
        if text in screen:
            return screen
        time.sleep(0.1)
    raise AssertionError(f"'{text}' never appeared; the screen shows:\n{screen}")


def test_a_500_game_asks_for_a_discard_from_the_hand(
    run_cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("draw\nZZ\n2C\n"))
    result = run_cli("play", "--rules", "rummy500", "--players", "2", "--seed", "2")
    assert result.code == 0
    assert "discard which card? not understood: unknown card 'ZZ'" in result.out
    assert "discard which card? 2C is not in your hand" in result.out
    assert result.out.rstrip().endswith("game abandoned")


def test_a_play_with_one_reason_says_one_reason(
    run_cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    position = _first_hand()
    cards = [piece for piece in position.hand if isinstance(piece, Card)]
    # Three cards of the hand that make no meld: the play breaks one rule only (illegal_meld).
    loose = next(
        trio for trio in itertools.combinations(cards, 3) if not is_legal_meld(trio, position.rules)
    )
    play = best_play(position)
    script = [f"n {format_pieces(loose)}", "", "r", "t"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(script) + "\n"))
    out = run_cli("play", "--players", "2", "--seed", str(SEED)).out
    assert "illegal (1 reason):\n  x illegal_meld: " in out
    assert f"you: drew 6♠, played {render_meld(play.played).plain}" in out  # t took the hint


def test_a_500_game_told_to_the_person_shows_its_scores_as_tables() -> None:
    from meldsat.cli.play import TableNarrator
    from meldsat.games.engine import play_game
    from meldsat.games.log import MemoryLog
    from meldsat.games.registry import new_agent, new_game

    game = new_game("rummy500", 2)
    seats = ["greedy-points", "greedy-points"]
    agents = [
        new_agent("rummy500", name, random.Random(seat), 1.0) for seat, name in enumerate(seats)
    ]
    screen = io.StringIO()
    out = Console(file=screen, width=200)
    play_game(game, agents, seats, seed=4, log=TableNarrator(MemoryLog(), game.rules, seats, out))
    text = screen.getvalue()
    assert "round 1 over\n  player" in text
    header = next(
        line for line in text.splitlines() if line.startswith("  player") and "in hand" in line
    )
    assert header.split() == ["player", "in", "hand", "round", "total", "cards", "left"]
    assert "final totals:\n  player" in text and "[" not in text  # no Python lists
