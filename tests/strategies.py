"""Hypothesis strategies for small engine positions, to cross-check the engine against the oracle.

Positions are small (at most about a dozen pieces, table and hand together) so that the brute-force
oracle answers in milliseconds, and built to be interesting: hand cards are often next to table
cards (same suit and a near rank, or the same rank), the hand sometimes holds a whole meld, table
melds sometimes hold declared (locked) jokers and hands free jokers. Every position goes through
``Position.build``, so it is legal and within the decks. ``group_joker_positions`` builds its tables
around a group of three holding a joker (Rummikub's reading of who may free it, on or off).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from hypothesis import strategies as st

from meldsat.cards import Card, Joker, Piece
from meldsat.house_rules import apply_house_rules
from meldsat.position import Position
from meldsat.rules import RuleSet
from meldsat.rulesets import get_rules

RANKS = st.integers(min_value=1, max_value=13)
SUITS = st.integers(min_value=0, max_value=3)


@dataclass(frozen=True)
class Game:
    """A rule set to draw positions for: the preset, the player count, and the initial-meld flag."""

    name: str
    players: int
    initial: bool = False
    house: tuple[tuple[str, object], ...] = ()  # house rules over the preset

    @property
    def rules(self) -> RuleSet:
        """The preset for this many players, with the house rules if any."""
        return apply_house_rules(get_rules(self.name, self.players), dict(self.house))

    def __str__(self) -> str:
        house = "".join(f"-{name}={value}" for name, value in self.house)
        return f"{self.name}-{self.players}p{'-initial' if self.initial else ''}{house}"


GAMES = (
    Game("manipulation", 2),  # one deck, one joker, ace low and high
    Game("manipulation", 4),  # two decks, two jokers
    Game("rummikub", 4),  # tiles, 1 low only
    Game("rummikub", 4, initial=True),  # the 30-point initial meld from the rack alone
    Game("rummy500", 4),  # every new or changed meld needs a hand card
    # A house rule: 500 rummy with an initial meld, where an ace melded low counts 1, not 15.
    Game("rummy500", 4, initial=True, house=(("initial_meld_points", 20),)),
)
# Beyond the oracle's games: a frozen table (gin), run and group house rules.
MORE_GAMES = (
    Game("gin", 2),
    Game("manipulation", 4, house=(("run_min", 4), ("ace_high", False))),
    Game("rummikub", 4, house=(("group_max", 3), ("jokers", 4))),
)


@st.composite
def meld_cards(draw: st.DrawFn, rules: RuleSet, max_size: int = 5) -> tuple[Card, ...]:
    """The cards of a legal group or sequence of at most ``max_size`` cards, built from scratch."""
    # A house rule may make sequences longer than the room left: then only a group fits.
    if rules.run_min > max_size or draw(st.booleans()):
        rank = draw(RANKS)
        size = draw(st.integers(rules.group_min, min(rules.group_max, max_size)))
        suits = draw(st.lists(SUITS, min_size=size, max_size=size, unique=True))
        return tuple(Card(rank, suit) for suit in sorted(suits))
    suit = draw(SUITS)
    length = draw(st.integers(rules.run_min, max(rules.run_min, max_size)))
    lowest = 1 if rules.ace_low else 2
    highest = 14 if rules.ace_high else 13  # 14 is the ace above the king
    start = draw(st.integers(lowest, highest - length + 1))
    return tuple(Card(1 if rank == 14 else rank, suit) for rank in range(start, start + length))


def _fits(used: Sequence[Piece], extra: Sequence[Piece], rules: RuleSet) -> bool:
    """True when ``extra`` can join ``used`` without more copies or jokers than the game holds."""
    pieces = [*used, *extra]
    real = Counter(piece for piece in pieces if isinstance(piece, Card))
    jokers = sum(1 for piece in pieces if isinstance(piece, Joker))
    return jokers <= rules.jokers and all(count <= rules.copies for count in real.values())


@st.composite
def table_melds(
    draw: st.DrawFn, rules: RuleSet, max_pieces: int, max_melds: int = 3, min_melds: int = 0
) -> list[tuple[Piece, ...]]:
    """``min_melds`` to ``max_melds`` legal melds (fewer where a meld drawn does not fit), at
    most ``max_pieces`` pieces in all, some with declared jokers."""
    used: list[Piece] = []
    table: list[tuple[Piece, ...]] = []
    for _ in range(draw(st.integers(min_melds, max_melds))):
        room = max_pieces - len(used)
        if room < rules.group_min:
            break
        cards = draw(meld_cards(rules, max_size=min(5, room)))
        meld: tuple[Piece, ...] = cards
        if rules.jokers and draw(st.integers(0, 2)) == 0:
            # A locked joker: it stands for one card of the meld, declared.
            index = draw(st.integers(0, len(cards) - 1))
            meld = (*cards[:index], Joker(cards[index]), *cards[index + 1 :])
        if _fits(used, meld, rules):
            table.append(meld)
            used.extend(meld)
    return table


def _near_cards(table: Sequence[Sequence[Piece]]) -> list[Card]:
    """Cards that could join or reshape the table: same suit and a near rank, or the same rank."""
    near: set[Card] = set()
    for meld in table:
        for piece in meld:
            card = piece if isinstance(piece, Card) else piece.declared
            if card is None:
                continue
            for step in (-2, -1, 1, 2):
                rank = card.rank + step
                if 1 <= rank <= 13:
                    near.add(Card(rank, card.suit))
            near.update(Card(card.rank, suit) for suit in range(4))
            if card.rank in (12, 13):
                near.add(Card(1, card.suit))  # the ace above the king
    return sorted(near)


@st.composite
def hand_pieces(
    draw: st.DrawFn,
    rules: RuleSet,
    table: Sequence[Sequence[Piece]],
    size: int,
    meld_odds: int = 3,
) -> list[Piece]:
    """Up to ``size`` hand pieces: a whole meld (one time in ``meld_odds``), then more pieces.

    The further pieces are cards near the table's, random cards, and jokers.
    """
    used: list[Piece] = [piece for meld in table for piece in meld]
    hand: list[Piece] = []
    if size >= 3 and draw(st.integers(1, meld_odds)) == 1:
        seeded = draw(meld_cards(rules, max_size=min(4, size)))
        if _fits(used, seeded, rules):
            hand.extend(seeded)
    near = _near_cards(table)
    options: list[st.SearchStrategy[Piece]] = [st.builds(Card, RANKS, SUITS)]
    if near:
        options.append(st.sampled_from(near))
    if rules.jokers:
        options.append(st.just(Joker()))
    for _ in range(size * 2):
        if len(hand) >= size:
            break
        piece = draw(st.one_of(options))
        if _fits([*used, *hand], [piece], rules):
            hand.append(piece)
    return hand


@st.composite
def positions(
    draw: st.DrawFn,
    games: Sequence[Game] = GAMES,
    max_pieces: int = 12,
    max_hand: int = 6,
) -> Position:
    """A small valid position for one of ``games``: at most ``max_pieces`` pieces in all."""
    game = draw(st.sampled_from(list(games)))
    rules = game.rules
    table = draw(table_melds(rules, max_pieces - 1))
    on_table = sum(len(meld) for meld in table)
    size = draw(st.integers(1, min(max_hand, max_pieces - on_table)))
    # An initial meld needs 30 points from the hand alone: seed a meld in the hand more often.
    hand = draw(hand_pieces(rules, table, size, meld_odds=2 if game.initial else 3))
    if not hand:
        # Every piece drawn was out of copies: take the first card the decks still hold.
        used = [piece for meld in table for piece in meld]
        hand = [next(card for card in _every_card() if _fits(used, [card], rules))]
    return Position.build(rules, table, hand, game.initial)


@st.composite
def small_hand_positions(draw: st.DrawFn, max_pieces: int = 18) -> Position:
    """500 rummy at the end of a deal: a hand of 1-4 pieces, most often with a joker, against a
    table of up to six melds (``meldsat.engine.small_hands`` steers these solves)."""
    rules = Game("rummy500", 4).rules
    table = draw(table_melds(rules, max_pieces - 4, max_melds=6, min_melds=3))
    used = [piece for meld in table for piece in meld]
    hand: list[Piece] = (
        [Joker()] if draw(st.integers(0, 3)) and _fits(used, [Joker()], rules) else []
    )
    size = draw(st.integers(max(1 - len(hand), 0), 4 - len(hand)))
    hand.extend(draw(hand_pieces(rules, [*table, tuple(hand)], size)))
    if not hand:
        hand = [next(card for card in _every_card() if _fits(used, [card], rules))]
    return Position.build(rules, table, hand)


def _every_card() -> list[Card]:
    return [Card(rank, suit) for rank in range(1, 14) for suit in range(4)]


@st.composite
def group_joker_positions(draw: st.DrawFn, name: str, either: bool) -> Position:
    """A table with a group of three whose joker stands for one missing suit, often with the
    other missing card in the hand, and a few more pieces."""
    rules = apply_house_rules(get_rules(name, 4), {"group_joker_either_missing": either})
    rank = draw(st.integers(1, 13))
    suits = draw(st.permutations(range(4)))
    joker, real = Card(rank, suits[0]), [Card(rank, suit) for suit in suits[1:3]]
    table: list[tuple[Piece, ...]] = [(Joker(joker), *real)]
    if draw(st.booleans()):
        start = draw(st.integers(2, 11))
        suit = draw(st.integers(0, 3))
        table.append(tuple(Card(step, suit) for step in range(start, start + 3)))
    used = [piece for meld in table for piece in meld]
    hand: list[Piece] = []
    if draw(st.integers(0, 3)):
        hand.append(Card(rank, suits[3]))
    extra = draw(hand_pieces(rules, table, draw(st.integers(1, 4))))
    hand.extend(piece for piece in extra if _fits([*used, *hand], [piece], rules))
    return Position.build(rules, table, hand)


@st.composite
def table_joker_positions(draw: st.DrawFn, jokers: int) -> Position:
    """A Rummikub position whose table holds ``jokers`` declared jokers (one a meld), two to four
    melds in all, and a hand of up to five pieces near them (sometimes the last joker)."""
    rules = get_rules("rummikub", 4)
    table: list[tuple[Piece, ...]] = []
    used: list[Piece] = []
    while len(table) < draw(st.integers(max(2, jokers), 4)) or len(table) < jokers:
        cards = draw(meld_cards(rules, max_size=4))
        meld: tuple[Piece, ...] = cards
        if len(table) < jokers:
            index = draw(st.integers(0, len(cards) - 1))
            meld = (*cards[:index], Joker(cards[index]), *cards[index + 1 :])
        if _fits(used, meld, rules):
            table.append(meld)
            used.extend(meld)
    hand = draw(hand_pieces(rules, table, draw(st.integers(1, 5))))
    if not hand:
        hand = [Joker()] if jokers < rules.jokers else [Card(1, 0)]
    return Position.build(rules, table, hand)
