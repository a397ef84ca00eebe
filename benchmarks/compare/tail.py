"""Real-game tail: every position the bots asked in simulated games, timed, by rule set.

Run from the repository root::

    python -m benchmarks tail --seeds 101,102,103 --games 2 --compare

For each shared-table rule set (Manipulation, 500, 300, killer) and each seed, ``meldsat simulate``
plays ``--games`` games between four bots (greedy-points, greedy-cards, knocker, hoarder) and
writes its log (kept in ``--logs`` when given, and read from there again when already present).
Every position a bot asked the engine about is rebuilt from the logs
(``benchmarks/common/game_positions.py``), each distinct one once, and solved by ``best_play``
for both objectives; a position's time is the slower objective's (the least CPU time of
``--repeats`` solves), every answer must be proven optimal and pass the rule checker. The report
gives, per rule set, the median, the 99th percentile and the largest of those times (target: the
largest at most 50 ms) and the slowest positions. With ``--compare`` each position is also solved
the way ``best_play`` solved every position before the small-hand split
(``meldsat.engine.small_hands``): one model of the whole position, in the same run, one after
the other, so the machine's load falls on both alike; both answers must have the same value and
keep as many original melds.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from benchmarks.common.environment import load_average, source_state
from benchmarks.common.game_positions import LoggedPosition, positions_of_log
from benchmarks.common.units import command_line, least_cpu, ms, percentile, program, publish
from benchmarks.common.verdicts import meldsat_problem
from meldsat.engine.model import RearrangementModel
from meldsat.engine.search import DEFAULT_TIME_LIMIT, best_play, play_from_outcome
from meldsat.notation import format_table
from meldsat.play import Objective, Play
from meldsat.position import Position

COMMAND = program("tail")
RULE_SETS = ("manipulation", "rummy500", "rummy300", "rummy500-killer")
BOTS = "greedy-points,greedy-cards,knocker,hoarder"
OBJECTIVES = (Objective.POINTS, Objective.CARDS)
TARGET_MAX = 0.050  # seconds


def one_model(position: Position, objective: Objective) -> Play:
    """``best_play`` as it was before the small-hand split: one model of the whole position."""
    model = RearrangementModel(position, objective)
    return play_from_outcome(position, objective, model, model.solve(DEFAULT_TIME_LIMIT))


@dataclass
class Timed:
    """One position's times (the slower objective) by engine, and any problem with its answers."""

    logged: LoggedPosition
    seconds: dict[str, float] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def time_position(
    logged: LoggedPosition, engines: dict[str, Callable[[Position, Objective], Play]], repeats: int
) -> Timed:
    """Solve ``logged`` with every engine for both objectives; check and compare the answers."""
    timed = Timed(logged)
    for objective in OBJECTIVES:
        answers: dict[str, Play] = {}
        for name, engine in engines.items():
            seconds, play = least_cpu(partial(engine, logged.position, objective), repeats)
            timed.seconds[name] = max(timed.seconds.get(name, 0.0), seconds)
            answers[name] = play
            problem = meldsat_problem(logged.position, play)
            if problem:
                timed.problems.append(f"{name} {objective.value}: {problem}")
        ranked = {
            name: _ranking(logged.position, play, objective) for name, play in answers.items()
        }
        if len(set(ranked.values())) > 1:
            timed.problems.append(f"{objective.value}: the engines' answers rank apart: {ranked}")
    return timed


def _ranking(position: Position, play: Play, objective: Objective) -> tuple[int, int]:
    """What the objective ranks: its value (points or cards, not both: two plays of the same
    points may play different numbers of cards), then the original melds left showing the same
    cards (a meld split in two is one original meld changed, not two)."""
    value = play.points_played if objective is Objective.POINTS else play.cards_played
    before = Counter(_shown(meld) for meld in position.table)
    after = Counter(_shown(meld) for meld in play.table)
    return value, sum((before & after).values())


def _shown(meld: Sequence[object]) -> tuple[str, ...]:
    return tuple(sorted(str(piece) for piece in meld))


