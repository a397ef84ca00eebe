"""When the others will lay their hands down in Manipulation, and drawing fewer cards to sit well.

Between bots that hold their cards the round is settled when the stock is nearly gone: an
opponent of the ``hoarder`` kind lays its hand down once a draw leaves the stock at ``players``
cards or fewer, and every player after it lays down in turn on a table that grows with each
hand laid. Who lays down first is arithmetic on the stock, since every turn that does not meld
draws three cards. Measured with four players against three hoarders (benchmarks/RESULTS.md,
"The timing patient"), the bot holding back wins about half the rounds when the first to lay
down is the player after it or the one after that, and about one in five when it is the player
just before it (who then gets a second turn on the richest table before the bot's). A turn that
melds after its first or second draw draws one or two cards fewer, which moves the whole
sequence: so when drawing in full would seat the bot just after the first to lay down, it melds
a small meld (three cards) to draw fewer, at the last turn that can still put it right. That
wins about a third of those rounds, not half: the cards it does not draw go to the others.

The opponents' rule is a model, fitted to what such players do (``hoarder`` and ``patient``'s own
500 rule lay down when the stock is that low), not a player's name.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from meldsat.cards import Card, count_pieces
from meldsat.games.agents import TurnView
from meldsat.melds import MeldKind, judge_meld
from meldsat.moves import check_move
from meldsat.notation import Meld, Table

# How bad each first lay-down is, by the number of players and how many seats after this one
# it sits, against the cost of one small meld; from the win shares measured against hoarders
# (benchmarks/RESULTS.md, "The seat just before `patient`, and play-outs"). Four players only:
# with three, the seat just before was not worse and timing cost ground; with five, the bad
# seats are too wide to leave with a meld or two. With the next player first the bot acts
# fourth and the player just before it mostly finishes first. With the player just before it
# first the bot acts second, worst of all: that seat costs more than a meld plus the next
# player's seat, since the good seat (two after it, the bot acting third) is seven cards away.
SEAT_COSTS: dict[int, dict[int, float]] = {4: {1: 2.5, 3: 4.0}}
MELD_COST = 1.0
# This turn and the next ones planned; a shift costs at most two turns of small melds.
HORIZON = 3


def lays_down(stock: int, players: int, draw_limit: int) -> bool:
    """Whether an opponent starting its turn with ``stock`` cards left lays its hand down in it:
    a draw that still allows melding leaves ``players`` cards or fewer (or the stock is gone)."""
    return stock - min(draw_limit - 1, stock) <= players


def first_to_lay_down(
    stock: int, players: int, draw_limit: int, my_draws: Sequence[int]
) -> int | None:
    """How many seats after this one sits the first opponent to lay down, when the next player
    starts with ``stock`` cards left and this seat draws ``my_draws`` on its coming turns (then
    the full ``draw_limit``); ``None`` when the stock never gets that low (one player only)."""
    planned = list(my_draws)
    # Every round of turns draws a card at least, and an empty stock makes everyone lay down.
    for turn in range(1, players * (stock + 2)):
        offset = turn % players
        if offset:
            if lays_down(stock, players, draw_limit):
                return offset
            stock -= min(draw_limit, stock)
        else:
            stock -= min(planned.pop(0) if planned else draw_limit, stock)
    return None


def plan_cost(stock: int, players: int, draw_limit: int, plan: Sequence[int]) -> float:
    """What drawing ``plan`` (this turn first, from a turn that started with ``stock``) costs:
    the first layer-down's seat and one :data:`MELD_COST` a turn that draws fewer."""
    after = stock - min(plan[0], stock)
    first = first_to_lay_down(after, players, draw_limit, plan[1:])
    seat = SEAT_COSTS.get(players, {}).get(first or 0, 0.0)
    return seat + MELD_COST * sum(1 for draws in plan if draws < draw_limit)


def stop_drawing(view: TurnView) -> bool:
    """Whether to meld now so as to draw no more this turn: the cheapest plan of this turn's and
    the next turns' draws (:func:`plan_cost`) stops here; on a tie, the plan that melds later."""
    limit = view.rules.draw_limit
    players = len(view.hand_sizes)
    start = view.stock_left + view.draws
    choices = [range(view.draws, limit + 1)] + [range(1, limit + 1)] * (HORIZON - 1)
    best = min(
        itertools.product(*choices),
        key=lambda plan: (plan_cost(start, players, limit, plan), [-draws for draws in plan]),
    )
    return best[0] == view.draws


def small_meld(view: TurnView) -> Meld | None:
    """A meld of three of the hand's real cards to lay on the table as it is: a group before a
    run (a group takes one card more at most), the most points first; ``None`` if there is none.
    Every candidate is judged, and the move checked, by the rule checker."""
    cards = sorted({piece for piece in view.hand if isinstance(piece, Card)})
    candidates = []
    for trio in itertools.combinations(cards, 3):
        verdict = judge_meld(trio, view.rules)
        if verdict.legal:
            points = sum(view.rules.value(card) for card in trio)
            candidates.append((verdict.kind is not MeldKind.GROUP, -points, trio))
    for _, _, trio in sorted(candidates):
        after = (*view.table, trio)
        if check_move(view.table, view.hand, after, view.rules, draws=view.draws).legal:
            return trio
    return None


def only_mine(table: Table, laid: Sequence[Card]) -> bool:
    """Whether every piece on ``table`` is one of the cards this seat ``laid`` (nobody else has
    melded this round)."""
    return count_pieces(piece for meld in table for piece in meld) == count_pieces(laid)
