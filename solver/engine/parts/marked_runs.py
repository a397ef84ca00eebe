"""500 rummy's run flow: the run flow with each run also saying whether it holds a piece from the
hand yet; a run may end only once it does.

A run is *unmarked* until it takes its first hand piece and *marked* from then on. Unmarked runs
may not end, so their length matters only up to ``run_min - 1`` (what a hand piece then makes of
them); marked runs are counted by length up to ``run_min`` (every complete run behaves alike).
Only the step that marks a run needs to know the origin of its piece: a marked run goes on the
same whichever piece it takes, so each position counts how many of its marked runs take a hand
piece there (``marked_hand``) instead of splitting every marked state by origin. A run stays
unmarked past a position only if a hand piece can still reach it further along the suit (every
position in between showable), so the states that could never be marked get no variable.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from meldsat.cards import Card, card_of
from meldsat.engine.cpsat import CpModel, Expr, Values
from meldsat.engine.parts.runs import at_rank, first_runs, is_zero
from meldsat.engine.parts.supply import PieceBounds
from meldsat.engine.trace import Origin, Slot
from meldsat.rules import RuleSet, rank_at

T = TypeVar("T")


@dataclass(frozen=True)
class Split(Generic[T]):
    """Something about pieces (a count, a bound) split by where the pieces come from."""

    from_table: T
    from_hand: T


@dataclass(frozen=True)
class MarkedStep:
    """One position of one suit: runs starting there (by the origin of their first piece),
    unmarked runs of each length going on (a table piece keeps them unmarked, a hand piece marks
    them), marked runs of each length going on and how many of those take a hand piece here."""

    start: Split[Expr]
    unmarked: dict[int, Split[Expr]]
    marked: dict[int, Expr]
    marked_hand: Expr
    pieces: Expr
    hand_pieces: Expr


class MarkedRunFlow:
    """The marked run flow of every suit: ``steps[suit][position]``, sized by the pieces there
    are (``bounds``) and by those that can come from the hand and from the table."""

    def __init__(
        self,
        model: CpModel,
        rules: RuleSet,
        bounds: PieceBounds,
        hand_bounds: PieceBounds,
        table_bounds: PieceBounds,
    ) -> None:
        self.rules = rules
        origins = Split(table_bounds, hand_bounds)
        self.steps: list[dict[int, MarkedStep]] = [
            _suit_flow(model, rules, suit, bounds, origins) for suit in range(4)
        ]

    def pieces(self, card: Card) -> Expr:
        """The pieces of ``card`` in runs."""
        return at_rank(self.steps[card.suit], card.rank, lambda step: step.pieces)

    def hand_pieces(self, card: Card) -> Expr:
        """The pieces of ``card`` from the hand in runs."""
        return at_rank(self.steps[card.suit], card.rank, lambda step: step.hand_pieces)

    def low_aces(self) -> Expr:
        """Aces played low (first in a run that starts at the ace)."""
        return sum(
            steps[1].start.from_table + steps[1].start.from_hand
            for steps in self.steps
            if 1 in steps
        )

    def run_count(self) -> Expr:
        """How many runs the solution lays."""
        return sum(
            step.start.from_table + step.start.from_hand
            for steps in self.steps
            for step in steps.values()
        )

    def slots(self, values: Values) -> list[list[Slot]]:
        """The runs of the solution, each place saying whether its piece comes from the hand."""
        length = self.rules.run_min
        return [
            run for suit in range(4) for run in suit_runs(self.steps[suit], suit, length, values)
        ]


def suit_runs(
    steps: dict[int, MarkedStep], suit: int, length: int, values: Callable[[Expr], int]
) -> list[list[Slot]]:
    """The runs of one suit in a solution (``values`` reads a count of ``steps``), each place
    saying whether its piece comes from the hand."""
    finished: list[list[Slot]] = []
    active: list[list[Slot]] = []
    for p, step in steps.items():
        card = card_of(rank_at(p), suit)
        going: list[list[Slot]] = []
        marked_on: list[list[Slot]] = []
        # How many runs of each state have gone on through ``p`` so far.
        taken: dict[tuple[bool, int], int] = {}
        for run in sorted(active, key=lambda run: (-len(run), run[0][0].rank)):
            if any(origin is Origin.HAND for _, origin in run):
                key = (True, min(len(run), length))
                done = taken.get(key, 0)
                taken[key] = done + 1
                if done < values(step.marked.get(key[1], 0)):
                    marked_on.append(run)
                else:
                    finished.append(run)
                continue
            key = (False, min(len(run), _unmarked_cap(length)))
            done = taken.get(key, 0)
            taken[key] = done + 1
            move = step.unmarked[key[1]]  # an unmarked run always goes on
            origin = Origin.HAND if done < values(move.from_hand) else Origin.TABLE
            going.append([*run, (card, origin)])
        from_hand = values(step.marked_hand)
        for index, run in enumerate(marked_on):
            going.append([*run, (card, Origin.HAND if index < from_hand else Origin.TABLE)])
        going.extend([(card, Origin.HAND)] for _ in range(values(step.start.from_hand)))
        going.extend([(card, Origin.TABLE)] for _ in range(values(step.start.from_table)))
        active = going
    return finished + active


def _unmarked_cap(length: int) -> int:
    """The longest unmarked length told apart: one hand piece makes such a run complete."""
    return max(length - 1, 1)


def _suit_flow(
    model: CpModel,
    rules: RuleSet,
    suit: int,
    bounds: PieceBounds,
    origins: Split[PieceBounds],
) -> dict[int, MarkedStep]:
    positions = rules.sequence_positions
    length = rules.run_min
    cap = _unmarked_cap(length)
    can_meet = _can_meet_hand(positions, suit, bounds, origins.from_hand)

    def count(name: str, p: int, most: int) -> Expr:
        """A count of runs at ``p``, or 0 where there can be none."""
        return model.new_int_var(0, most, f"{name}_{suit}_{p}") if most > 0 else 0

    steps: dict[int, MarkedStep] = {}
    unmarked: dict[int, Expr] = {}  # unmarked runs of each length reaching the previous position
    marked: dict[int, Expr] = {}  # marked runs of each length reaching the previous position
    for index, p in enumerate(positions):
        card = card_of(rank_at(p), suit)
        most = bounds.most(card)
        hand_most = min(most, origins.from_hand.most(card))
        # A table piece leaves a run unmarked: only worth a variable if a hand piece can follow.
        table_most = min(most, origins.from_table.most(card)) if can_meet[p] else 0
        first = first_runs(bounds, suit, positions[index : index + length], length)
        start = Split(count("st", p, min(first, table_most)), count("sh", p, min(first, hand_most)))
        next_unmarked: dict[int, list[Expr]] = {1: [start.from_table]}
        next_marked: dict[int, list[Expr]] = {1: [start.from_hand]}
        moves: dict[int, Split[Expr]] = {}
        for run_length, runs in unmarked.items():
            if is_zero(runs):
                continue
            move = _going_on(
                model,
                runs,
                functools.partial(count, f"ut{run_length}", p, table_most) if table_most else None,
                functools.partial(count, f"uh{run_length}", p, hand_most) if hand_most else None,
            )
            if move is None:
                continue
            next_unmarked.setdefault(min(run_length + 1, cap), []).append(move.from_table)
            next_marked.setdefault(min(run_length + 1, length), []).append(move.from_hand)
            moves[run_length] = move
        going: dict[int, Expr] = {}
        for run_length, runs in marked.items():
            if is_zero(runs):
                continue
            if run_length < length:
                # An incomplete run must go on: the runs arriving are those going on.
                if not most:
                    model.add(runs == 0)
                    continue
                on: Expr = runs
            else:
                on = count(f"m{run_length}", p, most)
                model.add(on <= runs)
            going[run_length] = on
            next_marked.setdefault(min(run_length + 1, length), []).append(on)
        marked_on = sum(going.values())
        marked_hand = count("mh", p, hand_most) if not is_zero(marked_on) else 0
        if not is_zero(marked_hand):
            model.add(marked_hand <= marked_on)
        steps[p] = _step(start, moves, going, marked_hand)
        unmarked = {key: sum(parts) for key, parts in next_unmarked.items()}
        marked = {key: sum(parts) for key, parts in next_marked.items()}
    # Nothing may be left unfinished past the last position, nor a run without a hand piece.
    for runs in [*unmarked.values(), *(runs for key, runs in marked.items() if key < length)]:
        if not is_zero(runs):
            model.add(runs == 0)
    return steps


def _going_on(
    model: CpModel,
    runs: Expr,
    table: Callable[[], Expr] | None,
    hand: Callable[[], Expr] | None,
) -> Split[Expr] | None:
    """Unmarked ``runs``, which must all go on, split by the origin of their next piece: ``table``
    and ``hand`` make each count (None where no piece of that origin can come). Where only one
    origin can come, the runs arriving are those taking it, no variable; where none can, there
    are no such runs (None)."""
    if table is None or hand is None:
        if table is None and hand is None:
            model.add(runs == 0)
            return None
        return Split(runs, 0) if hand is None else Split(0, runs)
    move = Split(table(), hand())
    model.add(move.from_table + move.from_hand == runs)
    return move


def _can_meet_hand(
    positions: range, suit: int, bounds: PieceBounds, hand_bounds: PieceBounds
) -> dict[int, bool]:
    """Whether a run unmarked after each position can still meet a hand piece: some later
    position where the hand can show the card, with every position up to it showable."""
    can_meet: dict[int, bool] = {}
    later = False
    for p in reversed(positions):
        can_meet[p] = later
        card = card_of(rank_at(p), suit)
        later = bool(bounds.most(card)) and (hand_bounds.most(card) > 0 or later)
    return can_meet


def _step(
    start: Split[Expr], moves: dict[int, Split[Expr]], going: dict[int, Expr], marked_hand: Expr
) -> MarkedStep:
    """One position's counts, with the pieces they take there in all and from the hand."""
    to_mark = sum(move.from_hand for move in moves.values())
    return MarkedStep(
        start=start,
        unmarked=moves,
        marked=going,
        marked_hand=marked_hand,
        pieces=start.from_table
        + start.from_hand
        + sum(move.from_table for move in moves.values())
        + to_mark
        + sum(going.values()),
        hand_pieces=start.from_hand + to_mark + marked_hand,
    )
