"""Replay a game log: re-deal from the seed, re-check every turn, recompute every score.

Each turn's decisions (cards drawn, the table after, knock, discard) go back through the game's
``apply_turn``, which judges the play with the rule checker; the record it rebuilds must equal the
logged one key for key, and so must every deal, round score and final score. The first difference
or broken rule is reported with its line, game, round and turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeGuard

from meldsat.errors import MeldsatError, quote
from meldsat.games.engine import (
    Game,
    IllegalTurnError,
    Record,
    first_dealer,
    round_deck,
)
from meldsat.games.log import Event
from meldsat.games.records import pieces_json
from meldsat.games.registry import bots_of, new_game
from meldsat.house_rules import house_rules_of
from meldsat.schema import SCHEMA_VERSION

_ENVELOPE = frozenset({"event", "game", "round", "turn"})


class WrongTurnError(MeldsatError):
    """A log entry that the replay refuses: an illegal turn or a number that does not add up."""

    def __init__(self, line: int, where: str, message: str) -> None:
        super().__init__(f"line {line}: {where}: {message}")
        self.line = line
        self.where = where
        self.reason = message

    def __reduce__(self) -> tuple[type[WrongTurnError], tuple[int, str, str]]:
        # Rebuilt from its three parts when it comes back from a worker process.
        return (WrongTurnError, (self.line, self.where, self.reason))


@dataclass
class ReplayReport:
    """What a replay confirmed."""

    games: int = 0
    rounds: int = 0
    turns: int = 0
    incomplete_game: int | None = None  # a last game cut off (an interrupted run)


@dataclass
class _Current:
    """The game being replayed and where it has got to."""

    game: Game[Any, Any]
    number: int
    seed: int | str
    round: int = 0
    dealer: int = 0
    turn: int = 0


def replay_events(
    events: Iterable[tuple[int, Event]], first_game: int | None = 1, *, seats: bool = False
) -> ReplayReport:
    """Replay ``(line, event)`` pairs; raises :class:`WrongTurnError` at the first wrong one.

    The games must be numbered ``first_game``, and one more each game after it, without a repeat
    or a gap (``first_game=None``: the first game may have any number, for a piece of a log).
    With ``seats``, every seat of a header must be a bot of meldsat's that plays the game, or the
    person at ``meldsat play`` (a log of meldsat's own commands); a library's own agents may have
    any names.
    """
    report = ReplayReport()
    current: _Current | None = None
    expected_game = first_game
    line = 0
    for line, event in events:
        kind = event["event"]
        try:
            if kind == "game":
                if current is not None:
                    raise _MismatchError(
                        f"game {current.number} has no game_end before the next game"
                    )
                number = event.get("game")
                if expected_game is not None and number != expected_game:
                    raise _MismatchError(
                        f"game number {_show(number)}, expected {expected_game} "
                        "(games run 1, 2, 3, ... without a repeat or a gap)"
                    )
                current = _start(event, seats=seats)
                expected_game = current.number + 1
                continue
            if current is None:
                raise _MismatchError(f"a '{kind}' event before any game event")
            if event.get("game") != current.number:
                raise _MismatchError(f"game number {event.get('game')}, expected {current.number}")
            if kind == "deal":
                _deal(current, event)
            elif kind == "turn":
                _turn(current, event)
                report.turns += 1
            elif kind == "round_end":
                if not current.game.round_over:
                    raise _MismatchError("round_end while the round is still going on")
                _compare(current.game.end_round(), event)
                report.rounds += 1
            elif kind == "game_end":
                if not current.game.game_over:
                    raise _MismatchError("game_end before the game is over")
                _compare(current.game.end_game(), event)
                report.games += 1
                current = None
            else:
                raise _MismatchError(f"unknown event '{kind}'")
        except (_MismatchError, IllegalTurnError) as error:
            raise WrongTurnError(line, _where(event, current), str(error)) from None
        except MeldsatError as error:
            raise WrongTurnError(line, _where(event, current), f"unreadable: {error}") from None
    if current is not None:
        report.incomplete_game = current.number
    return report


Numbered = tuple[int, Event]


@dataclass(frozen=True)
class GamePiece:
    """One game's events (with their line numbers) and the event that follows them, if any.

    The events before a log's first ``game`` event, if any, make a piece of their own.
    """

    events: list[Numbered]
    next_game: Numbered | None
    first: bool = False  # the log's first piece, whose game must be game 1
    seats: bool = False  # the seats must be meldsat's bots (see replay_events)


def split_games(events: Iterable[Numbered], *, seats: bool = False) -> Iterator[GamePiece]:
    """The log cut before every ``game`` event: pieces that can be replayed each on its own
    (``seats``: see :func:`replay_events`)."""
    piece: list[Numbered] = []
    first = True
    for numbered in events:
        if numbered[1]["event"] == "game" and piece:
            yield GamePiece(piece, numbered, first, seats)
            piece, first = [], False
        piece.append(numbered)
    if piece:
        yield GamePiece(piece, None, first, seats)


def replay_piece(piece: GamePiece) -> ReplayReport:
    """Replay one piece exactly as :func:`replay_events` replays it inside the whole log.

    The following ``game`` event goes in too, so that a game without its ``game_end`` (or a bad
    ``game`` event) is refused at the same line with the same words; the game it starts is left
    to the next piece. The report of a whole log is the sum of its pieces' reports, in order.
    Each piece checks that the next game's number follows its own, and the first that its game is
    game 1, so together they check the whole log's numbering.
    """
    first_game = 1 if piece.first else None
    if piece.next_game is None:
        return replay_events(piece.events, first_game, seats=piece.seats)
    report = replay_events([*piece.events, piece.next_game], first_game, seats=piece.seats)
    report.incomplete_game = None
    return report


class _MismatchError(Exception):
    """A difference found while replaying (turned into :class:`WrongTurnError` with its place)."""


def _where(event: Event, current: _Current | None) -> str:
    parts = [f"game {event.get('game', current.number if current else '?')}"]
    if "round" in event:
        parts.append(f"round {event['round']}")
    if "turn" in event:
        seat = event.get("seat")
        parts.append(f"turn {event['turn']}" + (f" (seat {seat})" if seat is not None else ""))
    elif event["event"] != "turn":
        parts.append(event["event"])
    return ", ".join(parts)


def _whole(value: object) -> TypeGuard[int]:
    """A whole number in JSON (``true`` is a bool, though Python counts it an int)."""
    return isinstance(value, int) and not isinstance(value, bool)


# Every key a game event may have: a log with any other key was not written by meldsat.
_HEADER_KEYS = frozenset(
    {
        "event",
        "schema_version",
        "game",
        "rules",
        "players",
        "seats",
        "seed",
        "options",
        "house_rules",
    }
)
# The seat name of the person at ``meldsat play`` (every other seat is a bot of the family).
PERSON_SEAT = "you"


def _start(event: Event, *, seats: bool) -> _Current:
    unknown = sorted(set(event) - _HEADER_KEYS)
    if unknown:
        raise _MismatchError(f"unknown key {quote(unknown[0])} in the game event")
    if event.get("schema_version") != SCHEMA_VERSION:
        raise _MismatchError(
            f"schema_version {event.get('schema_version')}, expected {SCHEMA_VERSION}"
        )
    rules, players, seed = event.get("rules"), event.get("players"), event.get("seed")
    options = event.get("options")
    if not isinstance(rules, str) or not _whole(players) or not isinstance(seed, int | str):
        raise _MismatchError("a game event needs 'rules', 'players' and 'seed'")
    if not isinstance(options, dict):
        raise _MismatchError("a game event needs 'options' (an object)")
    number = event.get("game")
    if not _whole(number):
        raise _MismatchError("a game event needs its number 'game'")
    house = event.get("house_rules", {})
    if not isinstance(house, dict):
        raise _MismatchError("'house_rules' of a game event must be an object")
    # The game's own options are the ones a game without any has (max_rounds, ...), no others.
    unknown = sorted(set(options) - set(new_game(rules, players).options))
    if unknown:
        raise _MismatchError(f"unknown option {quote(unknown[0])} in the game event")
    game = new_game(rules, players, options, house)
    if seats:
        _check_seats(event.get("seats"), rules, players)
    if game.options != options:
        raise _MismatchError(f"options {options}, the game plays with {game.options}")
    played = house_rules_of(game.rules)
    if played != house:
        raise _MismatchError(f"house_rules {house}, the game plays with {played}")
    return _Current(game, number, seed)


def _check_seats(seats: object, rules: str, players: int) -> None:
    """One name a seat: a bot that plays ``rules``, or the person (the bots' choices are not
    replayed, so one bot's name cannot be told from another's, but a made-up name can)."""
    if not isinstance(seats, list) or len(seats) != players:
        raise _MismatchError(f"'seats' must list {players} seat names")
    known = {bot.name for bot in bots_of(rules)} | {PERSON_SEAT}
    for seat, name in enumerate(seats):
        if name not in known:
            raise _MismatchError(f"seat {seat} is {_show(name)}, not a bot that plays {rules}")


def _deal(current: _Current, event: Event) -> None:
    if current.round and not current.game.round_over:
        raise _MismatchError("a new deal while the round is still going on")
    if current.game.game_over:
        raise _MismatchError("a new deal after the game is over")
    expected_round = current.round + 1
    if event.get("round") != expected_round:
        raise _MismatchError(f"round {event.get('round')}, expected {expected_round}")
    dealer = (
        first_dealer(current.seed, current.number, current.game.players)
        if expected_round == 1
        else current.game.next_dealer(current.dealer)
    )
    if event.get("dealer") != dealer:
        raise _MismatchError(
            f"dealer {event.get('dealer')}, but the seed and rotation give {dealer}"
        )
    deck = round_deck(current.game, current.seed, current.number, expected_round)
    if event.get("deck") != pieces_json(deck, current.game.rules):
        raise _MismatchError("the deck is not the one the seed shuffles")
    current.round, current.dealer, current.turn = expected_round, dealer, 0
    dealt = current.game.start_round(expected_round, dealer, list(deck))
    _compare(dealt, event)


def _turn(current: _Current, event: Event) -> None:
    if current.round == 0 or current.game.round_over:
        raise _MismatchError("a turn outside a round")
    if event.get("round") != current.round:
        raise _MismatchError(f"round {event.get('round')}, expected {current.round}")
    current.turn += 1
    if event.get("turn") != current.turn:
        raise _MismatchError(f"turn {event.get('turn')}, expected {current.turn}")
    if event.get("seat") != current.game.to_move:
        raise _MismatchError(
            f"seat {event.get('seat')} played, but it was seat {current.game.to_move}'s turn"
        )
    _compare(current.game.apply_turn(event), event)


def _compare(rebuilt: Record, event: Event) -> None:
    """The logged event must hold exactly what the replay rebuilt (beside the envelope keys)."""
    logged = {key: value for key, value in event.items() if key not in _ENVELOPE}
    for key in sorted(set(rebuilt) | set(logged)):
        if key in ("dealer", "deck"):
            continue
        if rebuilt.get(key, _MISSING) != logged.get(key, _MISSING):
            raise _MismatchError(
                f"'{key}' is {_show(logged.get(key, _MISSING))} in the log, "
                f"but the replay gives {_show(rebuilt.get(key, _MISSING))}"
            )


_MISSING = object()


def _show(value: object) -> str:
    if value is _MISSING:
        return "missing"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
