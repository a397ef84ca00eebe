"""The engine's advice for one step of a game session, and the decision that plays it.

A meld is the exact engine's best play for the most points (as the bots' hints); a gin draw is
the exact draw advice, a gin discard the least deadwood; a knock and a 500 discard follow the
bots' rules (knock when allowed; discard the highest card).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from meldsat.games.agents import TurnView
from meldsat.games.bots import KnockerBot
from meldsat.games.records import table_json
from meldsat.games.session_steps import Step, StepKind
from meldsat.gin.deadwood import analyse_hand
from meldsat.play import Objective
from meldsat.rules import RuleSet


@dataclass(frozen=True)
class Hint:
    """The engine's advice for one step: the decision it stands for, as a turn body, and words."""

    decision: dict[str, Any]
    summary: str
    steps: tuple[str, ...] = ()
    proven: bool = True

    def to_json(self) -> dict[str, Any]:
        """The hint's JSON form (``decision`` is what ``{"hint": true}`` plays)."""
        return {
            "decision": self.decision,
            "summary": self.summary,
            "steps": list(self.steps),
            "proven": self.proven,
        }


def advise(step: Step, rules: RuleSet, time_limit: float) -> Hint:
    """The engine's advice for ``step``: the best meld (CP-SAT, within ``time_limit``), the exact
    gin draw and discard, and the bots' rules for a knock and a 500 discard."""
    notation = rules.notation
    view = step.view
    if isinstance(view, TurnView):
        if step.kind is StepKind.MELD:
            return _meld_hint(view, rules, time_limit)
        if step.kind is StepKind.KNOCK:
            # The knocker bot's rule: a knock allowed ends the round while the hand is low.
            return Hint({"knock": True}, f"knock: your hand counts {view.hand_points}")
        # The bots' discard: the highest-valued card (the last in card order on a tie).
        card = KnockerBot("hint", random.Random(0)).choose_discard(view)
        text, points = card.text(notation), rules.value(card)
        return Hint({"discard": text}, f"discard {text}, the highest card ({points} points)")
    if step.kind is StepKind.DRAW:
        from meldsat.gin.draw import draw_advice

        advice = draw_advice(
            list(view.hand),
            view.upcard,
            rules,
            seen=view.seen,
            first_upcard=view.first_upcard,
        )
        taken = advice.upcard.arrangement.deadwood
        expected = float(advice.stock_expected)
        words = (
            f"upcard: deadwood {taken} after the best discard; the stock: {expected:.1f} "
            "expected over the unseen cards"
        )
        if advice.take_upcard:
            return Hint({"source": "upcard"}, f"take the upcard {view.upcard}", (words,))
        return Hint({"source": "stock"}, "draw from the stock", (words,))
    assert step.drawn is not None
    held = [*view.hand, step.drawn]
    keep = step.drawn if step.took_upcard else None
    best_hand = analyse_hand(held, rules, first_upcard=view.first_upcard, keep=keep)
    if best_hand.big_gin or best_hand.discard is None:
        return Hint({"discard": None, "knock": True}, "big gin: all 11 cards meld")
    discard = str(best_hand.discard)
    melds = " | ".join(" ".join(map(str, meld)) for meld in best_hand.arrangement.melds)
    knock = best_hand.can_knock
    summary = f"discard {discard}" + (" and knock" if knock else "")
    steps = (f"melds: {melds or 'none'}", f"deadwood left: {best_hand.arrangement.deadwood}")
    return Hint({"discard": discard, "knock": knock}, summary, steps)


def _meld_hint(view: TurnView, rules: RuleSet, time_limit: float) -> Hint:
    from meldsat import best_play
    from meldsat.play import Status

    play = best_play(view.position, Objective.POINTS, time_limit=time_limit)
    proven = play.status in (Status.OPTIMAL, Status.NO_MOVE)
    if not play.found:
        return Hint({"table": None}, "no play: meld nothing", proven=proven)
    notation = rules.notation
    played = " ".join(piece.text(notation) for piece in play.played)
    summary = f"play {played} ({play.points_played} points, {play.hand_points_left} left in hand)"
    return Hint({"table": table_json(play.table, rules)}, summary, tuple(play.changes), proven)
