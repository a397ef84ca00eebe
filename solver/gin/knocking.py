"""The knock limit as a check: a knock with more deadwood than the hand allows is refused.

``meldsat layoff`` (through :func:`meldsat.gin.layoff.settle_knock`) and ``meldsat score``
(through :func:`meldsat.gin.scoring.hand_score`) both refuse such a knock with the same words.
"""

from __future__ import annotations

from meldsat.cards import Card
from meldsat.errors import MeldsatError
from meldsat.gin.deadwood import knock_limit
from meldsat.rules import RuleSet


class KnockLimitError(MeldsatError):
    """A knock with more deadwood than the knock limit (the message names both)."""


def check_knock_deadwood(rules: RuleSet, deadwood: int, first_upcard: Card | None = None) -> None:
    """Refuse a knock with ``deadwood`` above the hand's knock limit (Oklahoma: from the upcard).

    Raises :class:`KnockLimitError`, or :class:`MeldsatError` when the limit needs the first
    upcard and it is missing.
    """
    limit = knock_limit(rules, first_upcard)
    if deadwood > limit:
        raise KnockLimitError(f"the knocker's deadwood {deadwood} is above the knock limit {limit}")
