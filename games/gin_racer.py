"""The ``racer`` gin bot: discards for the soonest knock by an exact one-draw look-ahead, away
from what the opponent may meld.

A gin hand between two bots that knock as soon as they may is a race: the first to reach the
knock limit nearly always wins it (benchmarks/RESULTS.md, "Bots head to head"). So ``racer``
weighs a discard by the next draw, not by the deadwood now:

- **A kept hand's worth** (:func:`hand_score`): over every card that may come next (the unseen
  cards, less those the opponent is known to hold), the exact least deadwood after drawing it and
  discarding the best card, less :data:`KNOCK_BONUS` when that reaches the knock limit. Of two
  hands with the same deadwood, the one with more live ways to meld scores better.
- **Discards**: among the cards whose discard keeps the deadwood within :data:`DISCARD_SLACK` of
  the least (at most :data:`DISCARD_CHOICES` of them), the one whose kept hand is worth most,
  with :data:`FEED_WEIGHT` times the card's chance of completing a meld in the opponent's hand
  added (:func:`feed_risk`). The opponent model is ``expert``'s
  (:func:`meldsat.games.gin_expert.observe_opponent`): the cards it took from the pile count as
  held; a pair of cards that would have melded with a card it refused or threw is taken as not
  held.
- **Draws** (the exact draw advice over the cards the opponent is not known to hold): the upcard
  when it allows a knock, or when it leaves less deadwood than the stock is expected to.
- **Knocks** as soon as allowed, and gin when all 11 cards meld.

Every deadwood is meldsat's exact gin analysis over every unseen card; nothing is sampled, so
the bot plays the same hand the same way (its ``rng`` is unused).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from meldsat.cards import ALL_CARDS, Card
from meldsat.games.agents import GinDiscard, GinView
from meldsat.games.gin_expert import PileWatcher, after_draw, best_discard
from meldsat.gin.bits import card_bit, cards_mask
from meldsat.gin.deadwood import DiscardOption
from meldsat.gin.draw import draw_advice

# Discards weighed: those within this much deadwood of the least, at most this many.
DISCARD_SLACK = 10
DISCARD_CHOICES = 6
# What reaching the knock limit (and gin) on the next draw is worth, in deadwood points.
KNOCK_BONUS = 10.0
GIN_BONUS = 5.0
# What a discard's chance of completing a meld in the opponent's hand costs, in deadwood points.
FEED_WEIGHT = 5.0


def hand_score(hand: int, unseen: Sequence[int], limit: int, *, cap: int | None = None) -> float:
    """The worth of the 10 cards ``hand`` (a mask) for the next draw, lower is better: the mean
    over the ``unseen`` cards (bits) of the least deadwood after drawing it and the best discard
    (at most ``cap`` when given), less :data:`KNOCK_BONUS` when that is within ``limit`` (and
    :data:`GIN_BONUS` more at 0)."""
    total = 0.0
    for bit in unseen:
        deadwood = best_discard(hand | bit)[0]
        total += deadwood if cap is None else min(deadwood, cap)
        if deadwood <= limit:
            total -= KNOCK_BONUS + (GIN_BONUS if deadwood == 0 else 0.0)
    return total / len(unseen)


def discard_choices(options: Sequence[DiscardOption]) -> list[DiscardOption]:
    """The discards worth weighing, of ``options`` (least deadwood first): those within
    :data:`DISCARD_SLACK` of the least, at most :data:`DISCARD_CHOICES` of them."""
    least = options[0].deadwood
    return [option for option in options if option.deadwood <= least + DISCARD_SLACK][
        :DISCARD_CHOICES
    ]


def _melds(cards: Iterable[Card]) -> bool:
    """Whether three cards make a meld (a group, or a sequence of one suit, ace low)."""
    a, b, c = sorted(cards, key=lambda card: card.rank)
    if a.rank == b.rank == c.rank:
        return True
    return a.suit == b.suit == c.suit and a.rank + 1 == b.rank == c.rank - 1


@functools.cache
def meld_pairs(card: Card) -> tuple[tuple[Card, Card], ...]:
    """The pairs of cards that make a three-card meld with ``card``."""
    others = [other for other in ALL_CARDS if other != card]
    return tuple(
        (a, b)
        for i, a in enumerate(others)
        for b in others[i + 1 :]
        if abs(a.rank - card.rank) <= 2 and abs(b.rank - card.rank) <= 2 and _melds((a, b, card))
    )


def feed_risk(card: Card, chance: dict[Card, float], refused: Iterable[Card] = ()) -> float:
    """The chance (at most 1, pairs taken as independent) that ``card`` completes a three-card
    meld in the opponent's hand. ``chance`` is each card's chance of being in that hand (absent:
    none); a pair that would have melded with a ``refused`` card is taken as not held (the
    opponent would have taken that card, or not thrown it)."""
    passed = tuple(refused)
    risk = 0.0
    for a, b in meld_pairs(card):
        if any(_melds((a, b, other)) for other in passed if other not in (a, b)):
            continue
        risk += chance.get(a, 0.0) * chance.get(b, 0.0)
    return min(risk, 1.0)


@dataclass
class RacerGinBot(PileWatcher):
    """Discards for the soonest knock and away from the opponent; knocks when allowed."""

    def take_upcard(self, view: GinView) -> bool:
        """The exact draw advice over the cards the opponent is not known to hold: the upcard
        when it allows a knock or leaves less deadwood than the stock is expected to."""
        self.watch(view)
        held = self.opponent.holds - {view.upcard}
        seen = (*view.seen, *sorted(held, key=ALL_CARDS.index))
        advice = draw_advice(
            view.hand, view.upcard, view.rules, seen=seen, first_upcard=view.first_upcard
        )
        return advice.upcard.can_knock or advice.take_upcard

    def finish_turn(self, view: GinView, drawn: Card, took_upcard: bool) -> GinDiscard:
        """Big gin when all 11 cards meld; else the weighed discard, knocking when allowed."""
        cards, after, pile = after_draw(view, drawn, took_upcard)
        if after.big_gin:
            return GinDiscard(None, knock=True)
        # A knock in hand knocks now, with the least deadwood (the analysis' first discard).
        limit = after.knock_limit
        option = after.discards[0]
        if not after.can_knock:
            option = self._discard(after.discards, cards, pile, limit)
        self.remember(view, pile, option.discard, view.stock_left - (not took_upcard))
        return GinDiscard(option.discard, knock=option.deadwood <= limit)

    def _discard(
        self, options: Sequence[DiscardOption], cards: list[Card], pile: Sequence[Card], limit: int
    ) -> DiscardOption:
        """The discard whose kept hand is worth most (:func:`hand_score`), with its feed risk."""
        choices = discard_choices(options)
        known = {*cards, *pile, *self.opponent.holds}
        unseen = [card for card in ALL_CARDS if card not in known]
        if len(choices) == 1 or not unseen:
            return choices[0]
        scored = self._scored(choices, cards_mask(cards), unseen, limit)
        return min(scored, key=lambda item: item[0])[1]

    def _scored(
        self, choices: Sequence[DiscardOption], hand: int, unseen: Sequence[Card], limit: int
    ) -> list[tuple[float, DiscardOption]]:
        """Each choice's score, lower is better, in the order of ``choices``: its kept hand's
        worth for the next draw over the ``unseen`` cards, plus its feed risk."""
        bits = [card_bit(card) for card in unseen]
        # Each unseen card is in the opponent's hand with the same chance; a card it took, surely.
        share = max(0, 10 - len(self.opponent.holds)) / len(unseen)
        chance = dict.fromkeys(unseen, share) | dict.fromkeys(self.opponent.holds, 1.0)
        refused = self.opponent.refused | self.opponent.discarded
        return [
            (
                self.kept_score(hand & ~card_bit(option.discard), bits, limit)
                + FEED_WEIGHT * feed_risk(option.discard, chance, refused),
                option,
            )
            for option in choices
        ]

    def kept_score(self, hand: int, unseen: Sequence[int], limit: int) -> float:
        """The worth of the 10 kept cards ``hand`` for the next draw (:func:`hand_score`)."""
        return hand_score(hand, unseen, limit)
