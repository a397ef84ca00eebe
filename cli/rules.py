"""``meldsat rules [NAME]``: the rule sets, or one rule set's fields and values."""

from __future__ import annotations

from dataclasses import fields
from typing import Annotated, Any

import typer

from meldsat.cli.inputs import (
    JsonOption,
    PlayersOption,
    RuleOption,
    complete_rules,
    house_options,
)
from meldsat.cli.jsonout import json_header, to_json
from meldsat.cli.render import console, print_line, rules_title
from meldsat.house_rules import HOUSE_RULES, apply_house_rules
from meldsat.rules import PRESETS, RuleSet, get_rules
from meldsat.schema import SCHEMA_VERSION

NameArgument = Annotated[
    str | None,
    typer.Argument(
        help=f"A rule set: {', '.join(PRESETS)}. Without it, all are listed.",
        autocompletion=complete_rules,
    ),
]


def rules_command(
    *,
    name: NameArgument = None,
    players: PlayersOption = None,
    house: RuleOption = None,
    json_output: JsonOption = False,
) -> int:
    """List the rule sets, or print one rule set's fields (those marked * take --rule)."""
    if name is None:
        listing = rules_listing_json()
        if json_output:
            print(to_json(listing))
        else:
            for item in listing["rule_sets"]:
                print_line(
                    f"{item['name']:<16} {item['notation']:<6} "
                    f"{item['min_players']}-{item['max_players']} players",
                    out=console(),
                )
        return 0
    rules = apply_house_rules(get_rules(name, players), house_options(house))
    if json_output:
        print(to_json(rule_set_json(rules)))
        return 0
    out = console()
    print_line(rules_title(rules), out=out)
    for field_name, value in rule_values(rules).items():
        # The scoring constants are one line; those a house rule may set are marked inside it.
        text = _scoring_text(value) if field_name == "scoring" else _text(value)
        mark = "*" if field_name in HOUSE_RULES or "*" in text else " "
        print_line(f"  {mark} {field_name:<28} {text}", out=out)
    print_line("(* a house rule: --rule NAME=VALUE, or indented under rules: in a file)", out=out)
    return 0


def rules_listing_json() -> dict[str, Any]:
    """The JSON answer of ``rules --json``: every rule set's name, notation and player range."""
    return {
        "schema_version": SCHEMA_VERSION,
        "rule_sets": [_summary(rules) for rules in PRESETS.values()],
    }


def rule_set_json(rules: RuleSet) -> dict[str, Any]:
    """The JSON answer of ``rules NAME --json``: its fields and the names of the house rules."""
    return {**json_header(rules), "fields": rule_values(rules), "house_rule_names": [*HOUSE_RULES]}


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


def _summary(rules: RuleSet) -> dict[str, Any]:
    return {
        "name": rules.name,
        "notation": rules.notation.value,
        "min_players": rules.min_players,
        "max_players": rules.max_players,
    }


def _scoring_text(scoring: dict[str, Any]) -> str:
    """The scoring constants that are set, ``*`` before each that a house rule may change."""
    return ", ".join(
        f"{'*' if key in HOUSE_RULES else ''}{key}={_text(item)}"
        for key, item in scoring.items()
        if item
    )


def _text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return ", ".join(f"{key}={_text(item)}" for key, item in value.items() if item)
    if isinstance(value, list):
        return " ".join(map(str, value))
    return str(value)
