"""What a player (a bot or a person) sees on its turn, and the decisions it is asked for.

The meld-and-table games (Manipulation, the 500 family) ask the same three questions, so one
protocol serves them: which table to leave after melding (or none), whether to knock, and which
card to discard.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from meldsat.cards import Piece
from meldsat.notation import Meld, Table
from meldsat.position import Position
from meldsat.rules import RuleSet


@dataclass(frozen=True)
class TurnView:
    """The player to move's view: the table, its own hand and the public counts.

    ``draws`` is the number of cards drawn so far this turn; ``stock_left`` the cards left to
    draw; ``last_chance`` is true when the round ends after this turn whatever happens (the last
    turn after the stock ran out, the last turn of a 500 deal); ``hand_sizes`` counts every seat's
    cards in seat order.
    """

    rules: RuleSet
    seat: int
    table: Table
    hand: Meld
    draws: int
    stock_left: int
    last_chance: bool
    hand_sizes: tuple[int, ...]

    @property
    def position(self) -> Position:
        """The position to solve: this table and this hand."""
        return Position.build(self.rules, self.table, self.hand)

    @property
    def hand_points(self) -> int:
        """What the hand counts now."""
        return sum(self.rules.value(piece) for piece in self.hand)


class MeldingAgent(Protocol):
    """A player of a game with a shared table (a bot, or a person at the terminal)."""

    name: str

    def choose_meld(self, view: TurnView) -> Table | None:
        """The whole table after melding from ``view.hand``, or ``None`` to meld nothing now."""

    def wants_knock(self, view: TurnView) -> bool:
        """Knock now (asked only when the hand is low enough to knock)?"""

    def choose_discard(self, view: TurnView) -> Piece:
        """The card to discard from ``view.hand`` (games with a discard pile)."""
