"""The model written straight into its proto (``meldsat.engine.direct``) is the parts' model.

``best_play`` solves the direct build wherever it applies; its answers are the parts' answers only
because both builds give the same proto (the same variables in the same order, the same
constraints and objective), which CP-SAT solves the same way. Checked here proto against proto
(the parts name their variables, the direct build does not), on the small hypothesis positions
of every game, Rummikub's group jokers, house rules, full tables of every bucket size, and for
both objectives with and without ``play_all``; 500 rummy's small hands with the decision
strategies that steer their search (``meldsat.engine.small_hands``), and the same search.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.common.buckets import Bucket, bucket_positions
from benchmarks.positions import generate, generate_position
from meldsat.engine.direct import DirectModel, NotDirectError, applies
from meldsat.engine.direct_origin import OriginModel, origin_applies
from meldsat.engine.model import RearrangementModel
from meldsat.engine.search import build_model, solving_model
from meldsat.play import Objective
from meldsat.position import Position
from tests.strategies import GAMES, MORE_GAMES, group_joker_positions, positions


def _parts_proto(position: Position, objective: Objective, play_all: bool) -> str:
    model = build_model(position, objective, play_all=play_all)
    for variable in model.model.proto.variables:
        variable.name = ""
    return str(model.model.proto)


def _same_proto(position: Position, build: type[DirectModel] = DirectModel) -> None:
    for objective in Objective:
        for play_all in (False, True):
            try:
                direct = build(position, objective, play_all=play_all)
            except NotDirectError:  # a constraint without variables: the parts build it
                assert isinstance(solving_model(position, objective), RearrangementModel)
                continue
            assert str(direct.model.proto) == _parts_proto(position, objective, play_all)
            assert direct.search == build_model(position, objective, play_all=play_all).search


def _origin_same_proto(position: Position) -> None:
    """500 rummy's hand origin: written by ``OriginModel``, with the decision strategies with
    which ``small_hands`` steers the parts' model where the hand is small."""
    assert origin_applies(position)
    _same_proto(position, OriginModel)


@settings(max_examples=80, deadline=None)
@given(positions(games=GAMES + MORE_GAMES, max_pieces=16, max_hand=8))
def test_small_positions_make_the_same_proto(position: Position) -> None:
    if applies(position):
        _same_proto(position)
    else:
        _origin_same_proto(position)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["rummikub", "manipulation"]), st.booleans(), st.data())
def test_group_joker_positions_make_the_same_proto(
    name: str, either: bool, data: st.DataObject
) -> None:
    _same_proto(data.draw(group_joker_positions(name, either)))


@pytest.mark.parametrize("table", ["10", "40", "80-100"])
def test_bucket_positions_make_the_same_proto(table: str) -> None:
    for rack in (5, 25):
        for jokers in (0, 1):
            for _, position in bucket_positions(Bucket(table, rack, jokers), 3, 2):
                _same_proto(position)


def test_full_tables_make_the_same_proto() -> None:
    for game in ("rummikub", "manipulation"):
        for _, position in generate(game, 6, 2):
            _same_proto(position)


@pytest.mark.parametrize("game", ["rummy500", "rummy500-killer"])
def test_full_hand_origin_tables_make_the_same_proto(game: str) -> None:
    for index in range(4):
        _origin_same_proto(generate_position(game, 3, index))
