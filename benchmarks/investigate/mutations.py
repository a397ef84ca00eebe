"""Small legal changes to a position, the steps of the worst-case hunter's hill climb.

Each step takes a position and a random source and returns a new position, or ``None`` when the
step does not apply (no joker to move, no card left to draw, ...). Every new position goes through
``Position.build``, which checks each table meld and the copies of every card, so a step never
returns an illegal position: a change that would break a meld is dropped (``None``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from benchmarks.positions import meld_options
from meldsat.cards import Card, Joker, Piece
from meldsat.errors import MeldsatError
from meldsat.position import Position

Mutation = Callable[[Position, random.Random], Position | None]


def free_cards(position: Position) -> Counter[Card]:
    """The real cards of the game that are neither on the table nor in the hand."""
    rules = position.rules
    pool: Counter[Card] = Counter(
        {Card(rank, suit): rules.copies for rank in range(1, 14) for suit in range(4)}
    )
    pool.subtract(
        piece
        for piece in (*position.hand, *(piece for meld in position.table for piece in meld))
        if isinstance(piece, Card)
    )
    return +pool


def _rebuild(
    position: Position, table: Sequence[Sequence[Piece]], hand: Sequence[Piece]
) -> Position | None:
    try:
        return Position.build(position.rules, table, hand, position.initial)
    except MeldsatError:
        return None  # the change broke a meld (e.g. too many jokers in it): not a legal step


def _table_spots(position: Position, jokers: bool) -> list[tuple[int, int]]:
    """(meld, place) of every joker on the table, or of every real card."""
    return [
        (number, place)
        for number, meld in enumerate(position.table)
        for place, piece in enumerate(meld)
        if isinstance(piece, Joker) == jokers
    ]


def swap_hand_card(position: Position, rng: random.Random) -> Position | None:
    """A real card of the hand goes back to the deck; another card of the deck takes its place."""
    spots = [index for index, piece in enumerate(position.hand) if isinstance(piece, Card)]
    choices = sorted(free_cards(position))
    if not spots or not choices:
        return None
    hand = list(position.hand)
    hand[rng.choice(spots)] = rng.choice(choices)
    return _rebuild(position, position.table, hand)


def move_joker(position: Position, rng: random.Random) -> Position | None:
    """A joker moves: from the hand onto the table (swapped with the card it replaces), from the
    table into the hand (its card takes its place), or to another place on the table."""
    moves: list[Mutation] = []
    if any(isinstance(piece, Joker) for piece in position.hand):
        moves.append(_joker_to_table)
    if _table_spots(position, jokers=True):
        moves += [_joker_to_hand, _joker_elsewhere]
    if not moves:
        return None
    return rng.choice(moves)(position, rng)


def _joker_to_table(position: Position, rng: random.Random) -> Position | None:
    """A hand joker replaces a table card, declared as that card; the card joins the hand."""
    spots = _table_spots(position, jokers=False)
    if not spots:
        return None
    number, place = rng.choice(spots)
    table = [list(meld) for meld in position.table]
    card = table[number][place]
    assert isinstance(card, Card)
    table[number][place] = Joker(card)
    hand = list(position.hand)
    hand[hand.index(Joker())] = card
    return _rebuild(position, table, hand)


def _joker_to_hand(position: Position, rng: random.Random) -> Position | None:
    """A table joker goes to the hand and its card takes its place: from the hand if it holds
    one (a swap), else from the deck, a random hand card going back so the hand keeps its size."""
    number, place = rng.choice(_table_spots(position, jokers=True))
    table = [list(meld) for meld in position.table]
    joker = table[number][place]
    assert isinstance(joker, Joker) and joker.declared is not None
    card = joker.declared
    hand = list(position.hand)
    if card in hand:
        hand[hand.index(card)] = Joker()
    elif free_cards(position)[card]:
        hand[rng.randrange(len(hand))] = Joker()
    else:
        return None
    table[number][place] = card
    return _rebuild(position, table, hand)


def _joker_elsewhere(position: Position, rng: random.Random) -> Position | None:
    """A table joker gives its place back to its card (from the deck) and replaces another table
    card, which goes back to the deck."""
    number, place = rng.choice(_table_spots(position, jokers=True))
    table = [list(meld) for meld in position.table]
    joker = table[number][place]
    assert isinstance(joker, Joker) and joker.declared is not None
    if not free_cards(position)[joker.declared]:
        return None
    table[number][place] = joker.declared
    others = [spot for spot in _table_spots(position, jokers=False) if spot != (number, place)]
    if not others:
        return None
    other_number, other_place = rng.choice(others)
    card = table[other_number][other_place]
    assert isinstance(card, Card)
    table[other_number][other_place] = Joker(card)
    return _rebuild(position, table, position.hand)


def add_meld(position: Position, rng: random.Random) -> Position | None:
    """A new meld (a run of 3-6 or a group) made of cards from the deck joins the table."""
    options = meld_options(position.rules, free_cards(position))
    if not options:
        return None
    return _rebuild(position, [*position.table, rng.choice(options)], position.hand)


MUTATIONS: tuple[Mutation, ...] = (swap_hand_card, move_joker, add_meld)


def mutate(position: Position, rng: random.Random, attempts: int = 20) -> Position | None:
    """One random step that applies (a few tries), or ``None`` when none did."""
    for _ in range(attempts):
        changed = rng.choice(MUTATIONS)(position, rng)
        if changed is not None and changed != position:
            return changed
    return None
