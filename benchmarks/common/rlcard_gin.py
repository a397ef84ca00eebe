"""RLCard's novice gin agent (``GinRummyNoviceRuleAgent``) seated in meldsat's gin game.

RLCard's own gin game scores a hand for learning (0.2 for any knock, undercut or not), not by the
rules of gin, so the hands are dealt, checked and scored by meldsat's game
(:class:`meldsat.games.gin.GinGame`) and the novice agent decides through its own code: at each
question it gets RLCard's state (its hand encoded as RLCard does, RLCard's action ids for what is
legal) and its ``step`` picks the action. Its draw is RLCard's: a random one of "draw a card" and
"pick up the discard", from numpy's generator, seeded here from the seat's seed.

RLCard is a peer installed for the benchmarks only (``pip install -r benchmarks/requirements.txt``);
meldsat never depends on it.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from meldsat.cards import Card, card_of
from meldsat.games.agents import GinDiscard, GinView
from meldsat.gin.deadwood import analyse_hand

DRAW_CARD, PICK_UP_DISCARD, GIN, DISCARD, KNOCK = 2, 3, 5, 6, 58


def card_id(card: Card) -> int:
    """RLCard's id of a card: the rank index plus 13 times the suit index (S H D C)."""
    return card.rank - 1 + 13 * card.suit


def id_card(number: int) -> Card:
    """The meldsat card of one of RLCard's card ids."""
    return card_of(number % 13 + 1, number // 13)


@dataclass
class NoviceSeat:
    """RLCard's novice rule agent answering meldsat's gin questions."""

    name: str
    rng: random.Random
    time_limit: float = 0.0

    def _step(self, hand: list[Card], legal: list[int]) -> int:
        import numpy as np
        from rlcard.models.gin_rummy_rule_models import GinRummyNoviceRuleAgent

        np.random.seed(self.rng.randrange(2**32))
        obs = np.zeros((5, 52), dtype=int)
        for card in hand:
            obs[0][card_id(card)] = 1
        # RLCard's environment hands its agents the legal actions as an OrderedDict of ids.
        actions = OrderedDict((number, None) for number in legal)
        state: dict[str, Any] = {"obs": obs, "legal_actions": actions}
        return int(GinRummyNoviceRuleAgent.step(state))

    def take_upcard(self, view: GinView) -> bool:
        """RLCard's choice of draw (a random one, in the novice agent)."""
        return self._step(list(view.hand), [DRAW_CARD, PICK_UP_DISCARD]) == PICK_UP_DISCARD

    def finish_turn(self, view: GinView, drawn: Card, took_upcard: bool) -> GinDiscard:
        """RLCard's choice among the legal discards, knocks and gin (legality by meldsat)."""
        held = [*view.hand, drawn]
        analysis = analyse_hand(
            held, view.rules, first_upcard=view.first_upcard, keep=drawn if took_upcard else None
        )
        legal = [DISCARD + card_id(option.discard) for option in analysis.discards]
        knocks = [
            KNOCK + card_id(option.discard)
            for option in analysis.discards
            if option.deadwood <= analysis.knock_limit
        ]
        gin = analysis.big_gin or analysis.gin
        choice = self._step(held, [*legal, *knocks, *([GIN] if gin else [])])
        if choice == GIN:
            return GinDiscard(None if analysis.big_gin else analysis.discard, knock=True)
        if choice >= KNOCK:
            return GinDiscard(id_card(choice - KNOCK), knock=True)
        return GinDiscard(id_card(choice - DISCARD), knock=False)


def future_takes(seat: NoviceSeat, turns: int) -> list[bool]:
    """Whether each of the novice's next ``turns`` turns takes the upcard: its draw is a random
    choice whatever its hand, from a generator seeded by its seat's, so a copy foretells it (for
    the benchmarks' stock-order oracle, :mod:`benchmarks.common.oracle_gin`)."""
    twin = NoviceSeat(seat.name, random.Random())
    twin.rng.setstate(seat.rng.getstate())
    takes = []
    for _ in range(turns):
        takes.append(twin._step([], [DRAW_CARD, PICK_UP_DISCARD]) == PICK_UP_DISCARD)
        twin.rng.randrange(2**32)  # its finish_turn seeds numpy once
    return takes
