"""The answers drawn as SVG cards for the page (``?draw=1``), with ``meldsat.cardart``.

Every card carries ``data-card`` (its notation), so the page and its tests can find it; a step of a
hint names the cards it moves by ``[meld, index]`` in the table before and after (meld ``-1`` is
the hand), so the page highlights them without reading the step's words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from meldsat.cardart import card_svg, piece_label
from meldsat.cards import ALL_CARDS, Card, Joker, Notation, Piece
from meldsat.changes import HAND, Move
from meldsat.moves import MoveVerdict
from meldsat.notation import Meld
from meldsat.play import Play
from meldsat.position import Position
from meldsat.rules import RuleSet
from meldsat.table import TableVerdict


def cards_svg(pieces: Iterable[Piece], notation: Notation) -> list[str]:
    """Each piece as an ``<svg>`` that carries its notation in ``data-card``."""
    return [
        card_svg(piece, notation, attributes={"data-card": piece.text(notation)})
        for piece in pieces
    ]


def deck_drawing(rule_set: RuleSet) -> list[dict[str, str]]:
    """Every distinct piece of a rule set (the jokers last, if it has any) with its label."""
    pieces: list[Piece] = [*sorted(ALL_CARDS, key=lambda card: (card.suit, card.rank))]
    if rule_set.jokers:
        pieces.append(Joker())
    notation = rule_set.notation
    return [
        {"text": piece.text(notation), "label": piece_label(piece, notation), "svg": svg}
        for piece, svg in zip(pieces, cards_svg(pieces, notation), strict=True)
    ]


def validate_drawing(rule_set: RuleSet, verdict: TableVerdict, hand: Meld) -> dict[str, Any]:
    """The table's melds (forced jokers declared) and the hand."""
    notation = rule_set.notation
    return {
        "table": [cards_svg(meld.pieces, notation) for meld in verdict.melds],
        "hand": cards_svg(hand, notation),
    }


def check_drawing(rule_set: RuleSet, verdict: MoveVerdict) -> dict[str, Any]:
    """The table after the turn, and which of its melds are legal."""
    notation = rule_set.notation
    return {
        "table": [cards_svg(meld.pieces, notation) for meld in verdict.table.melds],
        "legal": [meld.legal for meld in verdict.table.melds],
    }


def hint_drawing(position: Position, play: Play) -> dict[str, Any]:
    """The table before and after, the hand before and after, the jokers and the steps."""
    notation = position.rules.notation
    return {
        "before": [cards_svg(meld, notation) for meld in position.table],
        "hand": cards_svg(position.hand, notation),
        "after": [cards_svg(meld, notation) for meld in play.table],
        "hand_left": cards_svg(play.hand_left, notation),
        "jokers": [
            {"meld": number, "index": index, "label": piece_label(piece, notation)}
            for number, meld in enumerate(play.table)
            for index, piece in enumerate(meld)
            if isinstance(piece, Joker)
        ],
        "steps": _steps(position, play),
    }


def _steps(position: Position, play: Play) -> list[dict[str, Any]]:
    """Each step's words and the places of the cards it moves, before and after."""
    return [
        {
            "text": text,
            "before": _places_before(move, position),
            "after": _places(play.table[move.target], move.pieces, move.target, exact=True),
        }
        for text, move in zip(play.changes, play.moves, strict=True)
    ]


def _places_before(move: Move, position: Position) -> list[list[int]]:
    if move.source == HAND:
        return _places(position.hand, move.pieces, HAND, exact=False)
    old = position.table[move.source]
    if move.was is not None:
        # A redeclared joker: the one that stood for ``was`` in its old meld.
        return _places(old, [Joker(move.was)], move.source, exact=True)
    return _places(old, move.pieces, move.source, exact=False)


def _places(
    meld: Sequence[Piece], pieces: Sequence[Piece], number: int, *, exact: bool
) -> list[list[int]]:
    """``[number, index]`` of each piece within ``meld``, each index used once.

    Without ``exact`` any joker matches any joker: a joker moved off the table may stand for
    another card in its new meld, and one from the hand is not declared yet.
    """
    taken: set[int] = set()
    places = []
    for piece in pieces:
        for index, candidate in enumerate(meld):
            if index not in taken and _same(candidate, piece, exact=exact):
                taken.add(index)
                places.append([number, index])
                break
    return places


def _same(candidate: Piece, piece: Piece, *, exact: bool) -> bool:
    if exact or isinstance(piece, Card):
        return candidate == piece
    return isinstance(candidate, Joker)
