"""The meld checker: is a list of cards a legal group or sequence; what each joker stands for.

No solver is used here: a meld is judged by enumerating the few shapes it could take (one rank for
a group, a window of consecutive ranks for a sequence). The CP-SAT engine's answers are re-checked
with this module, so it must stay independent of the engine.
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from meldsat.cards import (
    Card,
    Joker,
    Notation,
    Piece,
    piece_sort_key,
    represented_card,
    require_pieces,
)
from meldsat.errors import AmbiguousJokerError, quote
from meldsat.rules import HIGH_ACE, RuleSet, rank_at, require_rules
from meldsat.wording import counted

_MAX_LISTED_OPTIONS = 6


class MeldKind(enum.Enum):
    """The two shapes of a meld."""

    GROUP = "group"
    SEQUENCE = "sequence"


@dataclass(frozen=True)
class MeldVerdict:
    """The checker's answer for one meld.

    ``pieces`` are in canonical order (sequences low to high, groups by suit) with every joker whose
    card is forced declared; ``reason`` says in words why an illegal meld is illegal.
    """

    pieces: tuple[Piece, ...]
    kind: MeldKind | None
    reason: str | None

    @property
    def legal(self) -> bool:
        """True when the meld is a legal group or sequence."""
        return self.reason is None


@dataclass(frozen=True)
class _Shape:
    """One way a meld can be legal: its kind and its cards in table order."""

    kind: MeldKind
    cards: tuple[Card, ...]


def sequence_windows(rules: RuleSet, length: int) -> Iterator[tuple[int, ...]]:
    """Every run of ``length`` consecutive ranks the rules allow, as ranks in order (ace = 1)."""
    positions = rules.sequence_positions
    seen: set[tuple[int, ...]] = set()
    for start in range(len(positions) - length + 1):
        window = tuple(rank_at(position) for position in positions[start : start + length])
        seen.add(window)
        yield window
    if rules.wrap_around and length <= 13:
        for start in range(1, 14):
            window = tuple((start + offset - 1) % 13 + 1 for offset in range(length))
            if window not in seen:
                seen.add(window)
                yield window


def _sequence_shapes(
    known: Sequence[Card], wild: int, rules: RuleSet
) -> Iterator[tuple[_Shape, tuple[Card, ...]]]:
    length = len(known) + wild
    if length < rules.run_min:
        return
    suits = {card.suit for card in known} or set(range(4))
    if len(suits) != 1 and known:
        return
    known_ranks = Counter(card.rank for card in known)
    for suit in sorted(suits):
        for window in sequence_windows(rules, length):
            missing = Counter(window)
            missing.subtract(known_ranks)
            if any(count < 0 for count in missing.values()):
                continue
            jokers = tuple(sorted(Card(rank, suit) for rank in missing.elements()))
            yield _Shape(MeldKind.SEQUENCE, tuple(Card(rank, suit) for rank in window)), jokers


def _group_shapes(
    known: Sequence[Card], wild: int, rules: RuleSet
) -> Iterator[tuple[_Shape, tuple[Card, ...]]]:
    size = len(known) + wild
    if not rules.group_min <= size <= rules.group_max:
        return
    ranks = {card.rank for card in known} or set(range(1, 14))
    if len(ranks) != 1 and known:
        return
    known_suits = [card.suit for card in known]
    if len(set(known_suits)) != len(known_suits):
        return
    free_suits = [suit for suit in range(4) if suit not in known_suits]
    for rank in sorted(ranks):
        for chosen in itertools.combinations(free_suits, wild):
            suits = sorted([*known_suits, *chosen])
            cards = tuple(Card(rank, suit) for suit in suits)
            yield _Shape(MeldKind.GROUP, cards), tuple(Card(rank, suit) for suit in chosen)


def meld_shapes(
    known: Sequence[Card], wild: int, rules: RuleSet
) -> list[tuple[_Shape, tuple[Card, ...]]]:
    """Every legal shape of a meld with ``known`` cards and ``wild`` undeclared jokers.

    Each entry pairs the shape with the cards the wild jokers stand for in it.
    """
    return [*_group_shapes(known, wild, rules), *_sequence_shapes(known, wild, rules)]


def meld_kind(pieces: Sequence[Piece]) -> MeldKind:
    """The kind of a legal meld whose jokers are all declared: one rank makes a group."""
    ranks = {card.rank for card in map(represented_card, pieces) if card is not None}
    return MeldKind.GROUP if len(ranks) == 1 else MeldKind.SEQUENCE


def is_legal_meld(cards: Sequence[Card], rules: RuleSet) -> bool:
    """True when ``cards`` (jokers already replaced by their cards) form a legal meld."""
    require_rules(rules)
    if not all(isinstance(card, Card) for card in require_pieces(cards, "cards")):
        raise TypeError("cards must hold only Card values (jokers replaced by their cards)")
    return bool(meld_shapes(cards, 0, rules))


def judge_meld(pieces: Sequence[Piece], rules: RuleSet) -> MeldVerdict:
    """Judge one meld: legal or not (with a reason), its kind, and every forced joker declared.

    Raises :class:`AmbiguousJokerError` when an undeclared joker could stand for different cards.
    """
    pieces = require_pieces(pieces, "pieces")
    require_rules(rules)
    try:
        return _judged(pieces, rules)
    except TypeError:  # a rule set built with a list in a field: judged without the cache
        return _judge(pieces, rules)


def _judge(pieces: tuple[Piece, ...], rules: RuleSet) -> MeldVerdict:
    known = [card for card in map(represented_card, pieces) if card is not None]
    wild = sum(1 for piece in pieces if isinstance(piece, Joker) and piece.declared is None)
    shapes = meld_shapes(known, wild, rules)
    options = sorted({jokers for _, jokers in shapes})
    if len(options) > 1:
        raise AmbiguousJokerError(_ambiguity_message(pieces, options, rules))
    if not shapes:
        ordered = tuple(sorted(pieces, key=piece_sort_key))
        return MeldVerdict(ordered, None, illegal_reason(known, wild, rules))
    shape, jokers = shapes[0]
    return MeldVerdict(_arrange(pieces, shape, jokers), shape.kind, None)


# A game judges the same melds turn after turn (every table meld at every position read and every
# move checked), and a verdict depends on the pieces and the rules alone, so each is worked out
# once. An ambiguous meld raises each time (exceptions are not cached).
_judged = functools.lru_cache(maxsize=16384)(_judge)


def _arrange(pieces: Sequence[Piece], shape: _Shape, jokers: tuple[Card, ...]) -> tuple[Piece, ...]:
    """Put the pieces in the shape's order, declaring the wild jokers as ``jokers``."""
    pool = [piece for piece in pieces if not (isinstance(piece, Joker) and piece.declared is None)]
    pool.extend(Joker(card) for card in jokers)
    arranged: list[Piece] = []
    for card in shape.cards:
        # A real card takes its place before a joker declared as the same card.
        match: Piece | None = next((p for p in pool if p == card), None)
        if match is None:
            match = next(p for p in pool if isinstance(p, Joker) and p.declared == card)
        pool.remove(match)
        arranged.append(match)
    return tuple(arranged)


