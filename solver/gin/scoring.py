"""Gin scoring: one hand's score, and the score sheet of a game (or Hollywood's three games).

The rules, with the readings taken, are in docs/RULES.md; the constants come from the rule set's
``scoring``. A hand: the knocker scores the deadwood difference; a defender with less or equal
deadwood undercuts and scores the difference plus the undercut bonus; gin scores the defender's
deadwood plus the gin bonus and cannot be undercut, big gin likewise with the big gin bonus.
Oklahoma doubles a hand whose first upcard is a spade. A knock above the hand's knock limit is
refused. A game ends when a player reaches the target; the winner gets the game bonus, each player
the line bonus for every hand it won in that game, and a shutout (the loser won no hand of that
game) doubles the winner's total.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from meldsat.cards import Card
from meldsat.errors import MeldsatError
from meldsat.gin.knocking import KnockLimitError, check_knock_deadwood
from meldsat.rules import RuleSet

_SPADES = 0


class HandKind(enum.StrEnum):
    """How a hand ended."""

    KNOCK = "knock"
    UNDERCUT = "undercut"
    GIN = "gin"
    BIG_GIN = "big_gin"
    DEAD = "dead"  # nobody knocked before the stock ran out: no score


@dataclass(frozen=True)
class HandScore:
    """A hand's outcome: who scores (``knocker``, ``defender``; none if dead) and how much."""

    kind: HandKind
    winner: str | None
    points: int
    doubled: bool

    def to_json(self) -> dict[str, Any]:
        """``kind``, ``winner`` (knocker or defender), ``points``, ``doubled``: the one JSON form
        of a hand's score, in ``layoff --json`` and in the score sheet alike."""
        return {
            "kind": self.kind.value,
            "winner": self.winner,
            "points": self.points,
            "doubled": self.doubled,
        }


def hand_score(
    rules: RuleSet,
    knocker_deadwood: int,
    defender_deadwood: int,
    *,
    big_gin: bool = False,
    first_upcard: Card | None = None,
) -> HandScore:
    """Score one knocked hand. ``defender_deadwood`` is counted after its layoffs.

    A knocker's deadwood of 0 is gin (``big_gin`` when all 11 cards were melded). Oklahoma
    (``spade_upcard_doubles``) needs ``first_upcard`` to know whether the hand counts double, and
    to know the knock limit; a knocker's deadwood above the limit raises
    :class:`~meldsat.gin.knocking.KnockLimitError`.
    """
    scoring = rules.scoring
    if knocker_deadwood < 0 or defender_deadwood < 0:
        raise MeldsatError("deadwood cannot be negative")
    if big_gin and knocker_deadwood:
        raise MeldsatError(f"big gin leaves no deadwood, not {knocker_deadwood}")
    if scoring.spade_upcard_doubles and first_upcard is None:
        raise MeldsatError(f"rule set '{rules.name}': a spade upcard doubles, so give the upcard")
    check_knock_deadwood(rules, knocker_deadwood, first_upcard)
    if big_gin:
        kind, winner, points = (
            HandKind.BIG_GIN,
            "knocker",
            defender_deadwood + scoring.big_gin_bonus,
        )
    elif knocker_deadwood == 0:
        kind, winner, points = HandKind.GIN, "knocker", defender_deadwood + scoring.gin_bonus
    elif defender_deadwood <= knocker_deadwood:
        points = knocker_deadwood - defender_deadwood + scoring.undercut_bonus
        kind, winner = HandKind.UNDERCUT, "defender"
    else:
        kind, winner, points = HandKind.KNOCK, "knocker", defender_deadwood - knocker_deadwood
    doubled = (
        scoring.spade_upcard_doubles and first_upcard is not None and first_upcard.suit == _SPADES
    )
    return HandScore(kind, winner, points * 2 if doubled else points, doubled)


@dataclass(frozen=True)
class HandResult:
    """One line of a score sheet: who knocked, both deadwoods (after layoffs), and the upcard.

    ``knocker`` is ``None`` for a dead hand (nobody knocked).
    """

    knocker: str | None
    knocker_deadwood: int = 0
    defender_deadwood: int = 0
    big_gin: bool = False
    first_upcard: Card | None = None


@dataclass
class GameColumn:
    """One game of the sheet (Hollywood has three), its running points and, once over, bonuses."""

    number: int
    points: dict[str, int]
    hands_won: dict[str, int]
    winner: str | None = None
    game_bonus: dict[str, int] = field(default_factory=dict)
    line_bonus: dict[str, int] = field(default_factory=dict)
    shutout: bool = False
    total: dict[str, int] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        """A player reached the target."""
        return self.winner is not None


