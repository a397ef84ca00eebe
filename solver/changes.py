"""Describe a rearrangement as steps a person can follow.

Old melds are matched to new ones by the cards they share (a maximum-weight matching, networkx), so
a run that grew is recognised as the same run. Then each piece is traced to where it came from (its
old meld, or the hand) and only what moved is described.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

from solver.cards import Joker, Piece, piece_sort_key
from solver.melds import judge_meld
from solver.notation import Meld, format_pieces
from solver.rules import RuleSet

HAND = -1


@dataclass(frozen=True)
class Rearrangement:
    """The new table in readable order and the steps that lead to it.

    ``table`` lists each old meld's successor in the old order, then the new melds; ``changed``
    holds the indices (into ``table``) of melds that are new or differ from their old meld, ``new``
    those of melds with no old meld at all.
    """

    table: tuple[Meld, ...]
    changed: tuple[int, ...]
    new: tuple[int, ...]
    steps: tuple[str, ...]


def _identity(piece: Piece) -> Piece:
    """What a piece is physically: a real card, or a joker (whatever it declares)."""
    return Joker() if isinstance(piece, Joker) else piece


def match_melds(old: Sequence[Meld], new: Sequence[Meld]) -> dict[int, int]:
    """Pair old melds with new ones to maximise the cards they share (old index -> new index)."""
    graph = nx.Graph()
    for i, before in enumerate(old):
        have = Counter(map(_identity, before))
        for k, after in enumerate(new):
            shared = sum((have & Counter(map(_identity, after))).values())
            if shared:
                # Doubling the weight and adding one for an identical meld keeps unchanged melds
                # paired with themselves when several pairings share as many cards.
                same = Counter(before) == Counter(after)
                graph.add_edge(("old", i), ("new", k), weight=2 * shared + int(same))
    pairs: dict[int, int] = {}
    for left, right in nx.max_weight_matching(graph):
        old_node, new_node = (left, right) if left[0] == "old" else (right, left)
        pairs[old_node[1]] = new_node[1]
    return pairs


def describe(
    old: Sequence[Meld], new: Sequence[Meld], played: Sequence[Piece], rules: RuleSet
) -> Rearrangement:
    """Order the new table after the old one and say what moved where."""
    pairs = match_melds(old, new)
    order = [pairs[i] for i in range(len(old)) if i in pairs]
    unmatched = sorted(
        (k for k in range(len(new)) if k not in order),
        key=lambda k: [piece_sort_key(piece) for piece in new[k]],
    )
    order.extend(unmatched)
    table = tuple(new[k] for k in order)
    successor = {i: order.index(k) for i, k in pairs.items()}
    origins = _trace_origins(old, table, played, successor)
    changed = tuple(
        position
        for position, meld in enumerate(table)
        if any(origin != _predecessor(successor, position) for origin in origins[position])
        or _lost_pieces(old, table, successor, position)
    )
    steps = _steps(old, table, origins, successor, rules)
    new_melds = tuple(range(len(table) - len(unmatched), len(table)))
    return Rearrangement(table, changed, new_melds, steps)


def _predecessor(successor: dict[int, int], position: int) -> int | None:
    return next((i for i, k in successor.items() if k == position), None)


def _lost_pieces(
    old: Sequence[Meld], table: Sequence[Meld], successor: dict[int, int], position: int
) -> bool:
    before = _predecessor(successor, position)
    return before is not None and Counter(old[before]) != Counter(table[position])


def _trace_origins(
    old: Sequence[Meld],
    table: Sequence[Meld],
    played: Sequence[Piece],
    successor: dict[int, int],
) -> list[list[int]]:
    """For each piece of each new meld, the old meld it came from, or ``HAND``."""
    left: dict[int, Counter[Piece]] = {
        i: Counter(map(_identity, meld)) for i, meld in enumerate(old)
    }
    left[HAND] = Counter(map(_identity, played))
    origins: list[list[int]] = [[] for _ in table]
    predecessor = {k: i for i, k in successor.items()}
    for position, meld in enumerate(table):
        for piece in meld:
            identity = _identity(piece)
            # A piece stays in its own meld where it can; then comes from the hand; then moves.
            candidates = [predecessor.get(position), HAND, *range(len(old))]
            source = next(c for c in candidates if c is not None and left[c][identity] > 0)
            left[source][identity] -= 1
            origins[position].append(source)
    return origins


def _steps(
    old: Sequence[Meld],
    table: Sequence[Meld],
    origins: list[list[int]],
    successor: dict[int, int],
    rules: RuleSet,
) -> tuple[str, ...]:
    notation = rules.notation

    def label(position: int) -> str:
        before = _predecessor(successor, position)
        now = format_pieces(table[position], notation)
        if before is None:
            kind = judge_meld(table[position], rules).kind
            return f"a new {kind.value if kind else 'meld'} {now}"
        return f"{format_pieces(old[before], notation)} (now {now})"

    moves: defaultdict[tuple[int, int], list[Piece]] = defaultdict(list)
    for position, meld in enumerate(table):
        home = _predecessor(successor, position)
        for piece, source in zip(meld, origins[position], strict=True):
            if source != home:
                moves[source, position].append(piece)
    steps = []
    for (source, position), pieces in sorted(moves.items(), key=lambda item: item[0][1]):
        cards = format_pieces(pieces, notation)
        if source == HAND:
            steps.append(f"play {cards} from the hand to {label(position)}")
        else:
            verb = "leaves" if len(pieces) == 1 else "leave"
            steps.append(
                f"{cards} {verb} {format_pieces(old[source], notation)} for {label(position)}"
            )
    return tuple(steps)