def _ambiguity_message(
    pieces: Sequence[Piece], options: list[tuple[Card, ...]], rules: RuleSet
) -> str:
    notation = rules.notation
    meld_text = " ".join(piece.text(notation) for piece in pieces)
    mark = Joker().text(notation)
    described = [
        " ".join(f"{mark}={card.text(notation)}" for card in jokers)
        for jokers in options[:_MAX_LISTED_OPTIONS]
    ]
    more = len(options) - len(described)
    listing = " or ".join(described) + (f" (and {more} more)" if more else "")
    return f"ambiguous joker in {quote(meld_text)}: declare it, e.g. {listing}"


def illegal_reason(known: Sequence[Card], wild: int, rules: RuleSet) -> str:
    """Why ``known`` cards plus ``wild`` undeclared jokers cannot form a legal meld, in words."""
    notation = rules.notation
    size = len(known) + wild
    shortest = min(rules.group_min, rules.run_min)
    if size < shortest:
        return f"a meld needs at least {counted(shortest, 'card')}, this one has {size}"
    longest = max(rules.group_max, rules.longest_sequence)
    if size > longest:
        return f"a meld has at most {counted(longest, 'card')}, this one has {size}"
    ranks = {card.rank for card in known}
    suits = {card.suit for card in known}
    if len(ranks) <= 1 and len(suits) > 1:
        return _group_reason(known, size, rules)
    if len(suits) == 1 and len(ranks) > 1:
        return _sequence_reason(known, wild, rules)
    if len(ranks) == 1 and len(suits) == 1:
        duplicate = known[0].text(notation)
        return f"holds {duplicate} twice: a group needs different suits"
    return "mixes ranks and suits: a group is one rank, a sequence is one suit"


def _group_reason(known: Sequence[Card], size: int, rules: RuleSet) -> str:
    counts = Counter(known)
    duplicates = sorted(card for card, count in counts.items() if count > 1)
    if duplicates:
        return f"a group holds {duplicates[0].text(rules.notation)} twice: its suits must differ"
    if size > rules.group_max:
        return f"a group has at most {counted(rules.group_max, 'card')}, this one has {size}"
    return f"a group needs at least {counted(rules.group_min, 'card')}, this one has {size}"


def _sequence_reason(known: Sequence[Card], wild: int, rules: RuleSet) -> str:
    notation = rules.notation
    size = len(known) + wild
    if size < rules.run_min:
        return f"a sequence needs at least {counted(rules.run_min, 'card')}, this one has {size}"
    counts = Counter(known)
    # Only the 14-card A..K..A sequence may hold a card twice: its ace.
    ace_twice = size == rules.longest_sequence == HIGH_ACE

    def allowed(card: Card) -> int:
        return 2 if ace_twice and card.rank == 1 else 1

    duplicates = sorted(card for card, count in counts.items() if count > allowed(card))
    if duplicates:
        return f"a sequence holds {duplicates[0].text(notation)} twice"
    ranks = {card.rank for card in known}
    if 1 in ranks and 13 in ranks and not rules.ace_high:
        ace = "1" if notation is Notation.TILES else "the ace"
        return f"{ace} counts low only: it cannot follow {13 if ace == '1' else 'the king'}"
    if 1 in ranks and 13 in ranks and 2 in ranks and not rules.wrap_around:
        return "turns the corner (K-A-2): the ace is high or low, not both"
    if wild:
        return "no card for the jokers makes these cards consecutive"
    gaps = _missing_ranks(ranks, rules)
    suit = next(iter(known)).suit
    names = ", ".join(Card(rank, suit).text(notation) for rank in gaps)
    return f"the ranks are not consecutive (missing {names})"


def _missing_ranks(ranks: set[int], rules: RuleSet) -> list[int]:
    """The ranks that would fill the sequence's smallest gap-free span."""
    spans = [sorted(ranks)]
    if rules.ace_high and 1 in ranks:
        spans.append(sorted((rank if rank != 1 else HIGH_ACE) for rank in ranks))
    best = min(spans, key=lambda span: span[-1] - span[0])
    present = set(best)
    return [rank_at(point) for point in range(best[0], best[-1]) if point not in present]
