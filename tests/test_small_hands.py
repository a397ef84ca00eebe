"""Which models ``meldsat.engine.small_hands`` steers: 500 rummy rearrangements of small hands."""

from __future__ import annotations

import pytest

from meldsat.engine.model import RearrangementModel
from meldsat.engine.search import build_model, solving_model
from meldsat.engine.small_hands import follows_objective
from meldsat.position import read_position

TABLE = "table: 9S 9H 9D 9C | 2S 3S 4S 5S 6S\n"


@pytest.mark.parametrize(
    ("text", "steered"),
    [
        (f"rules: rummy500\n{TABLE}hand: 2S *\n", True),
        (f"rules: rummy500-killer\n{TABLE}hand: 7S 8S 9S *\n", True),
        (f"rules: rummy500\n{TABLE}hand: 7S 8S 9S 10S *\n", False),  # five pieces
        (f"rules: manipulation\n{TABLE}hand: 2S *\n", False),  # no hand-card rule
        # Before the initial meld (a house rule) the table stays as it is: no origin to track.
        (f"rules: rummy500\ninitial: true\n{TABLE}hand: 2S *\n", False),
    ],
)
def test_steered_models(text: str, steered: bool) -> None:
    position = read_position(text)
    model = build_model(position)
    assert follows_objective(model) is steered
    assert model.search.follow_strategy is steered
    assert not RearrangementModel(position).search.follow_strategy
    # ``best_play``'s own build (written straight into the proto where it can) is steered alike.
    solved = solving_model(position)
    assert solved.search == model.search
    assert len(solved.model.proto.search_strategy) == len(model.model.proto.search_strategy)
