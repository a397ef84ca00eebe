"""What both ``meldsat play`` front ends share: the person's seat name and reading their lines."""

from __future__ import annotations

import sys

from rich.console import Console
from rich.text import Text

from meldsat.cli.batchio import read_bounded_line
from meldsat.cli.play_scores import print_scores
from meldsat.games.log import Event, GameLog
from meldsat.games.replay import PERSON_SEAT
from meldsat.position import MAX_POSITION_CHARS
from meldsat.rules import RuleSet

HUMAN = PERSON_SEAT  # the seat name replay knows for the person


class QuitGameError(Exception):
    """The person typed ``quit`` or the input ended."""


def read_line(prompt: str) -> str:
    """Print ``prompt`` and read one line from stdin; the end of input quits the game.

    A line longer than any answer can be (``< /dev/zero``) stops the game with a one-line error.
    """
    print(prompt, end="", flush=True)
    line = read_bounded_line(sys.stdin, MAX_POSITION_CHARS)
    if not line:
        print()
        raise QuitGameError
    return line.strip()


class Narrator:
    """A game log that tells the person what happens, and passes every event on.

    Each game says how a deal, a turn and the end of a round read (``deal``, ``turn``,
    ``round_end``); the end of the game reads the same everywhere.
    """

    def __init__(self, inner: GameLog, rules: RuleSet, seats: list[str], out: Console) -> None:
        self.inner = inner
        self.rules = rules
        self.seats = seats
        self.out = out

    def who(self, seat: int) -> str:
        """``you`` or ``seat 2 (knocker)``."""
        return HUMAN if self.seats[seat] == HUMAN else f"seat {seat} ({self.seats[seat]})"

    def write(self, event: Event) -> None:
        """Pass the event on and describe it."""
        self.inner.write(event)
        kind = event["event"]
        if kind == "deal":
            self.deal(event)
        elif kind == "turn":
            self.turn(event)
        elif kind == "round_end":
            self.round_end(event)
        elif kind == "game_end":
            self.game_end(event)

    def game_end(self, event: Event) -> None:
        """The winners and the final totals, with the end bonuses where the event has them
        (Manipulation: rounds won, the target)."""
        winners = ", ".join(self.who(seat) for seat in event["winners"])
        self.out.print(Text(f"\ngame over: won by {winners}; final totals:", style="bold"))
        extra = [name for name in ("rounds_won", "bonuses") if name in event]
        rows = [
            [self.who(seat), *(event[name][seat] for name in extra), total]
            for seat, total in enumerate(event["totals"])
        ]
        headers = [name.replace("_", " ") for name in extra]
        print_scores(self.out, ["player", *headers, "total"], rows)

    def deal(self, event: Event) -> None:
        """A round begins."""
        self.out.print(
            Text(f"\nround {event['round']}: seat {event['dealer']} deals", style="bold")
        )

    def turn(self, event: Event) -> None:
        """What a turn did."""

    def round_end(self, event: Event) -> None:
        """How a round ended."""
