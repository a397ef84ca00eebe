"""The answers of the puzzle commands and of the web API's puzzle routes, each with its JSON form.

``generate`` (with ``generate_request`` to check what is asked first, and ``generated_puzzles`` for
the puzzles one at a time), ``solve`` and ``grade`` (with ``solve_each`` and ``grade_each``, a
report at a time), and ``check``. Each takes the request's fields as values (puzzles already read,
the seconds each CP-SAT solve may take) and returns a typed answer: ``to_json()`` is the object of
``meldsat puzzle ... --format json`` and of the API (solver/schema/puzzle-*.schema.json), ``text()``
the command's text. Nothing here prints, reads files or knows about options; ``meldsat.cli.puzzle``
does that, and ``meldsat.web.answers`` turns a request body into these arguments.

The puzzle modules, and with them OR-Tools, are imported when an answer is first asked for.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from meldsat.errors import MeldsatError
from meldsat.games.registry import puzzle_rule_sets
from meldsat.notation import Meld, format_table, parse_table
from meldsat.puzzles.puzzle import LEVELS, Puzzle, puzzles_json, puzzles_text
from meldsat.rules import RuleSet
from meldsat.rulesets import get_rules
from meldsat.schema import SCHEMA_VERSION
from meldsat.wording import counted

if TYPE_CHECKING:
    from collections.abc import Callable

    from meldsat.puzzles.report import GradeResult, SolveResult

# --- generate -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GenerateRequest:
    """What ``generate`` is asked for, checked: the rule set, the level, how many, the seed and
    the goal kind (``all`` or ``points``; checked when the puzzles are made)."""

    rules: RuleSet
    level: str
    count: int
    seed: int
    goal: str = "all"


def generate_request(
    level: str,
    count: int,
    seed: int,
    *,
    rules: str = "manipulation",
    players: int | None = None,
    goal: str = "all",
) -> GenerateRequest:
    """The request for ``count`` puzzles of ``level`` from ``seed``; an unknown level, a rule set
    puzzles do not use or a player count it does not allow is an error."""
    if level not in LEVELS:
        raise MeldsatError(f"unknown level '{level}' (choose from {', '.join(LEVELS)})")
    allowed = puzzle_rule_sets()
    if rules.strip().lower() not in allowed:
        raise MeldsatError(f"puzzles use the rules {' or '.join(allowed)}, not '{rules}'")
    return GenerateRequest(get_rules(rules, players), level, count, seed, goal.strip().lower())


@dataclass(frozen=True)
class GeneratedPuzzles:
    """The answer of ``generate``: the puzzles, in the order of their numbers."""

    puzzles: tuple[Puzzle, ...]

    def to_json(self) -> dict[str, Any]:
        """The JSON document of the puzzles (solver/schema/puzzles.schema.json)."""
        return puzzles_json(self.puzzles)

    def text(self) -> str:
        """The text form, the puzzles separated by ``---`` lines."""
        return puzzles_text(self.puzzles)

    def html(self) -> str:
        """The printable sheet: the puzzles, then their solutions."""
        from meldsat.puzzles.sheet import render_sheet

        return render_sheet(self.puzzles)


def generated_puzzles(
    request: GenerateRequest,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    deadline: float | None = None,
) -> Iterator[Puzzle]:
    """The puzzles of ``request``, each as soon as it and those before it are made: here, on
    ``workers`` local processes or on the Dask cluster at ``scheduler``, the same puzzles.

    ``deadline`` (a ``time.monotonic()`` value; here only) ends the search with
    ``GenerationTimeoutError`` (code ``time_limit``) once passed, never with another puzzle.
    """
    from meldsat.puzzles.generate import puzzle_series

    return puzzle_series(
        request.rules,
        request.level,
        request.count,
        request.seed,
        goal=request.goal,
        workers=workers,
        scheduler=scheduler,
        deadline=deadline,
    )


def generate(
    request: GenerateRequest,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    deadline: float | None = None,
) -> GeneratedPuzzles:
    """Every puzzle of ``request`` (see :func:`generated_puzzles`, and its ``deadline``);
    ``progress`` is told how many are made after each one."""
    made: list[Puzzle] = []
    series = generated_puzzles(request, workers=workers, scheduler=scheduler, deadline=deadline)
    for puzzle in series:
        made.append(puzzle)
        if progress is not None:
            progress(len(made))
    return GeneratedPuzzles(tuple(made))


# --- solve and grade ------------------------------------------------------------------------------


class PuzzleReport(Protocol):
    """What ``solve`` and ``grade`` report for one puzzle (``meldsat.puzzles.report``)."""

    @property
    def exit_code(self) -> int:
        """The command's exit code for this puzzle."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON object."""
        ...

    def text(self, number: int) -> str:
        """The human report of puzzle ``number``."""
        ...


