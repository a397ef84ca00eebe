"""An oracle ``racer`` for the benchmarks: told the opponent's true hand and the stock's cards.

It bounds what inferring the opponent's hand could ever give ``racer``
(:mod:`meldsat.games.gin_racer`): the seat (:mod:`benchmarks.common.openspiel_gin`, or
:func:`benchmarks.compare.bots.rlcard_hand`) calls :meth:`OracleRacer.reveal` with the truth
before each of the bot's decisions, and the bot then plays ``racer``'s rules on it:

- **draws** by the exact draw advice over the true stock (the opponent's cards are seen);
- **discards**: the kept hand's worth (:func:`meldsat.games.gin_racer.hand_score`) over the cards
  really in the stock, plus ``feed_weight`` when the opponent's least deadwood drops if it takes
  the card (a certainty, where ``racer`` has a chance).

Two more know more: :class:`DefenceOracle` (``oracle-defenceW``) also weighs the chance of
losing to the opponent's next knock, and :class:`SeerRacer` (``seer``) knows the stock's order
and searches its own next draws (:func:`tell_oracle` and the OpenSpiel seat tell them). The
figures: benchmarks/RESULTS.md, "Oracles for the gin bots".

This is a benchmark's measuring stick, never a bot of the product: no player can see these cards.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from benchmarks.common.rlcard_gin import NoviceSeat, future_takes
from meldsat.cards import ALL_CARDS, Card
from meldsat.games.agents import GinDiscard, GinView
from meldsat.games.gin import GinGame
from meldsat.games.gin_expert import best_discard
from meldsat.games.gin_racer import RacerGinBot, discard_choices
from meldsat.gin.bits import card_bit, cards_mask, mask_cards, mask_value
from meldsat.gin.deadwood import DiscardOption, best_arrangement, least_deadwood_mask
from meldsat.gin.draw import draw_advice
from meldsat.gin.layoff import settle_knock
from meldsat.rules import RuleSet

# The oracle bots by name (``python -m benchmarks bots openspiel --bots oracle,racer``), each with
# its feed weight: what feeding the opponent a card that lowers its deadwood costs, in points.
ORACLES = {"oracle": 5.0, "oracle-nofeed": 0.0, "oracle-feed10": 10.0, "oracle-feed25": 25.0}


@dataclass
class OracleRacer(RacerGinBot):
    """``racer`` playing on the opponent's true hand and the true stock (:meth:`reveal`)."""

    feed_weight: float = 5.0
    opponent_hand: frozenset[Card] = field(default_factory=frozenset)
    stock: frozenset[Card] = field(default_factory=frozenset)

    def reveal(self, opponent_hand: Iterable[Card], stock: Iterable[Card]) -> None:
        """The truth before a decision: the opponent's cards and the cards left in the stock."""
        self.opponent_hand = frozenset(opponent_hand)
        self.stock = frozenset(stock)

    def take_upcard(self, view: GinView) -> bool:
        """The exact draw advice over the true stock."""
        self.watch(view)
        held = {*view.hand, view.upcard}
        seen = [card for card in ALL_CARDS if card not in self.stock and card not in held]
        advice = draw_advice(
            view.hand, view.upcard, view.rules, seen=seen, first_upcard=view.first_upcard
        )
        return advice.upcard.can_knock or advice.take_upcard

    def _discard(
        self, options: Sequence[DiscardOption], cards: list[Card], pile: Sequence[Card], limit: int
    ) -> DiscardOption:
        """The discard whose kept hand is worth most over the true stock, with a certain feed
        (and :meth:`_danger`)."""
        choices = discard_choices(options)
        stock = [card for card in ALL_CARDS if card in self.stock and card not in cards]
        if len(choices) == 1 or not stock:
            return choices[0]
        hand = cards_mask(cards)
        theirs = cards_mask(self.opponent_hand)
        now = least_deadwood_mask(theirs, mask_value(theirs))
        unseen = [card_bit(card) for card in stock]

        def score(option: DiscardOption) -> float:
            bit = card_bit(option.discard)
            feeds = best_discard(theirs | bit, keep=bit)[0] < now
            kept = self.kept_score(hand & ~bit, unseen, limit) + self.feed_weight * feeds
            return kept + self._danger(option.discard, cards, stock, limit)

        return min(choices, key=score)

    def _danger(self, discard: Card, cards: list[Card], stock: Sequence[Card], limit: int) -> float:
        """What a discard risks beyond feeding the opponent: nothing, for this oracle."""
        return 0.0


