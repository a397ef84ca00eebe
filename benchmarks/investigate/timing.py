"""A position timed as the worst-case investigations time it: ``best_play`` for both objectives,
the least CPU time of a few solves, every answer re-checked; and the line comment in which a
worst-case file keeps those times (``hunt-worst`` writes it, ``replay-worst`` and
``tiebreak-variants`` read it back)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import partial

from benchmarks.common.units import least_cpu
from benchmarks.common.verdicts import check_meldsat
from meldsat.engine.search import best_play
from meldsat.play import Objective, Status
from meldsat.position import Position

OBJECTIVES = (Objective.CARDS, Objective.POINTS)
TARGET_FLOOR = 0.050  # seconds: the target is max(10 x median, 50 ms)


@dataclass
class Timing:
    """CPU seconds per objective (least of the repeats) and any problem with the answers."""

    seconds: dict[Objective, float]
    problems: list[str] = field(default_factory=list)

    @property
    def worst(self) -> float:
        """The slower objective's time."""
        return max(self.seconds.values())

    def merge(self, other: Timing) -> Timing:
        """The least time of each objective over both timings, every problem of either."""
        least = {key: min(value, other.seconds[key]) for key, value in self.seconds.items()}
        return Timing(least, self.problems + other.problems)

    def comment(self, label: str) -> str:
        """The times as one line's comment; :func:`recorded` reads them back."""
        times = ", ".join(
            f"{objective.value} {self.seconds[objective] * 1000:.1f} ms" for objective in OBJECTIVES
        )
        return f"{label}: CPU {times}"


def time_position(position: Position, repeats: int = 1) -> Timing:
    """Solve both objectives ``repeats`` times; the least CPU time of each, answers checked."""
    seconds: dict[Objective, float] = {}
    problems: list[str] = []
    for objective in OBJECTIVES:
        seconds[objective], play = least_cpu(partial(best_play, position, objective), repeats)
        if play.status not in (Status.OPTIMAL, Status.NO_MOVE):
            problems.append(f"{objective.value}: not proven optimal ({play.status.value})")
        problem = check_meldsat(position, play)
        if problem:
            problems.append(f"{objective.value}: {problem}")
    return Timing(seconds, problems)


_RECORDED = re.compile(
    r"^(?P<label>[\w-]+): CPU cards (?P<cards>[\d.]+) ms, points (?P<points>[\d.]+) ms"
)


def recorded(comment: str) -> tuple[str, dict[Objective, float]] | None:
    """The rule-set label and the times (seconds) a hunter's comment states, if it is one."""
    match = _RECORDED.match(comment)
    if match is None:
        return None
    times = {objective: float(match[objective.value]) / 1000 for objective in OBJECTIVES}
    return match["label"], times
