"""A first gin bot: meldsat's exact analysis does the counting, the bot only decides.

It takes the upcard when that lowers its deadwood by more than half the knock limit, throws the
card that leaves the least deadwood, and knocks as soon as it may. Play it against meldsat's
expert gin bot (docs/BOTS.md explains the protocol)::

    meldsat simulate -r gin --bots examples/first_gin_bot.py:FirstGinBot,expert --games 20
"""

import random
from dataclasses import dataclass

from meldsat.cards import Card
from meldsat.games.agents import GinDiscard, GinView
from meldsat.gin import analyse_hand


@dataclass
class FirstGinBot:
    """A gin bot in a few lines (made as ``FirstGinBot(name, rng, time_limit)``)."""

    name: str
    rng: random.Random
    time_limit: float = 0.0

    def take_upcard(self, view: GinView) -> bool:
        """The upcard when it saves more than half the knock limit in deadwood."""
        now = analyse_hand(view.hand, view.rules, first_upcard=view.first_upcard)
        taken = analyse_hand(
            [*view.hand, view.upcard], view.rules, first_upcard=view.first_upcard, keep=view.upcard
        )
        saved = now.arrangement.deadwood - taken.arrangement.deadwood
        return saved > view.knock_limit / 2

    def finish_turn(self, view: GinView, drawn: Card, took_upcard: bool) -> GinDiscard:
        """The discard leaving the least deadwood; knock whenever allowed (big gin: no discard)."""
        after = analyse_hand(
            [*view.hand, drawn],
            view.rules,
            first_upcard=view.first_upcard,
            keep=drawn if took_upcard else None,
        )
        if after.big_gin:
            return GinDiscard(None, knock=True)
        return GinDiscard(after.discard, knock=after.can_knock)