@dataclass
class DefenceOracle(OracleRacer):
    """An oracle that also defends: each discard's score adds ``defence_weight`` times the
    chance that the opponent knocks on its next turn and this bot's kept 10 cards are not an
    undercut (its best layoffs on the knocker's melds, settled by meldsat's rules)."""

    defence_weight: float = 25.0
    rules: RuleSet | None = None
    first_upcard: Card | None = None

    def finish_turn(self, view: GinView, drawn: Card, took_upcard: bool) -> GinDiscard:
        """``racer``'s turn, remembering the rules for the settlements."""
        self.rules, self.first_upcard = view.rules, view.first_upcard
        return super().finish_turn(view, drawn, took_upcard)

    def _knocks(self, upcard: Card, stock: Sequence[Card], limit: int) -> list[tuple[float, Any]]:
        """The opponent's knocks on its next turn: (chance, its best arrangement), taking the
        upcard at its observed rate (:attr:`OpponentModel.takes` of ``offers``, smoothed)."""
        theirs = cards_mask(self.opponent_hand)
        rate = (self.opponent.takes + 1) / (self.opponent.offers + 3)
        draws = [(rate, upcard)] + [((1 - rate) / len(stock), card) for card in stock]
        knocks = []
        for chance, card in draws:
            bit = card_bit(card)
            deadwood, discard = best_discard(theirs | bit, keep=bit if card == upcard else 0)
            if deadwood <= limit:
                knocks.append((chance, best_arrangement(mask_cards((theirs | bit) & ~discard))))
        return knocks

    def _danger(self, discard: Card, cards: list[Card], stock: Sequence[Card], limit: int) -> float:
        """``defence_weight`` times the chance of losing to the opponent's next knock when
        ``discard`` leaves the hand."""
        assert self.rules is not None  # set by finish_turn, before any discard
        kept = [card for card in cards if card != discard]
        lost = 0.0
        for chance, melds in self._knocks(discard, stock, limit):
            settled = settle_knock(
                self.rules, melds.melds, melds.deadwood_cards, kept, first_upcard=self.first_upcard
            )
            lost += chance * (settled.score.winner == "knocker")
        return self.defence_weight * lost


# The stock-order oracle's look-ahead: its own next draws searched, every discard path.
SEARCH_DRAWS = 3
# What feeding the opponent costs the stock-order oracle, in draws to its knock.
SEER_FEED = 0.5


@functools.lru_cache(maxsize=1 << 18)
def _best(hand: int) -> tuple[int, int]:
    """:func:`meldsat.games.gin_expert.best_discard` of 11 cards, cached (searches repeat them)."""
    return best_discard(hand)


def _discards(hand: int) -> list[int]:
    """The bits of the 11 cards ``hand``."""
    bits = []
    while hand:
        bit = hand & -hand
        bits.append(bit)
        hand ^= bit
    return bits


def race(hand: int, draws: Sequence[int], limit: int) -> tuple[int, int]:
    """How soon the 10 cards ``hand`` reach ``limit`` when the next draws are ``draws`` (bits),
    every discard path searched: (the draws it takes, or one more than there are; the least
    deadwood after the last draw searched), lower is better."""
    if not draws:
        return 1, least_deadwood_mask(hand, mask_value(hand))
    held = hand | draws[0]
    deadwood, _ = _best(held)
    if deadwood <= limit or len(draws) == 1:
        return (1 if deadwood <= limit else 2), deadwood
    best = (len(draws) + 1, 1 << 30)
    for bit in _discards(held):
        steps, left = race(held & ~bit, draws[1:], limit)
        best = min(best, (steps + 1, left))
    return best


