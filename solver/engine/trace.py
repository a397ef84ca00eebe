"""Trace melds out of the model's counts: groups from shape counts, sequences along the ranks.

These are plain functions of numbers, so the model's extraction stays short and testable.
"""

from __future__ import annotations

import enum

from meldsat.cards import Card, card_of
from meldsat.rules import RuleSet

SEQUENCE_END = 14  # the ace above the king


class Origin(enum.Enum):
    """Where the piece filling a slot must come from."""

    ANY = "any"
    HAND = "hand"
    TABLE = "table"


Slot = tuple[Card, Origin]


def card_at(position: int) -> int:
    """The rank at a sequence position: 1-13 as they are, 14 is the ace above the king."""
    return position if position <= 13 else 1


def sequence_positions(rules: RuleSet) -> range:
    """The positions a sequence may use: from the low ace (or the 2) to the high ace (or king)."""
    return range(1 if rules.ace_low else 2, (SEQUENCE_END if rules.ace_high else 13) + 1)


def trace_groups(shapes: dict[tuple[int, tuple[int, ...]], int]) -> list[list[Card]]:
    """One group per counted shape (a rank and its suits)."""
    return [
        [card_of(rank, suit) for suit in suits]
        for (rank, suits), count in sorted(shapes.items())
        for _ in range(count)
    ]


def trace_runs(
    starts: dict[tuple[int, int], int],
    going_on: dict[tuple[int, int], int],
    rules: RuleSet,
) -> list[list[Card]]:
    """The sequences of every suit from the counts of runs started and going on at each position.

    Where some complete runs go on and others end, the longest go on: a deterministic choice.
    """
    runs: list[list[Card]] = []
    for suit in range(4):
        active: list[list[int]] = []
        for p in sequence_positions(rules):
            incomplete = [run for run in active if len(run) < rules.run_min]
            complete = [run for run in active if len(run) >= rules.run_min]
            continuing = going_on.get((suit, p), 0)
            runs.extend([card_of(card_at(q), suit) for q in run] for run in complete[continuing:])
            active = incomplete + complete[:continuing]
            for run in active:
                run.append(p)
            active.extend([p] for _ in range(starts.get((suit, p), 0)))
            active.sort(key=lambda run: (-len(run), run[0]))
        runs.extend([card_of(card_at(q), suit) for q in run] for run in active)
    return runs
