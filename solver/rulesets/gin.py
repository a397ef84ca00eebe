"""The gin family: Gin Rummy, Oklahoma Gin and Hollywood Gin (no table, no rearranging)."""

from __future__ import annotations

from dataclasses import replace

from meldsat.cards import Notation
from meldsat.rules import RuleSet, Scoring
from meldsat.rulesets.values import FACE_TEN_ACE_ONE

GIN_SCORING = Scoring(
    game_target=100,
    undercut_bonus=25,
    game_bonus=100,
    round_win_bonus=25,
    gin_bonus=25,
    big_gin_bonus=31,
    shutout_doubles=True,
)


def _gin(name: str, scoring: Scoring, *, knock_from_upcard: bool = False) -> RuleSet:
    return RuleSet(
        name=name,
        notation=Notation.CARDS,
        decks=1,
        jokers=0,
        players=2,
        min_players=2,
        max_players=2,
        hand_size=10,
        rank_values=FACE_TEN_ACE_ONE,
        joker_value=0,
        ace_high=False,
        knock_limit=10,
        knock_limit_from_upcard=knock_from_upcard,
        table_rearrangement=False,
        scoring=scoring,
    )


def presets() -> list[RuleSet]:
    """Gin, Oklahoma Gin (knock limit from the upcard, 150 points) and Hollywood Gin (three games
    at once; a shut-out player's next win opens the next open game, as the rule books have it)."""
    return [
        _gin("gin", GIN_SCORING),
        _gin(
            "oklahoma-gin",
            replace(GIN_SCORING, game_target=150, spade_upcard_doubles=True),
            knock_from_upcard=True,
        ),
        _gin(
            "hollywood-gin",
            replace(GIN_SCORING, games_at_once=3, shutout_enters_next_game=True),
        ),
    ]
