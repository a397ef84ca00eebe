"""``meldsat hint``: the best legal play for a position, or for every line of a JSONL batch."""

from __future__ import annotations

import json
from collections import Counter, OrderedDict
from typing import Annotated, Any

import typer
from rich.text import Text

from meldsat.answers.fields import house_options
from meldsat.answers.hint import HintAnswer, hint, hint_line
from meldsat.answers.jsonform import to_json
from meldsat.cli.batchio import LineSource, read_lines
from meldsat.cli.batchrun import (
    BatchSettings,
    OutputOption,
    ResumeOption,
    SchedulerOption,
    WorkersOption,
    run_batch,
)
from meldsat.cli.exits import EXIT_BAD_INPUT
from meldsat.cli.inputs import (
    HandOption,
    InitialOption,
    JsonOption,
    PlayersOption,
    PositionOption,
    RuleOption,
    RulesOption,
    TableOption,
    finite_seconds,
    gather_fields,
)
from meldsat.cli.render import console, print_line, print_table, render_meld, status_text
from meldsat.errors import MeldsatError
from meldsat.house_rules import parse_house_rules
from meldsat.play import Objective, Play, Status
from meldsat.wording import counted

EXIT_CODES = {Status.OPTIMAL: 0, Status.NO_MOVE: 1, Status.FEASIBLE: 3, Status.UNKNOWN: 3}


ObjectiveOption = Annotated[
    Objective,
    typer.Option("--objective", help="Maximise the points played (default) or the cards played."),
]


TimeLimitOption = Annotated[
    float,
    typer.Option(
        "--time-limit",
        min=0.001,
        callback=finite_seconds,
        help="Seconds before the best play so far is given.",
    ),
]
AllOption = Annotated[
    bool, typer.Option("--all", help="Only a play that empties the whole hand this turn.")
]
JsonlOption = Annotated[
    str | None,
    typer.Option("--jsonl", help="Batch: one JSON position a line (- reads stdin)."),
]


def hint_command(
    *,
    table: TableOption = None,
    hand: HandOption = None,
    position: PositionOption = None,
    rules: RulesOption = None,
    players: PlayersOption = None,
    json_output: JsonOption = False,
    initial: InitialOption = False,
    objective: ObjectiveOption = Objective.POINTS,
    time_limit: TimeLimitOption = 10.0,
    play_all: AllOption = False,
    jsonl: JsonlOption = None,
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    output: OutputOption = None,
    resume: ResumeOption = False,
    house: RuleOption = None,
) -> int:
    """Find the best play: exit 0 proven optimal, 1 no legal play, 3 time limit hit first."""
    if jsonl is not None:
        if table is not None or hand is not None or position is not None or initial:
            raise MeldsatError("--jsonl takes its positions from the file: drop --table/--hand")
        options = house_options(house)
        parse_house_rules(options)  # a bad name or value stops the batch before it starts
        batch = BatchSettings(workers, scheduler, output, resume, inputs=(jsonl,))
        return _run_batch(jsonl, objective, time_limit, play_all, (rules, players, options), batch)
    if workers is not None or scheduler is not None or output is not None or resume:
        raise MeldsatError("--workers, --scheduler, --output and --resume are for --jsonl batches")
    if table is None and hand is None and position is None:
        raise MeldsatError("no position given: use --table and --hand, or --position")
    fields = gather_fields(table, hand, position)
    if initial:
        fields["initial"] = True
    from meldsat.engine.solving import stoppable_solves  # OR-Tools loads with the solve anyway

    with stoppable_solves():  # a Ctrl-C stops the search at once, not when it ends
        answer = hint(
            fields,
            objective,
            play_all=play_all,
            time_limit=time_limit,
            rules=rules,
            players=players,
            house=house,
        )
    if json_output:
        print(to_json(answer.to_json()))
    else:
        _print_human(answer)
    return EXIT_CODES[answer.play.status]


def _partial_text(partial: Play) -> str:
    if not partial.found:
        return "no play empties the hand, and no legal play exists at all"
    proven = "" if partial.status is Status.OPTIMAL else " (not proven best)"
    return (
        "no play empties the hand; the best play that does not lays "
        f"{counted(partial.cards_played, 'card')} worth {counted(partial.points_played, 'point')}"
        f"{proven} (hint without --all shows it)"
    )


