"""Who sits at a seat: an agent (a bot, the person at the terminal, later a person in a browser).

Every agent has a ``name`` and answers the questions its game asks on its turn, each question a
method that takes what the seat may see (a frozen view) and returns a decision made of pieces
(never text: text is only for the log). A game family asks one set of questions, so every agent
of a family, bot or person, is the same kind of thing:

- the games with a shared table (Manipulation, the 500 family) ask :class:`MeldingAgent`'s three
  questions: which table to leave after melding (or none), whether to knock, which card to
  discard;
- the gin games ask :class:`GinAgent`'s two: the upcard or the stock, then (having seen the card
  drawn) the discard and whether to knock, or big gin.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from meldsat.cards import Card, Piece
from meldsat.notation import Meld, Table
from meldsat.position import Position
from meldsat.rules import RuleSet


class Agent(Protocol):
    """A player at a seat; the game family's protocol below adds the questions it asks."""

    name: str


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


class MeldingAgent(Agent, Protocol):
    """A player of a game with a shared table (a bot, or a person at the terminal)."""

    def choose_meld(self, view: TurnView) -> Table | None:
        """The whole table after melding from ``view.hand``, or ``None`` to meld nothing now."""

    def wants_knock(self, view: TurnView) -> bool:
        """Knock now (asked only when the hand is low enough to knock)?"""

    def choose_discard(self, view: TurnView) -> Piece:
        """The card to discard from ``view.hand`` (games with a discard pile)."""


@dataclass(frozen=True)
class GinView:
    """What the gin player to move sees: its hand, the upcard, the stock left and the knock limit.

    ``seen`` is the discard pile below the upcard (both players have seen those cards).
    """

    rules: RuleSet
    seat: int
    hand: tuple[Card, ...]
    upcard: Card
    stock_left: int
    knock_limit: int
    first_upcard: Card | None
    seen: tuple[Card, ...]


@dataclass(frozen=True)
class GinDiscard:
    """How a gin turn ends after the draw: the card discarded and whether the player knocks.

    ``discard`` is ``None`` only for big gin (all 11 cards melded), which knocks without one.
    """

    discard: Card | None
    knock: bool


class GinAgent(Agent, Protocol):
    """A player of the gin games (a bot, or a person at the terminal)."""

    def take_upcard(self, view: GinView) -> bool:
        """Take the upcard (True) or draw from the stock (False)?"""

    def finish_turn(self, view: GinView, drawn: Card, took_upcard: bool) -> GinDiscard:
        """After drawing ``drawn``: the discard and the knock (see :class:`GinDiscard`).

        The game checks the answer (:func:`meldsat.games.gin.gin_turn_problem`) and stops on a
        broken rule, so a person's front end asks again until the answer is legal.
        """
