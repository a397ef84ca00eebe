"""Whole games per minute with four greedy-points bots, and the share of time spent in the solver.

Run from the repository root: ``python -m benchmarks games --games 20 --seed 1``. Each rule set
plays the same game numbers and seeds, one after the other in one process. Times are CPU times of
this process (``time.process_time``), since the machine the numbers were taken on was shared; the
solver's time is the CPU time inside ``meldsat.best_play`` (the bots' hints); the rest is the game
engine, the rule checker re-checking every turn, and the bots' own work.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from benchmarks.common.units import program
from meldsat.games.bots import make_bot
from meldsat.games.deck import seeded_rng
from meldsat.games.engine import play_game
from meldsat.games.log import NullLog
from meldsat.games.registry import new_game

COMMAND = program("games")
BOT = "greedy-points"


def bench(rules: str, games: int, seed: int, players: int, time_limit: float) -> dict[str, float]:
    """Play ``games`` games; return CPU seconds per game, solver share, turns and hints."""
    game_seconds: list[float] = []
    solver_seconds = 0.0
    turns = hints = unproven = 0
    wall_start = time.perf_counter()
    for number in range(1, games + 1):
        game = new_game(rules, players)
        bots = [
            make_bot(BOT, seeded_rng(seed, number, "bot", seat), time_limit)
            for seat in range(players)
        ]
        counter = _TurnCounter()
        start = time.process_time()
        play_game(game, bots, [BOT] * players, seed=seed, number=number, log=counter)
        game_seconds.append(time.process_time() - start)
        solver_seconds += sum(bot.solver.seconds for bot in bots)
        hints += sum(bot.solver.calls for bot in bots)
        unproven += sum(bot.solver.unproven for bot in bots)
        turns += counter.turns
    wall = time.perf_counter() - wall_start
    total = sum(game_seconds)
    return {
        "games": games,
        "cpu_median_s": statistics.median(game_seconds),
        "games_per_cpu_minute": 60 * games / total,
        "games_per_wall_minute": 60 * games / wall,
        "solver_share": solver_seconds / total,
        "turns_per_game": turns / games,
        "hints_per_game": hints / games,
        "ms_per_hint": 1000 * solver_seconds / hints if hints else 0.0,
        "unproven_hints": unproven,
    }


class _TurnCounter(NullLog):
    def __init__(self) -> None:
        self.turns = 0

    def write(self, event: dict[str, object]) -> None:
        if event["event"] == "turn":
            self.turns += 1


def main(argv: Sequence[str]) -> int:
    """Print one Markdown table row per rule set."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--time-limit", type=float, default=5.0)
    parser.add_argument("--rules", default="manipulation,rummy500")
    args = parser.parse_args(argv)
    print(
        "| rule set | games | median CPU s a game | games per CPU minute | games per wall minute "
        "| solver share of CPU | turns a game | hints a game | solver ms a hint "
        "| hints not proven optimal |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for rules in args.rules.split(","):
        row = bench(rules, args.games, args.seed, args.players, args.time_limit)
        print(
            f"| {rules} | {row['games']:.0f} | {row['cpu_median_s']:.2f} "
            f"| {row['games_per_cpu_minute']:.1f} | {row['games_per_wall_minute']:.1f} "
            f"| {100 * row['solver_share']:.0f} % | {row['turns_per_game']:.0f} "
            f"| {row['hints_per_game']:.0f} | {row['ms_per_hint']:.1f} "
            f"| {row['unproven_hints']:.0f} |",
            flush=True,
        )
    return 0
