"""What ``meldsat puzzle solve`` and ``grade`` report for each puzzle, as text and as JSON.

Every solution shown has been re-checked by the rule checker (``verify``); a disagreement between
the CP-SAT model and the checker is an error, never a silent answer.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from meldsat.notation import Table, format_table
from meldsat.puzzles.canonical import canonical_form
from meldsat.puzzles.grade import GradingTimeoutError, grade_puzzle, level_of
from meldsat.puzzles.puzzle import Grade, Puzzle
from meldsat.puzzles.solve import DEFAULT_TIME_LIMIT, SolveReport, Verdict, solve_puzzle
from meldsat.puzzles.verify import answer_problems

_EXIT = {Verdict.UNIQUE: 0, Verdict.NONE: 1, Verdict.SEVERAL: 1, Verdict.UNKNOWN: 3}


class CheckerDisagreesError(RuntimeError):
    """The model's solution fails the rule checker: a bug, reported loudly."""


@dataclass(frozen=True)
class SolveResult:
    """One puzzle's verdict, its solution arranged for a person, and the steps to it."""

    puzzle: Puzzle
    verdict: Verdict
    solution: Table | None
    other: Table | None
    steps: tuple[str, ...]
    stated_matches: bool | None  # does the file's own solution agree (None: it gives none)

    @property
    def exit_code(self) -> int:
        """0 unique (and agreeing with the file), 1 none / several / disagreeing, 3 unknown."""
        if self.stated_matches is False:
            return 1
        return _EXIT[self.verdict]

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON object."""
        notation = self.puzzle.rules.notation

        def table(melds: Table | None) -> list[list[str]] | None:
            if melds is None:
                return None
            return [[piece.text(notation) for piece in meld] for meld in melds]

        return {
            "verdict": self.verdict.value,
            "solution": table(self.solution),
            "other_solution": table(self.other),
            "moves": len(self.steps),
            "steps": list(self.steps),
            "matches_file": self.stated_matches,
        }

    def text(self, number: int) -> str:
        """The human report of puzzle ``number``."""
        notation = self.puzzle.rules.notation
        lines = [f"puzzle {number}: {_VERDICT_TEXT[self.verdict]}"]
        for title, melds in (("solution:", self.solution), ("another solution:", self.other)):
            if melds is not None:
                lines.append(title)
                lines.extend(
                    f"  {i:>2}. {format_table([meld], notation)}"
                    for i, meld in enumerate(melds, start=1)
                )
        if self.steps:
            lines.append(f"steps ({len(self.steps)} moves):")
            lines.extend(f"  {i:>2}. {step}" for i, step in enumerate(self.steps, start=1))
        if self.stated_matches is False:
            lines.append("the solution in the file is not this one")
        return "\n".join(lines) + "\n"


_VERDICT_TEXT = {
    Verdict.UNIQUE: "unique solution (proven)",
    Verdict.NONE: "no solution (proven): the goal cannot be reached",
    Verdict.SEVERAL: "several solutions: two different final tables reach the goal",
    Verdict.UNKNOWN: "unknown: the time limit ran out before a proof",
}


def _checked(puzzle: Puzzle, table: Table) -> None:
    bare = replace(puzzle, solution=None)
    problems = answer_problems(bare, table)
    if problems:
        raise CheckerDisagreesError(f"the rule checker rejects the model's solution: {problems}")


def solve_one(puzzle: Puzzle, time_limit: float = DEFAULT_TIME_LIMIT) -> SolveResult:
    """Solve, prove, re-check, and (when unique) arrange the solution with its steps."""
    report: SolveReport = solve_puzzle(puzzle, time_limit)
    for table in (report.solution, report.other):
        if table is not None:
            _checked(puzzle, table)
    solution = report.solution
    steps: tuple[str, ...] = ()
    if report.verdict is Verdict.UNIQUE and report.solution is not None:
        try:
            graded = grade_puzzle(replace(puzzle, solution=report.solution), time_limit)
        except GradingTimeoutError:
            graded = None  # unique, proven; only the arrangement and its steps are missing
        if graded is not None:
            _checked(puzzle, graded.solution)
            solution = graded.solution
            steps = tuple(step.text for step in graded.plan.steps)
    stated = None
    if puzzle.solution is not None and solution is not None:
        rules = puzzle.rules
        stated = report.verdict is Verdict.UNIQUE and canonical_form(
            puzzle.solution, rules
        ) == canonical_form(solution, rules)
    return SolveResult(puzzle, report.verdict, solution, report.other, steps, stated)


def solve_reports(
    puzzles: list[Puzzle], time_limit: float = DEFAULT_TIME_LIMIT
) -> list[SolveResult]:
    """``solve_one`` for every puzzle."""
    return [solve_one(puzzle, time_limit) for puzzle in puzzles]


def solved_copy(puzzle: Puzzle, time_limit: float = DEFAULT_TIME_LIMIT) -> Puzzle:
    """The puzzle with its solution filled in when it has none and the solution is unique."""
    if puzzle.solution is not None:
        return puzzle
    report = solve_puzzle(puzzle, time_limit)
    if report.verdict is Verdict.UNIQUE:
        return replace(puzzle, solution=report.solution)
    return puzzle


@dataclass(frozen=True)
class GradeResult:
    """One puzzle's grade and level, and whether they match what the file states."""

    verdict: Verdict
    grade: Grade | None
    level: str | None
    stated_level: str | None
    stated_grade: Grade | None

    @property
    def confirmed(self) -> bool:
        """True when the puzzle is unique and its stated level and grade (if any) hold."""
        if self.verdict is not Verdict.UNIQUE:
            return False
        level_ok = self.stated_level is None or self.stated_level == self.level
        grade_ok = self.stated_grade is None or self.stated_grade == self.grade
        return level_ok and grade_ok

    @property
    def exit_code(self) -> int:
        """0 confirmed, 3 no proof in time, 1 otherwise."""
        if self.verdict is Verdict.UNKNOWN:
            return 3
        return 0 if self.confirmed else 1

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON object."""
        return {
            "verdict": self.verdict.value,
            "level": self.level,
            "grade": None if self.grade is None else self.grade.to_json(),
            "stated_level": self.stated_level,
            "confirmed": self.confirmed,
        }

    def text(self, number: int) -> str:
        """The human report of puzzle ``number``."""
        if self.grade is None:
            return f"puzzle {number}: {_VERDICT_TEXT[self.verdict]}: not graded\n"
        mark = "confirmed" if self.confirmed else "NOT confirmed"
        stated = f" (file says {self.stated_level})" if self.stated_level else ""
        return f"puzzle {number}: {self.level}{stated}, {mark}\n  {self.grade.text()}\n"


def grade_one(puzzle: Puzzle, time_limit: float = DEFAULT_TIME_LIMIT) -> GradeResult:
    """Prove uniqueness, then grade; a puzzle that is not unique gets no grade."""
    report = solve_puzzle(puzzle, time_limit)
    if report.verdict is not Verdict.UNIQUE or report.solution is None:
        return GradeResult(report.verdict, None, None, puzzle.level, puzzle.grade)
    _checked(puzzle, report.solution)
    try:
        graded = grade_puzzle(replace(puzzle, solution=report.solution), time_limit)
    except GradingTimeoutError:
        return GradeResult(Verdict.UNKNOWN, None, None, puzzle.level, puzzle.grade)
    return GradeResult(
        report.verdict, graded.grade, level_of(graded.grade), puzzle.level, puzzle.grade
    )


def grade_reports(
    puzzles: list[Puzzle], time_limit: float = DEFAULT_TIME_LIMIT
) -> list[GradeResult]:
    """``grade_one`` for every puzzle."""
    return [grade_one(puzzle, time_limit) for puzzle in puzzles]