def simulate_logs(
    rules: Sequence[str], seeds: Sequence[int], games: int, folder: Path
) -> list[Path]:
    """The game log of every rule set and seed in ``folder``, played by ``meldsat simulate``
    unless it is there already."""
    paths = []
    for name in rules:
        for seed in seeds:
            path = folder / f"{name}-seed{seed}-games{games}.jsonl"
            if not path.exists():
                partial_path = path.with_suffix(".partial")
                subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "meldsat",
                        "simulate",
                        "--rules",
                        name,
                        "--seed",
                        str(seed),
                        "--games",
                        str(games),
                        "--bots",
                        BOTS,
                        "--log",
                        str(partial_path),
                    ],
                    check=True,
                    stdout=subprocess.DEVNULL,
                )
                partial_path.replace(path)
            paths.append(path)
    return paths


def report(timed: list[Timed], engines: Sequence[str], slowest: int) -> list[str]:
    """The Markdown tables: per rule set and engine the median, p99 and max, then the slowest."""
    out = [
        "| rule set | positions | engine | median ms | p99 ms | max ms | max <= 50 ms |",
        "|---|---:|---|---:|---:|---:|---|",
    ]
    by_rules: dict[str, list[Timed]] = {}
    for item in timed:
        by_rules.setdefault(item.logged.rules, []).append(item)
    for rules, items in by_rules.items():
        for name in engines:
            times = [item.seconds[name] for item in items]
            out.append(
                f"| {rules} | {len(items)} | {name} | {ms(percentile(times, 50))} "
                f"| {ms(percentile(times, 99))} | {ms(max(times))} "
                f"| {'yes' if max(times) <= TARGET_MAX else 'no'} |"
            )
    out += ["", f"The {slowest} slowest positions ({engines[0]}):", ""]
    out += [
        f"| {' ms | '.join(engines)} ms | rule set | hand | table | from |",
        "|" + "---:|" * len(engines) + "---|---|---|---|",
    ]
    for item in sorted(timed, key=lambda item: -item.seconds[engines[0]])[:slowest]:
        position = item.logged.position
        row = " | ".join(ms(item.seconds[name]) for name in engines)
        out.append(
            f"| {row} | {item.logged.rules} | {format_table([position.hand])} "
            f"| {format_table(position.table)} | {item.logged.source} |"
        )
    return out


def main(argv: Sequence[str]) -> int:
    """Simulate, rebuild, time every position; print the Markdown report (exit 1 on a problem)."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1,2,3", help="comma-separated simulation seeds")
    parser.add_argument("--games", type=int, default=2, help="games per rule set and seed")
    parser.add_argument("--rules", default=",".join(RULE_SETS), help="comma-separated rule sets")
    parser.add_argument("--logs", type=Path, help="folder keeping the game logs (default: temp)")
    parser.add_argument("--repeats", type=int, default=1, help="solves per position, least counts")
    parser.add_argument("--compare", action="store_true", help="also time the one-model engine")
    parser.add_argument("--slowest", type=int, default=10, help="slowest positions listed")
    parser.add_argument("--markdown", type=Path, help="also write the report here")
    args = parser.parse_args(argv)
    seeds = [int(seed) for seed in args.seeds.split(",") if seed]
    rules = [name for name in args.rules.split(",") if name]
    engines: dict[str, Callable[[Position, Objective], Play]] = {"best_play": best_play}
    if args.compare:
        engines["one model"] = one_model
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.logs or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        logs = simulate_logs(rules, seeds, args.games, folder)
        positions: list[LoggedPosition] = []
        seen: set[str] = set()
        for path in logs:
            for logged in positions_of_log(path):
                key = repr(sorted(logged.fields.items()))
                if key not in seen:
                    seen.add(key)
                    positions.append(logged)
    best_play(positions[0].position)  # untimed: imports and CP-SAT's first start
    timed = [time_position(logged, engines, args.repeats) for logged in positions]
    problems = [f"{item.logged.source}: {problem}" for item in timed for problem in item.problems]
    out = [
        f"Command: `{command_line(COMMAND, argv)}`",
        "",
        f"Source {source_state()}; load average {load_average()} at the end; CPU time, the "
        "slower objective of each position.",
        "",
        *report(timed, list(engines), args.slowest),
        "",
        f"Problems: {len(problems)}",
        *problems[:20],
    ]
    publish("\n".join(out), args.markdown)
    return 1 if problems else 0
