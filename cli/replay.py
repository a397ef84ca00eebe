"""``meldsat replay``: re-check every turn and score of one or more game logs."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Annotated

import typer

from meldsat.answers.jsonform import to_json
from meldsat.cli.batchio import file_lines
from meldsat.cli.batchrun import BatchSettings, SchedulerOption, WorkersOption
from meldsat.errors import MeldsatError, escape_controls
from meldsat.executor import ordered_map
from meldsat.games.log import read_numbered_events
from meldsat.games.replay import (
    GamePiece,
    ReplayReport,
    WrongTurnError,
    replay_piece,
    split_games,
)
from meldsat.schema import SCHEMA_VERSION
from meldsat.wording import counted

# What travels through the workers: a game of log number N, a failure reading log N (passed back
# at its place, so that what comes before it is reported first), or the end of log N.
Item = tuple[int, GamePiece | MeldsatError | None]
Outcome = ReplayReport | WrongTurnError


def replay_command(
    logs: Annotated[
        list[str], typer.Argument(help="Game logs (JSONL) from meldsat simulate; - reads stdin.")
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object a log, one a line.")
    ] = False,
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
) -> int:
    """Replay game logs: every turn re-checked by the rule checker, every score recomputed."""
    code = 0
    for log, outcome in _replayed(logs, BatchSettings(workers, scheduler)):
        # Several logs: each one's answer in the order given, its lines led by its name.
        prefix = escape_controls(f"{log}: ") if len(logs) > 1 else ""
        code = max(code, _print_outcome(log, outcome, as_json, prefix))
    return code


def _print_outcome(log: str, outcome: Outcome, as_json: bool, prefix: str) -> int:
    if isinstance(outcome, WrongTurnError):
        error = outcome
        if as_json:
            print(
                to_json(
                    {
                        "schema_version": SCHEMA_VERSION,
                        "confirmed": False,
                        "line": error.line,
                        "where": error.where,
                        "reason": str(error),
                    }
                )
            )
        else:
            print(escape_controls(f"{prefix}wrong: {error}"))
        return 1
    report = outcome
    if report.games == 0 and report.incomplete_game is None:
        raise MeldsatError(f"'{log}' holds no game")
    if as_json:
        print(
            to_json(
                {
                    "schema_version": SCHEMA_VERSION,
                    "confirmed": True,
                    "games": report.games,
                    "rounds": report.rounds,
                    "turns": report.turns,
                    "incomplete_game": report.incomplete_game,
                }
            )
        )
        return 0
    print(
        f"{prefix}confirmed: {counted(report.games, 'game')}, {counted(report.rounds, 'round')},"
        f" {counted(report.turns, 'turn')}: "
        "every turn legal, every score recomputed"
    )
    if report.incomplete_game is not None:
        print(
            f"{prefix}game {report.incomplete_game} is incomplete (an interrupted run): "
            "checked up to its last event"
        )
    return 0


def _replayed(logs: list[str], settings: BatchSettings) -> Iterator[tuple[str, Outcome]]:
    """Each log's outcome, in order; its games replayed here or, game by game, over workers.

    A log's report is the sum of its games' reports; its first wrong turn (in log order) is its
    outcome. A log that cannot be read stops the run (after the logs before it are reported).
    """
    processes, address = settings.where()
    items = _items(logs)
    # Neither --workers nor a scheduler (option or variable): replay here (no CP-SAT runs here).
    if settings.workers is None and address is None:
        results: Iterable[tuple[int, Outcome | MeldsatError | None]] = map(replay_item, items)
    else:
        results = ordered_map(replay_item, items, workers=processes, scheduler=address)
    total = ReplayReport()
    wrong: WrongTurnError | None = None
    for index, result in results:
        if result is None:  # the end of log ``index``
            yield logs[index], wrong or total
            total, wrong = ReplayReport(), None
        elif wrong is None:
            # (A wrong turn is a MeldsatError too, but an answer, not a failure to read.)
            if isinstance(result, WrongTurnError):
                wrong = result
            elif isinstance(result, MeldsatError):
                raise result
            else:
                total.games += result.games
                total.rounds += result.rounds
                total.turns += result.turns
                total.incomplete_game = result.incomplete_game


def _items(logs: list[str]) -> Iterator[Item]:
    # Read lazily: a log is read, and cut into games, only a few chunks ahead of the workers.
    for index, log in enumerate(logs):
        try:
            for piece in split_games(read_numbered_events(file_lines(log), log), seats=True):
                yield index, piece
        except MeldsatError as error:
            yield index, error
            return
        yield index, None


def replay_item(item: Item) -> tuple[int, Outcome | MeldsatError | None]:
    """Replay one game of a log (what a worker runs); a failure or an end passes through."""
    index, payload = item
    if not isinstance(payload, GamePiece):
        return index, payload
    try:
        return index, replay_piece(payload)
    except WrongTurnError as error:
        return index, error
