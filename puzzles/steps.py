"""The solution as moves a person can follow, as few as possible.

A move is one of: play a card from the hand to a meld, move a table card from one meld to another
(or to start a new meld), or split a run into two runs. Each final meld may grow out of one starting
meld of its kind, its *home*: the cards they share in place (for runs, the places both cover; for
groups, the suits both hold) stay where they are and cost nothing; every other card of the final
meld arrives by one move; a run that is home to several final melds is split once for each extra
part (unless a card leaving from between the parts splits it anyway). The homes are chosen by a
small CP-SAT assignment that minimises the number of moves, so the steps are the fewest under this
count for the final arrangement given.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from meldsat.cards import Card, Joker, Piece, piece_sort_key, represented_card
from meldsat.engine.cpsat import CpModel, cp_model
from meldsat.engine.solving import new_solver, run_solver
from meldsat.melds import MeldKind, judge_meld
from meldsat.notation import Meld, format_pieces
from meldsat.puzzles.canonical import sequence_places
from meldsat.rules import RuleSet

HAND = -1


@dataclass(frozen=True)
class Step:
    """One move: ``kind`` is ``play``, ``move`` or ``split``; ``text`` says it in words."""

    kind: str
    pieces: Meld
    source: int  # 1-based starting meld, or HAND
    target: int  # index into the final table (for a split: the part split off)
    text: str


@dataclass(frozen=True)
class Plan:
    """The steps, with what the grade reads off them."""

    steps: tuple[Step, ...]
    home: tuple[int | None, ...]  # for each final meld, the starting meld it grew out of
    flows: tuple[tuple[int, int], ...]  # (starting meld, final meld) for every table card moved

    @property
    def moves(self) -> int:
        """How many moves the steps take."""
        return len(self.steps)

    @property
    def cards_moved(self) -> int:
        """Table cards that change meld (cards played from the hand not counted)."""
        return len(self.flows)


@dataclass(frozen=True)
class _Layout:
    kind: MeldKind
    slots: dict[tuple[int, Piece], int]  # (place or suit, piece as declared) -> count
    key: int  # the suit of a run or the rank of a group


def _layout(meld: Meld, rules: RuleSet) -> _Layout:
    verdict = judge_meld(meld, rules)
    cards = [represented_card(piece) for piece in verdict.pieces]
    first = cards[0]
    assert first is not None and verdict.kind is not None
    slots: Counter[tuple[int, Piece]] = Counter()
    if verdict.kind is MeldKind.GROUP:
        for piece, card in zip(verdict.pieces, cards, strict=True):
            assert card is not None
            slots[card.suit, piece] += 1
        return _Layout(MeldKind.GROUP, dict(slots), first.rank)
    for piece, place in zip(verdict.pieces, sequence_places(verdict.pieces), strict=True):
        slots[place, piece] += 1
    return _Layout(MeldKind.SEQUENCE, dict(slots), first.suit)


def plan_steps(
    table: Sequence[Meld], hand: Sequence[Piece], final: Sequence[Meld], rules: RuleSet
) -> Plan:
    """The fewest moves (as defined above) that turn ``table`` plus ``hand`` into ``final``."""
    old = [_layout(meld, rules) for meld in table]
    new = [_layout(meld, rules) for meld in final]
    shared: dict[tuple[int, int], Counter[tuple[int, Piece]]] = {}
    for i, before in enumerate(old):
        for k, after in enumerate(new):
            if before.kind is after.kind and before.key == after.key:
                common = Counter(before.slots) & Counter(after.slots)
                if common:
                    shared[i, k] = common
    home = _best_homes(old, new, shared, [len(meld) for meld in final])
    return _describe(table, hand, final, home=home, shared=shared, rules=rules)


def _best_homes(
    old: list[_Layout],
    new: list[_Layout],
    shared: dict[tuple[int, int], Counter[tuple[int, Piece]]],
    sizes: list[int],
) -> dict[int, int]:
    """Final meld -> starting meld, minimising moves (CP-SAT; these models are tiny)."""
    if not shared:
        return {}
    model = CpModel()
    chosen = {pair: model.new_bool_var(f"home_{pair}") for pair in shared}
    for k in range(len(new)):
        model.add(sum(var for (_, kk), var in chosen.items() if kk == k) <= 1)
    splits = []
    for i, before in enumerate(old):
        mine = [(k, var) for (ii, k), var in chosen.items() if ii == i]
        if not mine:
            continue
        # Every card of the starting meld stays in at most as many parts as there are copies.
        for slot, count in before.slots.items():
            model.add(sum(var for k, var in mine if shared[i, k][slot]) <= count)
        if before.kind is MeldKind.SEQUENCE:
            # Two parts that touch need a split; a card leaving from between them splits for free.
            for (k1, first), (k2, second) in itertools.combinations(mine, 2):
                if _touching(shared[i, k1], shared[i, k2]):
                    split = model.new_bool_var(f"split_{i}_{k1}_{k2}")
                    model.add(split >= first + second - 1)
                    splits.append(split)
        else:
            model.add(sum(var for _, var in mine) <= 1)
    stays = sum(var * shared[pair].total() for pair, var in chosen.items())
    model.minimize(sum(sizes) - stays + sum(splits))
    solver = new_solver(10.0)
    code = run_solver(solver, model)
    if code != cp_model.OPTIMAL:
        raise RuntimeError(f"the move planner failed: {solver.status_name(code)}")
    return {k: i for (i, k), var in chosen.items() if solver.value(var)}


def _touching(first: Counter[tuple[int, Piece]], second: Counter[tuple[int, Piece]]) -> bool:
    """True when two blocks of one run are next to each other (nothing between them)."""
    places_a = [place for place, _ in first]
    places_b = [place for place, _ in second]
    return max(places_a) + 1 == min(places_b) or max(places_b) + 1 == min(places_a)


def _describe(
    table: Sequence[Meld],
    hand: Sequence[Piece],
    final: Sequence[Meld],
    *,
    home: dict[int, int],
    shared: dict[tuple[int, int], Counter[tuple[int, Piece]]],
    rules: RuleSet,
) -> Plan:
    notation = rules.notation
    old_layout = [_layout(meld, rules) for meld in table]
    new_layout = [_layout(meld, rules) for meld in final]

    def name(pieces: Sequence[Piece]) -> str:
        return format_pieces(pieces, notation)

    def target(k: int) -> str:
        i = home.get(k)
        place = f"meld {i + 1}" if i is not None else "a new meld"
        return f"{place} (to make {name(final[k])})"

    # What stays put, and so what is left to move, in every starting meld and in the hand.
    leaving: dict[int, Counter[Piece]] = {}
    for i, meld in enumerate(old_layout):
        left = _pieces(meld.slots)
        for k, j in home.items():
            if j == i:
                left.subtract(_pieces(shared[i, k]))
        leaving[i] = +left
    # Hand jokers arrive undeclared; they are matched by being jokers.
    hand_left: Counter[Piece] = Counter(hand)
    steps: list[Step] = []
    flows: list[tuple[int, int]] = []
    for i in range(len(table)):
        parts = sorted(
            (k for k, j in home.items() if j == i),
            key=lambda k: min(place for place, _ in shared[i, k]),
        )
        for k1, k2 in itertools.pairwise(parts):
            if not _touching(shared[i, k1], shared[i, k2]):
                continue
            block = [
                p
                for (_, p), n in sorted(shared[i, k2].items(), key=lambda item: item[0][0])
                for _ in range(n)
            ]
            steps.append(
                Step(
                    "split",
                    tuple(block),
                    i + 1,
                    k2,
                    f"split meld {i + 1} ({name(table[i])}) before {piece_name(block[0], rules)}",
                ),
            )
    for k, meld in enumerate(new_layout):
        arriving: Counter[Piece] = _pieces(meld.slots)
        if k in home:
            arriving.subtract(_pieces(shared[home[k], k]))
        for piece in sorted(+arriving, key=piece_sort_key):
            for _ in range(arriving[piece]):
                source = _source(piece, leaving, hand_left)
                if source == HAND:
                    text = f"play {piece_name(piece, rules)} from the hand to {target(k)}"
                    steps.append(Step("play", (piece,), HAND, k, text))
                else:
                    was = _moved_as(piece, leaving[source])
                    leaving[source][was] -= 1
                    flows.append((source, k))
                    redeclared = ""
                    if isinstance(was, Joker) and was != piece:
                        now = represented_card(piece)
                        assert now is not None
                        redeclared = f", now standing for {now.text(notation)}"
                    text = (
                        f"move {piece_name(was, rules)} from meld {source + 1} "
                        f"({name(table[source])}) to {target(k)}{redeclared}"
                    )
                    steps.append(Step("move", (piece,), source + 1, k, text))
    homes = tuple(home.get(k) for k in range(len(final)))
    return Plan(tuple(steps), homes, tuple(flows))


def _pieces(slots: Mapping[tuple[int, Piece], int]) -> Counter[Piece]:
    """The pieces of a meld's slots, however many places show the same piece."""
    pieces: Counter[Piece] = Counter()
    for (_, piece), count in slots.items():
        pieces[piece] += count
    return pieces


def _source(piece: Piece, leaving: dict[int, Counter[Piece]], hand: Counter[Piece]) -> int:
    """Where a piece arriving in a meld comes from: a starting meld that lets it go, or the hand."""
    if isinstance(piece, Joker):
        for i, left in leaving.items():
            if left[piece] > 0:
                return i
        for i, left in leaving.items():
            if any(isinstance(p, Joker) and n > 0 for p, n in left.items()):
                return i
        hand[Joker()] -= 1
        return HAND
    for i, left in leaving.items():
        if left[piece] > 0:
            return i
    hand[piece] -= 1
    return HAND


def _moved_as(piece: Piece, left: Counter[Piece]) -> Piece:
    """The piece as it stood in its starting meld (a joker may have stood for another card)."""
    if left[piece] > 0:
        return piece
    return next(p for p, n in left.items() if n > 0 and isinstance(p, Joker))


def piece_name(piece: Piece, rules: RuleSet) -> str:
    """``7S``, or ``the joker (7S)`` for a declared joker."""
    if isinstance(piece, Joker):
        card: Card | None = piece.declared
        return "the joker" if card is None else f"the joker ({card.text(rules.notation)})"
    return piece.text(rules.notation)