@dataclass
class SeerRacer(OracleRacer):
    """An oracle that also knows the stock's order: it draws and discards for the soonest knock
    over its own next :data:`SEARCH_DRAWS` draws (every discard path searched), less
    :data:`SEER_FEED` draws for a discard that feeds the opponent. It knows which of the
    opponent's next turns take the upcard when told (:meth:`reveal_takes`); else the opponent
    takes its discard when it lowers its deadwood and then draws from the stock."""

    order: tuple[Card, ...] = ()
    takes: tuple[bool, ...] | None = None

    def reveal_order(self, order: Sequence[Card]) -> None:
        """The stock's cards in the order they will be drawn (the next first)."""
        self.order = tuple(order)

    def reveal_takes(self, takes: Sequence[bool]) -> None:
        """Whether each of the opponent's next turns takes the upcard (the next first)."""
        self.takes = tuple(takes)

    def _mine(self, cards: Iterable[Card], start: int, takes: Sequence[bool]) -> list[int]:
        """My next draws from the stock, less the ``cards`` held, from the order's ``start``:
        before each, the opponent's turn takes the upcard (``takes``) or the stock's next card."""
        held = set(cards)
        order = [card for card in self.order if card not in held]
        draws = []
        index = start
        for take in takes[:SEARCH_DRAWS]:
            index += not take
            if index >= len(order):
                break
            draws.append(card_bit(order[index]))
            index += 1
        return draws

    def _takes(self, feeds: bool) -> Sequence[bool]:
        """The opponent's next turns: told, or it takes a discard that ``feeds`` it, then draws."""
        if self.takes is not None:
            return self.takes
        return (feeds, *(False,) * SEARCH_DRAWS)

    def take_upcard(self, view: GinView) -> bool:
        """The draw whose best discard path reaches the knock limit sooner."""
        self.watch(view)
        if not self.order:
            return super().take_upcard(view)
        hand = cards_mask(view.hand)
        limit = view.knock_limit
        takes = self._takes(False)[: SEARCH_DRAWS - 1]
        stock = race(hand, [card_bit(self.order[0]), *self._mine(view.hand, 1, takes)], limit)
        upcard = race(hand, [card_bit(view.upcard), *self._mine(view.hand, 0, takes)], limit)
        return upcard < stock

    def _discard(
        self, options: Sequence[DiscardOption], cards: list[Card], pile: Sequence[Card], limit: int
    ) -> DiscardOption:
        """The discard whose kept hand reaches the knock limit soonest over the known draws."""
        hand = cards_mask(cards)
        theirs = cards_mask(self.opponent_hand)
        now = least_deadwood_mask(theirs, mask_value(theirs))
        scored = []
        for index, option in enumerate(options):
            bit = card_bit(option.discard)
            feeds = best_discard(theirs | bit, keep=bit)[0] < now
            draws = self._mine(cards, 0, self._takes(feeds))
            if not draws:
                return options[0]
            steps, left = race(hand & ~bit, draws, limit)
            scored.append((steps + SEER_FEED * feeds, left, index, option))
        return min(scored, key=lambda item: item[:3])[3]


def make_oracle(name: str, rng: random.Random) -> OracleRacer | None:
    """The oracle bot ``name`` (one of :data:`ORACLES`), or ``None`` for any other name."""
    if name == "seer":
        return SeerRacer(name, rng)
    if name.startswith("oracle-defence"):
        return DefenceOracle(name, rng, defence_weight=float(name.removeprefix("oracle-defence")))
    if name not in ORACLES:
        return None
    return OracleRacer(name, rng, feed_weight=ORACLES[name])


def tell_oracle(agent: object, game: GinGame, other: object) -> None:
    """Before ``agent``'s turn in meldsat's ``game``: an oracle is told the opponent's hand and
    the stock, a :class:`SeerRacer` the stock's order and (``other`` being RLCard's novice)
    the novice's next draws; any other agent is told nothing."""
    if not isinstance(agent, OracleRacer):
        return
    agent.reveal(game.hands[1 - game.to_move], game.stock)
    if isinstance(agent, SeerRacer):
        agent.reveal_order(game.stock[::-1])  # the stock is drawn from its end
        if isinstance(other, NoviceSeat):
            agent.reveal_takes(future_takes(other, SEARCH_DRAWS))
