"""Exact analysis for the gin family (Gin Rummy, Oklahoma Gin, Hollywood Gin).

Deadwood and the best discard (:func:`analyse_hand`), the defender's layoffs
(:func:`best_layoff`), draw advice (:func:`draw_advice`) and scoring (:func:`hand_score`,
:func:`score_sheet`). A dedicated exact search over bit masks: no CP-SAT is needed for 10 or 11
cards. The rules applied are those of ``docs/RULES.md``; the commands are described in
``docs/GIN.md``.
"""

from meldsat.gin.deadwood import (
    Arrangement,
    DiscardOption,
    HandAnalysis,
    analyse_hand,
    best_arrangement,
    knock_limit,
    least_deadwood,
)

__all__ = [
    "Arrangement",
    "DiscardOption",
    "HandAnalysis",
    "analyse_hand",
    "best_arrangement",
    "knock_limit",
    "least_deadwood",
]
