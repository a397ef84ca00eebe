"""``meldsat replay``: re-check every turn and score of a game log."""

from __future__ import annotations

from typing import Annotated

import typer

from meldsat.cli.inputs import MAX_LOG_BYTES, read_source
from meldsat.cli.jsonout import SCHEMA_VERSION, to_json
from meldsat.errors import MeldsatError
from meldsat.games.log import read_events
from meldsat.games.replay import WrongTurnError, replay_events


def replay_command(
    log: Annotated[
        str, typer.Argument(help="Game log (JSONL) from meldsat simulate; - reads stdin.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")] = False,
) -> int:
    """Replay a game log: every turn re-checked by the rule checker, every score recomputed."""
    text = read_source(log, limit=MAX_LOG_BYTES)
    try:
        report = replay_events(read_events(text.splitlines(), log))
    except WrongTurnError as error:
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
            print(f"wrong: {error}")
        return 1
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
        f"confirmed: {report.games} games, {report.rounds} rounds, {report.turns} turns: "
        "every turn legal, every score recomputed"
    )
    if report.incomplete_game is not None:
        print(
            f"game {report.incomplete_game} is incomplete (an interrupted run): "
            "checked up to its last event"
        )
    return 0
