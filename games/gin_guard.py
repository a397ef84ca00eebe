"""The ``guard`` gin bot: ``racer`` that also keeps an undercut ready for the opponent's knock.

Against a bot that knocks as soon as it may, a hand is a race; the race is ``racer``'s
(:mod:`meldsat.games.gin_racer`). When the opponent gets there first, the hand is still won by
an undercut: the defender's deadwood, after laying off on the knocker's melds, at most the
knocker's. An oracle told the opponent's true hand (``oracle-defence25`` in
benchmarks/common/oracle_gin.py) showed that weighing this wins many more hands than knowing
the opponent's cards for the race, so ``guard`` imagines the opponent's hand and weighs it:

- **Imagined hands** (:meth:`GuardGinBot.imagined_hands`): :data:`GUARD_SAMPLES` seeded hands
  of the cards the opponent is known to hold (taken from the pile, not thrown back) and unseen
  cards, fitted by random swaps to what it showed (:meth:`GuardGinBot.excess`): more deadwood
  than the knock limit (it would have knocked), no card out of its melds worth more than its
  last discard (it throws its highest deadwood) and, from an opponent that takes few upcards,
  the cards it took in its melds and the last one it left not lowering its deadwood.
- **The hazard** of each discard (:meth:`GuardGinBot.hazards`): over the imagined hands, the
  chance that the opponent knocks on its next turn (taking the discard at the rate it has been
  seen to take upcards, or drawing any other unseen card; its knock melds its best
  arrangement) and the bot's kept 10 cards are not an undercut (settled exactly, with the bot's
  best layoffs: :func:`meldsat.gin.layoff.settle_knock`). It adds :data:`GUARD_WEIGHT` times
  that chance to ``racer``'s score of the discard.

Draws and knocks are ``racer``'s. The imagined hands come from the bot's seeded generator, so a
game's seed fixes its play.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from meldsat.cards import Card
from meldsat.games.agents import GinDiscard, GinView
from meldsat.games.gin_expert import best_discard
from meldsat.games.gin_racer import RacerGinBot
from meldsat.gin.bits import card_bit, cards_mask, mask_cards
from meldsat.gin.deadwood import DiscardOption, best_arrangement
from meldsat.gin.layoff import settle_knock
from meldsat.rules import RuleSet

# Imagined opponent hands a discard's hazard is weighed over, and the draws tried for each.
GUARD_SAMPLES = 24
# Swaps tried to make an imagined hand fit what the opponent showed; the excess of a hand that
# could knock.
GUARD_STEPS = 40
KNOCKING = 100
# An opponent seen to take fewer upcards than this share (smoothed) takes only those that meld;
# what an imagined hand that breaks that counts in its excess.
SELECTIVE = 0.4
MISFIT = 5
# What losing the hand to the opponent's next knock costs, in racer's score (deadwood points).
GUARD_WEIGHT = 25.0


def value(card: Card) -> int:
    """A card's deadwood value (a face card counts 10)."""
    return min(card.rank, 10)


@functools.lru_cache(maxsize=1 << 16)
def knocker_wins(rules: RuleSet, knocker: int, defender: int, first_upcard: Card | None) -> bool:
    """Whether the knock of the 10 cards ``knocker`` (a mask, its best arrangement) beats the
    10 cards ``defender`` after the defender's best layoffs (no undercut)."""
    melds = best_arrangement(mask_cards(knocker))
    result = settle_knock(
        rules, melds.melds, melds.deadwood_cards, mask_cards(defender), first_upcard=first_upcard
    )
    return result.score.winner == "knocker"


