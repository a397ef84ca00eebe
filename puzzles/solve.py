"""Solve a puzzle and prove its solution unique, or find a second one, with CP-SAT.

The proof: solve the counting model, forbid the solution's canonical counts (see ``canonical``),
solve again. ``INFEASIBLE`` the second time means every final table that reaches the goal is the
same solution. Both answers are re-checked by the rule checker (``verify``) before they are shown.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from meldsat.notation import Table
from meldsat.puzzles.model import PuzzleModel
from meldsat.puzzles.puzzle import Puzzle

DEFAULT_TIME_LIMIT = 30.0


class Verdict(enum.Enum):
    """What the solver proved about a puzzle."""

    UNIQUE = "unique"
    NONE = "none"  # proven: the goal cannot be reached
    SEVERAL = "several"  # two different solutions were found
    UNKNOWN = "unknown"  # the time limit ran out before a proof


@dataclass(frozen=True)
class SolveReport:
    """The verdict with the solution found first and, for ``SEVERAL``, a different one."""

    verdict: Verdict
    solution: Table | None = None
    other: Table | None = None


def solve_puzzle(puzzle: Puzzle, time_limit: float = DEFAULT_TIME_LIMIT) -> SolveReport:
    """Find a solution of ``puzzle`` and prove it is the only one (two CP-SAT solves)."""
    model = PuzzleModel(puzzle.rules, puzzle.table, puzzle.hand, puzzle.goal)
    first = model.solve(time_limit=time_limit)
    if first.table is None or first.canonical is None:
        return SolveReport(Verdict.NONE if first.status == "INFEASIBLE" else Verdict.UNKNOWN)
    model.forbid(first.canonical)
    second = model.solve(time_limit=time_limit)
    if second.status == "INFEASIBLE":
        return SolveReport(Verdict.UNIQUE, first.table)
    if second.table is None:
        return SolveReport(Verdict.UNKNOWN, first.table)
    return SolveReport(Verdict.SEVERAL, first.table, second.table)
