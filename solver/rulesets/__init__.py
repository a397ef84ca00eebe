"""The preset rule sets, one module per game family, and their lookup by name (:func:`get_rules`).

Everything one game differs in (card values, deck counts by players, meld rules, scoring
constants) is written in that game's module here; ``meldsat.rules`` defines the ``RuleSet`` type
(this package imports it, never the other way round). Adding a game means adding a module and
naming it in ``GAME_MODULES``.
"""

from __future__ import annotations

from meldsat.errors import RulesError, quote, require_text
from meldsat.rules import RuleSet, register_presets
from meldsat.rulesets import gin, manipulation, rummikub, rummy500

GAME_MODULES = (manipulation, rummikub, gin, rummy500)

# Every preset by name, in the order the games are listed.
PRESETS: dict[str, RuleSet] = {
    rules.name: rules for module in GAME_MODULES for rules in module.presets()
}
RULE_SET_NAMES: tuple[str, ...] = tuple(PRESETS)
register_presets(PRESETS)


def get_rules(name: str = "manipulation", players: int | None = None) -> RuleSet:
    """The preset called ``name`` (case-insensitive), for ``players`` players if given."""
    require_text(name, "name")
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise TypeError(f"players must be an int or None, not {type(players).__name__}")
    rules = PRESETS.get(name.strip().lower())
    if rules is None:
        raise RulesError(
            f"unknown rule set {quote(name)} (choose from {', '.join(RULE_SET_NAMES)})"
        )
    return rules if players is None else rules.with_players(players)
