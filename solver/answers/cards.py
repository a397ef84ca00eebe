"""``cards``: every distinct piece of a rule set, drawn once (the web page's card picker)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meldsat.errors import NotationError, quote
from meldsat.rules import RuleSet
from meldsat.rulesets import PRESETS
from meldsat.schema import SCHEMA_VERSION
from meldsat.web.drawing import deck_drawing


@dataclass(frozen=True)
class CardsAnswer:
    """The pieces of one preset rule set."""

    rules: RuleSet

    def to_json(self) -> dict[str, Any]:
        """``schema_version``, ``rules`` and ``cards``: each piece's text, label and SVG drawing."""
        return {
            "schema_version": SCHEMA_VERSION,
            "rules": self.rules.name,
            "cards": deck_drawing(self.rules),
        }


def cards(rules_name: str) -> CardsAnswer:
    """The pieces of the preset called ``rules_name`` (case-insensitive)."""
    rule_set = PRESETS.get(rules_name.strip().lower())
    if rule_set is None:
        raise NotationError(f"unknown rule set {quote(rules_name)}")
    return CardsAnswer(rule_set)
