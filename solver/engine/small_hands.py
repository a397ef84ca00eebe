"""500 rummy with a small hand: the search follows the objective, hand pieces, then kept melds.

At the end of a deal a 500 rummy hand holds a few cards against a table of many melds, and a
joker in such a hand made the slowest positions of real games (a two-card hand with a joker
against six melds: 200-300 ms). CP-SAT's own log showed why: the bound is right from the start
(one tie-break point above the optimum), but its default search takes tens of thousands of
branches to find a first play at all, since a joker could go almost anywhere and the LP of the
hand-card rule says little about where. With a small hand, branching on the hand pieces first
(most played first), then on the original melds (kept first), then on the rest in the model's
order, finds a play within a hundred or two branches (`python -m benchmarks tail`,
benchmarks/RESULTS.md). Only the order of the search changes: the model and the proof are the
same, so every answer is still proven optimal with its tie-break. Full hands keep CP-SAT's own
search, under which their median was measured faster. ``meldsat.engine.direct_origin`` writes the
same steering into its own build of the model (:func:`steer`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from meldsat.engine.cpsat import CpModel, cp_model
from meldsat.engine.model import RearrangementModel
from meldsat.engine.solving import EngineSearch

# Hand pieces up to which the search follows the objective (the tail of real games: 1-4).
SMALL_HAND = 4


def follows_objective(model: RearrangementModel) -> bool:
    """True when ``model`` is a 500 rummy rearrangement (hand origin tracked) of a small hand."""
    pieces = model.inventory.hand_real.total() + model.inventory.hand_jokers
    return model.tracks_origin and pieces <= SMALL_HAND


def steer_small_hand(model: RearrangementModel) -> None:
    """Make ``model`` branch on its hand pieces (most first), then on its kept melds (kept first),
    when it is a small 500 rummy hand (:func:`follows_objective`); leave it alone otherwise."""
    if not follows_objective(model):
        return
    supply = model.supply
    hand = list(supply.hand_played.values())
    if isinstance(supply.hand_jokers, cp_model.IntVar):
        hand.append(supply.hand_jokers)
    model.search = steer(model.model, hand, model.kept.keep, model.search)


def steer(
    cp: CpModel,
    hand: Sequence[cp_model.IntVar],
    keep: Sequence[cp_model.IntVar],
    search: EngineSearch,
) -> EngineSearch:
    """Add the decision strategies of a small hand to ``cp``: the ``hand`` pieces played (most
    first), then the original melds ``keep`` (kept first); the search that follows them."""
    for variables in (hand, keep):
        if variables:
            cp.add_decision_strategy(variables, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
    return dataclasses.replace(search, follow_strategy=True)
