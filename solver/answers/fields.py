"""The readers of a request's fields that more than one answer shares: house rules given as
``NAME=VALUE`` texts, a table read but not judged, and a turn's ``draws``.

A request's fields are a position's JSON form (``rules``, ``players``, ``table``, ``hand``, ...),
whether they come from a position file, from the command's options or from a web request body.
"""

from __future__ import annotations

from typing import Any

from meldsat.errors import NotationError, quote
from meldsat.house_rules import parse_rule_option
from meldsat.notation import Meld, check_hand_jokers
from meldsat.position import (
    check_position_keys,
    initial_field,
    pieces_field,
    rules_from_fields,
    table_field,
)
from meldsat.rules import RuleSet


def house_options(options: list[str] | None) -> dict[str, str]:
    """The house rules given as ``NAME=VALUE`` texts, by name (checked when applied to the rule
    set)."""
    return dict(parse_rule_option(option) for option in options or [])


def table_from_fields(
    fields: dict[str, Any],
    rules: str | None = None,
    players: int | None = None,
    house: list[str] | None = None,
) -> tuple[RuleSet, list[Meld], Meld]:
    """The rule set, table and hand of a position's fields, read but not judged (for validate).

    ``rules``, ``players`` and ``house`` (``NAME=VALUE`` texts) apply where the fields do not say.
    """
    check_position_keys(fields)
    initial_field(fields.get("initial"))  # validate judges no turn, but a bad value is no value
    rule_set = rules_from_fields(fields, rules, players, house_options(house))
    melds = table_field(fields.get("table"), "table", rule_set)
    hand_pieces = pieces_field(fields.get("hand", []), "hand", rule_set)
    check_hand_jokers(hand_pieces, rule_set.notation)
    return rule_set, melds, hand_pieces


def draws_field(value: Any) -> int | None:
    """The ``draws`` of a position's fields: absent, or a whole number of at least 0."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise NotationError(f"bad draws {quote(value)} (expected a whole number, 0 or more)")
    return value
