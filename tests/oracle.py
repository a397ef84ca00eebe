"""A brute-force oracle for the best play, written independently of the CP-SAT engine.

It answers the same question as ``meldsat.engine.search.best_play`` by plain enumeration, for
small positions (up to about a dozen pieces in all):

1. every non-empty sub-multiset ``P`` of the hand is a candidate play, tried best objective first;
2. for a candidate, a depth-first search splits all table pieces plus ``P`` into legal melds,
   declaring every joker: it always places the smallest remaining piece, trying every legal meld
   shape that holds it and every way of filling the shape from the remaining pieces; it is memoised
   on the sorted multiset of remaining pieces (plus the small bookkeeping below);
3. among the splits it takes one keeping the most original melds (each final meld may match one
   original meld not matched yet; matching is by equal keys, so taking a match whenever one is
   there counts the multiset intersection exactly).

Rules enforced (the readings of docs/RULES.md):

- every table piece stays on the table and every final meld is a legal group or sequence;
- joker locking, counted per card ``c``: ``max(0, J_before(c) - J_after(c))`` is at most the number
  of real ``c`` on the final table (``J_before`` counts table jokers declared ``c`` before the play,
  ``J_after`` every joker declared ``c`` after it; jokers in hand are wild);
- Rummikub's group jokers (``rules.group_joker_either_missing``): a table joker declared ``c`` in a
  group of three may instead be freed by a real card of the suit that group lacks, each real card
  freeing one joker; every choice of how many jokers each such card frees is tried;
- Rummikub's initial meld (``position.initial`` and ``rules.initial_meld_points > 0``): the table is
  untouched and ``P`` alone forms new melds worth at least the threshold, a joker counting as the
  rank value of the card it declares;
- 500 rummy (``rules.new_meld_needs_hand_card``): every final meld that is not an original meld
  kept unchanged (identical, joker declarations included) holds at least one piece from ``P``.
  Pieces carry their origin (table or hand) in the search so that this can be checked; identical
  pieces of the same origin are interchangeable.

Two notions of "kept" are offered for the tie-break: ``IDENTICAL`` (the same pieces, each joker with
the same declaration) and ``SAME_CARDS`` (the meld shows the same cards, a joker and the real card
it stands for being equal), the engine's notion.

The only library code used is the domain types (cards, rule-set fields, positions): no meld checker,
no model. Meld shapes are built here from the definition (one rank and distinct suits, or one suit
and consecutive ranks with the ace low and/or high).
"""

from __future__ import annotations

import enum
import itertools
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from meldsat.cards import Card, Joker, Notation, Piece
from meldsat.notation import Meld, Table, format_pieces, format_table
from meldsat.play import Objective
from meldsat.position import Position
from meldsat.rules import RuleSet

# A card as (rank, suit); an item of the search as (rank, suit, origin), jokers with rank JOKER.
CardKey = tuple[int, int]
Item = tuple[int, int, int]
# One placed piece: the item and the card it stands for (a real card stands for itself).
Placed = tuple[Item, CardKey]
PlacedMeld = tuple[Placed, ...]
# Per card, how many more jokers must still be declared as it (sorted, counts > 0).
Need = tuple[tuple[CardKey, int], ...]
# A table joker in a group of three: the card it is declared as, and the card of the missing suit.
GroupPair = tuple[CardKey, CardKey]
# A meld as a sorted tuple of (rank, suit, 0 for a real card / 1 for a declared joker).
MeldKey = tuple[tuple[int, int, int], ...]
# Original melds not matched yet, as a sorted tuple of keys.
Originals = tuple[MeldKey, ...]
# The best a search state can still do: the melds kept and the melds laid, or None if stuck.
Outcome = tuple[int, tuple[PlacedMeld, ...]] | None

T = TypeVar("T")

JOKER = 99
TABLE_ORIGIN = 0
HAND_ORIGIN = 1


class Kept(enum.Enum):
    """When an original meld counts as kept intact."""

    IDENTICAL = "identical"  # the same pieces, every joker declared as before
    SAME_CARDS = "same-cards"  # the same cards shown: a joker counts as the card it stands for


