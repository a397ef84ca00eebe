"""Score sheets of the shared-table games: round (deal) results in, every round's scores and the
game's end out.

``meldsat score --rules R FILE`` reads one JSON object a line, a round (deal) each, and scores
them with the game's own scoring functions, the same ones the games use. Seats are numbered from
0, as in game logs. A round gives each seat's hand left, as cards (``"hands"``) or as points and
card counts (``"points"``, ``"cards"``), plus:

- Manipulation: ``"knocker"`` (a seat, or null).
- 500 family: ``"laid"`` (the points each seat laid this deal) and ``"went_out"`` (a seat, or null).

The gin family's sheet is :mod:`meldsat.games.gin_sheet`; each family names its reader in
:mod:`meldsat.games.registry`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from meldsat.errors import MeldsatError, quote
from meldsat.games.deck import full_deck
from meldsat.games.manipulation_score import (
    RoundScore,
    game_reached_target,
    score_game,
    score_round,
)
from meldsat.games.records import read_pieces
from meldsat.games.rummy500_score import DealScore, game_winners, score_deal
from meldsat.house_rules import house_rules_of, with_players
from meldsat.rules import RuleSet
from meldsat.table import copy_problems
from meldsat.wording import counted

Entry = dict[str, Any]
# A sheet's lines as (line number, JSON object) pairs, as ``meldsat score`` reads them.
NumberedEntries = Sequence[tuple[int, Entry]]


class RoundLine(Protocol):
    """One scored round (deal) of a sheet."""

    def to_json(self) -> Entry:
        """The round as a JSON-ready dict."""


@dataclass(frozen=True)
class ManipulationRoundLine:
    """A Manipulation round: the hands' points, who knocked, the round's score and the totals."""

    number: int
    hand_points: tuple[int, ...]
    knocker: int | None
    score: RoundScore
    totals: tuple[int, ...]

    def to_json(self) -> Entry:
        """``round``, ``hand_points``, ``knocker``, ``scores``, ``winners``, ``undercut``,
        ``totals``."""
        return {
            "round": self.number,
            "hand_points": list(self.hand_points),
            "knocker": self.knocker,
            "scores": list(self.score.scores),
            "winners": list(self.score.winners),
            "undercut": list(self.score.undercut),
            "totals": list(self.totals),
        }


@dataclass(frozen=True)
class DealLine:
    """A 500 deal: the hands' points, the points laid, who went out, the deal's score, totals."""

    number: int
    hand_points: tuple[int, ...]
    laid: tuple[int, ...]
    went_out: int | None
    score: DealScore
    totals: tuple[int, ...]

    def to_json(self) -> Entry:
        """``round``, ``hand_points``, ``laid``, ``went_out``, the pool, ``scores``, ``winners``,
        ``totals``."""
        return {
            "round": self.number,
            "hand_points": list(self.hand_points),
            "laid": list(self.laid),
            "went_out": self.went_out,
            "pool_won": self.score.pool_won,
            "pool_carried": self.score.pool_carried,
            "scores": list(self.score.scores),
            "winners": list(self.score.winners),
            "totals": list(self.totals),
        }


def sheet_header(rules: RuleSet) -> Entry:
    """A sheet's first keys: ``rules``, ``players`` and, if any, ``house_rules``."""
    header: Entry = {"rules": rules.name, "players": rules.players}
    house = house_rules_of(rules)
    if house:
        header["house_rules"] = house
    return header


@dataclass(frozen=True)
class TableSheet:
    """A shared-table game's score sheet: every round, and the game's end so far.

    ``bonuses`` (Manipulation, once the game is over) are the end bonuses already in ``totals``.
    """

    rules: RuleSet
    rounds: tuple[RoundLine, ...]
    game_over: bool
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    bonuses: tuple[int, ...] | None = None

    def to_json(self) -> Entry:
        """``rules``, ``players`` (and ``house_rules`` if any), ``rounds``, ``game_over``,
        ``bonuses`` (if any), ``totals``, ``winners``."""
        data: Entry = {
            **sheet_header(self.rules),
            "rounds": [line.to_json() for line in self.rounds],
            "game_over": self.game_over,
        }
        if self.bonuses is not None:
            data["bonuses"] = list(self.bonuses)
        data.update(totals=list(self.totals), winners=list(self.winners))
        return data


# The keys a round (deal) line of each sheet may have: any other is a mistake, not a comment.
_MANIPULATION_KEYS = frozenset({"hands", "points", "cards", "knocker"})
_RUMMY500_KEYS = frozenset({"hands", "points", "cards", "laid", "went_out"})


def _numbers(entry: Entry, key: str, players: int, number: int, most: int) -> list[int]:
    """``entry[key]``: one whole number from 0 to ``most`` (what the deck can hold) a seat."""
    value = entry.get(key)
    if (
        not isinstance(value, list)
        or len(value) != players
        or not all(isinstance(item, int) and not isinstance(item, bool) for item in value)
    ):
        raise MeldsatError(f"round {number}: '{key}' must list {players} whole numbers")
    for seat, item in enumerate(value):
        if not 0 <= item <= most:
            raise MeldsatError(
                f"round {number}: {key} {item} for seat {seat} is impossible "
                f"(from 0 to {most}, what the deck holds)"
            )
    return value


