"""``meldsat hint``: the best legal play for a position, or for every line of a JSONL batch."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Annotated, Any

import typer
from rich.text import Text

from meldsat.cli.inputs import (
    HandOption,
    InitialOption,
    JsonOption,
    PlayersOption,
    PositionOption,
    RulesOption,
    TableOption,
    load_cli_position,
    read_source,
)
from meldsat.cli.jsonout import SCHEMA_VERSION, json_header, piece_texts
from meldsat.cli.render import console, print_line, print_table, render_meld, status_text
from meldsat.errors import MeldsatError
from meldsat.play import Objective, Play, Status
from meldsat.position import Position, load_position, position_fields

EXIT_CODES = {Status.OPTIMAL: 0, Status.NO_MOVE: 1, Status.FEASIBLE: 3, Status.UNKNOWN: 3}


ObjectiveOption = Annotated[
    Objective,
    typer.Option("--objective", help="Maximise the points played (default) or the cards played."),
]
TimeLimitOption = Annotated[
    float,
    typer.Option("--time-limit", min=0.001, help="Seconds before the best play so far is given."),
]
AllOption = Annotated[
    bool, typer.Option("--all", help="Only a play that empties the whole hand this turn.")
]
JsonlOption = Annotated[
    str | None,
    typer.Option("--jsonl", help="Batch: one JSON position a line (- reads stdin)."),
]
WorkersOption = Annotated[
    int, typer.Option("--workers", min=1, help="Batch: spread the positions over N processes.")
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
    workers: WorkersOption = 1,
) -> int:
    """Find the best play: exit 0 proven optimal, 1 no legal play, 3 time limit hit first."""
    if jsonl is not None:
        if table is not None or hand is not None or position is not None or initial:
            raise MeldsatError("--jsonl takes its positions from the file: drop --table/--hand")
        return _run_batch(jsonl, objective, time_limit, play_all, rules, players, workers)
    if table is None and hand is None and position is None:
        raise MeldsatError("no position given: use --table and --hand, or --position")
    game = load_cli_position(table, hand, position, rules, players, initial)
    play = _solve(game, objective, play_all, time_limit)
    if json_output:
        print(json.dumps(play_json(game, play)))
    else:
        _print_human(game, play)
    return EXIT_CODES[play.status]


def _solve(position: Position, objective: Objective, play_all: bool, time_limit: float) -> Play:
    # The engine (and OR-Tools) loads only when a command solves, so the other commands start fast.
    from meldsat.engine.search import best_play

    return best_play(position, objective, play_all=play_all, time_limit=time_limit)


def play_json(position: Position, play: Play) -> dict[str, Any]:
    """The JSON object of ``hint --json`` (schema version 1)."""
    notation = position.rules.notation
    return {
        **json_header(position.rules),
        "status": play.status.value,
        "objective": play.objective.value,
        "play": piece_texts(play.played, notation),
        "cards_played": play.cards_played,
        "points_played": play.points_played,
        "bound": play.bound,
        "hand_left": piece_texts(play.hand_left, notation),
        "hand_points_left": play.hand_points_left,
        "table": [piece_texts(meld, notation) for meld in play.table],
        "changed_melds": list(play.changed_melds),
        "new_melds": list(play.new_melds),
        "changes": list(play.changes),
        "can_knock": play.can_knock,
    }


def _print_human(position: Position, play: Play) -> None:
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
        else:
            print_line("no legal play: the hand cannot be added to this table", out=out)
        return
    value = "" if good else f" (best still possible: {play.bound})"
    print_line(
        "play: ",
        render_meld(play.played, notation),
        f"  ({play.cards_played} cards, {play.points_played} points){value}",
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
    print_table(play.table, notation, title="table after the play:", notes=notes, out=out)
    if play.changes:
        print_line("changes:", out=out)
        for step in play.changes:
            print_line(f"  - {step}", out=out)
    knock = "; can knock" if play.can_knock else ""
    print_line(
        "hand left: ",
        render_meld(play.hand_left, notation) if play.hand_left else Text("(empty)", style="dim"),
        f"  ({play.hand_points_left} points{knock})",
        out=out,
    )


# --- batch -------------------------------------------------------------------------------------


def _run_batch(  # noqa: PLR0917 (one argument per command-line option)
    source: str,
    objective: Objective,
    time_limit: float,
    play_all: bool,
    rules: str | None,
    players: int | None,
    workers: int,
) -> int:
    lines = read_source(source).splitlines()
    jobs = [
        (number, line, objective.value, time_limit, play_all, rules, players)
        for number, line in enumerate(lines, start=1)
        if line.strip()
    ]
    results = _map_in_order(jobs, workers)
    worst = 0
    for code, text in results:
        sys.stdout.write(text + "\n")
        worst = max(worst, _batch_severity(code))
    sys.stdout.flush()
    return {0: 0, 1: 3, 2: 2}[worst]


BatchJob = tuple[int, str, str, float, bool, str | None, int | None]


def _map_in_order(jobs: list[BatchJob], workers: int) -> Iterator[tuple[int, str]]:
    """Solve every job, yielding results in input order (spread over processes if asked)."""
    if workers <= 1 or len(jobs) <= 1:
        yield from map(solve_batch_line, jobs)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(solve_batch_line, jobs, chunksize=max(1, len(jobs) // (workers * 8)))


def _batch_severity(code: int) -> int:
    """Rank exit codes for the batch's own code: bad input > time limit > anything else."""
    return {2: 2, 3: 1}.get(code, 0)


def solve_batch_line(job: BatchJob) -> tuple[int, str]:
    """Answer one batch line: (exit code, one JSON line). Bad input becomes an ``error`` object."""
    number, line, objective, time_limit, play_all, rules, players = job
    try:
        fields = position_fields(line)
        game = load_position(fields, rules, players)
        play = _solve(game, Objective(objective), play_all, time_limit)
    except MeldsatError as error:
        message = {
            "schema_version": SCHEMA_VERSION,
            "line": number,
            "status": "error",
            "error": str(error),
        }
        return 2, json.dumps(message)
    result = play_json(game, play)
    result["line"] = number
    if "id" in fields:
        result["id"] = fields["id"]
    return EXIT_CODES[play.status], json.dumps(result)
