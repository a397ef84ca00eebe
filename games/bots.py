"""Bots built on the engine's hints: greedy-points, greedy-cards, knocker, hoarder, cautious, random
(and ``patient``, the strongest in 500, in :mod:`meldsat.games.table_patient`, and ``shedder``, the
strongest in Manipulation, in :mod:`meldsat.games.table_shedder`).

Every bot asks :func:`meldsat.best_play` for its plays, so its moves are legal by construction;
the game re-checks each one with the rule checker all the same (``apply_turn``), and stops with
an error if a bot ever broke a rule.

- ``greedy-points``: the play worth the most points at every chance; never knocks (a round it
  plays ends when someone goes out, knocks, or the stock runs out).
- ``greedy-cards``: the play with the most cards at every chance; never knocks.
- ``knocker``: as greedy-points, and knocks as soon as the hand is low enough.
- ``hoarder``: melds nothing until one play can go out or reach the knock limit (or the round is
  about to end), then plays it and knocks.
- ``random``: at each chance, melds with probability 1/2 the most cards from a random half of the
  hand; knocks with probability 1/2; discards a random card.
- ``cautious``: in Manipulation holds its cards back as ``hoarder`` does while that is safe, and
  melds the most points as soon as it risks being caught with them: an opponent is down to
  :data:`CAUGHT_CARDS` cards or fewer, or the round is about to end; in the 500 family (laid cards
  score) it melds the most points at every chance. Its discard keeps the cards one card short of
  a meld (a pair, two neighbours of a suit) and throws the highest of the rest.

Discards (games with a discard pile): the highest-valued card, the last in card order on a tie.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from meldsat.cards import Card, Piece
from meldsat.games.agents import TurnView
from meldsat.games.roster import Bot, Roster
from meldsat.notation import Table
from meldsat.play import Objective, Play, Status
from meldsat.position import Position

DEFAULT_TIME_LIMIT = 5.0


@dataclass
class SolverUse:
    """What a bot's hints cost: calls, CPU seconds in the solver, answers not proven optimal."""

    calls: int = 0
    seconds: float = 0.0
    unproven: int = 0

    def add(self, other: SolverUse) -> None:
        """Add another bot's use to this one."""
        self.calls += other.calls
        self.seconds += other.seconds
        self.unproven += other.unproven


@dataclass
class HintBot:
    """A bot that plays the engine's best play for its objective; subclasses change when."""

    name: str
    rng: random.Random
    time_limit: float = DEFAULT_TIME_LIMIT
    objective: Objective = Objective.POINTS
    solver: SolverUse = field(default_factory=SolverUse)

    def hint(self, position: Position, objective: Objective) -> Play:
        """The engine's best play, with its CPU time counted."""
        from meldsat import best_play

        start = time.process_time()
        play = best_play(position, objective, time_limit=self.time_limit)
        self.solver.calls += 1
        self.solver.seconds += time.process_time() - start
        if play.status is not Status.OPTIMAL and play.status is not Status.NO_MOVE:
            self.solver.unproven += 1
        return play

    def choose_meld(self, view: TurnView) -> Table | None:
        """The best play for the objective, whenever there is one."""
        play = self.hint(view.position, self.objective)
        return play.table if play.found else None

    def wants_knock(self, view: TurnView) -> bool:
        """Greedy bots never knock."""
        return False

    def choose_discard(self, view: TurnView) -> Piece:
        """The highest-valued card (the last in card order on a tie)."""
        best = max(view.rules.value(piece) for piece in view.hand)
        return [piece for piece in view.hand if view.rules.value(piece) == best][-1]


class KnockerBot(HintBot):
    """Plays the most points every time and knocks at once."""

    def wants_knock(self, view: TurnView) -> bool:
        """Always knock when allowed."""
        return True


class HoarderBot(HintBot):
    """Holds its cards until a single play goes out or reaches the knock limit."""

    def choose_meld(self, view: TurnView) -> Table | None:
        """The best play only if it goes out, reaches the knock limit, or the round ends soon."""
        play = self.hint(view.position, Objective.POINTS)
        if not play.found:
            return None
        limit = view.rules.knock_limit
        # Without knocking (the 500 family) one card left is as good as out: it is discarded.
        enough = play.hand_points_left <= limit if limit is not None else len(play.hand_left) <= 1
        ending = view.last_chance or view.stock_left <= len(view.hand_sizes)
        return play.table if enough or ending else None

    def wants_knock(self, view: TurnView) -> bool:
        """Knock as soon as allowed."""
        return True


# An opponent with this many cards or fewer may go out on its next turn: stop holding back.
CAUGHT_CARDS = 3


