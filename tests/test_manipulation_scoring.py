"""Every Manipulation Rummy scoring case, with the numbers worked out by hand."""

from __future__ import annotations

import dataclasses

import pytest

from meldsat.games.manipulation_score import score_game, score_round
from meldsat.rulesets import get_rules

SCORING = get_rules("manipulation").scoring

# (case, points in hand, cards in hand, knocker, expected scores, winners, undercut winners)
ROUNDS = [
    ("2 players, the knocker lowest: the difference", [3, 20], [2, 4], 0, [17, 0], [0], []),
    ("2 players, undercut: 3 + 10", [5, 2], [2, 1], 0, [0, 13], [1], [1]),
    ("2 players, knocker tied: the other wins 0 + 10", [4, 4], [1, 2], 0, [0, 10], [1], [1]),
    ("4 players: 8 + 13 + 28", [2, 10, 15, 30], [1, 3, 4, 6], 0, [49, 0, 0, 0], [0], []),
    (
        "4 players, undercut: 2 + 17 + 37 + 10",
        [5, 3, 20, 40],
        [2, 1, 5, 7],
        0,
        [0, 66, 0, 0],
        [1],
        [1],
    ),
    ("knocker ties with one: 0 + 0 + 16 + 10", [4, 4, 20], [1, 2, 4], 0, [0, 26, 0], [1], [1]),
    (
        "knocker ties with two: each 0 + 0 + 0 + 26 + 10",
        [4, 4, 4, 30],
        [1, 2, 1, 5],
        0,
        [0, 36, 36, 0],
        [1, 2],
        [1, 2],
    ),
    ("going out: 12 + 30 + 25", [0, 12, 30], [0, 3, 5], None, [67, 0, 0], [0], []),
    ("2 players going out: 25 + 25", [0, 25], [0, 4], None, [50, 0], [0], []),
    (
        "stock out, nobody knocked, two tied lowest: 4 each",
        [6, 6, 10],
        [2, 3, 2],
        None,
        [4, 4, 0],
        [0, 1],
        [],
    ),
    ("5 players: 1 + 2 + 3 + 4", [1, 2, 3, 4, 5], [1, 1, 1, 1, 1], 0, [10, 0, 0, 0, 0], [0], []),
    (
        "5 players, two undercut the knocker: 3 + 0 + 5 + 7 + 10 each",
        [5, 2, 2, 7, 9],
        [1, 1, 1, 2, 2],
        0,
        [0, 25, 25, 0, 0],
        [1, 2],
        [1, 2],
    ),
]


@pytest.mark.parametrize(
    ("points", "cards", "knocker", "scores", "winners", "undercut"),
    [row[1:] for row in ROUNDS],
    ids=[row[0] for row in ROUNDS],
)
def test_round_scores(  # noqa: PLR0917 (one argument per table column)
    points: list[int],
    cards: list[int],
    knocker: int | None,
    scores: list[int],
    winners: list[int],
    undercut: list[int],
) -> None:
    result = score_round(points, cards, knocker, SCORING)
    assert list(result.scores) == scores
    assert list(result.winners) == winners
    assert list(result.undercut) == undercut


# (case, totals before bonuses, rounds won, everyone gets the round bonus, final totals, winners)
GAMES = [
    (
        "one at the target: 100; others 25 a round",
        [160, 90, 40],
        [3, 2, 1],
        False,
        [260, 140, 65],
        [0],
    ),
    ("two at the target: 100 each", [150, 155, 20], [1, 2, 3], False, [250, 255, 95], [1]),
    ("round bonus for everyone: 160 + 100 + 75", [160, 90], [3, 2], True, [335, 140], [0]),
    ("a tie shares the win", [150, 150], [1, 1], False, [250, 250], [0, 1]),
    (
        "the round bonus can overtake: 149 + 25 x 5 beats 150 + 100",
        [150, 149],
        [1, 5],
        False,
        [250, 274],
        [1],
    ),
]


@pytest.mark.parametrize(
    ("totals", "won", "everyone", "final", "winners"),
    [row[1:] for row in GAMES],
    ids=[row[0] for row in GAMES],
)
def test_game_end_bonuses(
    totals: list[int], won: list[int], everyone: bool, final: list[int], winners: list[int]
) -> None:
    scoring = dataclasses.replace(SCORING, round_win_bonus_for_everyone=everyone)
    result = score_game(totals, won, scoring)
    assert list(result.totals) == final
    assert list(result.winners) == winners
