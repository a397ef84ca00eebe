"""``meldsat puzzle``: generate, solve, grade and check table-rearrangement puzzles.

The answers are ``meldsat.answers.puzzles``'; this module reads the options and the puzzle file
and prints. Text on stdout is written a puzzle (or a report) at a time, as soon as it is known, so
a Ctrl-C keeps every whole one written before it; JSON, the HTML sheet and ``-o FILE`` are written
whole at the end. A Ctrl-C stops a solve at once (``meldsat.engine.solving``) and never cuts a
record in two.
"""

from __future__ import annotations

import contextlib
import enum
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Annotated, Any

import typer

from meldsat.answers.jsonform import to_json
from meldsat.answers.puzzles import (
    GeneratedPuzzles,
    PuzzleReport,
    PuzzleReports,
    check,
    generate,
    generate_request,
    generated_puzzles,
    grade,
    grade_each,
    solve,
    solve_each,
)
from meldsat.cli.batchrun import BatchSettings, SchedulerOption, WorkersOption
from meldsat.cli.inputs import file_error, finite_seconds, read_source
from meldsat.cli.interrupts import InterruptGuard
from meldsat.errors import MeldsatError
from meldsat.files import check_output_path, write_text_atomic
from meldsat.games.registry import puzzle_rule_sets
from meldsat.puzzles.puzzle import Puzzle, puzzle_texts, read_puzzles

# The rule sets with puzzles, as the families registry lists them.
PUZZLE_RULES_HELP = f"{' or '.join(puzzle_rule_sets())}."

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
    typer.Option(
        "--time-limit",
        min=0.000001,
        callback=finite_seconds,
        help="Seconds per CP-SAT solve (then exit 3).",
    ),
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
    rules: Annotated[
        str, typer.Option("--rules", "-r", help=f"{' or '.join(puzzle_rule_sets())}.")
    ] = ("manipulation"),
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
    if output is not None:
        check_output_path(output)  # before any puzzle is made
    request = generate_request(level, count, seed, rules=rules, players=players, goal=goal)
    chosen = Format.JSON if json_output else output_format
    progress = _progress_bar(count) if sys.stderr.isatty() else None
    # Puzzle i depends only on (seed, i): any workers, or none, give the same bytes.
    processes, address = BatchSettings(workers, scheduler).where()
    with _interruptible() as guard:
        try:
            if output is None and chosen is Format.TEXT:
                made = generated_puzzles(request, workers=processes, scheduler=address)
                _stream(puzzle_texts(_counted(made, progress)), guard)
            else:
                answer = generate(request, workers=processes, scheduler=address, progress=progress)
                with guard.deferred():
                    _emit(render_puzzles(answer, chosen), output)
        except KeyboardInterrupt:
            if progress is not None:
                sys.stderr.write("\n")  # the error line below the bar, not after it
            raise
    if progress is not None:
        sys.stderr.write("\n")
    return 0


def render_puzzles(answer: GeneratedPuzzles, output_format: Format) -> str:
    """The puzzles in the chosen format, ending with a new line."""
    if output_format is Format.JSON:
        return to_json(answer.to_json()) + "\n"
    if output_format is Format.HTML:
        return answer.html()
    return answer.text()


def _progress_bar(total: int) -> Any:
    def show(done: int) -> None:
        filled = int(30 * done / total)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} puzzles")
        sys.stderr.flush()

    return show


def _counted(puzzles: Iterable[Puzzle], progress: Callable[[int], None] | None) -> Iterator[Puzzle]:
    """The puzzles, telling ``progress`` how many have come after each one."""
    for done, puzzle in enumerate(puzzles, start=1):
        yield puzzle
        if progress is not None:
            progress(done)


@contextlib.contextmanager
def _interruptible() -> Iterator[InterruptGuard]:
    """Ctrl-C stops a solve at once, but waits while a record is being written."""
    from meldsat.engine.solving import stoppable_solves  # OR-Tools loads with the first solve

    with InterruptGuard() as guard, stoppable_solves():
        yield guard


def _stream(texts: Iterable[str], guard: InterruptGuard) -> None:
    """Write each text to stdout whole, as soon as it comes."""
    for text in texts:
        with guard.deferred():
            sys.stdout.write(text)
            sys.stdout.flush()


def _emit(text: str, output: str | None) -> None:
    """Print, or write ``output`` atomically (a temporary file beside it, then a rename)."""
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
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
    return _report_puzzles(
        solve,
        solve_each,
        source=source,
        output_format=output_format,
        time_limit=time_limit,
        json_output=json_output,
    )


@app.command("grade")
def grade_command(
    source: SourceArgument,
    *,
    output_format: ReportOption = ReportFormat.TEXT,
    time_limit: TimeLimitOption = 30.0,
    json_output: JsonFlag = False,
) -> int:
    """Grade each puzzle and confirm (or not) the level and grade it states."""
    return _report_puzzles(
        grade,
        grade_each,
        source=source,
        output_format=output_format,
        time_limit=time_limit,
        json_output=json_output,
    )


def _report_puzzles(
    whole: Callable[[Sequence[Puzzle], float], PuzzleReports[Any]],
    each: Callable[[Sequence[Puzzle], float], Iterator[PuzzleReport]],
    *,
    source: str,
    output_format: ReportFormat,
    time_limit: float,
    json_output: bool,
) -> int:
    """What ``solve`` and ``grade`` share: read the puzzles, report on each (JSON: all in one
    object at the end; text: each report as soon as it is known), the worst exit code."""
    puzzles = read_puzzles(read_source(source))
    with _interruptible() as guard:
        if json_output or output_format is ReportFormat.JSON:
            answer = whole(puzzles, time_limit)
            with guard.deferred():
                _emit(to_json(answer.to_json()) + "\n", None)
            return answer.exit_code
        codes = []
        for number, report in enumerate(each(puzzles, time_limit), start=1):
            with guard.deferred():
                _emit(report.text(number), None)
            codes.append(report.exit_code)
    return max(codes)


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
    if not answer.strip():
        raise MeldsatError('--answer is empty: give the final table, e.g. "7H 8H 9H | ..."')
    puzzles = read_puzzles(read_source(source))
    if number > len(puzzles):
        raise MeldsatError(f"no puzzle number '{number}': the file holds {len(puzzles)}")
    with _interruptible() as guard:
        verdict = check(puzzles[number - 1], answer, time_limit)
        as_json = json_output or output_format is ReportFormat.JSON
        with guard.deferred():
            _emit(to_json(verdict.to_json()) + "\n" if as_json else verdict.text(), None)
    return verdict.exit_code
