"""Every way to cut a final table's sequences into runs: the same solution, other arrangements.

Cutting or joining runs of one suit does not change a solution (``canonical``), but it changes how
many moves reach it: if the table holds ``3H 4H 5H`` and ``6H 7H 8H``, the final ``3H-8H`` is best
left in those two pieces. The step planner tries each arrangement listed here and keeps the one
with the fewest moves.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence

from meldsat.cards import Card, Piece, represented_card
from meldsat.melds import MeldKind, judge_meld
from meldsat.notation import Meld, Table
from meldsat.puzzles.canonical import sequence_places
from meldsat.rules import RuleSet

Interval = tuple[int, int]  # first and last place of a run


def arrangements(final: Sequence[Meld], rules: RuleSet, limit: int) -> list[Table]:
    """Up to ``limit`` arrangements of ``final`` (itself first), its runs cut every other way."""
    groups: list[Meld] = []
    runs: dict[int, list[Meld]] = {}
    for meld in final:
        verdict = judge_meld(meld, rules)
        if verdict.kind is MeldKind.GROUP:
            groups.append(verdict.pieces)
        else:
            card = represented_card(verdict.pieces[0])
            assert card is not None  # judged melds have every joker declared
            runs.setdefault(card.suit, []).append(verdict.pieces)
    suits = sorted(runs)
    pieces_at = {suit: _pieces_by_place(runs[suit]) for suit in suits}
    options = []
    for suit in suits:
        coverage = Counter({place: len(pieces) for place, pieces in pieces_at[suit].items()})
        options.append(list(itertools.islice(_cuts(coverage, rules.run_min, None), limit)))
    found: list[Table] = [tuple(final)]
    seen = {_key(final)}
    for choice in itertools.product(*options):
        if len(found) >= limit:
            break
        table = list(groups)
        for suit, intervals in zip(suits, choice, strict=True):
            table.extend(_fill(intervals, pieces_at[suit]))
        key = _key(table)
        if key not in seen:
            seen.add(key)
            found.append(tuple(table))
    return found


def _key(table: Sequence[Meld]) -> tuple[str, ...]:
    return tuple(sorted(" ".join(map(str, meld)) for meld in table))


def _pieces_by_place(runs: list[Meld]) -> dict[int, list[Piece]]:
    placed: dict[int, list[Piece]] = {}
    for run in runs:
        for piece, place in zip(run, sequence_places(run), strict=True):
            placed.setdefault(place, []).append(piece)
    for pieces in placed.values():
        pieces.sort(key=lambda piece: not isinstance(piece, Card))  # real cards first
    return placed


def _cuts(coverage: Counter[int], run_min: int, bound: Interval | None) -> Iterator[list[Interval]]:
    """Every multiset of runs (each ``run_min`` places or more) covering ``coverage`` exactly.

    The lowest place still covered must start a run; runs starting at the same place are listed
    longest first (``bound``), so each multiset comes once.
    """
    first = min((place for place, count in coverage.items() if count > 0), default=None)
    if first is None:
        yield []
        return
    last = first
    while coverage[last + 1] > 0:
        last += 1
    for end in range(last, first + run_min - 2, -1):
        if bound is not None and bound[0] == first and end > bound[1]:
            continue
        rest = Counter(coverage)
        rest.subtract(range(first, end + 1))
        for more in _cuts(rest, run_min, (first, end)):
            yield [(first, end), *more]


def _fill(intervals: list[Interval], pieces_at: dict[int, list[Piece]]) -> list[Meld]:
    left = {place: list(pieces) for place, pieces in pieces_at.items()}
    return [
        tuple(left[place].pop(0) for place in range(start, end + 1)) for start, end in intervals
    ]
