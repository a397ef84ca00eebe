"""The gin bots: agents playing the exact deadwood analysis (the gin games' ``--bots`` names).

- ``knocker``, ``greedy-points``: exact draw advice (take the upcard when its deadwood after the
  best discard is lower than the stock's expected least deadwood over every unseen card), the best
  discard, knock as soon as allowed.
- ``greedy-cards``: takes the upcard whenever it lowers the deadwood at all, best discard, knocks
  as soon as allowed.
- ``hoarder``: as ``knocker``, but knocks only with gin, or when five cards or fewer are left in
  the stock.
- ``random``: a random draw, a random discard, knocks with probability 1/2 when allowed.
- ``expert`` (:mod:`meldsat.games.gin_expert`): remembers what the opponent took and refused from
  the pile, weighs discards by the next draw and by what they give the opponent, and knocks only
  when that is expected to score at least as much as playing on.
- ``racer`` (:mod:`meldsat.games.gin_racer`): discards by an exact one-draw look-ahead over
  every unseen card and away from the opponent's likely melds, draws by the exact draw advice,
  knocks as soon as allowed.
- ``sprinter`` (:mod:`meldsat.games.gin_sprinter`): ``racer`` whose best discards are also
  weighed by the exact chance of knocking on the second draw (docs/BOTS.md gives both bots'
  measured strength).

The gin analysis is immediate, so the bots ignore the hint time limit the table games' bots take.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from meldsat.cards import Card
from meldsat.games.agents import GinDiscard, GinView
from meldsat.games.gin_expert import ExpertGinBot
from meldsat.games.gin_racer import RacerGinBot
from meldsat.games.gin_sprinter import SprinterGinBot
from meldsat.games.roster import Bot, BotMaker, Roster
from meldsat.gin.deadwood import HandAnalysis, analyse_hand
from meldsat.gin.draw import draw_advice

HOARDER_STOCK = 5


@dataclass
class ExactGinBot:
    """Draws by the exact draw advice, discards the best card, knocks as soon as allowed."""

    name: str
    rng: random.Random

    def take_upcard(self, view: GinView) -> bool:
        """The upcard when it leaves less deadwood than the stock is expected to."""
        # Every card of the discard pile below the upcard has been seen by both players.
        advice = draw_advice(
            view.hand, view.upcard, view.rules, seen=view.seen, first_upcard=view.first_upcard
        )
        return advice.take_upcard

    def finish_turn(self, view: GinView, drawn: Card, took_upcard: bool) -> GinDiscard:
        """The best discard (big gin when all 11 cards meld), knocking when :meth:`knocks`."""
        after = analyse_hand(
            [*view.hand, drawn],
            view.rules,
            first_upcard=view.first_upcard,
            keep=drawn if took_upcard else None,
        )
        if after.big_gin:
            return GinDiscard(None, knock=True)
        return GinDiscard(after.discard, self.knocks(view, after, took_upcard))

    def knocks(self, view: GinView, after: HandAnalysis, took_upcard: bool) -> bool:
        """Knock whenever the deadwood allows."""
        return after.can_knock


class UpcardBot(ExactGinBot):
    """Takes the upcard whenever it lowers the deadwood at all."""

    def take_upcard(self, view: GinView) -> bool:
        """The upcard if the hand with it (after the best discard) has less deadwood."""
        now = analyse_hand(view.hand, view.rules, first_upcard=view.first_upcard)
        taken = analyse_hand(
            [*view.hand, view.upcard],
            view.rules,
            first_upcard=view.first_upcard,
            keep=view.upcard,
        )
        return taken.arrangement.deadwood < now.arrangement.deadwood


class HoarderGinBot(ExactGinBot):
    """Knocks only with gin, or once the stock is nearly gone."""

    def knocks(self, view: GinView, after: HandAnalysis, took_upcard: bool) -> bool:
        """Gin, or a knock allowed with :data:`HOARDER_STOCK` cards or fewer left to draw."""
        stock_after_draw = view.stock_left - (not took_upcard)
        return after.gin or (after.can_knock and stock_after_draw <= HOARDER_STOCK)


@dataclass
class RandomGinBot:
    """A random draw and a random discard; knocks with probability 1/2 when allowed."""

    name: str
    rng: random.Random

    def take_upcard(self, view: GinView) -> bool:
        """The upcard half of the time."""
        return self.rng.random() < 0.5

    def finish_turn(self, view: GinView, drawn: Card, took_upcard: bool) -> GinDiscard:
        """Any card but an upcard just taken; a knock half of the time when allowed."""
        choices = view.hand if took_upcard else (*view.hand, drawn)
        discard = self.rng.choice(choices)
        kept = [card for card in [*view.hand, drawn] if card != discard]
        allowed = analyse_hand(kept, view.rules, first_upcard=view.first_upcard).can_knock
        # The second draw from the generator only when a knock is allowed, as it always was.
        return GinDiscard(discard, knock=allowed and self.rng.random() < 0.5)


GinBot = ExactGinBot | RandomGinBot | ExpertGinBot | RacerGinBot | SprinterGinBot


def _maker(kind: type[GinBot]) -> BotMaker:
    """A maker of ``kind`` that drops the hint time limit (the gin analysis needs none)."""

    def make(name: str, rng: random.Random, time_limit: float) -> GinBot:
        return kind(name, rng)

    return make


GIN_BOTS = Roster(
    (
        Bot(
            "knocker",
            "exact draw advice, the best discard, knocks as soon as allowed",
            _maker(ExactGinBot),
        ),
        Bot("greedy-points", "plays as knocker", _maker(ExactGinBot)),
        Bot(
            "greedy-cards",
            "takes the upcard whenever it lowers the deadwood; the best discard; knocks as soon "
            "as allowed",
            _maker(UpcardBot),
        ),
        Bot(
            "hoarder",
            "plays as knocker but knocks only with gin or with five cards or fewer in the stock",
            _maker(HoarderGinBot),
        ),
        Bot(
            "random",
            "a random draw and discard; knocks half of the time when allowed",
            _maker(RandomGinBot),
        ),
        Bot(
            "expert",
            "tracks what the opponent took and refused, draws and discards by how soon the hand "
            "may knock and away from the opponent, knocks or waits by the expected score (as "
            "strong as knocker, measured: docs/BOTS.md)",
            _maker(ExpertGinBot),
        ),
        Bot(
            "racer",
            "discards for the soonest knock by the exact next-draw look-ahead and away from "
            "what the opponent may meld; knocks as soon as allowed (the strongest measured: "
            "51 % of hands against OpenSpiel's SimpleGinRummyBot, 78 % against RLCard's novice)",
            _maker(RacerGinBot),
        ),
        Bot(
            "sprinter",
            "plays as racer, but weighs its best discards by the exact chance of knocking on the "
            "second draw too (measured as strong as racer, at about seven times its thinking)",
            _maker(SprinterGinBot),
        ),
    ),
    noun="gin bot",
)


def make_gin_bot(name: str, rng: random.Random, time_limit: float = 0.0) -> GinBot:
    """The gin bot called ``name``; ``time_limit`` is unused (the gin analysis is immediate)."""
    bot = GIN_BOTS.make(name, rng, time_limit)
    assert isinstance(bot, GinBot)  # every maker in GIN_BOTS makes one
    return bot
