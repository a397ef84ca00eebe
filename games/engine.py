"""The game engine shared by every game: seats, the seeded deal, the turn loop and the log.

A game is a subclass of :class:`Game`. It holds one match's state and answers five questions: deal
a round from a shuffled deck, whose turn it is, what an agent decides (``choose_turn``, a typed
turn decision made of pieces), what that decision does (``play_turn``, which checks it with the
rule checker and raises on a broken rule), and the scores of a round and of the game. Playing and
replaying go through the same ``play_turn``: a replay reads each logged turn back into its
decision (``read_turn``; ``apply_turn`` does both) and requires the records it rebuilds to equal
the logged ones, so every drawn card, table, play and score is recomputed. Text is only for the
log: between agents and the game in one process, a decision is never written out and read back.

Events in a log (one JSON object a line, keys in this order):

- ``game``: ``game`` (number), ``rules``, ``players``, ``seats`` (agent names), ``seed``,
  ``options``, and ``house_rules`` when the rule set differs from its preset (``--rule``)
- ``deal``: ``game``, ``round``, ``dealer``, ``deck`` (the shuffled deck, stock drawn from the end),
  then what the game adds (the hands dealt)
- ``turn``: ``game``, ``round``, ``turn``, then the game's turn record (``seat`` first)
- ``round_end``: ``game``, ``round``, then ``scores`` (this round, a number per seat), ``totals``,
  ``winners`` (seats) and the game's own keys (``knocker``, ``undercut`` where the game has them)
- ``game_end``: ``game``, then ``totals`` (final, bonuses included), ``winners`` and the game's keys
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from meldsat.cards import Piece
from meldsat.errors import MeldsatError, RulesError, quote
from meldsat.games.deck import seeded_rng, shuffled_deck
from meldsat.games.log import Event, GameLog
from meldsat.games.records import pieces_json
from meldsat.house_rules import house_rules_of
from meldsat.rules import RuleSet
from meldsat.schema import SCHEMA_VERSION

AgentT = TypeVar("AgentT")
TurnT = TypeVar("TurnT")
Record = dict[str, Any]


class IllegalTurnError(MeldsatError):
    """A turn that breaks a rule (the message gives every reason), or a record that cannot be."""


MAX_OPTION = 1_000_000


class Game(ABC, Generic[AgentT, TurnT]):
    """One match of a game, from the first deal to the final scores.

    ``rules`` is the rule set with the player count applied; ``options`` are the game's own
    readings (JSON-ready), logged in the header so that a replay plays by the same rules.
    ``AgentT`` is the protocol its players answer (:mod:`meldsat.games.agents`), ``TurnT`` its
    turn decision (a frozen dataclass of pieces).
    """

    def __init__(self, rules: RuleSet, options: dict[str, Any] | None = None) -> None:
        self.rules = rules
        self.options: dict[str, Any] = dict(options or {})
        # Every option is a count (max_rounds, max_deals): a log that says otherwise is refused
        # here, not by a comparison deep in the game.
        for name, value in self.options.items():
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not 1 <= value <= MAX_OPTION
            ):
                raise RulesError(
                    f"option {quote(name)} is {quote(value)}, not a whole number from 1 to "
                    f"{MAX_OPTION}"
                )

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.rules.players

    @abstractmethod
    def start_round(self, number: int, dealer: int, deck: list[Piece]) -> Record:
        """Deal round ``number`` from ``deck`` (drawn from the end); return what the log adds."""

    @property
    @abstractmethod
    def round_over(self) -> bool:
        """True once the current round has ended (knock, going out, stock, round limit)."""

    @property
    @abstractmethod
    def to_move(self) -> int:
        """The seat whose turn it is."""

    @abstractmethod
    def choose_turn(self, agent: AgentT) -> TurnT:
        """Ask ``agent`` for its decisions this turn, without changing the game."""

    @abstractmethod
    def play_turn(self, turn: TurnT) -> Record:
        """Play the decision ``turn``; return its full record for the log.

        Raises :class:`IllegalTurnError` when the turn breaks a rule.
        """

    @abstractmethod
    def read_turn(self, record: Record) -> TurnT:
        """The decision in a logged turn record (only its decision keys are read).

        Raises :class:`IllegalTurnError` for a decision of the wrong shape, and
        :class:`~meldsat.errors.NotationError` for a card that cannot be read.
        """

    def apply_turn(self, record: Record) -> Record:
        """Play the turn a logged record holds (what a replay does); return the record rebuilt."""
        return self.play_turn(self.read_turn(record))

    @abstractmethod
    def end_round(self) -> Record:
        """Score the round that just ended (``scores``, ``totals``, ``winners``, ...)."""

    @property
    @abstractmethod
    def game_over(self) -> bool:
        """True once the game has ended."""

    @abstractmethod
    def end_game(self) -> Record:
        """The final scores (``totals`` with bonuses, ``winners``, ...)."""

    def next_dealer(self, dealer: int) -> int:
        """Who deals the next round: the deal passes to the left (clockwise)."""
        return (dealer + 1) % self.players


def game_header(game: Game[Any, Any], number: int, seats: Sequence[str], seed: int | str) -> Event:
    """The ``game`` event that opens a game in the log."""
    header: Event = {
        "event": "game",
        "schema_version": SCHEMA_VERSION,
        "game": number,
        "rules": game.rules.name,
        "players": game.players,
        "seats": list(seats),
        "seed": seed,
        "options": game.options,
    }
    house = house_rules_of(game.rules)
    if house:
        header["house_rules"] = house
    return header


def leading_seats(totals: Sequence[int]) -> tuple[int, ...]:
    """The seats with the most points (a tie gives several)."""
    best = max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)


def first_dealer(seed: int | str, number: int, players: int) -> int:
    """The first dealer of game ``number``, drawn at random from the game's seed."""
    return seeded_rng(seed, number, "dealer").randrange(players)