@dataclass(frozen=True)
class OracleAnswer:
    """The oracle's best play.

    ``value`` is the optimal objective value, ``max_melds_kept`` the most original melds that can
    stay intact (in the notion asked for) among the plays reaching it; ``played`` and ``table`` are
    one such play (a witness: the hand pieces laid, the final table with every joker declared).
    """

    value: int
    max_melds_kept: int
    played: Meld
    table: Table

    def describe(self, notation: Notation = Notation.CARDS) -> str:
        """One line: the value, the melds kept, the play and the witness table."""
        return (
            f"value {self.value}, {self.max_melds_kept} melds kept, plays "
            f"{format_pieces(self.played, notation)} -> {format_table(self.table, notation)}"
        )


# --- meld shapes and meld keys, from the definition ------------------------------------------


def _sequence_windows(rules: RuleSet, length: int) -> set[tuple[int, ...]]:
    """Every list of ``length`` consecutive ranks the rules allow (ace written 1, high or low)."""
    lowest = 1 if rules.ace_low else 2
    highest = 14 if rules.ace_high else 13  # 14 is the ace above the king
    windows = {
        tuple(1 if rank == 14 else rank for rank in range(start, start + length))
        for start in range(lowest, highest - length + 2)
    }
    if rules.wrap_around and length <= 13:
        windows |= {
            tuple((start + step - 1) % 13 + 1 for step in range(length)) for start in range(1, 14)
        }
    return windows


def meld_shapes(rules: RuleSet) -> list[tuple[CardKey, ...]]:
    """Every legal meld as the list of cards its positions stand for."""
    shapes: list[tuple[CardKey, ...]] = []
    for rank in range(1, 14):
        for size in range(rules.group_min, min(rules.group_max, 4) + 1):
            for suits in itertools.combinations(range(4), size):
                shapes.append(tuple((rank, suit) for suit in suits))
    for length in range(rules.run_min, 15):
        for window in sorted(_sequence_windows(rules, length)):
            for suit in range(4):
                shapes.append(tuple((rank, suit) for rank in window))
    return shapes


def meld_key(meld: Sequence[Piece], kept: Kept = Kept.IDENTICAL) -> MeldKey:
    """A meld as an order-free key (``SAME_CARDS``: a declared joker reads as its card)."""
    keys = []
    for piece in meld:
        if isinstance(piece, Card):
            keys.append((piece.rank, piece.suit, 0))
        elif piece.declared is None:
            keys.append((JOKER, JOKER, 2))
        else:
            joker_mark = 1 if kept is Kept.IDENTICAL else 0
            keys.append((piece.declared.rank, piece.declared.suit, joker_mark))
    return tuple(sorted(keys))


def _placed_key(meld: PlacedMeld, kept: Kept) -> MeldKey:
    joker_mark = 1 if kept is Kept.IDENTICAL else 0
    return tuple(
        sorted((card[0], card[1], joker_mark if item[0] == JOKER else 0) for item, card in meld)
    )


def melds_kept(
    before: Sequence[Sequence[Piece]],
    after: Sequence[Sequence[Piece]],
    kept: Kept = Kept.IDENTICAL,
) -> int:
    """How many original melds appear intact in ``after`` (multiset intersection of melds)."""
    common = Counter(meld_key(meld, kept) for meld in before) & Counter(
        meld_key(meld, kept) for meld in after
    )
    return sum(common.values())


# --- the search ------------------------------------------------------------------------------


def _sub_multisets(things: Counter[T], key: Callable[[T], Any]) -> Iterator[Counter[T]]:
    """Every sub-multiset of ``things`` (the empty one and the whole included), in a fixed order."""
    kinds = sorted(things.items(), key=lambda entry: key(entry[0]))
    for counts in itertools.product(*(range(count + 1) for _, count in kinds)):
        yield Counter({thing: n for (thing, _), n in zip(kinds, counts, strict=True) if n})


def _piece_item(piece: Piece, origin: int) -> Item:
    if isinstance(piece, Card):
        return (piece.rank, piece.suit, origin)
    return (JOKER, JOKER, origin)


def _hand_order(piece: Piece) -> Item:
    return _piece_item(piece, TABLE_ORIGIN)


def _placed_piece(placed: Placed) -> Piece:
    (rank, _, _), card = placed
    if rank == JOKER:
        return Joker(Card(*card))
    return Card(*card)


