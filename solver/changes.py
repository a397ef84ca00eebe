"""Describe a rearrangement as steps a person can follow.

Old melds are matched to new ones by the cards they share (a maximum-weight matching), so
a run that grew is recognised as the same run. Then each piece is traced to where it came from (its
old meld, or the hand) and only what moved is described. Jokers are traced by the rules: a table
joker keeps its card wherever the new table still has a joker standing for it.
"""

from __future__ import annotations

import functools
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar, overload

from meldsat.cards import (
    Card,
    Joker,
    Notation,
    Piece,
    count_pieces,
    piece_sort_key,
    represented_card,
)
from meldsat.group_jokers import group_joker_pairs
from meldsat.matching import max_weight_matching
from meldsat.melds import meld_kind
from meldsat.notation import Meld, format_pieces
from meldsat.rules import RuleSet

HAND = -1

S = TypeVar("S")


@dataclass(frozen=True)
class Move:
    """One step as data: ``pieces`` go from old meld ``source`` (or ``HAND``) to meld ``target``.

    ``target`` indexes the new table. A joker's new declaration is a step too: ``was`` is the card
    it stood for in its old meld ``source``, ``pieces`` the joker as it stands now.
    """

    source: int
    target: int
    pieces: Meld
    was: Card | None = None


@dataclass(frozen=True)
class Rearrangement:
    """The new table in readable order and the steps that lead to it.

    ``table`` lists each old meld's successor in the old order, then the new melds; ``changed``
    holds the indices (into ``table``) of melds that are new or differ from their old meld, ``new``
    those of melds with no old meld at all. ``moves`` holds each step as data, one per step, so a
    front end can show which pieces move.
    """

    table: tuple[Meld, ...]
    changed: tuple[int, ...]
    new: tuple[int, ...]
    steps: Sequence[str]
    moves: Sequence[Move] = ()


class LazyTuple(Sequence[S]):
    """A tuple worked out when first read: the steps of a rearrangement, in words and as data.

    Only people and front ends read them, so a bot or a simulation that never looks pays nothing
    for them. They compare, hash and print as the tuple they are.
    """

    def __init__(self, work: Callable[[], tuple[S, ...]]) -> None:
        self._work: Callable[[], tuple[S, ...]] = functools.cache(work)

    @overload
    def __getitem__(self, index: int) -> S: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[S, ...]: ...

    def __getitem__(self, index: int | slice) -> S | tuple[S, ...]:
        return self._work()[index]

    def __len__(self) -> int:
        return len(self._work())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyTuple):
            return self._work() == other._work()
        return self._work() == other

    def __hash__(self) -> int:
        return hash(self._work())

    def __repr__(self) -> str:
        return repr(self._work())


def match_melds(old: Sequence[Meld], new: Sequence[Meld]) -> dict[int, int]:
    """Pair old melds with new ones (old index -> new index).

    A meld left exactly as it was pairs with itself; the others are paired to maximise the cards
    they share (a maximum-weight matching, ``meldsat.matching``). Most of a table is usually
    untouched, which keeps the matching small.
    """
    return _pair_melds(old, new)[0]


def _pair_melds(old: Sequence[Meld], new: Sequence[Meld]) -> tuple[dict[int, int], set[int]]:
    """:func:`match_melds`, and the old melds it paired with themselves (left exactly as they
    were)."""
    pairs: dict[int, int] = {}
    unchanged: dict[Meld, list[int]] = defaultdict(list)
    for k, after in enumerate(new):
        unchanged[_sorted_meld(tuple(after))].append(k)
    for i, before in enumerate(old):
        same = unchanged.get(_sorted_meld(tuple(before)))
        if same:
            pairs[i] = same.pop(0)
    exact = set(pairs)
    taken = set(pairs.values())
    rest_new = {k: count_pieces(new[k]) for k in range(len(new)) if k not in taken}
    edges: dict[tuple[int, int], int] = {}
    for i, before in enumerate(old):
        if i in pairs:
            continue
        have = count_pieces(before)
        for k, cards in rest_new.items():
            shared = (have & cards).total()
            if shared:
                edges[i, k] = shared
    pairs.update(_best_pairs(edges))
    return pairs, exact


