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
search, under which their median was measured faster.
"""

from __future__ import annotations

import dataclasses

from meldsat.engine.cpsat import cp_model
from meldsat.engine.model import RearrangementModel

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
    cp = model.model
    if hand:
        cp.add_decision_strategy(hand, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
    if model.kept.keep:
        cp.add_decision_strategy(model.kept.keep, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
    model.search = dataclasses.replace(model.search, follow_strategy=True)
