"""The ``expert`` gin bot: it remembers the discard pile, weighs its discards, and knocks by
expected score.

What it adds to ``knocker`` (:mod:`meldsat.games.gin_bots`):

- **Memory of the pile.** Between its turns it sees what the opponent did to its last discard:
  taken (the opponent holds that card until it throws it back) or refused (it drew from the
  stock), and what the opponent discarded (:class:`OpponentModel`). The cards it knows the
  opponent holds are left out of the unseen cards (the draws it imagines are of cards that may
  really come) and are kept in every hand it imagines the opponent holding; the refused and
  discarded cards are recorded but weigh in no decision yet.
- **Draws and discards.** A hand is scored by how soon it is expected to reach a knock
  (:func:`race_score`: :data:`RACE_SAMPLES` seeded sequences of :data:`RACE_DRAWS` unseen cards,
  each step the exact best discard). It takes the upcard when it may knock with it, or when the
  hand with it (after its best few discards) races better than the stock's draw; near the end of
  the stock it follows the exact draw advice. Among the few discards that leave the least
  deadwood (within :data:`DISCARD_SLACK`), it throws the one whose kept hand races best, less
  :data:`FEED_WEIGHT` times the share of imagined opponent hands whose deadwood the card lowers.
- **Knocks.** With a knock allowed (not gin, which always knocks), it compares the expected score
  of knocking now (each imagined opponent hand settled exactly: the defender's best layoffs, the
  undercut bonus) with waiting: the same imagined hands and stocks played on greedily by both
  sides (take the upcard when it lowers the deadwood, the best discard, knock as soon as allowed)
  until a knock, gin, or a dead stock. The rest of the stock is in every such play-out, so a short
  stock weighs as it should; the gin bonus comes with every play-out that reaches gin.

Every deadwood, layoff and score is meldsat's exact gin analysis; only the unseen cards'
whereabouts are sampled, from the bot's own seeded generator, so a game's seed fixes its play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from meldsat.cards import ALL_CARDS, Card
from meldsat.games.agents import GinDiscard, GinView
from meldsat.gin.bits import BIT_VALUE, cards_mask, mask_cards, mask_value
from meldsat.gin.deadwood import HandAnalysis, analyse_hand, best_arrangement, least_deadwood_mask
from meldsat.gin.draw import draw_advice
from meldsat.gin.layoff import settle_knock
from meldsat.rules import RuleSet

# Discards considered: those within this much deadwood of the best one, at most this many.
DISCARD_SLACK = 4
DISCARD_CHOICES = 4
# Draw sequences a discard's race to a knock is weighed over, and their length.
RACE_SAMPLES = 40
RACE_DRAWS = 4
RACE_DRAW = True
# How much the chance that a discard lowers the opponent's deadwood costs, in race score.
FEED_WEIGHT = 0.5
# Imagined opponent hands: for weighing discards, and play-outs for the knock.
FEED_SAMPLES = 24
KNOCK_SAMPLES = 40
# The hand is dead when a discard without a knock leaves this many cards or fewer in the stock.
DEAD_STOCK = 2


@dataclass
class OpponentModel:
    """What the bot knows of the opponent's hand in the current hand (round).

    ``holds``: cards it took from the pile and has not thrown back; ``discarded``: the cards it
    threw; ``refused``: upcards it left for the stock; ``offers`` and ``takes``: how many
    upcards it was seen to be offered, and how many of them it took.
    """

    holds: set[Card] = field(default_factory=set)
    discarded: set[Card] = field(default_factory=set)
    refused: set[Card] = field(default_factory=set)
    offers: int = 0
    takes: int = 0


@dataclass(frozen=True)
class PileMemory:
    """The discard pile as the bot's last discard left it, the stock then, and that hand's first
    upcard (how the next turn tells whether the opponent took that discard, or a new hand began)."""

    pile: tuple[Card, ...]
    stock: int
    first_upcard: Card | None


def observe_opponent(
    view: GinView, model: OpponentModel, memory: PileMemory | None
) -> OpponentModel:
    """``model`` told what the opponent did since the bot's last discard (``memory``; ``None``
    before the bot's first turn of the game). A pile and stock that one turn of the opponent
    cannot have made from ``memory`` are a new hand, and start a new model."""
    now = (*view.seen, view.upcard)
    # The opponent drew from the stock (its discard went on the pile), or took the bot's
    # discard (its own replaced it on top, and the stock stayed as it was).
    drew = took = False
    if memory is not None and memory.first_upcard == view.first_upcard:
        drew = now[:-1] == memory.pile and view.stock_left == memory.stock - 1
        took = now[:-1] == memory.pile[:-1] and view.stock_left == memory.stock
    if memory is None or not (drew or took):
        model = OpponentModel()
        first = view.first_upcard
        if first is not None and first not in now:
            model.holds.add(first)  # it took the first upcard
            model.offers, model.takes = 1, 1
        elif first is not None and now == (first, view.upcard):
            model.refused.add(first)
            model.offers = 1
    elif drew:
        model.refused.add(memory.pile[-1])
        model.offers += 1
    else:
        model.holds.add(memory.pile[-1])
        model.offers += 1
        model.takes += 1
    model.discarded.add(view.upcard)
    # A card in sight is not in the opponent's hand (whatever the memory said).
    model.holds -= {*view.hand, *now}
    return model


def after_draw(
    view: GinView, drawn: Card, took_upcard: bool
) -> tuple[list[Card], HandAnalysis, tuple[Card, ...]]:
    """The 11 cards after the draw, their analysis (an upcard just taken kept), and the discard
    pile below the card about to be discarded."""
    cards = [*view.hand, drawn]
    after = analyse_hand(
        cards, view.rules, first_upcard=view.first_upcard, keep=drawn if took_upcard else None
    )
    return cards, after, view.seen if took_upcard else (*view.seen, view.upcard)


def best_discard(hand: int, keep: int = 0) -> tuple[int, int]:
    """The least deadwood of 11 cards after one discard (not ``keep``), and that discard's bit;
    ties discard the highest card."""
    total = mask_value(hand)
    best_key, best_bit = (1 << 30, 0), 0
    rest = hand & ~keep
    while rest:
        bit = rest & -rest
        rest ^= bit
        worth = BIT_VALUE[bit.bit_length() - 1]
        key = (least_deadwood_mask(hand & ~bit, total - worth), -worth)
        if key < best_key:
            best_key, best_bit = key, bit
    return best_key[0], best_bit


def _deadwood(hand: int) -> int:
    return least_deadwood_mask(hand, mask_value(hand))


@dataclass
class _Seat:
    """One side of a play-out: its hand (a mask) and its deadwood."""

    hand: int
    deadwood: int


def _settle(rules: RuleSet, knocker: int, defender: int, first_upcard: Card | None) -> int:
    """The knocker's signed points for a knock of ``knocker`` (10 cards) against ``defender``."""
    melds = best_arrangement(mask_cards(knocker))
    result = settle_knock(
        rules, melds.melds, melds.deadwood_cards, mask_cards(defender), first_upcard=first_upcard
    )
    return result.score.points if result.score.winner == "knocker" else -result.score.points


