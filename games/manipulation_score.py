"""Manipulation Rummy scoring: a round from the hands left, and the game's end bonuses.

Pure functions of numbers, so every case of the rules is a row in a table-driven test. The
readings (knocker ties, nobody knocking) are explained in docs/RULES.md and docs/GAMES.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from meldsat.games.engine import leading_seats
from meldsat.rules import Scoring


@dataclass(frozen=True)
class RoundScore:
    """One round's result: points per seat, the winning seats, who got the undercut bonus."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    undercut: tuple[int, ...]


def score_round(
    hand_points: Sequence[int],
    cards_left: Sequence[int],
    knocker: int | None,
    scoring: Scoring,
) -> RoundScore:
    """Score a round from each seat's points and cards left in hand, and who knocked (if anyone).

    The fewest points win. A knocker tied at the lowest with others loses the round to them; every
    winner scores the sum of its differences to every other player (ties count 0, so with two
    players this is the difference), plus the undercut bonus when someone else knocked, plus the
    going-out bonus with no cards left.
    """
    low = min(hand_points)
    lowest = [seat for seat, points in enumerate(hand_points) if points == low]
    if knocker is not None and knocker in lowest and len(lowest) > 1:
        winners = [seat for seat in lowest if seat != knocker]
    else:
        winners = lowest
    differences = sum(points - low for points in hand_points)
    scores = [0] * len(hand_points)
    undercut: list[int] = []
    for seat in winners:
        score = differences
        if knocker is not None and seat != knocker:
            score += scoring.undercut_bonus
            undercut.append(seat)
        if cards_left[seat] == 0:
            score += scoring.going_out_bonus
        scores[seat] = score
    return RoundScore(tuple(scores), tuple(winners), tuple(undercut))


@dataclass(frozen=True)
class GameScore:
    """The end of a game: the bonus each seat gets, the final totals, the winning seats."""

    bonuses: tuple[int, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]


def game_reached_target(totals: Sequence[int], scoring: Scoring) -> bool:
    """True once one or more players have reached the game target (150)."""
    return max(totals) >= scoring.game_target


def score_game(totals: Sequence[int], rounds_won: Sequence[int], scoring: Scoring) -> GameScore:
    """Add the end bonuses: 100 to each player at the target, 25 a round won to the others.

    With ``round_win_bonus_for_everyone`` the players at the target get the round bonus too. The
    most points win; a tie gives several winners.
    """
    bonuses = []
    for total, won in zip(totals, rounds_won, strict=True):
        reached = total >= scoring.game_target
        bonus = scoring.game_bonus if reached else 0
        if not reached or scoring.round_win_bonus_for_everyone:
            bonus += scoring.round_win_bonus * won
        bonuses.append(bonus)
    final = tuple(total + bonus for total, bonus in zip(totals, bonuses, strict=True))
    return GameScore(tuple(bonuses), final, leading_seats(final))
