"""Every 500-rummy scoring case (500, 300, killer), with the numbers worked out by hand."""

from __future__ import annotations

import pytest

from meldsat.games.rummy500_score import game_winners, laid_points, score_deal
from meldsat.notation import parse_pieces, parse_table
from meldsat.rulesets import get_rules

STANDARD = get_rules("rummy500").scoring
KILLER = get_rules("rummy500-killer").scoring

# (case, laid, hand points, went out, pool, expected scores, winners, pool carried on)
DEALS = [
    (
        "out: laid - held, the winner takes the pool: 60 + 30, 30 - 25, 20 - 40",
        [60, 30, 20],
        [0, 25, 40],
        0,
        30,
        [90, 5, -20],
        [0],
        0,
    ),
    (
        "nobody out, one lowest hand takes the pool: 10 - 12 + 30",
        [10, 40],
        [12, 30],
        None,
        30,
        [28, 10],
        [0],
        0,
    ),
    (
        "nobody out, a tie: the pool carries over",
        [10, 20, 5],
        [15, 15, 40],
        None,
        30,
        [-5, 5, -35],
        [],
        30,
    ),
    (
        "a carried pool of 60 goes out with the winner: 45 + 60",
        [0, 45],
        [20, 0],
        1,
        60,
        [-20, 105],
        [1],
        0,
    ),
]
KILLER_DEALS = [
    (
        "killer, out: the winner scores the other hands, 25 + 40",
        [60, 30, 20],
        [0, 25, 40],
        0,
        [65, 0, 0],
        [0],
    ),
    ("killer, lowest hand wins: 30 + 12", [5, 5, 5], [7, 30, 12], None, [42, 0, 0], [0]),
    ("killer, a tie: nobody scores", [5, 5, 5], [15, 15, 40], None, [0, 0, 0], []),
]


@pytest.mark.parametrize(
    ("laid", "held", "out", "pool", "scores", "winners", "carried"),
    [row[1:] for row in DEALS],
    ids=[row[0] for row in DEALS],
)
def test_standard_deal_scores(  # noqa: PLR0917 (one argument per table column)
    laid: list[int],
    held: list[int],
    out: int | None,
    pool: int,
    scores: list[int],
    winners: list[int],
    carried: int,
) -> None:
    result = score_deal(laid, held, out, pool, STANDARD)
    assert list(result.scores) == scores
    assert list(result.winners) == winners
    assert result.pool_carried == carried
    assert result.pool_won == (pool if winners else 0)


@pytest.mark.parametrize(
    ("laid", "held", "out", "scores", "winners"),
    [row[1:] for row in KILLER_DEALS],
    ids=[row[0] for row in KILLER_DEALS],
)
def test_killer_deal_scores(
    laid: list[int], held: list[int], out: int | None, scores: list[int], winners: list[int]
) -> None:
    result = score_deal(laid, held, out, 0, KILLER)
    assert list(result.scores) == scores
    assert list(result.winners) == winners
    assert result.pool_carried == 0


# (case, table before, table after, played, points)
LAID = [
    ("number cards at face value: 5 + 6 + 7", "", "5H 6H 7H", "5H 6H 7H", 18),
    ("a joker counts 15: 5 + 15 + 7", "", "5H *=6H 7H", "5H * 7H", 27),
    ("face cards 10: J + Q + K", "", "JS QS KS", "JS QS KS", 30),
    ("an ace melded low counts 1: 1 + 2 + 3", "", "AS 2S 3S", "AS 2S 3S", 6),
    ("an ace melded high counts 15: 10 + 10 + 15", "", "QS KS AS", "QS KS AS", 35),
    ("aces in a group count 15 each", "", "AS AH AD", "AS AH AD", 45),
    ("an ace laid off low on a run counts 1", "2S 3S 4S", "AS 2S 3S 4S", "AS", 1),
    ("an ace laid off high on a run counts 15", "JS QS KS", "JS QS KS AS", "AS", 15),
]


@pytest.mark.parametrize(
    ("before", "after", "played", "points"),
    [row[1:] for row in LAID],
    ids=[row[0] for row in LAID],
)
def test_laid_points(before: str, after: str, played: str, points: int) -> None:
    rules = get_rules("rummy500")
    value = laid_points(
        parse_pieces(played), tuple(parse_table(before)), tuple(parse_table(after)), rules
    )
    assert value == points


@pytest.mark.parametrize(
    ("rules", "totals", "winners"),
    [
        ("rummy500", [510, 300], [0]),
        ("rummy500", [480, 499], []),
        ("rummy500", [520, 520, 10], [0, 1]),
        ("rummy300", [300, 200], [0]),
        ("rummy300", [290, 299], []),
        ("rummy500-killer", [430, 505], [1]),
    ],
)
def test_the_game_ends_at_the_target(rules: str, totals: list[int], winners: list[int]) -> None:
    assert list(game_winners(totals, get_rules(rules).scoring)) == winners
