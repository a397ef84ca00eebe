"""``meldsat puzzle``: generate, solve, grade and check table-rearrangement puzzles."""

from __future__ import annotations

import enum
import sys
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Protocol

import typer

from meldsat.answers.jsonform import to_json
from meldsat.cli.batchrun import BatchSettings, SchedulerOption, WorkersOption
from meldsat.cli.inputs import file_error, read_source
from meldsat.errors import MeldsatError
from meldsat.files import write_text_atomic
from meldsat.notation import Meld, format_table, parse_table
from meldsat.puzzles.puzzle import LEVELS, Puzzle, puzzles_json, puzzles_text, read_puzzles
from meldsat.rulesets import get_rules
from meldsat.schema import SCHEMA_VERSION

app = typer.Typer(
    help="Table-rearrangement puzzles with one proven solution.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)


class Format(enum.StrEnum):
    """Output formats."""

    TEXT = "text"
    JSON = "json"
    HTML = "html"


class ReportFormat(enum.StrEnum):
    """Output formats of the commands that report on puzzles."""

    TEXT = "text"
    JSON = "json"


SourceArgument = Annotated[str, typer.Argument(help="Puzzle file (text or JSON); - reads stdin.")]
ReportOption = Annotated[ReportFormat, typer.Option("--format", "-f", help="text or json.")]
JsonFlag = Annotated[bool, typer.Option("--json", help="The same as --format json.")]
TimeLimitOption = Annotated[
    float,
    typer.Option("--time-limit", min=0.000001, help="Seconds per CP-SAT solve (then exit 3)."),
]


@app.command("generate")
def generate_command(
    *,
    count: Annotated[int, typer.Option("--count", "-n", min=1, help="How many puzzles.")] = 1,
    level: Annotated[str, typer.Option("--level", "-l", help="easy, medium, hard or expert.")] = (
        "medium"
    ),
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed: same seed, same puzzles.")] = 1,
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    rules: Annotated[str, typer.Option("--rules", "-r", help="manipulation or rummikub.")] = (
        "manipulation"
    ),
    players: Annotated[int | None, typer.Option("--players", help="Players (sets decks).")] = None,
    output_format: Annotated[Format, typer.Option("--format", "-f", help="text, json or html.")] = (
        Format.TEXT
    ),
    output: Annotated[str | None, typer.Option("--output", "-o", help="Write to FILE.")] = None,
    json_output: JsonFlag = False,
    goal: Annotated[
        str,
        typer.Option(
            "--goal",
            help="all: play every hand card; points: reach the points of the one solution, with "
            "spare cards in the hand.",
        ),
    ] = "all",
) -> int:
    """Generate puzzles of a level, each proven unique and graded at that level."""
    from meldsat.puzzles.generate import generate_puzzles

    if level not in LEVELS:
        raise MeldsatError(f"unknown level '{level}' (choose from {', '.join(LEVELS)})")
    if rules.strip().lower() not in ("manipulation", "rummikub"):
        raise MeldsatError(f"puzzles use the rules manipulation or rummikub, not '{rules}'")
    rule_set = get_rules(rules, players)
    progress = _progress_bar(count) if sys.stderr.isatty() else None
    # Puzzle i depends only on (seed, i): any workers, or none, give the same bytes.
    processes, address = BatchSettings(workers, scheduler).where()
    puzzles = generate_puzzles(
        rule_set,
        level,
        count,
        seed,
        goal=goal.strip().lower(),
        progress=progress,
        workers=processes,
        scheduler=address,
    )
    if progress is not None:
        sys.stderr.write("\n")
    _emit(render_puzzles(puzzles, Format.JSON if json_output else output_format), output)
    return 0


def render_puzzles(puzzles: list[Puzzle], output_format: Format) -> str:
    """The puzzles in the chosen format, ending with a new line."""
    if output_format is Format.JSON:
        return to_json(puzzles_json(puzzles)) + "\n"
    if output_format is Format.HTML:
        from meldsat.puzzles.sheet import render_sheet

        return render_sheet(puzzles)
    return puzzles_text(puzzles)


def _progress_bar(total: int) -> Any:
    def show(done: int) -> None:
        filled = int(30 * done / total)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} puzzles")
        sys.stderr.flush()

    return show


def _emit(text: str, output: str | None) -> None:
    """Print, or write ``output`` atomically (a temporary file beside it, then a rename)."""
    if output is None:
        sys.stdout.write(text)
        return
    try:
        write_text_atomic(output, text)
    except (OSError, ValueError) as error:
        raise file_error("write", output, error) from None


