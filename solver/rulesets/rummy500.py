"""The Dutch "500" rummy and its variants 300 and killer ("500-moordend")."""

from __future__ import annotations

from meldsat.cards import Notation
from meldsat.rules import RuleSet, Scoring
from meldsat.rulesets.values import FACE_TEN_ACE_FIFTEEN


def _rummy500(name: str, target: int, *, killer: bool = False) -> RuleSet:
    return RuleSet(
        name=name,
        notation=Notation.CARDS,
        decks=2,
        jokers=2,
        players=4,
        min_players=2,
        max_players=6,
        hand_size=13,
        rank_values=FACE_TEN_ACE_FIFTEEN,
        joker_value=15,
        ace_low_meld_value=1,
        new_meld_needs_hand_card=True,
        scoring=Scoring(
            game_target=target,
            deal_pool=0 if killer else 30,
            rounds_per_deal=10,
            only_deal_winner_scores=killer,
        ),
    )


def presets() -> list[RuleSet]:
    """500, 300 and killer 500."""
    return [
        _rummy500("rummy500", 500),
        _rummy500("rummy300", 300),
        _rummy500("rummy500-killer", 500, killer=True),
    ]
