"""The ``sprinter`` gin bot: ``racer`` with an exact second draw in its look-ahead.

``racer`` (:mod:`meldsat.games.gin_racer`) weighs each discard by the next draw only. A hand
two draws from the knock and a hand three or more draws from it can look the same to that
score, and a hand far from the knock is scored by how far, which matters little. ``sprinter``
changes the score of a kept hand in two ways:

- **Far is far, against a random taker** (:data:`DEADWOOD_CAP`): a draw leaving more than 25
  deadwood counts as 25, once the opponent has been seen to take upcards about as often as it
  leaves them (:func:`takes_at_random`): such an opponent takes the bot's discards whether they
  meld or not, so how far a hand is from the knock matters less than how soon it may knock. An
  opponent that takes only what melds is raced by ``racer``'s uncapped score (in tuning the cap
  lost 3-4 points of share against such a bot and won 1.5-2.5 against a random taker).
- **The second draw** (:func:`second_knock_chance`): of the :data:`SECOND_CHOICES` discards the
  one-draw score ranks best, each is also weighed by its exact chance of reaching the knock limit
  on the second draw and not the first: over every pair of unseen cards drawn one after the
  other, with the least-deadwood discard between them. That chance, times
  :data:`SECOND_KNOCK_BONUS`, is taken off its score.

Everything else is ``racer``'s: the pile memory, the feed risk, the exact draw advice, knocking
as soon as allowed. Nothing is sampled: the same hand is played the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from meldsat.cards import Card
from meldsat.games.gin_expert import best_discard
from meldsat.games.gin_racer import RacerGinBot, hand_score
from meldsat.gin.bits import card_bit
from meldsat.gin.deadwood import DiscardOption

DEADWOOD_CAP = 25
# An opponent takes at random when (takes + 1) / (offers + 3) is at least this.
RANDOM_TAKES = 0.4
SECOND_CHOICES = 3
SECOND_KNOCK_BONUS = 20.0


def knock_draws(hand: int, unseen: Sequence[int], limit: int, cache: dict[int, int]) -> int:
    """The mask of the ``unseen`` cards (bits) whose draw lets the 10 cards ``hand`` reach the
    knock limit after the best discard; ``cache`` keeps them by hand for one decision."""
    found = cache.get(hand)
    if found is None:
        found = 0
        for bit in unseen:
            if not hand & bit and best_discard(hand | bit)[0] <= limit:
                found |= bit
        cache[hand] = found
    return found


def second_knock_chance(
    hand: int, unseen: Sequence[int], limit: int, cache: dict[int, int] | None = None
) -> float:
    """The chance that the 10 cards ``hand`` reach ``limit`` deadwood on the second draw of two
    from the ``unseen`` cards (bits) and not on the first, the least-deadwood discard after the
    first. Exact over every ordered pair of different unseen cards."""
    if len(unseen) < 2:
        return 0.0
    cache = {} if cache is None else cache
    total = 0
    for first in unseen:
        deadwood, discard = best_discard(hand | first)
        if deadwood <= limit:
            continue
        kept = (hand | first) & ~discard
        # The first card is no longer in the stock (a discarded one is on the pile).
        total += (knock_draws(kept, unseen, limit, cache) & ~first).bit_count()
    return total / (len(unseen) * (len(unseen) - 1))


def takes_at_random(offers: int, takes: int) -> bool:
    """Whether an opponent that took ``takes`` of the ``offers`` upcards it was offered takes
    them about as often as not (a prior of one take in three offers)."""
    return (takes + 1) / (offers + 3) >= RANDOM_TAKES


@dataclass
class SprinterGinBot(RacerGinBot):
    """``racer`` whose discards weigh the first two draws, not one."""

    def kept_score(self, hand: int, unseen: Sequence[int], limit: int) -> float:
        """The next-draw worth of the kept cards, every deadwood counted at most
        :data:`DEADWOOD_CAP` against an opponent that takes upcards at random."""
        capped = takes_at_random(self.opponent.offers, self.opponent.takes)
        return hand_score(hand, unseen, limit, cap=DEADWOOD_CAP if capped else None)

    def _scored(
        self, choices: Sequence[DiscardOption], hand: int, unseen: Sequence[Card], limit: int
    ) -> list[tuple[float, DiscardOption]]:
        """The :data:`SECOND_CHOICES` best choices by ``racer``'s score, each less
        :data:`SECOND_KNOCK_BONUS` times its :func:`second_knock_chance`."""
        scored = super()._scored(choices, hand, unseen, limit)
        order = sorted(range(len(scored)), key=lambda index: (scored[index][0], index))
        bits = [card_bit(card) for card in unseen]
        cache: dict[int, int] = {}
        best = []
        for index in order[:SECOND_CHOICES]:
            score, option = scored[index]
            kept = hand & ~card_bit(option.discard)
            chance = second_knock_chance(kept, bits, limit, cache)
            best.append((score - SECOND_KNOCK_BONUS * chance, option))
        return best
