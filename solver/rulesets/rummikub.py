"""Rummikub: tiles in four colours, 30 points for the initial meld from the rack, and a joker in
a group of three won back by either missing colour."""

from __future__ import annotations

from meldsat.cards import Notation
from meldsat.rules import RuleSet
from meldsat.rulesets.values import TILE_NUMBERS


def presets() -> list[RuleSet]:
    """The one preset, for four players."""
    return [
        RuleSet(
            name="rummikub",
            notation=Notation.TILES,
            decks=2,
            jokers=2,
            players=4,
            min_players=2,
            max_players=4,
            hand_size=14,
            rank_values=TILE_NUMBERS,
            joker_value=30,
            ace_high=False,
            initial_meld_points=30,
            # The official rules: a joker in a group of three is won back by either missing colour.
            group_joker_either_missing=True,
        )
    ]