def _meld_value(meld: PlacedMeld, rules: RuleSet) -> int:
    """Initial-meld value: each position counts its card's rank value (jokers included).

    An ace melded low (in a sequence with the 2) counts ``ace_low_meld_value`` where the rules
    give one (500 rummy); the A..K..A sequence holds one low ace.
    """
    ranks = [card[0] for _, card in meld]
    total = sum(rules.rank_values[rank - 1] for rank in ranks)
    is_sequence = len(set(ranks)) > 1
    if rules.ace_low_meld_value is not None and is_sequence and 1 in ranks and 2 in ranks:
        total -= rules.rank_values[0] - rules.ace_low_meld_value
    return total


def _without(keys: Originals, key: MeldKey) -> Originals | None:
    """``keys`` less one copy of ``key``, or ``None`` when ``key`` is not there."""
    if key not in keys:
        return None
    index = keys.index(key)
    return keys[:index] + keys[index + 1 :]


class _Search:
    """The memoised split of a pool of pieces into legal melds, for one position."""

    def __init__(self, rules: RuleSet, needs_hand_piece: bool, kept: Kept) -> None:
        self.rules = rules
        self.needs_hand_piece = needs_hand_piece
        self.kept = kept
        self.shapes = meld_shapes(rules)
        self.shapes_with: dict[CardKey, list[tuple[CardKey, ...]]] = {}
        for shape in self.shapes:
            for card in set(shape):
                self.shapes_with.setdefault(card, []).append(shape)
        self.split_memo: dict[tuple[tuple[Item, ...], Need, Originals, Originals], Outcome] = {}
        self.value_memo: dict[tuple[Item, ...], tuple[int, tuple[PlacedMeld, ...]] | None] = {}

    def fillings(self, pool: tuple[Item, ...], first: Item) -> Iterator[PlacedMeld]:
        """Every distinct legal meld made of ``pool`` pieces that holds the piece ``first``."""
        available = Counter(pool)
        jokers = [item for item in available if item[0] == JOKER]
        if first[0] == JOKER:
            shapes = self.shapes
        else:
            shapes = self.shapes_with.get((first[0], first[1]), [])
        seen: set[PlacedMeld] = set()
        for shape in shapes:
            for meld in self._fill(shape, 0, available, jokers, []):
                if meld in seen:
                    continue
                seen.add(meld)
                if any(item == first for item, _ in meld):
                    yield meld

    def _fill(
        self,
        shape: tuple[CardKey, ...],
        index: int,
        available: Counter[Item],
        jokers: list[Item],
        placed: list[Placed],
    ) -> Iterator[PlacedMeld]:
        if index == len(shape):
            yield tuple(sorted(placed))
            return
        card = shape[index]
        options = [(card[0], card[1], origin) for origin in (TABLE_ORIGIN, HAND_ORIGIN)]
        for item in [*options, *jokers]:
            if available[item] <= 0:
                continue
            available[item] -= 1
            placed.append((item, card))
            yield from self._fill(shape, index + 1, available, jokers, placed)
            placed.pop()
            available[item] += 1

    def split(
        self,
        pool: tuple[Item, ...],
        need: Need,
        unmatched: Originals,
        unchanged: Originals,
    ) -> Outcome:
        """Split all of ``pool`` into legal melds, keeping as many original melds as possible.

        ``pool`` is sorted; ``need`` lists cards that still need jokers declared as them (joker
        locking); ``unmatched`` are the original melds no final meld has matched yet (keys in the
        chosen notion of kept); ``unchanged`` are the original melds (identical keys) that a final
        meld without a hand piece may still be (500 rummy). Returns the number of melds kept and
        the melds, or ``None`` when no split exists.
        """
        key = (pool, need, unmatched, unchanged)
        if key in self.split_memo:
            return self.split_memo[key]
        result: Outcome = None
        joker_count = sum(1 for item in pool if item[0] == JOKER)
        if not pool:
            result = None if need else (0, ())
        elif sum(count for _, count in need) <= joker_count:
            for meld in self.fillings(pool, pool[0]):
                rest_unchanged: Originals | None = unchanged
                if self.needs_hand_piece and all(item[2] != HAND_ORIGIN for item, _ in meld):
                    # No hand piece: only an original meld left exactly as it was may be that.
                    rest_unchanged = _without(unchanged, _placed_key(meld, Kept.IDENTICAL))
                if rest_unchanged is None:
                    continue
                matched = _without(unmatched, _placed_key(meld, self.kept))
                gain = 0 if matched is None else 1
                rest_unmatched = unmatched if matched is None else matched
                tail = self.split(
                    _remove(pool, meld), _reduce_need(need, meld), rest_unmatched, rest_unchanged
                )
                if tail is not None and (result is None or gain + tail[0] > result[0]):
                    result = (gain + tail[0], (meld, *tail[1]))
                    if result[0] == len(unmatched):
                        break  # every original meld still unmatched is kept: nothing beats it
        self.split_memo[key] = result
        return result

    def best_value(self, pool: tuple[Item, ...]) -> tuple[int, tuple[PlacedMeld, ...]] | None:
        """The split of all of ``pool`` into legal melds with the highest initial-meld value."""
        if pool in self.value_memo:
            return self.value_memo[pool]
        result: tuple[int, tuple[PlacedMeld, ...]] | None = None
        if not pool:
            result = (0, ())
        else:
            for meld in self.fillings(pool, pool[0]):
                tail = self.best_value(_remove(pool, meld))
                if tail is None:
                    continue
                value = _meld_value(meld, self.rules) + tail[0]
                if result is None or value > result[0]:
                    result = (value, (meld, *tail[1]))
        self.value_memo[pool] = result
        return result