def round_deck(
    game: Game[Any, Any], seed: int | str, number: int, round_number: int
) -> list[Piece]:
    """The shuffled deck of one round, drawn from the game's seed (the same seed, the same deck)."""
    return shuffled_deck(game.rules, seeded_rng(seed, number, "deal", round_number))


def play_game(
    game: Game[AgentT, Any],
    agents: Sequence[AgentT],
    seat_names: Sequence[str],
    *,
    seed: int | str,
    number: int = 1,
    log: GameLog,
) -> Record:
    """Play one whole game with ``agents`` in seat order; every event goes to ``log`` at once.

    Returns the ``game_end`` record. Raises :class:`IllegalTurnError` if an agent makes an
    illegal turn (bots never should: that is a bug, and the game stops there).
    """
    if len(agents) != game.players or len(seat_names) != game.players:
        raise MeldsatError(f"{game.players} players need {game.players} agents")
    log.write(game_header(game, number, seat_names, seed))
    dealer = first_dealer(seed, number, game.players)
    round_number = 0
    while not game.game_over:
        round_number += 1
        deck = round_deck(game, seed, number, round_number)
        dealt = game.start_round(round_number, dealer, list(deck))
        log.write(
            {
                "event": "deal",
                "game": number,
                "round": round_number,
                "dealer": dealer,
                "deck": pieces_json(deck, game.rules),
                **dealt,
            }
        )
        turn = 0
        while not game.round_over:
            turn += 1
            record = game.play_turn(game.choose_turn(agents[game.to_move]))
            log.write(
                {"event": "turn", "game": number, "round": round_number, "turn": turn, **record}
            )
        log.write({"event": "round_end", "game": number, "round": round_number, **game.end_round()})
        dealer = game.next_dealer(dealer)
    result = game.end_game()
    log.write({"event": "game_end", "game": number, **result})
    return result
