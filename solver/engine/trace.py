"""Trace melds out of the model's counts: sequences along the positions of each suit.

These are plain functions of numbers, so the model's extraction stays short and testable.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from meldsat.cards import Card, card_of
from meldsat.rules import RuleSet, rank_at


class Origin(enum.Enum):
    """Where the piece filling a slot must come from."""

    ANY = "any"
    HAND = "hand"
    TABLE = "table"


Slot = tuple[Card, Origin]


def trace_runs(
    starts: dict[tuple[int, int], int],
    going_on: dict[tuple[int, int], int],
    rules: RuleSet,
    suits: Iterable[int] = range(4),
) -> list[list[Card]]:
    """The sequences of every suit from the counts of runs started and going on at each position.

    Both counts are keyed by (suit, sequence position). Where some complete runs go on and others
    end, the longest go on: a deterministic choice. ``suits`` may leave out, in order, suits where
    no run starts (they hold none).
    """
    runs: list[list[Card]] = []
    for suit in suits:
        active: list[list[int]] = []
        for p in rules.sequence_positions:
            incomplete = [run for run in active if len(run) < rules.run_min]
            complete = [run for run in active if len(run) >= rules.run_min]
            continuing = going_on.get((suit, p), 0)
            runs.extend([card_of(rank_at(q), suit) for q in run] for run in complete[continuing:])
            active = incomplete + complete[:continuing]
            for run in active:
                run.append(p)
            active.extend([p] for _ in range(starts.get((suit, p), 0)))
            active.sort(key=lambda run: (-len(run), run[0]))
        runs.extend([card_of(rank_at(q), suit) for q in run] for run in active)
    return runs