def _remove(pool: tuple[Item, ...], meld: PlacedMeld) -> tuple[Item, ...]:
    rest = Counter(pool)
    rest.subtract(item for item, _ in meld)
    return tuple(sorted(rest.elements()))


def _reduce_need(need: Need, meld: PlacedMeld) -> Need:
    if not need:
        return need
    counts = Counter(dict(need))
    for item, card in meld:
        if item[0] == JOKER and counts[card] > 0:
            counts[card] -= 1
    return tuple(sorted((card, count) for card, count in counts.items() if count > 0))


def group_pairs(table: Sequence[Sequence[Piece]]) -> Counter[GroupPair]:
    """Each declared joker of a group of three (three pieces showing one rank) with the card of the
    one suit none of the three shows."""
    pairs: Counter[GroupPair] = Counter()
    for meld in table:
        shown = [piece if isinstance(piece, Card) else piece.declared for piece in meld]
        cards = [card for card in shown if card is not None]
        if len(meld) != 3 or len(cards) != 3 or len({card.rank for card in cards}) != 1:
            continue
        missing = {0, 1, 2, 3} - {card.suit for card in cards}
        if len(missing) != 1:
            continue
        other = (cards[0].rank, missing.pop())
        for piece in meld:
            if isinstance(piece, Joker) and piece.declared is not None:
                pairs[(piece.declared.rank, piece.declared.suit), other] += 1
    return pairs


def locking_needs(
    jokers_before: Counter[CardKey], real_after: Counter[CardKey], pairs: Counter[GroupPair]
) -> list[Need]:
    """Every least way to meet joker locking: how many jokers each card must still show.

    Without pairs there is one: ``J_before(c) - real_after(c)`` where positive. With pairs, every
    number of jokers of each pair that the pair's other card frees is tried (it then needs no
    real card of its own, and takes one real card of the other suit); needs that another need
    asks no more than are left out.
    """
    kinds = sorted(pairs.items())
    needs: set[Need] = set()
    for freed in itertools.product(*(range(count + 1) for _, count in kinds)):
        won: Counter[CardKey] = Counter()
        taken: Counter[CardKey] = Counter()
        for ((card, other), _), count in zip(kinds, freed, strict=True):
            won[card] += count
            taken[other] += count
        if any(count > real_after[card] for card, count in taken.items()):
            continue
        short = {
            card: count - won[card] - (real_after[card] - taken[card])
            for card, count in jokers_before.items()
        }
        needs.add(tuple(sorted((card, count) for card, count in short.items() if count > 0)))
    return sorted(need for need in needs if not any(_easier(other, need) for other in needs))


def _easier(need: Need, than: Need) -> bool:
    """``need`` asks for less than ``than`` (no card more, and they differ)."""
    asked = dict(than)
    return need != than and all(count <= asked.get(card, 0) for card, count in need)


@dataclass(frozen=True)
class _Arrangement:
    kept: int
    table: Table


