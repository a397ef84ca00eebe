"""Options and card reading shared by the gin commands (``deadwood``, ``layoff``, ``score``)."""

from __future__ import annotations

from typing import Annotated

import typer

from meldsat.cards import Card
from meldsat.errors import MeldsatError, NotationError
from meldsat.gin.bits import check_gin_rules
from meldsat.notation import parse_pieces
from meldsat.rules import RuleSet, get_rules

GinRulesOption = Annotated[
    str, typer.Option("--rules", "-r", help="gin, oklahoma-gin or hollywood-gin (default gin).")
]
UpcardOption = Annotated[
    str | None,
    typer.Option("--upcard", help="The face-up card on the discard pile, e.g. 7S."),
]
FirstUpcardOption = Annotated[
    str | None,
    typer.Option(
        "--first-upcard",
        help="Oklahoma: the hand's first upcard (sets the knock limit; default: --upcard).",
    ),
]


def gin_rules(name: str) -> RuleSet:
    """The named rule set, refused unless it is one of the gin family."""
    rules = get_rules(name)
    check_gin_rules(rules)
    return rules


def gin_cards(text: str, option: str) -> list[Card]:
    """Real cards read from an option's text (gin has no jokers)."""
    cards: list[Card] = []
    for piece in parse_pieces(text):
        if not isinstance(piece, Card):
            raise NotationError(f"{option}: '{piece}' is a joker, and gin has no jokers")
        cards.append(piece)
    if not cards:
        raise MeldsatError(f"{option}: no cards given")
    return cards


def gin_card(text: str | None, option: str) -> Card | None:
    """One real card from an option, or ``None`` when the option is not given."""
    if text is None:
        return None
    cards = gin_cards(text, option)
    if len(cards) != 1:
        raise MeldsatError(f"{option}: expected one card, got '{text}'")
    return cards[0]