@functools.lru_cache(maxsize=4096)
def _sorted_meld(meld: Meld) -> Meld:
    """The pieces of ``meld`` in card order: a meld's key, worked out once a process (the same
    melds come back in every hint of a game)."""
    return tuple(sorted(meld, key=piece_sort_key))


def _best_pairs(edges: dict[tuple[int, int], int]) -> dict[int, int]:
    """A maximum-weight matching of old to new melds over ``edges`` (weight = cards shared)."""
    olds = Counter(i for i, _ in edges)
    news = Counter(k for _, k in edges)
    if all(count == 1 for count in (olds + news).values()):
        return dict(edges)  # no meld has a choice of partner: every edge is in the matching
    return max_weight_matching(edges)


def describe(
    old: Sequence[Meld], new: Sequence[Meld], played: Sequence[Piece], rules: RuleSet
) -> Rearrangement:
    """Order the new table after the old one and say what moved where."""
    pairs, exact = _pair_melds(old, new)
    order = [pairs[i] for i in range(len(old)) if i in pairs]
    matched = set(order)
    unmatched = sorted(
        (k for k in range(len(new)) if k not in matched),
        key=lambda k: [piece_sort_key(piece) for piece in new[k]],
    )
    table = tuple(new[k] for k in [*order, *unmatched])
    # The old meld each meld of the new table grew out of (None for a new meld).
    home: list[int | None] = [i for i in range(len(old)) if i in pairs]
    home.extend(None for _ in unmatched)
    # A meld paired with itself is unchanged; the others are compared piece by piece.
    changed = tuple(
        position
        for position, before in enumerate(home)
        if before is None
        or (before not in exact and Counter(old[before]) != Counter(table[position]))
    )

    def work() -> tuple[tuple[Move, ...], tuple[str, ...]]:
        jokers = _trace_jokers(old, table, played, home)
        origins = _trace_origins(old, table, played, home, jokers)
        moves = _moves(table, origins, home) + _redeclarations(table, jokers)
        return moves, tuple(_step_text(move, old, table, home, rules) for move in moves)

    # Worked out once, when either the steps or the moves are first read.
    detail = functools.cache(work)
    new_melds = tuple(range(len(order), len(table)))
    return Rearrangement(
        table,
        changed,
        new_melds,
        steps=LazyTuple(lambda: detail()[1]),
        moves=LazyTuple(lambda: detail()[0]),
    )


# Where a joker of the new table came from: its old meld (or ``HAND``) and the card it stood for
# there (None from the hand), by its place (meld of the new table, index in that meld).
JokerOrigins = dict[tuple[int, int], tuple[int, Card | None]]


def _trace_origins(
    old: Sequence[Meld],
    table: Sequence[Meld],
    played: Sequence[Piece],
    home: list[int | None],
    jokers: JokerOrigins,
) -> list[list[int]]:
    """For each piece of each new meld, the old meld it came from, or ``HAND``.

    Jokers come from ``jokers`` (:func:`_trace_jokers`); real cards are traced here.
    """
    left: dict[int, Counter[Piece]] = {i: count_pieces(meld) for i, meld in enumerate(old)}
    left[HAND] = count_pieces(played)
    origins: list[list[int]] = [[] for _ in table]
    for position, meld in enumerate(table):
        # A card stays in its own meld where it can; then comes from the hand; then moves.
        candidates = [source for source in (home[position], HAND) if source is not None]
        candidates.extend(range(len(old)))
        for index, piece in enumerate(meld):
            if isinstance(piece, Joker):
                origins[position].append(jokers[position, index][0])
                continue
            source = next(c for c in candidates if left[c][piece] > 0)
            left[source][piece] -= 1
            origins[position].append(source)
    return origins