class _Oracle:
    """Everything about one position that does not depend on the candidate play."""

    def __init__(self, position: Position, kept: Kept) -> None:
        self.position = position
        rules = position.rules
        self.initial = position.initial and rules.initial_meld_points > 0
        self.needs_hand_piece = rules.new_meld_needs_hand_card and not self.initial
        self.search = _Search(rules, self.needs_hand_piece, kept)
        self.hand_origin = HAND_ORIGIN if self.needs_hand_piece else TABLE_ORIGIN
        self.table_items: list[Item] = []
        self.table_real: Counter[CardKey] = Counter()
        self.jokers_before: Counter[CardKey] = Counter()
        for meld in position.table:
            for piece in meld:
                self.table_items.append(_piece_item(piece, TABLE_ORIGIN))
                if isinstance(piece, Card):
                    self.table_real[(piece.rank, piece.suit)] += 1
                else:
                    if piece.declared is None:
                        raise ValueError("a table joker must be declared")
                    self.jokers_before[(piece.declared.rank, piece.declared.suit)] += 1
        self.pairs = group_pairs(position.table) if rules.group_joker_either_missing else Counter()
        self.originals = tuple(sorted(meld_key(meld, kept) for meld in position.table))
        identical = tuple(sorted(meld_key(meld) for meld in position.table))
        self.unchanged = identical if self.needs_hand_piece else ()

    def arrange(self, played: Counter[Piece]) -> _Arrangement | None:
        """The final table keeping the most original melds when ``played`` is laid, if any."""
        if self.initial:
            return self._arrange_initial(played)
        real_after = Counter(self.table_real)
        for piece, count in played.items():
            if isinstance(piece, Card):
                real_after[(piece.rank, piece.suit)] += count
        # Joker locking: at least J_before(c) - real_after(c) jokers must end declared c (less
        # those that a group's other missing card frees, where the rules allow it).
        pool = sorted(
            [*self.table_items, *(_piece_item(p, self.hand_origin) for p in played.elements())]
        )
        outcomes = [
            self.search.split(tuple(pool), need, self.originals, self.unchanged)
            for need in locking_needs(self.jokers_before, real_after, self.pairs)
        ]
        found = [outcome for outcome in outcomes if outcome is not None]
        if not found:
            return None
        kept, melds = max(found, key=lambda outcome: outcome[0])
        return _Arrangement(kept, tuple(tuple(map(_placed_piece, meld)) for meld in melds))

    def _arrange_initial(self, played: Counter[Piece]) -> _Arrangement | None:
        pool = tuple(sorted(_piece_item(piece, TABLE_ORIGIN) for piece in played.elements()))
        best = self.search.best_value(pool)
        if best is None or best[0] < self.position.rules.initial_meld_points:
            return None
        new_melds = tuple(tuple(map(_placed_piece, meld)) for meld in best[1])
        return _Arrangement(len(self.position.table), (*self.position.table, *new_melds))


def play_value(played: Counter[Piece], rules: RuleSet, objective: Objective) -> int:
    """The objective value of laying ``played``: its points, or its number of pieces."""
    if objective is Objective.CARDS:
        return sum(played.values())
    return sum(rules.value(piece) * count for piece, count in played.items())


def oracle_best(
    position: Position,
    objective: Objective = Objective.POINTS,
    *,
    play_all: bool = False,
    kept: Kept = Kept.IDENTICAL,
) -> OracleAnswer | None:
    """The best play by brute force, or ``None`` when no legal play exists.

    With ``play_all`` only playing the whole hand is considered. ``kept`` says when an original
    meld counts as kept intact for the tie-break.
    """
    oracle = _Oracle(position, kept)
    hand = Counter(position.hand)
    if play_all:
        candidates = [hand] if hand else []
    else:
        candidates = [played for played in _sub_multisets(hand, _hand_order) if played]
    by_value: dict[int, list[Counter[Piece]]] = {}
    for played in candidates:
        by_value.setdefault(play_value(played, position.rules, objective), []).append(played)
    for value in sorted(by_value, reverse=True):
        best: tuple[_Arrangement, Counter[Piece]] | None = None
        for played in by_value[value]:
            arrangement = oracle.arrange(played)
            if arrangement is not None and (best is None or arrangement.kept > best[0].kept):
                best = (arrangement, played)
        if best is not None:
            arrangement, played = best
            laid = tuple(sorted(played.elements(), key=_hand_order))
            return OracleAnswer(value, arrangement.kept, laid, arrangement.table)
    return None
