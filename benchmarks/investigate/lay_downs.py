"""Who lays down first in a shared-table round, and who wins it: a bot's rounds read from game logs.

Run from the repository root (meldsat alone), on logs that ``meldsat simulate --log`` wrote::

    meldsat simulate --bots patient,hoarder,hoarder,hoarder --games 50 --seed 1200 --log m0.jsonl
    python -m benchmarks lay-downs m0.jsonl --bot patient

Every round of every game in which ``--bot`` holds exactly one seat is classed by the first
lay-down: the first turn that melds, by another seat or by the bot with more than three pieces
(``patient``'s small timing melds are three), given as seats after the bot's (1: the next player).
For each class it prints the rounds, the bot's wins, and who won the others (seats after the bot's)
and how the round ended (a knock, a player out, the stock).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.common.units import program

COMMAND = program("lay-downs")
SMALL_MELD = 3  # pieces: a timing meld, not a lay-down


def first_lay_down(turns: Sequence[dict[str, Any]], seat: int) -> int | None:
    """The seat of the round's first lay-down (see the module's docstring), or ``None``."""
    for turn in turns:
        played = turn["played"]
        if played and (turn["seat"] != seat or len(played) > SMALL_MELD):
            return int(turn["seat"])
    return None


def how_it_ended(round_end: dict[str, Any]) -> str:
    """``knock``, ``out`` or ``stock``."""
    if round_end["knocker"] is not None:
        return "knock"
    return "out" if round_end["went_out"] is not None else "stock"


def read_rounds(path: Path, bot: str) -> list[tuple[str, bool, str, str]]:
    """Each round of ``bot``'s games in the log at ``path``: the first lay-down's seat after the
    bot's, whether the bot won, the winners' seats after the bot's, and how it ended."""
    rounds: list[tuple[str, bool, str, str]] = []
    seat: int | None = None
    players = 0
    turns: list[dict[str, Any]] = []
    for line in path.read_text().splitlines():
        event = json.loads(line)
        kind = event["event"]
        if kind == "game":
            seats = event["seats"]
            seat = seats.index(bot) if seats.count(bot) == 1 else None
            players = len(seats)
        elif kind == "deal":
            turns = []
        elif kind == "turn":
            turns.append(event)
        elif kind == "round_end" and seat is not None:
            first = first_lay_down(turns, seat)
            offset = "none" if first is None else str((first - seat) % players)
            winners = sorted((winner - seat) % players for winner in event["winners"])
            won = 0 in winners
            rounds.append((offset, won, ",".join(map(str, winners)), how_it_ended(event)))
    return rounds


def report(rounds: Sequence[tuple[str, bool, str, str]]) -> str:
    """The rounds as a Markdown table, one row a first lay-down's seat."""
    lines = [
        "| first lay-down (seats after the bot) | rounds | the bot won | the others: winner, end |",
        "| --- | ---: | ---: | --- |",
    ]
    for offset in sorted({round_[0] for round_ in rounds}):
        mine = [round_ for round_ in rounds if round_[0] == offset]
        won = sum(1 for round_ in mine if round_[1])
        lost = Counter((round_[2], round_[3]) for round_ in mine if not round_[1])
        losses = ", ".join(f"{winner} {end} {n}" for (winner, end), n in lost.most_common())
        share = f"{won} ({100 * won / len(mine):.0f} %)"
        lines.append(f"| {offset} | {len(mine)} | {share} | {losses or '-'} |")
    return "\n".join(lines)


def main(argv: Sequence[str]) -> int:
    """Read the logs and print the table."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+", type=Path, help="JSONL logs of meldsat simulate")
    parser.add_argument("--bot", default="patient", help="the bot whose rounds are classed")
    args = parser.parse_args(argv)
    rounds = [round_ for path in args.logs for round_ in read_rounds(path, args.bot)]
    if not rounds:
        parser.error(f"no round with exactly one seat of {args.bot} in the logs")
    print(report(rounds))
    return 0