@dataclass
class GuardGinBot(RacerGinBot):
    """``racer`` whose discards also keep an undercut ready for the opponent's next knock."""

    rules: RuleSet | None = None
    first_upcard: Card | None = None
    thrown: Card | None = None
    discarded: Card | None = None
    refused: Card | None = None
    selective: bool = False

    def finish_turn(self, view: GinView, drawn: Card, took_upcard: bool) -> GinDiscard:
        """``racer``'s turn; the rules and first upcard are kept for settling imagined knocks."""
        self.rules, self.first_upcard = view.rules, view.first_upcard
        ending = super().finish_turn(view, drawn, took_upcard)
        self.discarded = ending.discard
        return ending

    def _scored(
        self, choices: Sequence[DiscardOption], hand: int, unseen: Sequence[Card], limit: int
    ) -> list[tuple[float, DiscardOption]]:
        """``racer``'s score of each choice plus :data:`GUARD_WEIGHT` times its hazard."""
        scored = super()._scored(choices, hand, unseen, limit)
        hazards = self.hazards(choices, hand, unseen, limit)
        return [
            (score + GUARD_WEIGHT * hazard, option)
            for (score, option), hazard in zip(scored, hazards, strict=True)
        ]

    def take_upcard(self, view: GinView) -> bool:
        """``racer``'s draw; the upcard, when the opponent threw it, is kept as its last discard."""
        thrown = bool(view.seen) or view.upcard != view.first_upcard
        self.thrown = view.upcard if thrown else None
        # The last discard, under the opponent's on the pile: it drew from the stock instead.
        left = self.discarded is not None and view.seen[-1:] == (self.discarded,)
        self.refused = self.discarded if left else None
        taking = super().take_upcard(view)
        self.selective = (self.opponent.takes + 1) / (self.opponent.offers + 3) < SELECTIVE
        return taking

    def excess(self, hand: int, limit: int) -> int:
        """How far the opponent's hand ``hand`` (a mask) is from what it showed: the value above
        its last discard's of each card out of its best melds (it throws its highest deadwood),
        or :data:`KNOCKING` when it could knock (it would have)."""
        arrangement = best_arrangement(mask_cards(hand))
        if arrangement.deadwood <= limit:
            return KNOCKING
        far = 0
        if self.thrown is not None:
            top = value(self.thrown)
            far += sum(max(0, value(card) - top) for card in arrangement.deadwood_cards)
        if self.selective:
            # A player that takes few upcards takes those that meld, and left the last one
            # because it did not lower its deadwood.
            far += MISFIT * sum(card in self.opponent.holds for card in arrangement.deadwood_cards)
            refused = self.refused
            if refused is not None and not hand & card_bit(refused):
                bit = card_bit(refused)
                far += MISFIT * (best_discard(hand | bit, keep=bit)[0] < arrangement.deadwood)
        return far

    def imagined_hands(self, unseen: Sequence[Card], limit: int) -> list[int]:
        """Up to :data:`GUARD_SAMPLES` opponent hands (masks) of the cards it is known to hold
        and ``unseen`` cards, that it could hold by what it showed (:meth:`excess` 0): each
        starts from a seeded draw and swaps cards at random, keeping a swap that brings it no
        further, for at most :data:`GUARD_STEPS` swaps."""
        known = cards_mask(self.opponent.holds)
        need = 10 - len(self.opponent.holds)
        if need <= 0 or need >= len(unseen):
            return [known] if need == 0 else []
        pool = list(unseen)
        hands: list[int] = []
        for _ in range(GUARD_SAMPLES):
            chosen = self.rng.sample(pool, need)
            hand = known | cards_mask(chosen)
            far = self.excess(hand, limit)
            for _ in range(GUARD_STEPS):
                if not far:
                    break
                out = self.rng.randrange(need)
                incoming = self.rng.choice(pool)
                if hand & card_bit(incoming):
                    continue
                swapped = (hand & ~card_bit(chosen[out])) | card_bit(incoming)
                further = self.excess(swapped, limit)
                if further <= far:
                    hand, far, chosen[out] = swapped, further, incoming
            if not far:
                hands.append(hand)
        return hands

    def hazards(
        self, choices: Sequence[DiscardOption], hand: int, unseen: Sequence[Card], limit: int
    ) -> list[float]:
        """For each choice, the chance over the imagined hands that the opponent knocks on its
        next turn and the 10 kept cards are not an undercut."""
        rules = self.rules
        samples = self.imagined_hands(unseen, limit)
        if rules is None or not samples:
            return [0.0] * len(choices)
        rate = (self.opponent.takes + 1) / (self.opponent.offers + 3)
        kept = [hand & ~card_bit(option.discard) for option in choices]
        lost = [0.0] * len(choices)
        for theirs in samples:
            stock = [card_bit(card) for card in unseen if not theirs & card_bit(card)]
            # Its knocks by a draw from the stock are the same whatever this bot throws.
            knocks: list[tuple[float, int]] = []
            for bit in stock:
                deadwood, discard = best_discard(theirs | bit)
                if deadwood <= limit:
                    knocks.append(((1 - rate) / len(stock), (theirs | bit) & ~discard))
            for index, option in enumerate(choices):
                bit = card_bit(option.discard)
                deadwood, discard = best_discard(theirs | bit, keep=bit)
                taken = [(rate, (theirs | bit) & ~discard)] if deadwood <= limit else []
                for chance, knocker in (*knocks, *taken):
                    if knocker_wins(rules, knocker, kept[index], self.first_upcard):
                        lost[index] += chance
        return [value / len(samples) for value in lost]
