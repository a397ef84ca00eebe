"""The defender's best layoffs after a knock, exactly.

The defender melds its own cards and lays deadwood off on the knocker's melds: the fourth card of
a group of three, and any number of cards at either end of a sequence (each one extending the
sequence as it grows). For every knocker's meld the ways to lay off are few (at most one card for a
group; for a sequence, how far it is extended below and above), so every combination of them is
tried, and for each the rest of the hand is arranged by the exact deadwood search. After gin (and
big gin) nothing may be laid off.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from meldsat.cards import Card, card_of
from meldsat.errors import ImpossiblePositionError, MeldsatError
from meldsat.gin.bits import cards_mask, check_gin_rules, mask_value
from meldsat.gin.deadwood import (
    Arrangement,
    best_arrangement,
    check_gin_hand,
    least_deadwood_mask,
)
from meldsat.gin.knocking import check_knock_deadwood
from meldsat.gin.scoring import HandScore, hand_score
from meldsat.melds import is_legal_meld
from meldsat.notation import format_pieces, sort_pieces
from meldsat.rules import RuleSet

Meld = tuple[Card, ...]


@dataclass(frozen=True)
class LaidOff:
    """A card laid off, and the index of the knocker's meld it went on."""

    card: Card
    meld: int


@dataclass(frozen=True)
class Layoff:
    """The defender's best: its own arrangement of the cards it kept, and the cards laid off."""

    arrangement: Arrangement
    laid_off: tuple[LaidOff, ...]


@dataclass(frozen=True)
class KnockResult:
    """A knocked hand settled: the knocker's melds after layoffs, the defender's best, the score."""

    knocker_melds: tuple[Meld, ...]
    knocker_deadwood_cards: tuple[Card, ...]
    knocker_deadwood: int
    defender: Layoff
    score: HandScore


def _meld_extensions(meld: Meld, hand: set[Card], index: int) -> list[tuple[LaidOff, ...]]:
    """Every way to lay cards of ``hand`` off on one meld (the empty way first)."""
    ranks = sorted(card.rank for card in meld)
    if len({card.rank for card in meld}) == 1:
        missing = [
            card_of(ranks[0], suit) for suit in range(4) if card_of(ranks[0], suit) not in meld
        ]
        fourth = [(LaidOff(missing[0], index),)] if len(missing) == 1 and missing[0] in hand else []
        return [(), *fourth]
    suit = meld[0].suit
    below: list[LaidOff] = []
    rank = ranks[0] - 1
    while rank >= 1 and card_of(rank, suit) in hand:
        below.append(LaidOff(card_of(rank, suit), index))
        rank -= 1
    above: list[LaidOff] = []
    rank = ranks[-1] + 1
    while rank <= 13 and card_of(rank, suit) in hand:
        above.append(LaidOff(card_of(rank, suit), index))
        rank += 1
    return [
        (*below[:low], *above[:high])
        for low in range(len(below) + 1)
        for high in range(len(above) + 1)
    ]


def best_layoff(hand: Sequence[Card], knocker_melds: Sequence[Meld]) -> Layoff:
    """The defender's least deadwood with layoffs on ``knocker_melds`` (ties: fewest laid off)."""
    held = set(hand)
    hand_mask = cards_mask(hand)
    total = mask_value(hand_mask)
    choices = [_meld_extensions(meld, held, index) for index, meld in enumerate(knocker_melds)]
    best: tuple[int, int, tuple[LaidOff, ...]] | None = None
    for combination in itertools.product(*choices):
        laid = tuple(item for part in combination for item in part)
        laid_mask = cards_mask(item.card for item in laid)
        if laid_mask.bit_count() != len(laid):
            continue  # one card offered to two melds
        kept = hand_mask & ~laid_mask
        key = (least_deadwood_mask(kept, total - mask_value(laid_mask)), len(laid), laid)
        if best is None or key[:2] < best[:2]:
            best = key
    assert best is not None  # the empty layoff is always a choice
    laid = best[2]
    laid_cards = {item.card for item in laid}
    arrangement = best_arrangement([card for card in hand if card not in laid_cards])
    return Layoff(arrangement, laid)


def settle_knock(
    rules: RuleSet,
    knocker_melds: Sequence[Sequence[Card]],
    knocker_deadwood_cards: Sequence[Card],
    hand: Sequence[Card],
    *,
    first_upcard: Card | None = None,
) -> KnockResult:
    """Check a knock and settle it: the defender's best layoffs (none after gin) and the score.

    The knocker holds 10 cards (its melds and deadwood) or, for big gin, 11 cards all melded; the
    defender holds 10. The knocker's deadwood must be within the knock limit.
    """
    check_gin_rules(rules)
    check_gin_hand(hand, (10,))
    melded = [card for meld in knocker_melds for card in meld]
    everything = [*melded, *knocker_deadwood_cards, *hand]
    if len(set(everything)) != len(everything):
        repeated = next(card for card in everything if everything.count(card) > 1)
        raise ImpossiblePositionError(f"card '{repeated}' appears twice (gin uses one deck)")
    for meld in knocker_melds:
        if not is_legal_meld(meld, rules):
            raise ImpossiblePositionError(f"knocker's meld '{format_pieces(meld)}' is not legal")
    knocker_cards = len(melded) + len(knocker_deadwood_cards)
    big_gin = len(melded) == 11 and not knocker_deadwood_cards
    if knocker_cards != 10 and not big_gin:
        raise MeldsatError(
            f"the knocker holds {knocker_cards} cards (melds and deadwood); it must hold 10 "
            "(or 11 all melded, big gin): give its unmelded cards with --knocker-deadwood"
        )
    deadwood = sum(rules.card_value(card) for card in knocker_deadwood_cards)
    check_knock_deadwood(rules, deadwood, first_upcard)
    melds = tuple(tuple(meld) for meld in knocker_melds)
    defender = Layoff(best_arrangement(hand), ()) if deadwood == 0 else best_layoff(hand, melds)
    grown = tuple(
        _grown(meld, [item.card for item in defender.laid_off if item.meld == index])
        for index, meld in enumerate(melds)
    )
    score = hand_score(
        rules, deadwood, defender.arrangement.deadwood, big_gin=big_gin, first_upcard=first_upcard
    )
    ordered = tuple(card for card in sort_pieces(knocker_deadwood_cards) if isinstance(card, Card))
    return KnockResult(grown, ordered, deadwood, defender, score)


def _grown(meld: Meld, added: list[Card]) -> Meld:
    cards = [*meld, *added]
    if len({card.rank for card in cards}) == 1:
        return tuple(sorted(cards, key=lambda card: card.suit))
    return tuple(sorted(cards, key=lambda card: card.rank))
