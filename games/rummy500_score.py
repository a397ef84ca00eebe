"""Scoring of the Dutch 500 rummy and its variants (300, killer): a deal, and the game's end.

Pure functions of numbers, so every case is a row in a table-driven test. The Dutch sentences
behind each reading are quoted in docs/RULES.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from meldsat.cards import Card, Joker
from meldsat.games.engine import leading_seats
from meldsat.melds import MeldKind
from meldsat.notation import Meld, Table
from meldsat.rules import RuleSet, Scoring
from meldsat.table import judge_table


@dataclass(frozen=True)
class DealScore:
    """One deal's result: points per seat, the winner (if any), the pool it took or carried on."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    pool_won: int  # points of the pool the winner took (0 when nobody took it)
    pool_carried: int  # points of the pool left for the next deal


def deal_winner(hand_points: Sequence[int], went_out: int | None) -> int | None:
    """Who wins a deal: the player who went out, else the one lowest hand (none on a tie)."""
    if went_out is not None:
        return went_out
    low = min(hand_points)
    lowest = [seat for seat, points in enumerate(hand_points) if points == low]
    return lowest[0] if len(lowest) == 1 else None


def score_deal(
    laid: Sequence[int],
    hand_points: Sequence[int],
    went_out: int | None,
    pool: int,
    scoring: Scoring,
) -> DealScore:
    """Score a deal from the points each seat laid, the points left in each hand, and the pool.

    Standard (500, 300): every seat scores what it laid minus what it holds; the winner also takes
    ``pool`` (this deal's 30 plus any carried over); with no winner the pool carries over.
    Killer (``only_deal_winner_scores``): only the winner scores, the sum of the other hands;
    there is no pool.
    """
    winner = deal_winner(hand_points, went_out)
    if scoring.only_deal_winner_scores:
        scores = [0] * len(hand_points)
        if winner is not None:
            scores[winner] = sum(
                points for seat, points in enumerate(hand_points) if seat != winner
            )
        return DealScore(tuple(scores), _seats(winner), 0, 0)
    scores = [put - held for put, held in zip(laid, hand_points, strict=True)]
    if winner is None:
        return DealScore(tuple(scores), (), 0, pool)
    scores[winner] += pool
    return DealScore(tuple(scores), (winner,), pool, 0)


def _seats(winner: int | None) -> tuple[int, ...]:
    return () if winner is None else (winner,)


def game_winners(totals: Sequence[int], scoring: Scoring) -> tuple[int, ...]:
    """The seats with the most points once someone reached the target (500 or 300), else none."""
    if max(totals) < scoring.game_target:
        return ()
    return leading_seats(totals)


def laid_points(played: Meld, before: Table, after: Table, rules: RuleSet) -> int:
    """What the pieces a player laid this turn count: their hand values, a joker 15.

    An ace counts ``ace_low_meld_value`` (1) instead of 15 for each extra ace of its card that the
    turn leaves at the low end of a sequence (A-2-3), up to the number of such aces laid.
    """
    total = sum(rules.value(piece) for piece in played)
    if rules.ace_low_meld_value is None:
        return total
    low_before, low_after = _low_aces(before, rules), _low_aces(after, rules)
    for piece in played:
        if isinstance(piece, Joker) or piece.rank != 1:
            continue
        if low_after.get(piece, 0) > low_before.get(piece, 0):
            low_after[piece] -= 1
            total -= rules.card_value(piece) - rules.ace_low_meld_value
    return total


def _low_aces(table: Table, rules: RuleSet) -> dict[Card, int]:
    """How many real aces of each card start a sequence on ``table``."""
    counts: dict[Card, int] = {}
    for verdict in judge_table(table, rules).melds:
        first = verdict.pieces[0] if verdict.pieces else None
        if verdict.kind is MeldKind.SEQUENCE and isinstance(first, Card) and first.rank == 1:
            counts[first] = counts.get(first, 0) + 1
    return counts
