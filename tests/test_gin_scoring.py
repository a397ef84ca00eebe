"""Gin scoring: hand scores, game bonuses, shutouts, Oklahoma's spades, Hollywood's three games."""

from __future__ import annotations

import json

import pytest

from meldsat.cards import Card
from meldsat.errors import MeldsatError
from meldsat.gin.scorefile import read_hand_results
from meldsat.gin.scoring import HandKind, HandResult, hand_score, score_sheet
from meldsat.rulesets import get_rules

GIN = get_rules("gin")
OKLAHOMA = get_rules("oklahoma-gin")
HOLLYWOOD = get_rules("hollywood-gin")


def test_hand_scores_knock_undercut_tie_gin_and_big_gin() -> None:
    assert hand_score(GIN, 4, 15) == hand_score(GIN, 4, 15)
    knock = hand_score(GIN, 4, 15)
    assert (knock.kind, knock.winner, knock.points) == (HandKind.KNOCK, "knocker", 11)
    undercut = hand_score(GIN, 8, 5)
    assert (undercut.kind, undercut.winner, undercut.points) == (HandKind.UNDERCUT, "defender", 28)
    tie = hand_score(GIN, 7, 7)
    assert (tie.kind, tie.winner, tie.points) == (HandKind.UNDERCUT, "defender", 25)
    gin = hand_score(GIN, 0, 0)
    assert (gin.kind, gin.winner, gin.points) == (HandKind.GIN, "knocker", 25)
    big = hand_score(GIN, 0, 12, big_gin=True)
    assert (big.kind, big.points) == (HandKind.BIG_GIN, 43)


def test_oklahoma_spade_upcard_doubles_and_is_required() -> None:
    assert hand_score(OKLAHOMA, 4, 15, first_upcard=Card(7, 0)).points == 22
    assert hand_score(OKLAHOMA, 4, 15, first_upcard=Card(7, 1)).points == 11
    with pytest.raises(MeldsatError, match="upcard"):
        hand_score(OKLAHOMA, 4, 15)


def test_game_bonus_line_bonus_and_shutout() -> None:
    results = [HandResult("Ann", 0, 60), HandResult("Ann", 2, 40)]
    sheet = score_sheet(GIN, ["Ann", "Bob"], results)
    game = sheet.games[0]
    assert sheet.finished and game.winner == "Ann" and game.shutout
    assert game.points == {"Ann": 85 + 38, "Bob": 0}
    # 123 points + 100 game + 2 hands x 25 line, doubled for the shutout.
    assert game.total == {"Ann": 2 * (123 + 100 + 50), "Bob": 0}


def test_no_shutout_once_the_loser_won_a_hand() -> None:
    results = [HandResult("Bob", 5, 9), HandResult("Ann", 0, 90)]
    game = score_sheet(GIN, ["Ann", "Bob"], results).games[0]
    assert game.winner == "Ann" and not game.shutout
    assert game.total == {"Ann": 115 + 100 + 25, "Bob": 4 + 25}


def test_hollywood_scores_the_nth_win_in_the_first_n_games() -> None:
    results = [HandResult("Ann", 1, 11)] * 3 + [HandResult("Bob", 1, 21)]
    sheet = score_sheet(HOLLYWOOD, ["Ann", "Bob"], results)
    assert [hand.games for hand in sheet.hands] == [(1,), (1, 2), (1, 2, 3), (1,)]
    assert [game.points["Ann"] for game in sheet.games] == [30, 20, 10]
    assert [game.points["Bob"] for game in sheet.games] == [20, 0, 0]
    assert not sheet.finished


def test_a_hand_after_the_game_is_over_is_refused() -> None:
    with pytest.raises(MeldsatError, match="hand 2"):
        score_sheet(GIN, ["Ann", "Bob"], [HandResult("Ann", 0, 120), HandResult("Ann", 1, 5)])


def read_score_file(text: str) -> tuple[list[str], list[HandResult]]:
    lines = [(number, json.loads(line)) for number, line in enumerate(text.splitlines(), 1)]
    return read_hand_results((number, item) for number, item in lines)


def test_score_file_reads_players_hands_and_dead_hands() -> None:
    text = (
        '{"players": ["Ann", "Bob"]}\n{"knocker": "Ann", "knocker_deadwood": 3, '
        '"defender_deadwood": 9, "upcard": "qs"}\n{"dead": true}\n'
    )
    players, results = read_score_file(text)
    assert players == ["Ann", "Bob"]
    assert results == [HandResult("Ann", 3, 9, False, Card(12, 0)), HandResult(None)]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ('{"players": ["Ann"]}', "line 1"),
        ('{"players": ["A", "B"]}\n{"knocker": "A", "knocker_deadwood": 3}', "defender_deadwood"),
        ('{"players": ["A", "B"]}\n{"knocker": "A", "knock": 3}', "knock"),
        (
            '{"players": ["A", "B"]}\n{"knocker": "A", "knocker_deadwood": 1, '
            '"defender_deadwood": 2, "upcard": "ZZ"}',
            "ZZ",
        ),
    ],
)
def test_bad_score_files_name_the_line_or_key(text: str, fragment: str) -> None:
    with pytest.raises(MeldsatError, match=fragment):
        read_score_file(text)
