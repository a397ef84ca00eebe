"""Hypothesis strategies for the domain values: cards, tiles, jokers, melds, tables, positions.

The legal-meld strategy builds melds from first principles (a rank and distinct suits, or a suit and
consecutive ranks), not from the checker's own window enumeration, so the tests that use it check
the checker rather than repeat it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from hypothesis import strategies as st

from meldsat.cards import Card, Joker, Piece
from meldsat.position import Position
from meldsat.rules import RuleSet
from meldsat.rulesets import PRESETS

RANKS = st.integers(min_value=1, max_value=13)
SUITS = st.integers(min_value=0, max_value=3)


def cards() -> st.SearchStrategy[Card]:
    """Any real card (or tile: the same value, another notation)."""
    return st.builds(Card, RANKS, SUITS)


def jokers() -> st.SearchStrategy[Joker]:
    """A wild or a declared joker."""
    return st.builds(Joker, st.none() | cards())


def pieces() -> st.SearchStrategy[Piece]:
    """A card or a joker."""
    return st.one_of(cards(), jokers())


def rule_sets() -> st.SearchStrategy[RuleSet]:
    """Every preset (each as likely as the others), for any player count it allows."""
    return st.sampled_from(list(PRESETS.values())).flatmap(
        lambda rules: st.integers(rules.min_players, rules.max_players).map(rules.with_players)
    )


def longest_sequence(rules: RuleSet) -> int:
    """14 (A..K..A) when the ace may be both low and high, else 13."""
    return 14 if rules.ace_low and rules.ace_high else 13


@st.composite
def legal_cards(draw: st.DrawFn, rules: RuleSet) -> tuple[Card, ...]:
    """The cards of a legal group or sequence under ``rules``, in table order."""
    if draw(st.booleans()):
        rank = draw(RANKS)
        size = draw(st.integers(rules.group_min, rules.group_max))
        suits = draw(st.lists(SUITS, min_size=size, max_size=size, unique=True))
        return tuple(Card(rank, suit) for suit in sorted(suits))
    suit = draw(SUITS)
    length = draw(st.integers(rules.run_min, longest_sequence(rules)))
    lowest = 1 if rules.ace_low else 2
    highest = 14 if rules.ace_high else 13  # 14 is the ace above the king
    start = draw(st.integers(lowest, highest - length + 1))
    return tuple(Card(rank if rank <= 13 else 1, suit) for rank in range(start, start + length))


@st.composite
def legal_melds(draw: st.DrawFn, rules: RuleSet, max_jokers: int = 2) -> tuple[Piece, ...]:
    """A legal meld with up to ``max_jokers`` of its cards replaced by declared jokers."""
    meld_cards = draw(legal_cards(rules))
    joker_count = draw(st.integers(0, min(max_jokers, rules.jokers, len(meld_cards))))
    positions = draw(
        st.lists(
            st.integers(0, len(meld_cards) - 1),
            min_size=joker_count,
            max_size=joker_count,
            unique=True,
        )
    )
    return tuple(
        Joker(card) if index in positions else card for index, card in enumerate(meld_cards)
    )


def fits(pieces_so_far: Sequence[Piece], extra: Sequence[Piece], rules: RuleSet) -> bool:
    """True when ``extra`` can join ``pieces_so_far`` without exceeding the decks."""
    real = Counter(piece for piece in [*pieces_so_far, *extra] if isinstance(piece, Card))
    joker_count = sum(1 for piece in [*pieces_so_far, *extra] if isinstance(piece, Joker))
    return joker_count <= rules.jokers and all(count <= rules.copies for count in real.values())


@st.composite
def positions(draw: st.DrawFn, rules: RuleSet | None = None) -> Position:
    """A valid position: legal table melds (jokers declared) and a hand, within the decks."""
    if rules is None:
        rules = draw(rule_sets())
    used: list[Piece] = []
    table: list[tuple[Piece, ...]] = []
    for meld in draw(st.lists(legal_melds(rules), max_size=5)):
        if fits(used, meld, rules):
            table.append(meld)
            used.extend(meld)
    hand: list[Piece] = []
    wanted: list[Piece] = draw(st.lists(st.one_of(cards(), st.just(Joker())), max_size=14))
    for piece in wanted:
        if fits([*used, *hand], [piece], rules):
            hand.append(piece)
    initial = draw(st.booleans())
    return Position.build(rules, table, hand, initial)
