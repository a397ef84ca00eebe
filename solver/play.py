"""The result types of the engine: what to optimise, how sure the answer is, and the play itself."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from meldsat.notation import Pieces, Table


class Objective(enum.StrEnum):
    """What the best play maximises."""

    POINTS = "points"  # value of the cards played (fewest points left in hand)
    CARDS = "cards"  # number of cards played


class Status(enum.Enum):
    """How far the engine got. Only ``OPTIMAL`` is a proof of optimality."""

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"  # a legal play, not proven best before the time limit
    NO_MOVE = "no_move"  # proven: no legal play exists
    UNKNOWN = "unknown"  # the time limit ran out before any play was found or ruled out


@dataclass(frozen=True)
class Play:
    """The engine's answer for one position.

    ``played`` are the hand pieces laid (jokers undeclared, as they were in hand); ``table`` is the
    table after the play with every joker declared; ``bound`` is the best objective value still
    possible (equal to the achieved value when optimal); ``changed_melds`` indexes the melds of
    ``table`` that are new or changed, ``new_melds`` those that are new; ``changes`` says in words
    what moved where (worked out when first read). With ``NO_MOVE`` or ``UNKNOWN``, ``played`` is
    empty and ``table`` is the table as it was.
    """

    status: Status
    objective: Objective
    played: Pieces
    table: Table
    hand_left: Pieces
    cards_played: int
    points_played: int
    hand_points_left: int
    bound: int | None
    changes: Sequence[str]
    changed_melds: tuple[int, ...]
    new_melds: tuple[int, ...]
    can_knock: bool

    @property
    def found(self) -> bool:
        """True when the answer holds a legal play."""
        return self.status in (Status.OPTIMAL, Status.FEASIBLE)
