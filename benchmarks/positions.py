"""Seeded random full-table positions for the benchmarks.

A position is a table of 30-100 cards laid out in legal melds (runs and groups, a few of them
holding a declared joker) plus a hand of 10-20 pieces drawn from what is left of the decks. Two
games are covered by :func:`generate`: Rummikub (two sets of tiles 1-13 in four colours and two
jokers, the 1 low only) and Manipulation (two decks and two jokers, the ace high or low). Every
position is built through ``Position.build``, which checks each meld and the number of copies of
each card.

:func:`build_position` makes one position of any rule set whose table may be rearranged, to a
:class:`Shape` (table and hand sizes, jokers, share of groups, how closely the hand fits the
table); the benchmarks use it for positions of stated sizes.

Position ``i`` of a game depends only on ``(game, seed, i)``, so a larger run holds the positions of
a smaller one with the same seed. To write positions as JSONL, from the repository root::

    python -m benchmarks generate --game rummikub --count 200 --seed 1 --out positions.jsonl
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.common.units import program
from meldsat.cards import ALL_CARDS, Card, Joker, Piece, card_pool, represented_card
from meldsat.files import write_text_atomic
from meldsat.position import Position
from meldsat.rules import HIGH_ACE, RuleSet, rank_at
from meldsat.rulesets import get_rules

COMMAND = program("generate")
GAMES = ("rummikub", "manipulation")
TABLE_MIN = 30
TABLE_MAX = 100
HAND_MIN = 10
HAND_MAX = 20
RUN_MAX = 8  # runs are grown to at most this many cards
_NEW_RUN_LENGTHS = (3, 4, 5, 6)
_NEW_RUN_WEIGHTS = (8, 4, 3, 2)
_TABLE_JOKER_WEIGHTS = (3, 4, 3)  # 0, 1 or 2 declared jokers on the table
_BUILD_ATTEMPTS = 200
_RUN_REACH = 2  # a hand card "fits" a run of its suit this many ranks beyond either end


@dataclass(frozen=True)
class Shape:
    """What :func:`build_position` makes: sizes, jokers, and how the table and hand are drawn.

    ``table_size`` and ``hand_size`` count pieces, jokers included. ``table_jokers`` and
    ``hand_jokers`` fix the jokers on the table and in the hand; ``None`` draws them at random
    (0-2 on the table, the hand's with the rest of its pieces). ``group_share`` is the chance that
    a new table meld is a group when a run would also fit. ``related`` is the share of the hand's
    real cards drawn among the cards that fit the table (the rank of a table group, or within two
    ranks of a table run of their suit) while such cards are left.
    """

    table_size: int
    hand_size: int
    table_jokers: int | None = None
    hand_jokers: int | None = None
    group_share: float = 0.4
    related: float = 0.0


@dataclass
class _Meld:
    """A meld under construction: a run (``suit``, ``start``, ``length``) or a group."""

    run: bool
    suit: int = 0
    start: int = 0  # a sequence position (meldsat.rules: 14 is the ace played high)
    length: int = 0
    rank: int = 0
    suits: list[int] = field(default_factory=list)

    def cards(self) -> list[Card]:
        if self.run:
            return list(_run_cards(self.suit, self.start, self.length))
        return list(_group_cards(self.rank, tuple(sorted(self.suits))))


# The card lists of melds, made once: the table is laid by trying every meld the pool can still
# supply, thousands of times a position.
@functools.cache
def _run_cards(suit: int, start: int, length: int) -> tuple[Card, ...]:
    return tuple(Card(rank_at(point), suit) for point in range(start, start + length))


@functools.cache
def _group_cards(rank: int, suits: tuple[int, ...]) -> tuple[Card, ...]:
    return tuple(Card(rank, suit) for suit in suits)


def _bounds(rules: RuleSet) -> tuple[int, int]:
    """The lowest and highest sequence position a run may reach."""
    positions = rules.sequence_positions
    return positions[0], positions[-1]


def _card_key(card: Card) -> int:
    """A card as a small number, cheaper to look up in a set than the card itself."""
    return card.rank * 4 + card.suit


@functools.cache
def _run_keys(suit: int, start: int, length: int) -> frozenset[int]:
    return frozenset(_card_key(card) for card in _run_cards(suit, start, length))


@functools.cache
def _group_keys(rank: int, suits: tuple[int, ...]) -> frozenset[int]:
    return frozenset(_card_key(card) for card in _group_cards(rank, suits))


def _new_melds(rules: RuleSet, pool: Counter[Card], room: int) -> tuple[list[_Meld], list[_Meld]]:
    """Every new run and every new group that the pool can supply and that fits in ``room``
    (fresh melds: the caller grows the one it picks)."""
    low, high = _bounds(rules)
    room = min(room, max(_NEW_RUN_LENGTHS))  # the candidates are the same for any larger room
    # A new meld holds no card twice, so the pool can supply it when none of its cards is used up.
    used_up = {_card_key(card) for card in ALL_CARDS if pool[card] <= 0}
    runs = [
        _Meld(run=True, suit=suit, start=start, length=length)
        for suit, start, length in _run_candidates(low, high, room)
        if used_up.isdisjoint(_run_keys(suit, start, length))
    ]
    groups = [
        _Meld(run=False, rank=rank, suits=list(suits))
        for rank, suits in _group_candidates(room)
        if used_up.isdisjoint(_group_keys(rank, suits))
    ]
    return runs, groups


@functools.cache
def _run_candidates(low: int, high: int, room: int) -> tuple[tuple[int, int, int], ...]:
    """(suit, start, length) of every new run that fits in ``room``, in the order drawn from."""
    return tuple(
        (suit, start, length)
        for length in _NEW_RUN_LENGTHS
        if length <= room
        for suit in range(4)
        for start in range(low, high - length + 2)
    )


@functools.cache
def _group_candidates(room: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(rank, suits) of every new group that fits in ``room``, in the order drawn from."""
    groups = [
        (rank, tuple(suit for suit in range(4) if suit != left_out))
        for rank in range(1, 14)
        for left_out in range(4)
    ]
    if room >= 4:
        groups += [(rank, (0, 1, 2, 3)) for rank in range(1, 14)]
    return tuple((rank, suits) for rank, suits in groups if len(suits) <= room)


def meld_options(rules: RuleSet, pool: Counter[Card]) -> list[list[Card]]:
    """Every new run (3-6 cards) and group that the cards of ``pool`` can make, as card lists."""
    runs, groups = _new_melds(rules, pool, max(_NEW_RUN_LENGTHS))
    return [meld.cards() for meld in (*runs, *groups)]


def _extensions(
    rules: RuleSet, pool: Counter[Card], melds: Sequence[_Meld]
) -> list[tuple[int, Card, bool]]:
    """Every one-card extension of a table meld: (meld index, card added, added below a run)."""
    low, high = _bounds(rules)
    found: list[tuple[int, Card, bool]] = []
    for index, meld in enumerate(melds):
        if meld.run:
            if meld.length >= RUN_MAX:
                continue
            for point, below in ((meld.start - 1, True), (meld.start + meld.length, False)):
                if low <= point <= high and pool[Card(rank_at(point), meld.suit)] > 0:
                    found.append((index, Card(rank_at(point), meld.suit), below))
        elif len(meld.suits) < rules.group_max:
            for suit in range(4):
                card = Card(meld.rank, suit)
                if suit not in meld.suits and pool[card] > 0:
                    found.append((index, card, False))
    return found


def _extend(meld: _Meld, card: Card, below: bool) -> None:
    if not meld.run:
        meld.suits.append(card.suit)
        return
    if below:
        meld.start -= 1
    meld.length += 1


def _take(pool: Counter[Card], cards: Iterable[Card]) -> None:
    for card in cards:
        pool[card] -= 1


def _lay_table(
    rng: random.Random, rules: RuleSet, target: int, group_share: float = 0.4
) -> list[_Meld] | None:
    """Random melds from a full pool until the table holds ``target`` cards (None if stuck)."""
    pool = card_pool(rules.copies)
    melds: list[_Meld] = []
    size = 0
    while size < target:
        room = target - size
        chosen: _Meld | None = None
        if room >= 3 and (not melds or rng.random() < 0.7):
            chosen = _pick_new(rng, rules, pool, room, group_share)
        if chosen is not None:
            melds.append(chosen)
            cards = chosen.cards()
            _take(pool, cards)
            size += len(cards)
            continue
        options = _extensions(rules, pool, melds)
        if not options:
            if room >= 3:
                chosen = _pick_new(rng, rules, pool, room, group_share)
            if chosen is None:
                return None
            melds.append(chosen)
            _take(pool, chosen.cards())
            size += len(chosen.cards())
            continue
        index, card, below = rng.choice(options)
        _extend(melds[index], card, below)
        _take(pool, [card])
        size += 1
    return melds


def _pick_new(
    rng: random.Random, rules: RuleSet, pool: Counter[Card], room: int, group_share: float
) -> _Meld | None:
    runs, groups = _new_melds(rules, pool, room)
    if runs and (not groups or rng.random() < 1 - group_share):
        lengths = sorted({meld.length for meld in runs})
        weights = [_NEW_RUN_WEIGHTS[_NEW_RUN_LENGTHS.index(length)] for length in lengths]
        length = rng.choices(lengths, weights)[0]
        return rng.choice([meld for meld in runs if meld.length == length])
    if groups:
        return rng.choice(groups)
    return None


def generate_position(game: str, seed: int, index: int) -> Position:
    """Position ``index`` of ``game`` for ``seed``: a full legal table and a hand from the rest."""
    rules = get_rules(game)
    rng = random.Random(f"meldsat-bench/{game}/{seed}/{index}")
    total = 52 * rules.decks + rules.jokers
    hand_size = rng.randint(HAND_MIN, HAND_MAX)
    target = rng.randint(TABLE_MIN, min(TABLE_MAX, total - hand_size))
    return build_position(rules, rng, Shape(target, hand_size))


def build_position(rules: RuleSet, rng: random.Random, shape: Shape) -> Position:
    """A random position of ``rules`` with exactly the sizes and jokers ``shape`` states.

    Raises ``ValueError`` when the decks cannot hold the shape (too many pieces or jokers) and
    ``RuntimeError`` when no table of that size could be laid in a few hundred attempts.
    """
    _check_shape(rules, shape)
    for _ in range(_BUILD_ATTEMPTS):
        melds = _lay_table(rng, rules, shape.table_size, shape.group_share)
        if melds is not None:
            break
    else:
        raise RuntimeError(f"could not lay a table of {shape.table_size} cards for {rules.name}")
    table: list[list[Piece]] = [list(meld.cards()) for meld in melds]
    pool = card_pool(rules.copies)
    for meld in table:
        _take(pool, (piece for piece in meld if isinstance(piece, Card)))
    spare = rules.jokers - (shape.hand_jokers or 0)
    if shape.table_jokers is None:
        jokers = min(spare, rng.choices(range(3), _TABLE_JOKER_WEIGHTS)[0])
        if shape.hand_jokers is not None:
            # A hand of fixed jokers needs enough real cards left: jokers on the table free some.
            real_left = 52 * rules.decks - shape.table_size
            jokers = max(jokers, shape.hand_size - shape.hand_jokers - real_left)
    else:
        jokers = shape.table_jokers
    for _ in range(jokers):
        meld = rng.choice(table)
        spots = [i for i, piece in enumerate(meld) if isinstance(piece, Card)]
        spot = rng.choice(spots)
        card = meld[spot]
        assert isinstance(card, Card)
        meld[spot] = Joker(card)
        pool[card] += 1  # the real card is free again: it may be drawn into the hand
    if shape.hand_jokers is None and not shape.related:
        # The original draw, kept as it was so that seeded positions stay the same.
        rest: list[Piece] = sorted(pool.elements())
        rest += [Joker()] * (rules.jokers - jokers)
        hand = rng.sample(rest, shape.hand_size)
    else:
        hand = _draw_hand(rng, rules, melds, pool, shape, jokers_left=rules.jokers - jokers)
    return Position.build(rules, table, hand, initial=False)


def _check_shape(rules: RuleSet, shape: Shape) -> None:
    total = 52 * rules.decks + rules.jokers
    if shape.table_size < rules.run_min or shape.hand_size < 1:
        raise ValueError(
            f"a table of {shape.table_size} and a hand of {shape.hand_size} is too small"
        )
    if shape.table_size + shape.hand_size > total:
        raise ValueError(
            f"{rules.name} holds {total} pieces: no table of {shape.table_size} "
            f"with a hand of {shape.hand_size}"
        )
    fixed = (shape.table_jokers or 0) + (shape.hand_jokers or 0)
    if fixed > rules.jokers or (shape.hand_jokers or 0) > shape.hand_size:
        raise ValueError(f"{rules.name} has {rules.jokers} jokers, the shape asks for {fixed}")


def fitting_cards(rules: RuleSet, table: Sequence[Sequence[Piece]]) -> set[Card]:
    """Cards that fit a table: the rank of a group on it, or near a run of their suit."""
    low, high = _bounds(rules)
    found: set[Card] = set()
    for meld in table:
        cards = [card for card in map(represented_card, meld) if card is not None]
        if len({card.rank for card in cards}) == 1:
            found.update(Card(cards[0].rank, suit) for suit in range(4))
            continue
        suit = cards[0].suit
        points = [_point(card, rules, cards) for card in cards]
        for point in range(min(points) - _RUN_REACH, max(points) + _RUN_REACH + 1):
            if low <= point <= high:
                found.add(Card(rank_at(point), suit))
    return found


def _point(card: Card, rules: RuleSet, run: Sequence[Card]) -> int:
    """A run card's sequence position (an ace is high in a run that holds a king)."""
    if card.rank == 1 and rules.ace_high and any(other.rank == 13 for other in run):
        return HIGH_ACE
    return card.rank


def _draw_hand(
    rng: random.Random,
    rules: RuleSet,
    melds: Sequence[_Meld],
    pool: Counter[Card],
    shape: Shape,
    *,
    jokers_left: int,
) -> list[Piece]:
    """A hand of ``shape.hand_size``: its jokers, a share of fitting cards, the rest at random."""
    jokers = jokers_left if shape.hand_jokers is None else shape.hand_jokers
    cards = sorted(pool.elements())
    if shape.hand_jokers is None:
        # Jokers join the draw like any card.
        drawn = rng.sample([*cards, *([None] * jokers)], shape.hand_size)
        jokers = drawn.count(None)
    real = shape.hand_size - jokers
    fits = fitting_cards(rules, [meld.cards() for meld in melds])
    fitting = [card for card in cards if card in fits]
    wanted = min(len(fitting), round(shape.related * real))
    hand: list[Card] = rng.sample(fitting, wanted)
    left = Counter(cards) - Counter(hand)
    hand += rng.sample(sorted(left.elements()), real - wanted)
    return [*hand, *([Joker()] * jokers)]


def generate(game: str, count: int, seed: int) -> Iterator[tuple[str, Position]]:
    """``count`` positions of ``game`` with their ids (``rummikub-1-0``, ...)."""
    if game not in GAMES:
        raise ValueError(f"unknown game '{game}' (choose from {', '.join(GAMES)})")
    for index in range(count):
        yield f"{game}-{seed}-{index}", generate_position(game, seed, index)


def position_record(ident: str, position: Position) -> dict[str, object]:
    """A JSON object for one position: its id and ``Position.to_json()``."""
    return {"id": ident, **position.to_json()}


def write_jsonl(records: Iterable[tuple[str, Position]], path: Path | None) -> None:
    """Write positions one JSON object a line, to ``path`` (atomically) or to standard output."""
    lines = [json.dumps(position_record(ident, position)) for ident, position in records]
    text = "".join(line + "\n" for line in lines)
    if path is None:
        sys.stdout.write(text)
    else:
        write_text_atomic(path, text)


def main(argv: Sequence[str]) -> int:
    """Write the positions the options name."""
    parser = argparse.ArgumentParser(
        prog=COMMAND, description="Write seeded random full-table positions."
    )
    parser.add_argument("--game", choices=GAMES, default="rummikub")
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="JSONL file (default: stdout)")
    args = parser.parse_args(argv)
    write_jsonl(generate(args.game, args.count, args.seed), args.out)
    return 0
