"""Manipulation Rummy (Carousel): the default rule set. docs/RULES.md states it in words."""

from __future__ import annotations

from meldsat.cards import Notation
from meldsat.rules import RuleSet, Scoring
from meldsat.rulesets.values import FACE_TEN_ACE_ONE


def presets() -> list[RuleSet]:
    """The one preset, for four players (two decks, two jokers)."""
    return [
        RuleSet(
            name="manipulation",
            notation=Notation.CARDS,
            decks=2,
            jokers=2,
            players=4,
            min_players=2,
            max_players=5,
            hand_size=10,
            rank_values=FACE_TEN_ACE_ONE,
            joker_value=25,
            knock_limit=5,
            draws_before_meld_forbidden=3,
            # One deck and one joker for two players, two decks and two jokers for 3-5.
            decks_by_players=((2, 1), (3, 2), (4, 2), (5, 2)),
            scoring=Scoring(
                game_target=150,
                undercut_bonus=10,
                going_out_bonus=25,
                game_bonus=100,
                round_win_bonus=25,
            ),
        )
    ]
