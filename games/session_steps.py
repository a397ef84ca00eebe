"""What a game session asks the person (a :class:`Step`), and how an answer is read and checked.

Each step is one of the questions of :mod:`meldsat.games.agents`; its answer comes as a JSON body
(``{"table": ...}``, ``{"knock": true}``, ``{"discard": "9C"}``, ``{"source": "stock"}``) and is
checked as it is given: a table by the move checker, a gin discard by the gin rules, so that an
illegal answer is refused with every reason before anything changes.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from meldsat.cards import Card, Piece, parse_piece
from meldsat.errors import MeldsatError, NotationError
from meldsat.games.agents import GinDiscard, GinView, TurnView
from meldsat.games.records import read_melds
from meldsat.games.table_game import sorted_meld
from meldsat.gin.bits import rank_order
from meldsat.moves import REASON_CODES, check_move
from meldsat.rules import RuleSet


class StepKind(enum.StrEnum):
    """What the person is asked now."""

    MELD = "meld"  # the table after melding, or none (shared-table games)
    KNOCK = "knock"  # knock or not (Manipulation, when the hand is low enough)
    DISCARD = "discard"  # the card discarded (500 rummy)
    DRAW = "draw"  # the upcard or the stock (gin)
    FINISH = "finish"  # the discard and the knock, or big gin (gin, after the draw)


@dataclass(frozen=True)
class Step:
    """One question to the person: its kind, the seat's view, and in gin the card drawn."""

    kind: StepKind
    view: TurnView | GinView
    drawn: Card | None = None
    took_upcard: bool = False


@dataclass(frozen=True)
class Reason:
    """Why a decision is refused: a stable code (the move checker's, or the game's) and words."""

    code: str
    message: str


class IllegalStepError(Exception):
    """A decision the rules refuse; ``reasons`` holds every reason. The session did not change.

    Not a :class:`MeldsatError`: the input was read, and the game's rules refuse it.
    """

    code = "illegal_move"

    def __init__(self, reasons: Sequence[Reason]) -> None:
        super().__init__("illegal: " + "; ".join(f"{r.code}: {r.message}" for r in reasons))
        self.reasons = tuple(reasons)


# gin_turn_problem's words, by how they begin, and the stable code each is given here.
_GIN_CODES = (
    ("only big gin", "discard_needed"),
    ("discard ", "card_not_in_hand"),
    ("the upcard", "upcard_discarded"),
    ("knocked with", "knock_over_limit"),
)
# Every code a refused step may give: the move checker's and the gin turn's.
STEP_REASON_CODES: tuple[str, ...] = tuple(
    dict.fromkeys([*REASON_CODES, *(code for _, code in _GIN_CODES)])
)


def read_decision(step: Step, body: Mapping[str, Any], rules: RuleSet) -> object:
    """The answer ``body`` gives to ``step``, read and checked (the agent's answer to its question).

    Raises :class:`IllegalStepError` with every reason the rules give, or :class:`MeldsatError`
    for a body of the wrong shape.
    """
    kind = step.kind
    if kind is StepKind.MELD:
        return _meld(step.view, body, rules)
    if kind is StepKind.KNOCK:
        return _flag(body, "knock")
    if kind is StepKind.DISCARD:
        piece = _piece(body.get("discard"), rules.notation)
        assert isinstance(step.view, TurnView)
        if piece not in step.view.hand:
            text = piece.text(rules.notation)
            raise IllegalStepError([Reason("card_not_in_hand", f"{text} is not in the hand")])
        return piece
    if kind is StepKind.DRAW:
        source = body.get("source")
        if source not in ("stock", "upcard"):
            raise MeldsatError("'source' must be 'stock' or 'upcard'")
        return source == "upcard"
    return _finish(step, body, rules)


def _meld(view: TurnView | GinView, body: Mapping[str, Any], rules: RuleSet) -> object:
    assert isinstance(view, TurnView)
    if "table" not in body:
        raise MeldsatError("a meld step needs 'table': the table after melding, or null")
    value = body["table"]
    if value is None:
        return None
    after = read_melds(value, rules, "table")
    if sorted(map(sorted_meld, after)) == sorted(map(sorted_meld, view.table)):
        return None
    verdict = check_move(view.table, view.hand, after, rules, draws=view.draws or None)
    if not verdict.legal:
        raise IllegalStepError([Reason(r.code.value, r.message) for r in verdict.reasons])
    return tuple(meld.pieces for meld in verdict.table.melds)


def _finish(step: Step, body: Mapping[str, Any], rules: RuleSet) -> GinDiscard:
    from meldsat.games.gin import gin_turn_problem

    view, drawn = step.view, step.drawn
    assert isinstance(view, GinView) and drawn is not None
    raw = body.get("discard", ...)
    if raw is ...:
        raise MeldsatError("a finish step needs 'discard' (a card, or null for big gin)")
    discard = None if raw is None else _piece(raw, rules.notation)
    if discard is not None and not isinstance(discard, Card):
        raise MeldsatError("gin is played without jokers")
    knock = _flag(body, "knock")
    held = sorted([*view.hand, drawn], key=rank_order)
    problem, _ = gin_turn_problem(
        held,
        drawn,
        step.took_upcard,
        discard,
        knock,
        rules=rules,
        first_upcard=view.first_upcard,
    )
    if problem is not None:
        code = next(code for start, code in _GIN_CODES if problem.startswith(start))
        raise IllegalStepError([Reason(code, problem)])
    return GinDiscard(discard, knock)


def _flag(body: Mapping[str, Any], key: str) -> bool:
    value = body.get(key)
    if not isinstance(value, bool):
        raise MeldsatError(f"'{key}' must be true or false")
    return value


def _piece(value: object, notation: Any) -> Piece:
    if not isinstance(value, str):
        raise NotationError("'discard' must be a card")
    return parse_piece(value, notation)
