"""``meldsat play``: a person against bots, driven by scripted input and through a real terminal."""

from __future__ import annotations

import io
import itertools
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from meldsat import Position, best_play, format_table
from meldsat.cards import Card
from meldsat.games.engine import first_dealer, round_deck
from meldsat.games.manipulation import ManipulationGame
from meldsat.games.play_input import table_after_play
from meldsat.games.records import canonical_table
from meldsat.melds import is_legal_meld
from meldsat.notation import format_pieces, parse_table
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
    script = ["hint", "new AS 2S 3H", f"table: {format_table(play.table)}"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(script) + "\n"))
    log = tmp_path / "p.jsonl"
    result = run_cli("play", "--players", "2", "--seed", str(SEED), "--log", str(log))
    assert result.code == 0
    out = result.out
    assert "your hand: " in out and "♦" in out
    assert f"hint: play A♦ Q♦ K♦ ({play.points_played} points" in out
    assert "illegal (4 reasons):" in out
    assert "x card_not_in_hand: AS came to the table" in out
    assert "you: drew 1, played A♦ Q♦ K♦" in out
    assert "table: Q♦ K♦ A♦" in out
    assert out.rstrip().endswith("game abandoned")  # the input ended
    assert run_cli("replay", str(log)).code == 0


@pytest.mark.parametrize(
    ("typed", "table"),
    [
        ("QH KH *=AH", "7S 8S 9S | QH KH *=AH"),
        ("1: 10S", "7S 8S 9S 10S"),
        ("1: 6S + new 4D 4C 4H", "6S 7S 8S 9S | 4D 4C 4H"),
        ("table: 7S 8S | 9S 9H 9D", "7S 8S | 9S 9H 9D"),
    ],
)
def test_brief_plays(typed: str, table: str) -> None:
    rules = get_rules("manipulation")
    before = tuple(parse_table("7S 8S 9S"))
    after = table_after_play(typed, before, rules)
    assert canonical_table(after, rules) == canonical_table(parse_table(table), rules)


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
        assert "your hand:" in screen
        subprocess.run(["tmux", "send-keys", "-t", session, "hint", "Enter"], check=True)
        screen = _wait_for(session, "hint: play")
        assert "A♦ Q♦ K♦" in screen
        subprocess.run(["tmux", "send-keys", "-t", session, "quit", "Enter"], check=True)
        assert "game abandoned" in _wait_for(session, "game abandoned")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False, capture_output=True)


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
    script = [f"new {format_pieces(loose)}", f"table: {format_table(play.table)}"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(script) + "\n"))
    out = run_cli("play", "--players", "2", "--seed", str(SEED)).out
    assert "illegal (1 reason):\n  x illegal_meld: " in out
