"""``patient``: the shared-table bot that holds its melds back until they win, and discards low.

Measured against today's best bots (docs/BOTS.md, benchmarks/RESULTS.md), it plays a round
differently from ``hoarder`` and ``greedy-points`` in two ways and discards differently in one:

- **Manipulation**: only the round's winner scores, and between bots that hold their cards the
  round is settled when the stock runs out. ``hoarder`` lays its hand down once the stock is
  nearly gone (``stock_left <= players``), whether or not that wins, and so feeds the players after
  it with melds to go out on. ``patient`` melds only a play that goes out or reaches the knock
  limit (and then knocks), or on its very last turn (``last_chance``), when it lays the most points
  it can to hold the fewest. With four players, before anyone else has melded, it also times
  the end (:mod:`meldsat.games.table_timing`): when drawing in full would seat it just after
  the first opponent to lay down, or make the next player the first (it would act fourth in
  the lay-downs), it melds three cards after its first or second draw to draw fewer.
- **The 500 family**: laid cards score, so a meld on the table is a place for the others to lay
  off theirs. ``patient`` holds its melds while every opponent holds more than
  :data:`~meldsat.games.bots.CAUGHT_CARDS` (three) cards (the sizes are public), and lays the
  most points at once when a play goes out (one card left to discard at most), when an opponent
  is that close to going out, or when the deal is about to end.
- **Its discard** (the 500 family, where a discard is out of play): a card kept is laid for its
  value or caught for minus its value, and on a shared table most cards end up laid; so it keeps
  what it can meld now (the engine's best play on the hand) and throws the *lowest* card of the
  rest, preferring one that is not one card short of a meld (a pair, two neighbours of a suit).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from meldsat.cards import Card, Piece
from meldsat.games.agents import TurnView
from meldsat.games.bots import CAUGHT_CARDS, HoarderBot, near_meld
from meldsat.games.table_timing import only_mine, small_meld, stop_drawing
from meldsat.notation import Table
from meldsat.play import Objective


@dataclass
class PatientBot(HoarderBot):
    """Holds its melds until they win (or it risks being caught), knocks at once, discards low."""

    # The cards of the small melds laid this round to draw fewer (Manipulation).
    laid: list[Card] = field(default_factory=list)

    def choose_meld(self, view: TurnView) -> Table | None:
        """The most points, when that goes out, reaches the knock limit, or it is time to lay
        down (see the module docstring); a small meld to draw fewer; ``None`` otherwise."""
        play = self.hint(view.position, Objective.POINTS)
        limit = view.rules.knock_limit
        if limit is not None:
            wins = play.found and (play.hand_points_left <= limit or not play.hand_left)
            if wins or (play.found and (view.last_chance or self.sheds(view))):
                return play.table
            return None if view.last_chance else self.timing_meld(view)
        if not play.found:
            return None
        others = [size for seat, size in enumerate(view.hand_sizes) if seat != view.seat]
        caught = min(others, default=len(view.hand)) <= CAUGHT_CARDS
        ending = view.last_chance or view.stock_left <= len(view.hand_sizes)
        goes_out = len(play.hand_left) <= 1
        return play.table if goes_out or caught or ending else None

    def sheds(self, view: TurnView) -> bool:
        """Whether to lay the most points now though that does not win (Manipulation, not the
        last turn): never for ``patient``; :mod:`meldsat.games.table_shedder` says when."""
        return False

    def timing_meld(self, view: TurnView) -> Table | None:
        """Manipulation, before anyone else has melded: the table with a small meld added when
        stopping here seats the bot better (:func:`~meldsat.games.table_timing.stop_drawing`)."""
        if not view.table:
            self.laid = []  # a new round
        if not only_mine(view.table, self.laid) or not stop_drawing(view):
            return None
        meld = small_meld(view)
        if meld is None:
            return None
        self.laid += [piece for piece in meld if isinstance(piece, Card)]
        return (*view.table, meld)

    def choose_discard(self, view: TurnView) -> Piece:
        """The lowest card of those the best play leaves in hand, preferring one not one card
        short of a meld (the first in card order on a tie)."""
        play = self.hint(view.position, Objective.POINTS)
        spare = list(play.hand_left) if play.found and play.hand_left else list(view.hand)
        loose = [piece for piece in spare if not near_meld(piece, view.hand)]
        pool = loose or spare
        low = min(view.rules.value(piece) for piece in pool)
        return next(piece for piece in pool if view.rules.value(piece) == low)