def play_out(
    rules: RuleSet,
    me: int,
    opponent: int,
    stock: Sequence[int],
    upcard: int,
    *,
    limit: int,
    first_upcard: Card | None,
) -> int:
    """My signed points when, my turn just ended without a knock, both sides play on greedily.

    ``stock`` is drawn from its end; each side takes the upcard when it lowers its deadwood,
    discards its best card and knocks as soon as allowed; a discard leaving :data:`DEAD_STOCK`
    cards or fewer in the stock kills the hand (0).
    """
    seats = [_Seat(opponent, _deadwood(opponent)), _Seat(me, _deadwood(me))]
    cards = list(stock)
    turn = 0
    while True:
        seat = seats[turn % 2]
        with_upcard = best_discard(seat.hand | upcard, keep=upcard)
        if with_upcard[0] < seat.deadwood:
            deadwood, discard = with_upcard
            seat.hand |= upcard
        else:
            if not cards:
                return 0
            seat.hand |= cards.pop()
            deadwood, discard = best_discard(seat.hand)
        seat.hand &= ~discard
        seat.deadwood = deadwood
        upcard = discard
        if deadwood <= limit:
            points = _settle(rules, seat.hand, seats[1 - turn % 2].hand, first_upcard)
            return points if turn % 2 else -points
        if len(cards) <= DEAD_STOCK:
            return 0
        turn += 1


@dataclass
class PileWatcher:
    """A gin bot that remembers the pile between its turns (:class:`OpponentModel`)."""

    name: str
    rng: random.Random
    opponent: OpponentModel = field(default_factory=OpponentModel)
    _memory: PileMemory | None = None

    def watch(self, view: GinView) -> None:
        """Learn what the opponent did since this bot's last discard (at the start of a turn)."""
        self.opponent = observe_opponent(view, self.opponent, self._memory)

    def remember(self, view: GinView, pile: tuple[Card, ...], discard: Card, stock: int) -> None:
        """The pile below this turn's ``discard`` and the ``stock`` left, at the end of a turn."""
        self._memory = PileMemory((*pile, discard), stock, view.first_upcard)


