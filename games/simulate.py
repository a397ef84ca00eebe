"""Simulation: many seeded games between bots, and the statistics per seat.

Game ``i`` (from 1) of a run with seed ``S`` is played with seed ``S`` and number ``i``, so every
game of a run can be replayed alone, and the same command gives the same games. A tie for the
most points shares the win: each of ``k`` tied winners counts ``1/k`` of a game won.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from meldsat.games.bots import SolverUse
from meldsat.games.deck import seeded_rng
from meldsat.games.engine import play_game
from meldsat.games.log import Event, GameLog
from meldsat.games.registry import new_agent, new_game

Z_95 = 1.959963984540054  # the two-sided 95 % normal quantile


@dataclass
class SeatStats:
    """One seat's results over a run."""

    bot: str
    wins: float = 0.0
    final_scores: list[int] = field(default_factory=list)
    round_points: int = 0
    rounds_won: int = 0
    knocks: int = 0
    undercuts: int = 0
    went_out: int = 0

    def win_interval(self, games: int) -> tuple[float, float]:
        """The Wilson 95 % confidence interval of the share of games won."""
        return wilson_interval(self.wins, games)


@dataclass
class SimulationResult:
    """Every seat's statistics, and the run's totals."""

    rules: str
    players: int
    games: int
    seed: int
    seats: list[SeatStats]
    rounds: int = 0
    turns: int = 0
    solver: SolverUse = field(default_factory=SolverUse)

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON-ready dict (``seats`` in seat order)."""
        seats = []
        for seat, stats in enumerate(self.seats):
            low, high = stats.win_interval(self.games)
            seats.append(
                {
                    "seat": seat,
                    "bot": stats.bot,
                    "wins": stats.wins,
                    "win_rate": stats.wins / self.games if self.games else 0.0,
                    "win_rate_95": [round(low, 4), round(high, 4)],
                    "mean_final_score": _mean(stats.final_scores),
                    "mean_points_per_round": stats.round_points / self.rounds
                    if self.rounds
                    else 0.0,
                    "rounds_won": stats.rounds_won,
                    "knocks": stats.knocks,
                    "undercuts": stats.undercuts,
                    "went_out": stats.went_out,
                }
            )
        return {
            "rules": self.rules,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "rounds": self.rounds,
            "rounds_per_game": self.rounds / self.games if self.games else 0.0,
            "turns": self.turns,
            "hints": self.solver.calls,
            "hints_unproven": self.solver.unproven,
            "seats": seats,
        }


def wilson_interval(successes: float, trials: int) -> tuple[float, float]:
    """The Wilson score interval (95 %) for ``successes`` out of ``trials``."""
    if trials == 0:
        return (0.0, 1.0)
    share = successes / trials
    denominator = 1 + Z_95**2 / trials
    centre = (share + Z_95**2 / (2 * trials)) / denominator
    spread = (
        Z_95 * math.sqrt(share * (1 - share) / trials + Z_95**2 / (4 * trials**2)) / denominator
    )
    return (max(0.0, centre - spread), min(1.0, centre + spread))


def _mean(values: Sequence[int]) -> float:
    return sum(values) / len(values) if values else 0.0


class _StatsLog:
    """Passes events on to the real log and counts what the statistics need."""

    def __init__(self, inner: GameLog, result: SimulationResult) -> None:
        self.inner = inner
        self.result = result

    def write(self, event: Event) -> None:
        self.inner.write(event)
        kind, seats = event["event"], self.result.seats
        if kind == "turn":
            self.result.turns += 1
        elif kind == "round_end":
            self.result.rounds += 1
            for seat, score in enumerate(event["scores"]):
                seats[seat].round_points += score
            for seat in event["winners"]:
                seats[seat].rounds_won += 1
            for seat in event.get("undercut", []):
                seats[seat].undercuts += 1
            if event.get("knocker") is not None:
                seats[event["knocker"]].knocks += 1
            if event.get("went_out") is not None:
                seats[event["went_out"]].went_out += 1
        elif kind == "game_end":
            winners = event["winners"]
            for seat in winners:
                seats[seat].wins += 1 / len(winners)
            for seat, total in enumerate(event["totals"]):
                seats[seat].final_scores.append(total)


def simulate(
    rules: str,
    bots: Sequence[str],
    games: int,
    seed: int,
    log: GameLog,
    *,
    time_limit: float,
    options: dict[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play ``games`` games of ``rules`` between ``bots`` (one a seat), logging every event."""
    result = SimulationResult(rules, len(bots), games, seed, [SeatStats(bot) for bot in bots])
    counting = _StatsLog(log, result)
    for number in range(1, games + 1):
        game = new_game(rules, len(bots), options)
        agents = [
            new_agent(rules, name, seeded_rng(seed, number, "bot", seat), time_limit)
            for seat, name in enumerate(bots)
        ]
        play_game(game, agents, list(bots), seed=seed, number=number, log=counting)
        for agent in agents:
            use = getattr(agent, "solver", None)
            if isinstance(use, SolverUse):
                result.solver.add(use)
        if progress is not None:
            progress(number)
    return result