class CautiousBot(HoarderBot):
    """Holds back while it is safe, melds the most points once it risks being caught."""

    def choose_meld(self, view: TurnView) -> Table | None:
        """Hoarder's play, or the most points as soon as an opponent is close to going out; in
        the 500 family (no knock, laid cards score) the most points at every chance."""
        others = [size for seat, size in enumerate(view.hand_sizes) if seat != view.seat]
        caught = min(others, default=len(view.hand)) <= CAUGHT_CARDS
        if caught or view.rules.knock_limit is None:
            play = self.hint(view.position, Objective.POINTS)
            return play.table if play.found else None
        return super().choose_meld(view)

    def choose_discard(self, view: TurnView) -> Piece:
        """The highest card of those one card short of no meld (the last in card order on a tie);
        the highest card when every card is."""
        loose = [piece for piece in view.hand if not near_meld(piece, view.hand)]
        pool = loose or list(view.hand)
        best = max(view.rules.value(piece) for piece in pool)
        return [piece for piece in pool if view.rules.value(piece) == best][-1]


def near_meld(piece: Piece, hand: tuple[Piece, ...]) -> bool:
    """Whether ``piece`` is one card short of a meld with another card of ``hand``: a joker, the
    same rank, or the same suit within two ranks."""
    if not isinstance(piece, Card):
        return True
    for other in hand:
        if not isinstance(other, Card):
            return True
        if other.rank == piece.rank and other.suit != piece.suit:
            return True
        if other.suit == piece.suit and 0 < abs(other.rank - piece.rank) <= 2:
            return True
    return False


class RandomBot(HintBot):
    """A random legal play: the most cards from a random half of the hand, half of the time."""

    def choose_meld(self, view: TurnView) -> Table | None:
        """Meld with probability 1/2, from a random sub-hand."""
        if self.rng.random() < 0.5:
            return None
        subset = tuple(piece for piece in view.hand if self.rng.random() < 0.5)
        if not subset:
            return None
        position = Position.build(view.rules, view.table, subset)
        play = self.hint(position, Objective.CARDS)
        return play.table if play.found else None

    def wants_knock(self, view: TurnView) -> bool:
        """Knock with probability 1/2."""
        return self.rng.random() < 0.5

    def choose_discard(self, view: TurnView) -> Piece:
        """A random card."""
        return self.rng.choice(view.hand)


def _greedy_cards(name: str, rng: random.Random, time_limit: float) -> HintBot:
    return HintBot(name, rng, time_limit, Objective.CARDS)


def _patient(name: str, rng: random.Random, time_limit: float) -> HintBot:
    # Imported here: games/table_patient.py builds on this module's bots.
    from meldsat.games.table_patient import PatientBot

    return PatientBot(name, rng, time_limit)


def _shedder(name: str, rng: random.Random, time_limit: float) -> HintBot:
    from meldsat.games.table_shedder import ShedderBot

    return ShedderBot(name, rng, time_limit)


TABLE_BOTS = Roster(
    (
        Bot(
            "greedy-points",
            "the play worth the most points, at every chance; never knocks",
            HintBot,
        ),
        Bot(
            "greedy-cards",
            "the play with the most cards, at every chance; never knocks",
            _greedy_cards,
        ),
        Bot("knocker", "plays as greedy-points and knocks as soon as it may", KnockerBot),
        Bot(
            "hoarder",
            "melds nothing until one play goes out or reaches the knock limit (500: leaves one "
            "card at most) or the round is about to end, then knocks as soon as it may",
            HoarderBot,
        ),
        Bot(
            "cautious",
            "holds back as hoarder while it is safe, melds the most points once an opponent is "
            "down to three cards or the round is about to end; keeps cards one short of a meld",
            CautiousBot,
        ),
        Bot(
            "patient",
            "the strongest in 500 (63 % of 500 rummy games against three greedy-points, 45.5 % of "
            "Manipulation games against three hoarder): holds its melds until one play goes out "
            "or reaches the knock limit (Manipulation: or its last turn, and with four players "
            "it melds three cards to draw fewer when that seats it better for the end; 500: or "
            "an opponent is down to three cards or the deal is about to end); discards the "
            "lowest card it cannot meld",
            _patient,
        ),
        Bot(
            "shedder",
            "the strongest in Manipulation (54.4 % of 1,000 games against three hoarder on "
            "fresh seeds, patient 50.0 %): patient, and with four players, once another player has "
            "melded and the stock is nearly gone, lays the most points at its last draw that "
            "may meld, to lose small when it cannot win",
            _shedder,
        ),
        Bot(
            "random",
            "half of the time melds the most cards from a random half of the hand; knocks half "
            "of the time; discards a random card",
            RandomBot,
        ),
    )
)
BOT_NAMES: tuple[str, ...] = TABLE_BOTS.names


def make_bot(name: str, rng: random.Random, time_limit: float = DEFAULT_TIME_LIMIT) -> HintBot:
    """The bot called ``name`` (see :data:`BOT_NAMES`)."""
    bot = TABLE_BOTS.make(name, rng, time_limit)
    assert isinstance(bot, HintBot)  # every maker in TABLE_BOTS makes a HintBot
    return bot
