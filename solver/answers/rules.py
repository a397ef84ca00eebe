"""``rules``: the rule sets and their player ranges, or one rule set's fields and values."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from meldsat.answers.fields import house_options
from meldsat.answers.jsonform import json_header
from meldsat.house_rules import HOUSE_RULES, apply_house_rules
from meldsat.rules import RuleSet
from meldsat.rulesets import PRESETS, get_rules
from meldsat.schema import SCHEMA_VERSION


@dataclass(frozen=True)
class RulesListing:
    """Every preset rule set, in the order the games are listed."""

    rule_sets: tuple[RuleSet, ...]

    def to_json(self) -> dict[str, Any]:
        """The JSON answer of ``rules --json``: every rule set's name, notation and player range."""
        return {
            "schema_version": SCHEMA_VERSION,
            "rule_sets": [
                {
                    "name": rules.name,
                    "notation": rules.notation.value,
                    "min_players": rules.min_players,
                    "max_players": rules.max_players,
                }
                for rules in self.rule_sets
            ],
        }


def rules_listing() -> RulesListing:
    """The preset rule sets (``meldsat rules``)."""
    return RulesListing(tuple(PRESETS.values()))


@dataclass(frozen=True)
class RuleSetAnswer:
    """One rule set, with any house rules applied."""

    rules: RuleSet

    def to_json(self) -> dict[str, Any]:
        """The JSON answer of ``rules NAME --json``: its fields and the names of the house rules."""
        return {
            **json_header(self.rules),
            "fields": rule_values(self.rules),
            "house_rule_names": [*HOUSE_RULES],
        }


def rule_set(
    name: str, players: int | None = None, house: list[str] | None = None
) -> RuleSetAnswer:
    """The preset ``name`` for ``players`` players (if given) with the house rules ``house``
    (``NAME=VALUE`` texts) applied (``meldsat rules NAME``)."""
    return RuleSetAnswer(apply_house_rules(get_rules(name, players), house_options(house)))


def rule_values(rules: RuleSet) -> dict[str, Any]:
    """Every field of ``rules`` as JSON values (the scoring constants as one object)."""
    values: dict[str, Any] = {}
    for field in fields(rules):
        value = getattr(rules, field.name)
        if field.name == "scoring":
            value = {item.name: getattr(value, item.name) for item in fields(value)}
        elif field.name == "notation":
            value = value.value
        elif isinstance(value, tuple):
            value = list(value)
        values[field.name] = value
    return values
