"""A joker in a group of three, which Rummikub's official rules let either missing colour free.

A group of three lacks two suits (colours): the one its joker is declared as, and the one no piece
of the group shows. Where ``RuleSet.group_joker_either_missing`` is set, a real card of either
frees the joker (docs/RULES.md, joker locking); elsewhere only the card it is declared as does.
The move checker (``meldsat.moves``) and the engine's joker locking
(``meldsat.engine.parts.jokers``) both read the pairs listed here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from meldsat.cards import Card, Joker, Piece, card_of, represented_card
from meldsat.matching import max_weight_matching

# (the card a joker is declared as, the card of the suit its group of three lacks)
JokerPair = tuple[Card, Card]


def group_joker_pairs(meld: Sequence[Piece]) -> list[JokerPair]:
    """Each declared joker of a group of three with the card of the suit the group lacks.

    Any other meld (a sequence, a group of four, a meld with an undeclared joker) gives none.
    """
    cards = [represented_card(piece) for piece in meld]
    if len(cards) != 3 or None in cards:
        return []
    shown = [card for card in cards if card is not None]
    suits = {card.suit for card in shown}
    if len({card.rank for card in shown}) != 1 or len(suits) != 3:
        return []
    (missing,) = set(range(4)) - suits
    other = card_of(shown[0].rank, missing)
    return [
        (piece.declared, other)
        for piece in meld
        if isinstance(piece, Joker) and piece.declared is not None
    ]


def table_joker_pairs(table: Iterable[Sequence[Piece]]) -> Counter[JokerPair]:
    """:func:`group_joker_pairs` over every meld of a table, counted."""
    return Counter(pair for meld in table for pair in group_joker_pairs(meld))


def won_back_by_other(
    declared_before: Mapping[Card, int],
    declared_after: Mapping[Card, int],
    real_after: Mapping[Card, int],
    pairs: Mapping[JokerPair, int],
) -> Counter[JokerPair]:
    """How many jokers of each pair the other missing card frees, chosen to free the most.

    Every table joker declared ``c`` before the turn must end still declared ``c`` (there are as
    many places for that as jokers declared ``c`` afterwards), or be freed by a real ``c`` on the
    table afterwards, or, for a joker of a pair, by a real card of the pair's other suit; each real
    card frees one joker. A maximum matching of jokers to those places decides, and the pairs it
    frees by their other card are returned. Matches that keep a joker's declaration weigh more,
    then those by its own card, so the other card is used only where it is needed.
    """
    if not pairs:
        return Counter()
    # One entry a table joker: its card, and the other card that may free it (None: only its own).
    jokers: list[tuple[Card, Card | None]] = [
        pair for pair, count in sorted(pairs.items()) for _ in range(count)
    ]
    in_pairs = Counter(card for card, _ in jokers)
    jokers.extend(
        (card, None)
        for card, count in sorted(declared_before.items())
        for _ in range(count - in_pairs[card])
    )
    places: dict[tuple[str, Card, int], int] = {}
    for card, count in sorted(declared_before.items()):
        for copy in range(min(count, declared_after.get(card, 0))):
            places["keep", card, copy] = len(places)
    wanted = {card for card, other in jokers} | {other for _, other in jokers if other is not None}
    for card in sorted(wanted):
        for copy in range(real_after.get(card, 0)):
            places["real", card, copy] = len(places)
    # Any larger matching outweighs any smaller one; among the largest, preferences decide.
    base = 3 * len(jokers) + 3
    weights: dict[tuple[int, int], int] = {}
    for index, (card, other) in enumerate(jokers):
        for (kind, place_card, _), place in places.items():
            if place_card == card:
                weights[index, place] = base + (2 if kind == "keep" else 1)
            elif kind == "real" and place_card == other:
                weights[index, place] = base
    matched = max_weight_matching(weights)
    by_place = {place: key for key, place in places.items()}
    won: Counter[JokerPair] = Counter()
    for index, place in matched.items():
        card, other = jokers[index]
        _, place_card, _ = by_place[place]
        if other is not None and place_card == other:
            won[card, other] += 1
    return won
