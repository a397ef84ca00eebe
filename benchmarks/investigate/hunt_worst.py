"""Hunt the positions on which meldsat's engine is slowest, rule set by rule set.

Run from the repository root (meldsat alone, no peer needed)::

    python -m benchmarks hunt-worst --minutes 3 --seed 1 --out benchmarks/worst-positions.jsonl

For each rule set (``--rules``; Manipulation for 2 and for 4 players, Rummikub, 500 rummy and its
300 and killer variants) the hunt spends its budget in two parts:

1. random positions (``--random-share`` of the budget): table size, hand size, share of groups
   among the table melds, how closely the hand fits the table and the jokers on the table and in
   the hand all drawn at random (``benchmarks.positions.build_position``);
2. a hill climb from the slowest of them: a random step (swap a hand card, move a joker, add a
   meld: ``benchmarks/investigate/mutations.py``) is kept when the new position is slower.

A position's time is the CPU time (``time.process_time``; the machine is shared) of
``best_play`` for the slower of the two objectives, cards and points, each the least of
``--repeats`` solves. Every answer is re-checked by the rule checker (``meldsat.moves.check_move``)
and must be proven optimal (or proven to have no move). The report gives, per rule set, the median
time of the random positions, the target ``max(10 x median, 50 ms)`` and the slowest positions
found; ``--out`` writes them as JSONL positions (loadable by ``meldsat hint --jsonl``) with the
measured times in each line's ``comment``, and ``python -m benchmarks replay-worst`` times them
again.

The random positions depend only on the seed, but the climb follows measured times, so two runs
of the same command may climb to different positions; the file keeps what one run found.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.common.units import command_line, ms, percentile, program, publish
from benchmarks.investigate.mutations import mutate
from benchmarks.investigate.timing import TARGET_FLOOR, Timing, time_position
from benchmarks.positions import Shape, build_position, position_record
from meldsat.engine.search import best_play
from meldsat.files import write_text_atomic
from meldsat.play import Objective
from meldsat.position import Position
from meldsat.rules import RuleSet
from meldsat.rulesets import get_rules

COMMAND = program("hunt-worst")
# Gin's table cannot be rearranged (the hand alone melds), so its model is small and fixed: left
# out by default, as its times hardly depend on the position.
HUNTED = ("manipulation-2", "manipulation-4", "rummikub", "rummy500", "rummy300", "rummy500-killer")
HAND_MAX = 25
TABLE_MAX = 100
CLIMBERS = 4


def rules_for(label: str) -> RuleSet:
    """The rule set of a label: a preset name, with ``-N`` for N players (``manipulation-2``)."""
    name, _, players = label.rpartition("-")
    if players.isdigit() and name:
        return get_rules(name, int(players))
    return get_rules(label)


def random_shape(rules: RuleSet, rng: random.Random) -> Shape:
    """Sizes, jokers, share of groups and relatedness of the hand, all at random."""
    total = 52 * rules.decks + rules.jokers
    hand = rng.randint(3, HAND_MAX)
    table = rng.randint(rules.run_min, min(TABLE_MAX, total - hand))
    hand_jokers = rng.randint(0, min(rules.jokers, hand))
    table_jokers = rng.randint(0, rules.jokers - hand_jokers)
    return Shape(
        table_size=table,
        hand_size=hand,
        table_jokers=table_jokers,
        hand_jokers=hand_jokers,
        group_share=rng.random(),
        related=rng.random(),
    )


def random_position(rules: RuleSet, rng: random.Random) -> Position:
    """A random position of ``rules`` (a new shape is drawn when the decks cannot hold one)."""
    while True:
        try:
            return build_position(rules, rng, random_shape(rules, rng))
        except (RuntimeError, ValueError):
            continue


@dataclass
class Found:
    """A position, its timing, and where it came from: random position ``start`` after ``steps``
    kept steps of the climb."""

    position: Position
    timing: Timing
    start: int
    steps: int = 0

    @property
    def origin(self) -> str:
        return f"random {self.start}" + (f" + {self.steps} climb steps" if self.steps else "")


@dataclass
class Hunt:
    """What the hunt of one rule set found."""

    label: str
    random_times: list[float] = field(default_factory=list)
    found: list[Found] = field(default_factory=list)
    steps: int = 0
    climbs: int = 0

    @property
    def median(self) -> float:
        return statistics.median(self.random_times)

    @property
    def target(self) -> float:
        return max(10 * self.median, TARGET_FLOOR)

    def slowest(self, count: int, per_start: int = 2) -> list[Found]:
        """The ``count`` slowest, at most ``per_start`` from one climb, so that they differ."""
        chosen: list[Found] = []
        starts: Counter[int] = Counter()
        for item in sorted(self.found, key=lambda item: -item.timing.worst):
            if len(chosen) < count and starts[item.start] < per_start:
                chosen.append(item)
                starts[item.start] += 1
        return chosen

    def problems(self) -> list[str]:
        return [problem for item in self.found for problem in item.timing.problems]


def retimed(found: Found, repeats: int) -> Found:
    """The same position with its times the least over ``repeats`` more solves."""
    timing = found.timing.merge(time_position(found.position, repeats))
    return Found(found.position, timing, found.start, found.steps)


def hunt(label: str, seconds: float, seed: int, random_share: float, repeats: int) -> Hunt:
    """Random positions for ``random_share`` of ``seconds``, then a hill climb from the slowest."""
    rules = rules_for(label)
    rng = random.Random(f"meldsat-hunt/{label}/{seed}")
    result = Hunt(label)
    start = time.perf_counter()
    random_until = start + seconds * random_share
    number = 0
    while time.perf_counter() < random_until or number < CLIMBERS:
        position = random_position(rules, rng)
        timing = time_position(position)
        result.random_times.append(timing.worst)
        result.found.append(Found(position, timing, number))
        number += 1
    climbers = [retimed(item, repeats) for item in result.slowest(CLIMBERS)]
    turn = 0
    while time.perf_counter() < start + seconds:
        climber = climbers[turn % len(climbers)]
        turn += 1
        candidate = mutate(climber.position, rng)
        if candidate is None:
            continue
        result.steps += 1
        timing = time_position(candidate)
        if timing.worst > climber.timing.worst:
            # Confirm a gain with more solves before keeping it: single times are noisy.
            timing = timing.merge(time_position(candidate, repeats))
        found = Found(candidate, timing, climber.start, climber.steps + 1)
        result.found.append(found)
        if timing.worst > climber.timing.worst:
            climbers[(turn - 1) % len(climbers)] = found
            result.climbs += 1
    return result


def report(hunts: Sequence[Hunt], shown: Sequence[Sequence[Found]], minutes: float) -> str:
    """A Markdown summary per rule set, then the slowest positions of each."""
    out = [
        f"Budget: {minutes:g} min a rule set. Times are CPU ms of `best_play`, the slower of the "
        "objectives cards and points.",
        "",
        "| rule set | random positions | median | p90 | target max(10 x median, 50 ms) "
        "| slowest found | slowest / median | climb steps (kept) | answers |",
        "|---|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for item, slowest in zip(hunts, shown, strict=True):
        ordered = sorted(item.random_times)
        p90 = percentile(ordered, 90)
        worst = slowest[0].timing.worst
        verdict = "all checked legal and optimal" if not item.problems() else "PROBLEMS"
        out.append(
            f"| {item.label} | {len(ordered)} | {ms(item.median)} | {ms(p90)} "
            f"| {ms(item.target)} | {ms(worst)} | {worst / item.median:.1f} "
            f"| {item.steps} ({item.climbs}) | {verdict} |"
        )
    for item, slowest in zip(hunts, shown, strict=True):
        out += ["", f"#### {item.label}: slowest positions", ""]
        for found in slowest:
            timing = found.timing
            table = sum(len(meld) for meld in found.position.table)
            out.append(
                f"- {ms(timing.seconds[Objective.CARDS])} / "
                f"{ms(timing.seconds[Objective.POINTS])} ms (cards / points), table "
                f"{table} in {len(found.position.table)} melds, hand {len(found.position.hand)}"
                f" ({found.origin})"
            )
        for problem in item.problems():
            out.append(f"- PROBLEM: {problem}")
    return "\n".join(out) + "\n"


def worst_lines(hunts: Sequence[Hunt], shown: Sequence[Sequence[Found]], seed: int) -> list[str]:
    """The slowest positions as JSONL lines, their times in the comment."""
    lines = []
    for item, slowest in zip(hunts, shown, strict=True):
        for rank, found in enumerate(slowest):
            record = position_record(f"hunt-{item.label}-{seed}-{rank}", found.position)
            record["comment"] = found.timing.comment(item.label)
            lines.append(json.dumps(record))
    return lines


def sample_lines(labels: Sequence[str], count: int, seed: int) -> list[str]:
    """The first ``count`` random positions of each rule set, as the hunt draws them (untimed)."""
    lines = []
    for label in labels:
        rng = random.Random(f"meldsat-hunt/{label}/{seed}")
        for number in range(count):
            position = random_position(rules_for(label), rng)
            lines.append(json.dumps(position_record(f"random-{label}-{seed}-{number}", position)))
    return lines


def main(argv: Sequence[str]) -> int:
    """Hunt every rule set in turn; print the report, write the slowest positions."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default=",".join(HUNTED), help="rule sets (name or name-N)")
    parser.add_argument("--minutes", type=float, default=3.0, help="budget a rule set")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--random-share", type=float, default=0.4, help="of the budget")
    parser.add_argument("--repeats", type=int, default=3, help="solves to confirm a time")
    parser.add_argument("--top", type=int, default=5, help="slowest positions kept a rule set")
    parser.add_argument("--out", type=Path, default=None, help="write the slowest as JSONL")
    parser.add_argument("--report", type=Path, default=None, help="also write the report here")
    parser.add_argument(
        "--sample", type=int, default=0, help="only write the first N random positions a rule set"
    )
    args = parser.parse_args(argv)
    labels = [label.strip() for label in args.rules.split(",") if label.strip()]
    for label in labels:
        rules_for(label)  # a bad name fails before any time is spent
    if args.sample:
        lines = sample_lines(labels, args.sample, args.seed)
        text = "".join(line + "\n" for line in lines)
        if args.out:
            write_text_atomic(args.out, text)
        else:
            sys.stdout.write(text)
        return 0
    best_play(random_position(get_rules("rummikub"), random.Random(0)))  # warm-up, untimed
    hunts: list[Hunt] = []
    shown: list[list[Found]] = []
    for label in labels:
        item = hunt(label, args.minutes * 60, args.seed, args.random_share, args.repeats)
        hunts.append(item)
        # The slowest again, each re-timed, so that one lucky slow solve does not rank first.
        slowest = [retimed(found, args.repeats) for found in item.slowest(args.top)]
        shown.append(sorted(slowest, key=lambda found: -found.timing.worst))
        print(
            f"[hunt] {label}: {len(item.random_times)} random, {item.steps} steps",
            file=sys.stderr,
            flush=True,
        )
    command = command_line(COMMAND, argv)
    text = f"Command: `{command}`\n\n" + report(hunts, shown, args.minutes)
    publish(text, args.report)
    if args.out:
        write_text_atomic(
            args.out, "".join(line + "\n" for line in worst_lines(hunts, shown, args.seed))
        )
    return 1 if any(item.problems() for item in hunts) else 0
