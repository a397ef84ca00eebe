"""``shedder``: ``patient`` that lays its hand down when it looks at the lay-downs and cannot win.

Between bots that hold their cards (``hoarder``) a Manipulation round is settled when the stock is
nearly gone: each opponent lays down the most points it can once a draw leaves the stock at
``players`` cards or fewer, and each one after it lays on a growing table. ``patient`` holds
everything until a play goes out or reaches the knock limit, or until its last turn. Read from
simulate logs against three hoarders (seed 1200, 200 games; the lay-downs classed by
``python -m benchmarks lay-downs``): in the common round, two opponents lay down just before it,
it finished 95 of 163 of those rounds at that turn, and when it could not it held on and won 2 of
the other 63 (the next player, holding some 28 cards, mostly goes out on the table), losing with
96 points in hand or more: the winner's sum of differences ended the game (150) every time.

So ``shedder`` sheds at that turn: once another player has melded this round and the stock is
nearly gone (``stock_left <= players``), on its last draw that still allows melding (the
second, or the one that empties the stock) it lays the most points it can, as ``hoarder`` would.
The round is still mostly lost, but by much less (a median of 15 points in hand against some
140), and the game often goes on to another round (30 of 81 such losses, seed 1200).
It sheds on that last draw rather than the first: it holds one card more to meld, and emptying the
stock itself gives it the last of the final turns (measured: 55.0 % against 50.0 % for shedding at
the first draw, 200 games, seed 12). Before anyone else has melded it still holds (laying down
first feeds the others: 48.5 % against 55.0 % on the same games), and it keeps ``patient``'s
timing (:mod:`meldsat.games.table_timing`).

Four players only (:data:`SHED_PLAYERS`), as the timing: with three it measured within the noise
(51.5 % against 50.5 %, 200 games, seed 12, ``--players 3``) and with five worse (29.5 % against
35.5 %, ``--players 5``), so there it plays as ``patient``.
"""

from __future__ import annotations

from meldsat.games.agents import TurnView
from meldsat.games.table_patient import PatientBot
from meldsat.games.table_timing import only_mine

# The table sizes it sheds at (see the module docstring).
SHED_PLAYERS = (4,)


class ShedderBot(PatientBot):
    """``patient``, laying its most points when others have laid down and the stock is nearly
    gone (Manipulation)."""

    def sheds(self, view: TurnView) -> bool:
        """Someone else has melded this round, the stock is down to ``players`` cards or fewer,
        and this draw is the turn's last that allows melding (the second, or the stock is
        empty); with four players only (:data:`SHED_PLAYERS`)."""
        if len(view.hand_sizes) not in SHED_PLAYERS:
            return False
        others = bool(view.table) and not only_mine(view.table, self.laid)
        ending = view.stock_left <= len(view.hand_sizes)
        last_draw = view.stock_left == 0 or view.draws >= view.rules.draw_limit - 1
        return others and ending and last_draw
