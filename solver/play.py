"""The result types of the engine: what to optimise, how sure the answer is, and the play itself."""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass

from meldsat.changes import Move
from meldsat.notation import Pieces, Table
from meldsat.position import Position


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
    what moved where, and ``moves`` holds each of ``changes`` as data (which pieces go from where to
    which meld of ``table``); both are worked out when first read. With ``NO_MOVE`` or ``UNKNOWN``,
    ``played`` is empty and ``table`` is the table as it was.

    ``OPTIMAL`` proves the value (points or cards played). Among plays of that value the engine
    prefers the one keeping the most original melds intact; ``tie_break_proven`` is False when the
    time limit came before that preference was proven too (the value still is), and for any
    answer that is not ``OPTIMAL`` or ``NO_MOVE``.
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
    tie_break_proven: bool = True
    moves: Sequence[Move] = ()

    @property
    def found(self) -> bool:
        """True when the answer holds a legal play."""
        return self.status in (Status.OPTIMAL, Status.FEASIBLE)


def check_play_arguments(
    position: object, objective: object, play_all: object, time_limit: object
) -> tuple[Objective, float | None]:
    """Check :func:`best_play`'s arguments; return the objective as the enum and the time limit.

    ``objective`` may be an :class:`Objective` or one of its values (``"points"``, ``"cards"``);
    ``time_limit`` is ``None`` (no limit) or a positive, finite number of seconds. Anything else is
    a ``TypeError`` or ``ValueError`` naming the argument, never a wrong answer or a solver crash.
    """
    if not isinstance(position, Position):
        raise TypeError(f"position must be a Position, not {type(position).__name__}")
    if not isinstance(play_all, bool):
        raise TypeError(f"play_all must be a bool, not {type(play_all).__name__}")
    return objective_argument(objective), time_limit_argument(time_limit)


def objective_argument(value: object) -> Objective:
    """``value`` as an :class:`Objective` (the enum or its string value), else an error."""
    if isinstance(value, Objective):
        return value
    if not isinstance(value, str):
        raise TypeError(f"objective must be an Objective or a str, not {type(value).__name__}")
    try:
        return Objective(value.strip().lower())
    except ValueError:
        names = ", ".join(item.value for item in Objective)
        raise ValueError(f"objective must be one of {names}, not {value!r}") from None


def time_limit_argument(value: object) -> float | None:
    """``value`` as a time limit in seconds: ``None``, or a number above 0 and finite."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"time_limit must be a number or None, not {type(value).__name__}")
    if not 0 < value < math.inf:
        raise ValueError(f"time_limit must be above 0 seconds and finite, not {value!r}")
    return float(value)
