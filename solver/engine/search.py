"""The best play for a position: solve the model, build the melds, describe the changes."""

from __future__ import annotations

from meldsat.cards import count_pieces
from meldsat.changes import Rearrangement, describe
from meldsat.engine.arrange import arrange, played_pieces
from meldsat.engine.direct import DirectModel, NotDirectError, applies
from meldsat.engine.direct_origin import OriginModel, origin_applies
from meldsat.engine.model import ModelOutcome, RearrangementModel
from meldsat.engine.no_move import has_no_move
from meldsat.engine.small_hands import steer_small_hand
from meldsat.notation import Pieces, sort_pieces
from meldsat.play import Objective, Play, Status, check_play_arguments
from meldsat.position import Position

DEFAULT_TIME_LIMIT = 10.0


def best_play(
    position: Position,
    objective: Objective = Objective.POINTS,
    *,
    play_all: bool = False,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> Play:
    """The best legal play for ``position``, proven optimal unless the time limit cut it short.

    With ``play_all`` the play must empty the hand (status ``NO_MOVE`` when it cannot). Among plays
    of equal value the one keeping the most original melds intact wins, so answers are stable.
    """
    objective, time_limit = check_play_arguments(position, objective, play_all, time_limit)
    if has_no_move(position):  # proven without a solve: no hand piece fits in any meld
        return _no_play(position, objective, Status.NO_MOVE, None)
    model = solving_model(position, objective, play_all=play_all)
    return play_from_outcome(position, objective, model, model.solve(time_limit))


def solving_model(
    position: Position, objective: Objective = Objective.POINTS, *, play_all: bool = False
) -> RearrangementModel | DirectModel:
    """The model ``best_play`` solves: the one of :func:`build_model`, written straight into its
    proto where ``meldsat.engine.direct`` (or, for 500 rummy's hand origin, steered small hands
    included, ``meldsat.engine.direct_origin``) applies: the same proto and search, built in a
    fraction of the time. Else built from the parts."""
    direct = DirectModel if applies(position) else OriginModel if origin_applies(position) else None
    if direct is not None:
        try:
            return direct(position, objective, play_all=play_all)
        except NotDirectError:
            pass
    return build_model(position, objective, play_all=play_all)


def build_model(
    position: Position, objective: Objective = Objective.POINTS, *, play_all: bool = False
) -> RearrangementModel:
    """The model for ``position``, composed of the parts its rules need, its search steered when
    it is a small 500 rummy hand (``meldsat.engine.small_hands``)."""
    model = RearrangementModel(position, objective, play_all=play_all)
    steer_small_hand(model)
    return model


def play_from_outcome(
    position: Position,
    objective: Objective,
    model: RearrangementModel | DirectModel,
    outcome: ModelOutcome,
) -> Play:
    """Turn a solved model into a :class:`Play` (melds, changes, knock) for ``position``."""
    rules = position.rules
    if outcome.solution is None:
        status = {"INFEASIBLE": Status.NO_MOVE, "UNKNOWN": Status.UNKNOWN}.get(outcome.status)
        if status is None:
            raise RuntimeError(f"the solver failed on a valid model: {outcome.status}")
        return _no_play(position, objective, status, outcome.bound)
    solution = outcome.solution
    kept, new = arrange(
        solution, model.inventory, position.table, table_used=not model.table_frozen
    )
    played = sort_pieces(played_pieces(solution))
    rearrangement = describe(position.table, [*kept, *new], played, rules)
    # The value is proven when it reaches the bound, even if the time ran out while the tie-break
    # (most original melds intact) was still being proven.
    value_proven = outcome.bound is not None and solution.value >= outcome.bound
    proven = outcome.status == "OPTIMAL"
    return _play(
        position,
        objective,
        status=Status.OPTIMAL if proven or value_proven else Status.FEASIBLE,
        bound=outcome.bound,
        played=played,
        rearrangement=rearrangement,
        tie_break_proven=proven,
    )


def _no_play(position: Position, objective: Objective, status: Status, bound: int | None) -> Play:
    unchanged = Rearrangement(position.table, changed=(), new=(), steps=())
    return _play(
        position,
        objective,
        status=status,
        bound=bound,
        played=Pieces(()),
        rearrangement=unchanged,
        tie_break_proven=status is Status.NO_MOVE,
    )


def _play(
    position: Position,
    objective: Objective,
    *,
    status: Status,
    bound: int | None,
    played: Pieces,
    rearrangement: Rearrangement,
    tie_break_proven: bool,
) -> Play:
    rules = position.rules
    hand_left = sort_pieces((count_pieces(position.hand) - count_pieces(played)).elements())
    points_left = sum(rules.value(piece) for piece in hand_left)
    return Play(
        status=status,
        objective=objective,
        played=played,
        table=rearrangement.table,
        hand_left=hand_left,
        cards_played=len(played),
        points_played=sum(rules.value(piece) for piece in played),
        hand_points_left=points_left,
        bound=bound,
        changes=rearrangement.steps,
        changed_melds=rearrangement.changed,
        new_melds=rearrangement.new,
        can_knock=rules.knock_limit is not None and points_left <= rules.knock_limit,
        tie_break_proven=tie_break_proven,
        moves=rearrangement.moves,
    )