def _check_keys(entry: Entry, known: frozenset[str], number: int) -> None:
    unknown = sorted(str(key) for key in entry if key not in known)
    if unknown:
        raise MeldsatError(
            f"round {number}: unknown key {quote(unknown[0])} (known: {', '.join(sorted(known))})"
        )


def _seat(entry: Entry, key: str, players: int, number: int) -> int | None:
    value = entry.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise MeldsatError(f"round {number}: bad {key} '{value}' (a seat 0-{players - 1} or null)")
    return value


def _players(entries: NumberedEntries) -> int:
    if not entries:
        raise MeldsatError("no rounds to score")
    _, first = entries[0]
    held = first.get("hands", first.get("points"))
    if not isinstance(held, list):
        raise MeldsatError("round 1: give 'hands' (cards) or 'points' for every seat")
    return len(held)


def _hands(entry: Entry, rules: RuleSet, number: int) -> tuple[list[int], list[int]]:
    """Points and cards left in each hand, from ``hands`` or from ``points`` and ``cards``."""
    players = rules.players
    deck = full_deck(rules)
    if "hands" in entry:
        hands = entry["hands"]
        if not isinstance(hands, list) or len(hands) != players:
            raise MeldsatError(f"round {number}: 'hands' must list {players} hands")
        pieces = [read_pieces(hand, rules, f"round {number} hands") for hand in hands]
        problems = copy_problems([piece for hand in pieces for piece in hand], rules)
        if problems:
            raise MeldsatError(f"round {number}: the hands hold {problems[0]}")
        return [sum(rules.value(piece) for piece in hand) for hand in pieces], [
            len(hand) for hand in pieces
        ]
    points = _numbers(entry, "points", players, number, deck_points(rules))
    cards = _numbers(entry, "cards", players, number, len(deck)) if "cards" in entry else None
    if cards is None:
        # Without card counts, a hand of 0 points is an empty hand (every card counts 1 or more).
        cards = [0 if value == 0 else 1 for value in points]
    for seat, (held, count) in enumerate(zip(points, cards, strict=True)):
        if (held == 0) != (count == 0):
            raise MeldsatError(
                f"round {number}: seat {seat} holds {counted(count, 'card')} worth "
                f"{counted(held, 'point')}, which no hand can"
            )
    return points, cards


def deck_points(rules: RuleSet) -> int:
    """The points of every card in the deck together: no hand or table can hold more."""
    return sum(rules.value(piece) for piece in full_deck(rules))


def manipulation_sheet(rules: RuleSet, entries: NumberedEntries) -> TableSheet:
    """Score Manipulation Rummy rounds up to the end of the game (150), under the house rules
    ``rules`` carries."""
    rules = with_players(rules, _players(entries))
    totals, won = (0,) * rules.players, [0] * rules.players
    rounds: list[RoundLine] = []
    for number, (_, entry) in enumerate(entries, start=1):
        if rounds and game_reached_target(totals, rules.scoring):
            raise MeldsatError(f"round {number}: the game ended after round {number - 1}")
        _check_keys(entry, _MANIPULATION_KEYS, number)
        points, cards = _hands(entry, rules, number)
        knocker = _seat(entry, "knocker", rules.players, number)
        result = score_round(points, cards, knocker, rules.scoring)
        totals = tuple(total + score for total, score in zip(totals, result.scores, strict=True))
        for seat in result.winners:
            won[seat] += 1
        rounds.append(ManipulationRoundLine(number, tuple(points), knocker, result, totals))
    if not game_reached_target(totals, rules.scoring):
        return TableSheet(rules, tuple(rounds), False, totals, ())
    end = score_game(totals, won, rules.scoring)
    return TableSheet(rules, tuple(rounds), True, end.totals, end.winners, end.bonuses)


def rummy500_sheet(rules: RuleSet, entries: NumberedEntries) -> TableSheet:
    """Score 500 (300, killer) deals up to the end of the game, the pool carried between them,
    under the house rules ``rules`` carries (``deal_pool``, ``game_target``)."""
    rules = with_players(rules, _players(entries))
    totals, pool = (0,) * rules.players, 0
    deals: list[RoundLine] = []
    for number, (_, entry) in enumerate(entries, start=1):
        if deals and game_winners(totals, rules.scoring):
            raise MeldsatError(f"deal {number}: the game ended after deal {number - 1}")
        _check_keys(entry, _RUMMY500_KEYS, number)
        points, cards = _hands(entry, rules, number)
        laid = (
            _numbers(entry, "laid", rules.players, number, deck_points(rules))
            if "laid" in entry or not rules.scoring.only_deal_winner_scores
            else [0] * rules.players
        )
        went_out = _seat(entry, "went_out", rules.players, number)
        if went_out is not None and cards[went_out]:
            raise MeldsatError(
                f"deal {number}: seat {went_out} went out but holds "
                f"{counted(cards[went_out], 'card')} ({counted(points[went_out], 'point')})"
            )
        pool += rules.scoring.deal_pool
        result = score_deal(laid, points, went_out, pool, rules.scoring)
        pool = result.pool_carried
        totals = tuple(total + score for total, score in zip(totals, result.scores, strict=True))
        deals.append(DealLine(number, tuple(points), tuple(laid), went_out, result, totals))
    winners = game_winners(totals, rules.scoring)
    return TableSheet(rules, tuple(deals), bool(winners), totals, winners)