@app.command("solve")
def solve_command(
    source: SourceArgument,
    *,
    output_format: ReportOption = ReportFormat.TEXT,
    time_limit: TimeLimitOption = 30.0,
    json_output: JsonFlag = False,
) -> int:
    """Solve each puzzle: unique (with the solution and its steps), none, or several."""
    from meldsat.puzzles.report import solve_reports

    return _report_puzzles(solve_reports, source, output_format, time_limit, json_output)


@app.command("grade")
def grade_command(
    source: SourceArgument,
    *,
    output_format: ReportOption = ReportFormat.TEXT,
    time_limit: TimeLimitOption = 30.0,
    json_output: JsonFlag = False,
) -> int:
    """Grade each puzzle and confirm (or not) the level and grade it states."""
    from meldsat.puzzles.report import grade_reports

    return _report_puzzles(grade_reports, source, output_format, time_limit, json_output)


class _Report(Protocol):
    """What ``solve`` and ``grade`` report for one puzzle."""

    @property
    def exit_code(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...

    def text(self, number: int) -> str: ...


def _report_puzzles(
    make_reports: Callable[[list[Puzzle], float], Sequence[_Report]],
    source: str,
    output_format: ReportFormat,
    time_limit: float,
    json_output: bool,
) -> int:
    """What ``solve`` and ``grade`` share: read the puzzles, report on each, the worst exit code."""
    reports = make_reports(read_puzzles(read_source(source)), time_limit)
    return _print_reports(reports, ReportFormat.JSON if json_output else output_format)


def _print_reports(reports: Sequence[_Report], output_format: ReportFormat) -> int:
    """Print every report (one JSON object, or text per puzzle); the worst exit code."""
    if output_format is ReportFormat.JSON:
        print(to_json(reports_json(reports)))
    else:
        for number, report in enumerate(reports, start=1):
            sys.stdout.write(report.text(number))
    return max(report.exit_code for report in reports)


def reports_json(reports: Sequence[_Report]) -> dict[str, Any]:
    """The JSON answer of ``solve`` and ``grade``: ``{"schema_version", "results": [...]}``."""
    return {"schema_version": SCHEMA_VERSION, "results": [report.to_json() for report in reports]}


def answer_problems_of(
    puzzle: Puzzle, answer: str, time_limit: float
) -> tuple[Puzzle, list[Meld], list[str]]:
    """The puzzle with its solution (when unique), the answer's table, and every reason the answer
    is not the solution (none: it is)."""
    from meldsat.puzzles.report import solved_copy
    from meldsat.puzzles.verify import answer_problems

    solved = solved_copy(puzzle, time_limit)
    final = parse_table(answer, puzzle.rules.notation)
    return solved, final, answer_problems(solved, final)


def check_json(problems: list[str]) -> dict[str, Any]:
    """The JSON answer of ``check``: is it a solution, and every reason it is not, each
    ``{"code", "message"}`` as in ``meldsat check``."""
    reasons = []
    for problem in problems:
        # Every problem is written "code: message" (puzzles/verify.py); codes are one word in JSON.
        code, _, message = problem.partition(": ")
        reasons.append({"code": code.replace(" ", "_"), "message": message})
    return {"schema_version": SCHEMA_VERSION, "solution": not problems, "reasons": reasons}


@app.command("check")
def check_command(
    source: SourceArgument,
    *,
    answer: Annotated[str, typer.Option("--answer", "-a", help='Final table, "7H 8H 9H | ...".')],
    number: Annotated[int, typer.Option("--number", min=1, help="Which puzzle of the file.")] = 1,
    output_format: ReportOption = ReportFormat.TEXT,
    time_limit: TimeLimitOption = 30.0,
    json_output: JsonFlag = False,
) -> int:
    """Is ANSWER a solution of the puzzle? If not, every reason."""
    puzzles = read_puzzles(read_source(source))
    if number > len(puzzles):
        raise MeldsatError(f"no puzzle number '{number}': the file holds {len(puzzles)}")
    puzzle, final, problems = answer_problems_of(puzzles[number - 1], answer, time_limit)
    if json_output or output_format is ReportFormat.JSON:
        print(to_json(check_json(problems)))
    else:
        print("a solution" if not problems else f"not a solution ({len(problems)} reasons)")
        for problem in problems:
            print(f"  ✗ {problem}")
        if problems and puzzle.solution is not None:
            print(f"table given: {format_table(final, puzzle.rules.notation)}")
    return 0 if not problems else 1