@dataclass
class ExpertGinBot(PileWatcher):
    """Tracks the pile, discards away from the opponent, knocks by expected score."""

    def take_upcard(self, view: GinView) -> bool:
        """The draw that is expected to reach a knock sooner (:func:`race_score`), over the cards
        the opponent is not known to hold; the exact draw advice when the stock is nearly out."""
        self.watch(view)
        seen = (*view.seen, *sorted(self.opponent.holds - {view.upcard}, key=ALL_CARDS.index))
        advice = draw_advice(
            view.hand, view.upcard, view.rules, seen=seen, first_upcard=view.first_upcard
        )
        if advice.upcard.can_knock:
            return True
        if not RACE_DRAW or len(advice.unseen) < RACE_DRAWS:
            return advice.take_upcard
        bits = [cards_mask((card,)) for card in advice.unseen]
        draws = [self.rng.sample(bits, RACE_DRAWS) for _ in range(RACE_SAMPLES)]
        stock = race_score(cards_mask(view.hand), draws, view.knock_limit)
        # The upcard is a known first draw: the rest of each sequence follows it.
        held = cards_mask((*view.hand, view.upcard))
        best = advice.upcard.discards[0].deadwood
        upcard = max(
            race_score(
                held & ~cards_mask((option.discard,)), [d[1:] for d in draws], view.knock_limit
            )
            for option in advice.upcard.discards[:DISCARD_CHOICES]
            if option.deadwood <= best + DISCARD_SLACK
        )
        return upcard > stock

    def finish_turn(self, view: GinView, drawn: Card, took_upcard: bool) -> GinDiscard:
        """Big gin when all 11 cards meld; else the weighed discard and the weighed knock."""
        cards, after, pile = after_draw(view, drawn, took_upcard)
        if after.big_gin:
            return GinDiscard(None, knock=True)
        held = set(cards)
        unseen = [
            card
            for card in ALL_CARDS
            if card not in held and card not in pile and card not in self.opponent.holds
        ]
        stock = view.stock_left - (not took_upcard)
        discard = self._discard(after, cards, unseen)
        kept = [card for card in cards if card != discard]
        knock = self._knocks(view, kept, discard, unseen, stock)
        self.remember(view, pile, discard, stock)
        return GinDiscard(discard, knock)

    def _opponent_hands(self, unseen: list[Card], count: int) -> list[tuple[int, list[Card]]]:
        """``count`` imagined opponent hands (a mask) with the rest of the unseen cards shuffled
        (the stock, drawn from the end)."""
        known = cards_mask(self.opponent.holds)
        need = 10 - len(self.opponent.holds)
        hands = []
        for _ in range(count):
            rest = list(unseen)
            self.rng.shuffle(rest)
            hands.append((known | cards_mask(rest[:need]), rest[need:]))
        return hands

    def _discard(self, after: HandAnalysis, cards: list[Card], unseen: list[Card]) -> Card:
        """Among the discards leaving the least deadwood (within :data:`DISCARD_SLACK`), the one
        whose kept hand is expected to reach a knock soonest (:func:`race_score`), less what the
        card is expected to give the opponent."""
        best = after.discards[0].deadwood
        choices = [o.discard for o in after.discards if o.deadwood <= best + DISCARD_SLACK]
        choices = choices[:DISCARD_CHOICES]
        if len(choices) == 1 or len(unseen) < RACE_DRAWS:
            return choices[0]
        hand = cards_mask(cards)
        bits = [cards_mask((card,)) for card in unseen]
        # The same draw sequences for every choice, so that the choices differ by the hand only.
        draws = [self.rng.sample(bits, RACE_DRAWS) for _ in range(RACE_SAMPLES)]
        opponents = [mask for mask, _ in self._opponent_hands(unseen, FEED_SAMPLES)]
        scored = []
        for order, card in enumerate(choices):
            bit = cards_mask((card,))
            feed = sum(_feeds(mask, bit) for mask in opponents) / len(opponents)
            race = race_score(hand & ~bit, draws, after.knock_limit)
            scored.append((race - FEED_WEIGHT * feed, -order, card))
        return max(scored)[2]

    def _knocks(
        self, view: GinView, kept: list[Card], discard: Card, unseen: list[Card], stock: int
    ) -> bool:
        """Knock when knocking now is expected to score at least as much as playing on."""
        analysis = analyse_hand(kept, view.rules, first_upcard=view.first_upcard)
        if not analysis.can_knock or analysis.gin:
            return analysis.can_knock
        if stock <= DEAD_STOCK or len(unseen) < 10 - len(self.opponent.holds) + stock:
            return True  # no turn is left (or the pile's story did not add up): knock now
        me = cards_mask(kept)
        upcard = cards_mask((discard,))
        knocking = waiting = 0
        for opponent, rest in self._opponent_hands(unseen, KNOCK_SAMPLES):
            knocking += _settle(view.rules, me, opponent, view.first_upcard)
            stock_cards = [cards_mask((card,)) for card in rest[:stock]]
            waiting += play_out(
                view.rules,
                me,
                opponent,
                stock_cards,
                upcard,
                limit=view.knock_limit,
                first_upcard=view.first_upcard,
            )
        return knocking >= waiting


def _feeds(opponent: int, bit: int) -> bool:
    """Whether the card ``bit`` lowers the least deadwood of the hand ``opponent``."""
    return best_discard(opponent | bit, keep=bit)[0] < _deadwood(opponent)


def race_score(hand: int, draws: Sequence[Sequence[int]], limit: int) -> float:
    """How soon the 10 cards ``hand`` reach a knock, over draw sequences: each sequence scores the
    draws it has left when the best discards first reach ``limit`` deadwood (0 if never)."""
    total = 0
    for sequence in draws:
        held = hand
        for step, drawn in enumerate(sequence):
            deadwood, discard = best_discard(held | drawn)
            if deadwood <= limit:
                total += len(sequence) - step
                break
            held = (held | drawn) & ~discard
    return total / len(draws)