def _trace_jokers(
    old: Sequence[Meld], table: Sequence[Meld], played: Sequence[Piece], home: list[int | None]
) -> JokerOrigins:
    """Trace each joker of the new table to a joker of the old table or of the hand.

    Jokers are interchangeable, so the pieces alone cannot tell which went where; the tracing
    must follow the rules (docs/RULES.md, rule 4): a table joker keeps the card it stood for
    wherever the new table still has a joker declared so, and only the others were freed. So
    the tracing is a maximum-weight matching: first the most table jokers keep their card (as
    many as the rule checker counts), then the most stay in their own meld; the hand's jokers
    and the freed ones take the places left.
    """
    sources: list[tuple[int, Card | None]] = [
        (i, piece.declared)
        for i, meld in enumerate(old)
        for piece in meld
        if isinstance(piece, Joker)
    ]
    sources.extend((HAND, None) for piece in played if isinstance(piece, Joker))
    places = [
        (position, index)
        for position, meld in enumerate(table)
        for index, piece in enumerate(meld)
        if isinstance(piece, Joker)
    ]
    if not places:
        return {}
    # Weights in tiers: keeping the card outweighs every stay together (at most 2 a joker).
    stay, keep = 2, 2 * len(places) + 1
    weights: dict[tuple[int, int], int] = {}
    for s, (source, was) in enumerate(sources):
        for p, (position, index) in enumerate(places):
            now = table[position][index]
            assert isinstance(now, Joker)
            kept = source != HAND and was is not None and was == now.declared
            weights[s, p] = 1 + keep * kept + stay * (source == home[position])
    pairs = max_weight_matching(weights)
    return {places[p]: sources[s] for s, p in pairs.items()}


def _redeclarations(table: Sequence[Meld], jokers: JokerOrigins) -> tuple[Move, ...]:
    """One step for each table joker that stands for another card now."""
    moves = []
    for (position, index), (source, was) in sorted(jokers.items()):
        piece = table[position][index]
        assert isinstance(piece, Joker)
        if source != HAND and was is not None and piece.declared not in (None, was):
            moves.append(Move(source, position, (piece,), was=was))
    return tuple(moves)


def _moves(
    table: Sequence[Meld], origins: list[list[int]], home: list[int | None]
) -> tuple[Move, ...]:
    """The pieces that left their meld (or the hand), grouped by where they came from and went."""
    moved: defaultdict[tuple[int, int], list[Piece]] = defaultdict(list)
    for position, meld in enumerate(table):
        for piece, source in zip(meld, origins[position], strict=True):
            if source != home[position]:
                moved[source, position].append(piece)
    ordered = sorted(moved.items(), key=lambda item: item[0][1])
    return tuple(Move(source, position, tuple(pieces)) for (source, position), pieces in ordered)


def _step_text(
    move: Move,
    old: Sequence[Meld],
    table: Sequence[Meld],
    home: list[int | None],
    rules: RuleSet,
) -> str:
    notation = rules.notation
    if move.was is not None:
        was = move.was.text(notation)
        now = _declared_text(move.pieces[0], rules)
        freed_by = _freed_by(move, old, table, rules)
        return f"the joker that stood for {was} now stands for {now} ({freed_by})"
    before = home[move.target]
    now_text = format_pieces(table[move.target], notation)
    if before is None:
        label = f"a new {meld_kind(table[move.target]).value} {now_text}"
    else:
        label = f"{format_pieces(old[before], notation)} (now {now_text})"
    cards = format_pieces(move.pieces, notation)
    if move.source == HAND:
        return f"play {cards} from the hand to {label}"
    verb = "leaves" if len(move.pieces) == 1 else "leave"
    return f"{cards} {verb} {format_pieces(old[move.source], notation)} for {label}"


def _freed_by(move: Move, old: Sequence[Meld], table: Sequence[Meld], rules: RuleSet) -> str:
    """What freed a redeclared joker: its real card, or (a group of three under Rummikub's rule)
    the card of the other suit the group lacked."""
    assert move.was is not None
    was = move.was.text(rules.notation)
    on_table = {piece for meld in table for piece in meld if isinstance(piece, Card)}
    if move.was in on_table or not rules.group_joker_either_missing:
        return f"the real {was} is on the table"
    # Its own meld first; jokers declared alike are interchangeable, so another group's will do.
    melds = [old[move.source], *old]
    other = next(
        pair[1] for meld in melds for pair in group_joker_pairs(meld) if pair[0] == move.was
    )
    kind = "colour" if rules.notation is Notation.TILES else "suit"
    card = other.text(rules.notation)
    return f"the real {card}, the group's other missing {kind}, is on the table"


def _declared_text(piece: Piece, rules: RuleSet) -> str:
    card = represented_card(piece)
    return card.text(rules.notation) if card is not None else piece.text(rules.notation)
