"""Simulation: many seeded games between bots, and the statistics per seat.

Game ``i`` (from 1) of a run with seed ``S`` is played with seed ``S`` and number ``i``, so every
game of a run can be replayed alone, and the same command gives the same games, whichever worker
plays each one. A tie for the most points shares the win: each of ``k`` tied winners counts ``1/k``
of a game won.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from meldsat.executor import ordered_map
from meldsat.games.bots import SolverUse
from meldsat.games.deck import seeded_rng
from meldsat.games.engine import play_game
from meldsat.games.log import Event, GameLog, dump_event
from meldsat.games.registry import new_agent, new_game
from meldsat.house_rules import house_rules_of

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
    # The fields where the games' rule set differs from its preset (``--rule``).
    house_rules: dict[str, int | bool | None] = field(default_factory=dict)

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
        header: dict[str, Any] = {"rules": self.rules, "players": self.players}
        if self.house_rules:
            header["house_rules"] = self.house_rules
        return {
            **header,
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
    house: Mapping[str, object] | None = None,
    progress: Callable[[int], None] | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    guard: Callable[[], AbstractContextManager[object]] = nullcontext,
) -> SimulationResult:
    """Play ``games`` games of ``rules`` between ``bots`` (one a seat), logging every event.

    By default the games are played here, one after the other; with ``workers`` (local processes)
    or ``scheduler`` (a Dask cluster) they are spread over workers by :mod:`meldsat.executor`.
    Either way each game's events reach ``log`` whole and in game order (inside ``guard()``, which
    can hold a Ctrl-C until the game is written), so the log and the result are the same bytes.
    ``house`` rules (``--rule``) change the preset's fields; each game's log header names them.
    """
    house_rules = tuple((house or {}).items())
    result = SimulationResult(rules, len(bots), games, seed, [SeatStats(bot) for bot in bots])
    result.house_rules = house_rules_of(new_game(rules, len(bots), options, house).rules)
    counting = _StatsLog(log, result)
    jobs = (
        GameJob(rules, tuple(bots), seed, number, time_limit, options, house_rules)
        for number in range(1, games + 1)
    )
    if workers is None and scheduler is None:
        played: Iterable[PlayedGame] = map(play_one_game, jobs)
    else:
        played = ordered_map(play_one_game, jobs, workers=workers or 1, scheduler=scheduler)
    for number, game in enumerate(played, start=1):
        with guard():
            for line in game.lines:
                # The line as a file holds it, read back: the log writes it again byte for byte.
                counting.write(json.loads(line))
            result.solver.add(game.solver)
        if progress is not None:
            progress(number)
    return result


@dataclass(frozen=True)
class GameJob:
    """One game of a run: all a worker needs to play it (it depends on nothing else)."""

    rules: str
    bots: tuple[str, ...]
    seed: int
    number: int
    time_limit: float
    options: dict[str, Any] | None
    house: tuple[tuple[str, object], ...] = ()  # house rules, as (name, value) pairs


@dataclass
class PlayedGame:
    """One game played: its log lines, and what its bots' hints cost."""

    lines: list[str]
    solver: SolverUse


class _LineLog:
    """Keeps each event as the line a log file would hold (so later changes cannot reach it)."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def write(self, event: Event) -> None:
        self.lines.append(dump_event(event))


def play_one_game(job: GameJob) -> PlayedGame:
    """Play game ``job.number`` of the run with seed ``job.seed``: what a worker runs."""
    game = new_game(job.rules, len(job.bots), job.options, dict(job.house))
    agents = [
        new_agent(job.rules, name, seeded_rng(job.seed, job.number, "bot", seat), job.time_limit)
        for seat, name in enumerate(job.bots)
    ]
    lines = _LineLog()
    play_game(game, agents, list(job.bots), seed=job.seed, number=job.number, log=lines)
    solver = SolverUse()
    for agent in agents:
        use = getattr(agent, "solver", None)
        if isinstance(use, SolverUse):
            solver.add(use)
    return PlayedGame(lines.lines, solver)
