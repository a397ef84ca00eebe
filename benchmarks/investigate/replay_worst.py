"""Time the positions of a worst-case file again: how the engine does on them now.

Run from the repository root::

    python -m benchmarks replay-worst benchmarks/worst-positions.jsonl --repeats 3

Each line of the file is a position (as ``python -m benchmarks hunt-worst --out`` writes it) whose
``comment`` holds the CPU times measured when it was found (``rummy500: CPU cards 116.5 ms,
points 64.9 ms``). Every position is solved for both objectives ``--repeats`` times (the least CPU
time counts), every answer is re-checked by the rule checker and must be proven; the report puts
the recorded and the new times side by side (ratio below 1: faster now) and gives, per rule set,
the slowest time now against the target ``max(10 x median, 50 ms)`` when ``--median`` states the
medians of random positions (``rummikub=4.8,rummy500=18.0``, in ms). On a file of random
positions (``python -m benchmarks hunt-worst --sample N --out FILE``) the per-rule-set table also
gives the median and the 90th percentile of the positions' times (each the slower of the two
objectives).
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Sequence
from pathlib import Path

from benchmarks.common.units import command_line, ms, percentile, program
from benchmarks.investigate.timing import OBJECTIVES, TARGET_FLOOR, recorded, time_position
from meldsat.engine.search import best_play
from meldsat.position import load_position

COMMAND = program("replay-worst")


def main(argv: Sequence[str]) -> int:
    """Time every position of the file again; print the Markdown report."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path, help="JSONL positions, e.g. worst-positions.jsonl")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--median", default="", help="label=ms,... medians of random positions")
    args = parser.parse_args(argv)
    medians = {
        label: float(value) / 1000
        for label, _, value in (item.partition("=") for item in args.median.split(",") if item)
    }
    lines = [line for line in args.file.read_text(encoding="utf-8").splitlines() if line.strip()]
    out = [
        f"Command: `{command_line(COMMAND, argv)}`",
        "",
        "| id | recorded cards / points ms | now cards / points ms | now / recorded (slower) "
        "| answers |",
        "|---|---:|---:|---:|---|",
    ]
    slowest: dict[str, float] = {}
    times: dict[str, list[float]] = {}
    problems = 0
    warmed = False
    for number, line in enumerate(lines, start=1):
        data = json.loads(line)
        position = load_position(data)
        if not warmed:
            best_play(position)  # imports and lazy set-up, untimed
            warmed = True
        then = recorded(str(data.get("comment", "")))
        label = then[0] if then else position.rules.name
        timing = time_position(position, args.repeats)
        slowest[label] = max(slowest.get(label, 0.0), timing.worst)
        times.setdefault(label, []).append(timing.worst)
        problems += len(timing.problems)
        now_text = " / ".join(ms(timing.seconds[objective]) for objective in OBJECTIVES)
        if then:
            then_text = " / ".join(ms(then[1][objective]) for objective in OBJECTIVES)
            ratio = f"{timing.worst / max(then[1].values()):.2f}"
        else:
            then_text, ratio = "—", "—"
        answers = "checked, proven" if not timing.problems else "; ".join(timing.problems)
        ident = data.get("id", f"line {number}")
        out.append(f"| {ident} | {then_text} | {now_text} | {ratio} | {answers} |")
    out += [
        "",
        "| rule set | positions | median of these ms | p90 of these ms | slowest now ms "
        "| median ms | target ms | met |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for label, worst in slowest.items():
        these = times[label]
        spread = f"{len(these)} | {ms(statistics.median(these))} | {ms(percentile(these, 90))}"
        median = medians.get(label)
        if median is None:
            out.append(f"| {label} | {spread} | {ms(worst)} | — | — | — |")
            continue
        target = max(10 * median, TARGET_FLOOR)
        met = "yes" if worst <= target else "no"
        out.append(f"| {label} | {spread} | {ms(worst)} | {ms(median)} | {ms(target)} | {met} |")
    print("\n".join(out))
    return 1 if problems else 0
