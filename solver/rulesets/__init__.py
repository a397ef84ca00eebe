"""The preset rule sets, one module per game family.

Everything one game differs in (card values, deck counts by players, meld rules, scoring
constants) is written in that game's module here; ``meldsat.rules`` defines the ``RuleSet`` type
and looks presets up. Adding a game means adding a module and naming it in ``GAME_MODULES``.
"""

from __future__ import annotations

from meldsat.rules import RuleSet
from meldsat.rulesets import gin, manipulation, rummikub, rummy500

GAME_MODULES = (manipulation, rummikub, gin, rummy500)


def all_presets() -> dict[str, RuleSet]:
    """Every preset by name, in the order the games are listed."""
    return {rules.name: rules for module in GAME_MODULES for rules in module.presets()}