R = TypeVar("R", bound=PuzzleReport)


@dataclass(frozen=True)
class PuzzleReports(Generic[R]):
    """The answer of ``solve`` or ``grade``: one report per puzzle, in the puzzles' order."""

    reports: tuple[R, ...]

    @property
    def exit_code(self) -> int:
        """The worst of the reports' exit codes (0 when every puzzle is as it should be)."""
        return max(report.exit_code for report in self.reports)

    def to_json(self) -> dict[str, Any]:
        """``{"schema_version", "results": [...]}``, a result per puzzle."""
        results = [report.to_json() for report in self.reports]
        return {"schema_version": SCHEMA_VERSION, "results": results}

    def text(self) -> str:
        """Every puzzle's report, numbered from 1."""
        return "".join(report.text(n) for n, report in enumerate(self.reports, start=1))


def solve(puzzles: Sequence[Puzzle], time_limit: float) -> PuzzleReports[SolveResult]:
    """Each puzzle solved and its solution proven unique (or a second one found), re-checked by
    the rule checker, with the steps to it; ``time_limit`` seconds per CP-SAT solve."""
    from meldsat.puzzles import report

    return PuzzleReports(tuple(report.solve_reports(list(puzzles), time_limit)))


def solve_each(puzzles: Sequence[Puzzle], time_limit: float) -> Iterator[SolveResult]:
    """The reports of :func:`solve`, each as soon as its puzzle is solved."""
    from meldsat.puzzles import report

    return (report.solve_one(puzzle, time_limit) for puzzle in puzzles)


def grade(puzzles: Sequence[Puzzle], time_limit: float) -> PuzzleReports[GradeResult]:
    """Each puzzle proven unique, then graded, and its stated level and grade confirmed or not."""
    from meldsat.puzzles import report

    return PuzzleReports(tuple(report.grade_reports(list(puzzles), time_limit)))


def grade_each(puzzles: Sequence[Puzzle], time_limit: float) -> Iterator[GradeResult]:
    """The reports of :func:`grade`, each as soon as its puzzle is graded."""
    from meldsat.puzzles import report

    return (report.grade_one(puzzle, time_limit) for puzzle in puzzles)


# --- check ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckAnswer:
    """The answer of ``check``: the puzzle (with its solution, when it is unique), the table
    given, and every reason it is not the solution (none: it is)."""

    puzzle: Puzzle
    final: tuple[Meld, ...]
    problems: tuple[str, ...]

    @property
    def exit_code(self) -> int:
        """0 when the table given is the solution, else 1."""
        return 0 if not self.problems else 1

    def to_json(self) -> dict[str, Any]:
        """Is it a solution, and every reason it is not, each ``{"code", "message"}`` as in
        ``meldsat check``."""
        reasons = []
        for problem in self.problems:
            # Every problem is written "code: message" (puzzles/verify.py); codes are one word.
            code, _, message = problem.partition(": ")
            reasons.append({"code": code.replace(" ", "_"), "message": message})
        return {"schema_version": SCHEMA_VERSION, "solution": not self.problems, "reasons": reasons}

    def text(self) -> str:
        """The verdict, a line per reason, and (when there is a solution to compare with) the
        table given."""
        count = counted(len(self.problems), "reason")
        lines = ["a solution" if not self.problems else f"not a solution ({count})"]
        lines.extend(f"  ✗ {problem}" for problem in self.problems)
        if self.problems and self.puzzle.solution is not None:
            notation = self.puzzle.rules.notation
            lines.append(f"table given: {format_table(self.final, notation)}")
        return "\n".join(lines) + "\n"


def check(puzzle: Puzzle, answer: str, time_limit: float) -> CheckAnswer:
    """Is ``answer`` (a final table, ``"7H 8H 9H | ..."``) the solution of ``puzzle``? A puzzle
    without a solution is solved first (``time_limit`` seconds per CP-SAT solve)."""
    from meldsat.puzzles.report import solved_copy
    from meldsat.puzzles.verify import answer_problems

    solved = solved_copy(puzzle, time_limit)
    final = parse_table(answer, puzzle.rules.notation)
    return CheckAnswer(solved, tuple(final), tuple(answer_problems(solved, final)))


__all__ = [
    "CheckAnswer",
    "GenerateRequest",
    "GeneratedPuzzles",
    "PuzzleReport",
    "PuzzleReports",
    "check",
    "generate",
    "generate_request",
    "generated_puzzles",
    "grade",
    "grade_each",
    "solve",
    "solve_each",
]