def _print_human(answer: HintAnswer) -> None:
    position, play, partial = answer.position, answer.play, answer.partial
    notation = position.rules.notation
    out = console()
    good = play.status is Status.OPTIMAL
    print_line(
        "best play: ",
        status_text(play.status.value.replace("_", " "), good),
        f" (objective: {play.objective.value})",
        out=out,
    )
    if not play.found:
        if play.status is Status.UNKNOWN:
            print_line("the time limit ran out before any play was found or ruled out", out=out)
        elif partial is not None:
            print_line(_partial_text(partial), out=out)
        else:
            print_line("no legal play: the hand cannot be added to this table", out=out)
        return
    value = "" if good else f" (best still possible: {play.bound})"
    print_line(
        "play: ",
        render_meld(play.played, notation),
        f"  ({counted(play.cards_played, 'card')}, {counted(play.points_played, 'point')}){value}",
        out=out,
    )
    notes: list[str | Text | None] = [
        Text("new", style="green")
        if index in play.new_melds
        else Text("changed", style="yellow")
        if index in play.changed_melds
        else None
        for index in range(len(play.table))
    ]
    if not play.tie_break_proven and good:
        print_line(
            "the value is proven optimal; the time limit came before the tie-break among plays of",
            " that value (the most original melds left intact) was proven too",
            out=out,
        )
    print_table(play.table, notation, title="table after the play:", notes=notes, out=out)
    if play.changes:
        print_line("changes:", out=out)
        for step in play.changes:
            print_line(f"  - {step}", out=out)
    knock = "; can knock" if play.can_knock else ""
    print_line(
        "hand left: ",
        render_meld(play.hand_left, notation) if play.hand_left else Text("(empty)", style="dim"),
        f"  ({counted(play.hand_points_left, 'point')}{knock})",
        out=out,
    )


# --- batch -------------------------------------------------------------------------------------


def _run_batch(  # noqa: PLR0917 (one argument per command-line option)
    source: str,
    objective: Objective,
    time_limit: float,
    play_all: bool,
    defaults: tuple[str | None, int | None, dict[str, str]],
    settings: BatchSettings,
) -> int:
    """Answer every position line of ``source``, in input order, streaming; return the exit code.

    ``defaults`` are the batch's ``--rules``, ``--players`` and ``--rule`` house rules.
    """
    rules, players, house = defaults
    house_items = tuple(sorted(house.items()))
    lines, stream = LineSource.open(source)
    with stream:
        work = (
            (
                (
                    line.number,
                    line.text,
                    objective.value,
                    time_limit,
                    play_all,
                    rules,
                    players,
                    house_items,
                ),
                line.end / lines.size if lines.size else None,
            )
            for line in read_lines(stream)
        )
        return run_batch(
            work,
            solve_batch_line,
            settings,
            code_of_line=_code_of_answer,
            exit_code=_batch_exit_code,
        )


BatchJob = tuple[int, str, str, float, bool, str | None, int | None, tuple[tuple[str, str], ...]]

# The exit code of each status a batch answer can have (for a resumed run's earlier answers).
_ANSWER_CODES = {
    **{status.value: code for status, code in EXIT_CODES.items()},
    "error": EXIT_BAD_INPUT,
}


def _code_of_answer(answer: str) -> int:
    try:
        return _ANSWER_CODES.get(json.loads(answer).get("status"), 0)
    except (ValueError, AttributeError):
        raise MeldsatError(
            f"not an answer of meldsat hint in the output: {answer[:80]!r}"
        ) from None


def _batch_exit_code(codes: Counter[int]) -> int:
    """Bad input on any line beats a time limit on any line; otherwise 0."""
    if codes[EXIT_BAD_INPUT]:
        return EXIT_BAD_INPUT
    return 3 if codes[3] else 0


# The answers of the lines this process answered last, by everything but the line's number: a batch
# that holds the same line twice (the same position asked again) is solved once. The answer is
# the same either way (one proto, one deterministic search); errors are not kept.
_ANSWERED: OrderedDict[tuple[object, ...], dict[str, Any]] = OrderedDict()
_ANSWERED_MOST = 256


def solve_batch_line(job: BatchJob) -> tuple[int, str]:
    """Answer one batch line (:func:`meldsat.answers.hint.hint_line`): its exit code and its one
    JSON line. Bad input becomes an ``error`` object."""
    number, line, objective, time_limit, play_all, rules, players, house_items = job
    key = job[1:]
    answer = _ANSWERED.get(key)
    if answer is None:
        answer = hint_line(
            number,
            line,
            Objective(objective),
            play_all=play_all,
            time_limit=time_limit,
            rules=rules,
            players=players,
            house=dict(house_items),
        )
        if answer["status"] != "error":  # (an error's words may name the line's number)
            _ANSWERED[key] = answer
            if len(_ANSWERED) > _ANSWERED_MOST:
                _ANSWERED.popitem(last=False)
    else:
        _ANSWERED.move_to_end(key)
        answer = {**answer, "line": number}  # the same keys in the same order
    return _ANSWER_CODES[answer["status"]], to_json(answer)