@dataclass(frozen=True)
class ScoredHand:
    """A hand on the sheet: its number, the player who scored, the score, the games it went to."""

    number: int
    player: str | None
    score: HandScore
    games: tuple[int, ...]


@dataclass(frozen=True)
class ScoreSheet:
    """Every hand scored and every game column; ``finished`` when every game is over."""

    players: tuple[str, str]
    target: int
    hands: tuple[ScoredHand, ...]
    games: tuple[GameColumn, ...]

    @property
    def finished(self) -> bool:
        """Every game has a winner."""
        return all(game.finished for game in self.games)


def score_sheet(
    rules: RuleSet, players: Sequence[str], results: Sequence[HandResult]
) -> ScoreSheet:
    """Score hands in order into ``rules.scoring.games_at_once`` game columns.

    Hollywood: a player's first hand won scores in game 1, the second in games 1 and 2, the third
    and later in games 1 to 3; a game already over takes no more scores. A player shut out of a
    game (it ended before the player won a hand in it) enters its next win as the first score of
    the next game still open where ``shutout_enters_next_game`` is set, and nowhere otherwise.
    A knock above the knock limit is refused, naming its hand.
    """
    if len(players) != 2 or players[0] == players[1]:
        raise MeldsatError(f"gin is for two players with different names, not {list(players)}")
    pair = (players[0], players[1])
    scoring = rules.scoring
    columns = tuple(
        GameColumn(number, dict.fromkeys(pair, 0), dict.fromkeys(pair, 0))
        for number in range(1, scoring.games_at_once + 1)
    )
    wins = dict.fromkeys(pair, 0)
    hands: list[ScoredHand] = []
    for number, result in enumerate(results, start=1):
        if all(column.finished for column in columns):
            raise MeldsatError(f"hand {number}: the game is already over")
        if result.knocker is None:
            hands.append(ScoredHand(number, None, HandScore(HandKind.DEAD, None, 0, False), ()))
            continue
        if result.knocker not in pair:
            raise MeldsatError(f"hand {number}: unknown player '{result.knocker}'")
        try:
            score = hand_score(
                rules,
                result.knocker_deadwood,
                result.defender_deadwood,
                big_gin=result.big_gin,
                first_upcard=result.first_upcard,
            )
        except KnockLimitError as error:
            raise MeldsatError(f"hand {number}: {error}") from None
        defender = pair[1] if result.knocker == pair[0] else pair[0]
        player = result.knocker if score.winner == "knocker" else defender
        wins[player] += 1
        games = _games_scored(columns, player, wins[player], scoring.shutout_enters_next_game)
        for column in games:
            column.points[player] += score.points
            column.hands_won[player] += 1
            if column.points[player] >= scoring.game_target:
                _finish(column, player, rules)
        hands.append(ScoredHand(number, player, score, tuple(column.number for column in games)))
    return ScoreSheet(pair, scoring.game_target, tuple(hands), columns)


def _games_scored(
    columns: Sequence[GameColumn], player: str, wins: int, shutout_enters_next: bool
) -> list[GameColumn]:
    """The open game columns that the ``wins``-th hand won by ``player`` scores in.

    The ``n``-th win goes to games 1 to ``n``. Read the published way
    (``shutout_enters_next``), each win goes to the games the player has already scored in and
    opens the first one it has not: the same games, unless a game ended while the player had not
    scored in it (a shutout), which the next win then skips for the next game still open.
    """
    if not shutout_enters_next:
        return [column for column in columns[:wins] if not column.finished]
    open_columns = [column for column in columns if not column.finished]
    entered = [column for column in open_columns if column.hands_won[player]]
    fresh = [column for column in open_columns if not column.hands_won[player]]
    return sorted([*entered, *fresh[:1]], key=lambda column: column.number)


def _finish(column: GameColumn, winner: str, rules: RuleSet) -> None:
    scoring = rules.scoring
    column.winner = winner
    column.shutout = scoring.shutout_doubles and all(
        won == 0 for player, won in column.hands_won.items() if player != winner
    )
    for player, points in column.points.items():
        column.game_bonus[player] = scoring.game_bonus if player == winner else 0
        column.line_bonus[player] = scoring.round_win_bonus * column.hands_won[player]
        total = points + column.game_bonus[player] + column.line_bonus[player]
        column.total[player] = total * 2 if column.shutout and player == winner else total
