"""Sequences as a flow along the positions of each suit (after van Rijn, Takes and Vis, 2015).

``start`` runs begin at a position and must go on through ``run_min - 1`` more; a complete run may
go on (``going_on`` at most the complete runs reaching the position before) or end. Position 14 is
the ace above the king (``meldsat.rules``) and shares the ace's pieces with position 1, so
``A-2-...-K-A`` with two decks is one legal run and ``K-A-2`` is not.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from meldsat.cards import Card, card_of
from meldsat.engine.cpsat import CpModel, Expr, Values, cp_model
from meldsat.engine.parts.supply import PieceBounds, card_indexes
from meldsat.engine.trace import Origin, Slot, trace_runs
from meldsat.rules import HIGH_ACE, RuleSet, rank_at

Step = TypeVar("Step")


@dataclass(frozen=True)
class RunStep:
    """One position of one suit: runs starting there, complete runs going on, and ``covering``,
    the variables whose sum is the pieces at this position in runs."""

    start: Expr
    going_on: Expr
    covering: tuple[cp_model.IntVar, ...]

    @property
    def pieces(self) -> Expr:
        """The pieces at this position in runs."""
        return sum(self.covering)


def at_rank(steps: Mapping[int, Step], rank: int, count: Callable[[Step], Expr]) -> Expr:
    """``count`` of one suit's steps at ``rank``: the ace's at both of its positions."""
    used = count(steps[rank]) if rank in steps else 0
    if rank == 1 and HIGH_ACE in steps:
        used = used + count(steps[HIGH_ACE])
    return used


class RunFlow:
    """The run flow of every suit: ``steps[suit][position]``, sized by the pieces there are."""

    def __init__(self, model: CpModel, rules: RuleSet, bounds: PieceBounds) -> None:
        self.rules = rules
        self.steps: list[dict[int, RunStep]] = [
            self._suit_flow(model, rules, suit, bounds) for suit in range(4)
        ]

    @staticmethod
    def _suit_flow(
        model: CpModel, rules: RuleSet, suit: int, bounds: PieceBounds
    ) -> dict[int, RunStep]:
        positions = rules.sequence_positions
        length = rules.run_min
        most = bounds.most
        starts: dict[int, cp_model.IntVar] = {}
        for index, p in enumerate(positions):
            first = first_runs(bounds, suit, positions[index : index + length], length)
            if first:
                starts[p] = model.new_int_var(0, first, f"s_{suit}_{p}")
        steps: dict[int, RunStep] = {}
        # Complete runs reaching the previous position: the start of run_min - 1 positions
        # before it, and those going on through it.
        complete_before: list[cp_model.IntVar] = []
        for p in positions:
            # Runs started in the last run_min positions (complete or not) and complete runs
            # going on hold a piece here.
            started = [starts[p - back] for back in range(length) if p - back in starts]
            complete = [starts[p - length + 1]] if p - length + 1 in starts else []
            here = most(card_of(rank_at(p), suit))
            if complete_before and here:
                going_on = model.new_int_var(0, here, f"c_{suit}_{p}")
                model.add(going_on <= sum(complete_before))
                started.append(going_on)
                complete.append(going_on)
                steps[p] = RunStep(starts.get(p, 0), going_on, tuple(started))
            else:
                steps[p] = RunStep(starts.get(p, 0), 0, tuple(started))
            complete_before = complete
        return steps

    def pieces(self, card: Card) -> Expr:
        """The pieces of ``card`` in runs."""
        return at_rank(self.steps[card.suit], card.rank, lambda step: step.pieces)

    def low_aces(self) -> Expr:
        """Aces played low (first in a run that starts at the ace): 500 rummy counts them less."""
        return sum(steps[1].start for steps in self.steps if 1 in steps)

    def extract(self, values: Values) -> list[list[Card]]:
        """The runs of the solution, every suit, each low to high."""
        starts = {
            (suit, p): values(step.start)
            for suit, steps in enumerate(self.steps)
            for p, step in steps.items()
        }
        going_on = {
            (suit, p): values(step.going_on)
            for suit, steps in enumerate(self.steps)
            for p, step in steps.items()
        }
        return trace_runs(starts, going_on, self.rules)

    def slots(self, values: Values) -> list[list[Slot]]:
        """The runs of the solution, each place fillable by any piece showing its card."""
        return [[(card, Origin.ANY) for card in run] for run in self.extract(values)]


def first_runs(bounds: PieceBounds, suit: int, span: range, length: int) -> int:
    """The most runs of ``suit`` that can start at the first position of ``span``."""
    if len(span) < length:
        return 0
    return bounds.melds_at(_run_cards(suit, span[0], length))


@functools.cache
def _run_cards(suit: int, start: int, length: int) -> tuple[int, ...]:
    """The cards of a run of ``suit`` from sequence position ``start``, by their indexes
    (listed once, reused)."""
    return card_indexes([card_of(rank_at(p), suit) for p in range(start, start + length)])


def is_zero(expr: Expr) -> bool:
    """True when ``expr`` is the constant 0 (no variable was made for it)."""
    return isinstance(expr, int) and expr == 0
