"""One hand of OpenSpiel's ``gin_rummy`` with a meldsat gin bot in one seat: OpenSpiel deals,
checks every action and scores the hand by its own rules; the bot only answers its questions.

The bot (a :class:`~meldsat.games.agents.GinAgent`) is asked what it is asked in meldsat's game:
on a draw (and on OpenSpiel's first-upcard offer) ``take_upcard``, then ``finish_turn`` with the
card drawn. A knock is played out as OpenSpiel asks for it (knock, discard, lay the melds of
meldsat's best arrangement, pass); as the defender the seat lays off and melds by meldsat's exact
best layoff (:func:`meldsat.gin.layoff.best_layoff`). OpenSpiel's wall (two cards left in the
stock) is passed unless the hand may knock with the upcard.

OpenSpiel is a peer installed for the benchmarks only (``pip install -r
benchmarks/requirements.txt``); meldsat never depends on it.
"""

from __future__ import annotations

import random
from typing import Any

from meldsat.cards import Card, card_of
from meldsat.games.agents import GinAgent, GinView
from meldsat.gin.deadwood import analyse_hand, best_arrangement
from meldsat.gin.layoff import best_layoff
from meldsat.rules import RuleSet

# OpenSpiel's suits in card order (card = suit * 13 + rank - 1): spades, clubs, diamonds, hearts.
_SUIT = {0: 0, 1: 3, 2: 2, 3: 1}  # OpenSpiel's suit -> meldsat's (S H D C)
DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK = 52, 53, 54, 55
_RANKS = "A23456789TJQK"
_SUITS = "scdh"


def card(action: int) -> Card:
    """The meldsat card of one of OpenSpiel's card actions (0-51)."""
    return card_of(action % 13 + 1, _SUIT[action // 13])


def action(of: Card) -> int:
    """OpenSpiel's action for one card."""
    suit = next(theirs for theirs, ours in _SUIT.items() if ours == of.suit)
    return suit * 13 + of.rank - 1


def meld_actions(state: Any) -> dict[frozenset[Card], int]:
    """Every meld action of OpenSpiel's game by the set of cards it lays (``As2s3s`` -> 121)."""
    melds: dict[frozenset[Card], int] = {}
    for number in range(KNOCK + 1, state.get_game().num_distinct_actions()):
        text = state.action_to_string(0, number).rpartition(" ")[2]
        cards = [
            card(_SUITS.index(text[i + 1]) * 13 + _RANKS.index(text[i]))
            for i in range(0, len(text), 2)
        ]
        melds[frozenset(cards)] = number
    return melds


class BotSeat:
    """A meldsat gin bot playing one seat of an OpenSpiel hand."""

    def __init__(self, bot: GinAgent, rules: RuleSet, player: int, melds: dict[Any, int]) -> None:
        self.bot, self.rules, self.player, self.melds = bot, rules, player, melds
        self.view: GinView | None = None
        self.took = False
        self.plan: list[int] = []
        # The hand's chance generator, for an oracle told the stock's order (play_hand sets it).
        self.rng: random.Random | None = None

    def _view(self, state: Any) -> GinView:
        hand = tuple(card(number) for number in state.hands()[self.player])
        pile = tuple(card(number) for number in state.discard_pile())
        return GinView(
            self.rules, self.player, hand, card(state.upcard()), state.stock_size(), 10, None, pile
        )

    def step(self, state: Any) -> int:
        """The seat's next action."""
        phase = state.current_phase().name
        legal = state.legal_actions()
        if phase in ("FIRST_UPCARD", "DRAW", "DISCARD"):
            self._reveal(state)
        if phase in ("FIRST_UPCARD", "DRAW"):
            self.view = self._view(state)
            self.took = self.bot.take_upcard(self.view) and DRAW_UPCARD in legal
            if self.took:
                return DRAW_UPCARD
            return DRAW_STOCK if DRAW_STOCK in legal else PASS
        if phase == "DISCARD":
            return self._discard(state, legal)
        if phase == "WALL":
            return KNOCK if KNOCK in legal else PASS
        if phase == "KNOCK":
            return self._knock(state, legal)
        return self._layoff(state, legal)

    def _reveal(self, state: Any) -> None:
        """Tell an oracle bot (:mod:`benchmarks.common.oracle_gin`) the opponent's hand and the
        stock's cards; other bots have no ``reveal`` and see only their own view."""
        reveal = getattr(self.bot, "reveal", None)
        if reveal is None:
            return
        theirs = [card(number) for number in state.hands()[1 - self.player]]
        out = {*state.hands()[0], *state.hands()[1], *state.discard_pile()}
        if state.upcard() is not None:
            out.add(state.upcard())
        stock = [card(number) for number in range(52) if number not in out]
        assert len(stock) == state.stock_size()
        reveal(theirs, stock)
        reveal_order = getattr(self.bot, "reveal_order", None)
        if reveal_order is not None and self.rng is not None:
            # Each stock draw is a chance node that play_hand answers with rng.choice over the
            # stock in card order, so a copy of the generator tells the order to come.
            ahead = random.Random()
            ahead.setstate(self.rng.getstate())
            rest = sorted(action(c) for c in stock)
            order = []
            while rest:
                order.append(card(rest.pop(rest.index(ahead.choice(rest)))))
            reveal_order(order)

    def _discard(self, state: Any, legal: list[int]) -> int:
        assert self.view is not None
        hand = [card(number) for number in state.hands()[self.player]]
        drawn = next(c for c in hand if c not in self.view.hand)
        ending = self.bot.finish_turn(self.view, drawn, self.took)
        if ending.knock and KNOCK in legal:
            self.knock_discard = ending.discard
            return KNOCK
        assert ending.discard is not None
        return action(ending.discard)

    def _knock(self, state: Any, legal: list[int]) -> int:
        hand = [card(number) for number in state.hands()[self.player]]
        if len(hand) == 11:
            discard = getattr(self, "knock_discard", None)
            if discard is None:  # big gin, or the wall: the best discard of the 11
                discard = analyse_hand(hand, self.rules).discard
            assert discard is not None
            return action(discard)
        if not self.plan:
            arrangement = best_arrangement(hand)
            self.plan = [self.melds[frozenset(meld)] for meld in arrangement.melds] + [PASS]
        return self.plan.pop(0) if self.plan[0] in legal else PASS

    def _layoff(self, state: Any, legal: list[int]) -> int:
        if not self.plan:
            hand = [card(number) for number in state.hands()[self.player]]
            knocker = 1 - self.player
            theirs = [
                tuple(c for c in cards)
                for cards, number in self.melds.items()
                if number in state.layed_melds()[knocker]
            ]
            layoff = best_layoff(hand, theirs)
            self.plan = [action(item.card) for item in layoff.laid_off]
            self.plan += [self.melds[frozenset(meld)] for meld in layoff.arrangement.melds]
        for number in self.plan:
            if number in legal:
                self.plan.remove(number)
                return number
        return PASS if PASS in legal else legal[0]


def play_hand(bot: GinAgent, rules: RuleSet, player: int, peer: Any, rng: random.Random) -> float:
    """Play one hand with ``bot`` as ``player`` and ``peer`` (an OpenSpiel bot) in the other seat;
    the bot's returns (positive: it won the hand; 0: a dead hand)."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    state = game.new_initial_state()
    seat = BotSeat(bot, rules, player, meld_actions(state))
    seat.rng = rng
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [outcome for outcome, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(outcomes))
        elif state.current_player() == player:
            state.apply_action(seat.step(state))
        else:
            state.apply_action(peer.step(state))
    return float(state.returns()[player])
