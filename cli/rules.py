"""``meldsat rules [NAME]``: the rule sets, or one rule set's fields and values."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from meldsat.answers.jsonform import to_json
from meldsat.answers.rules import rule_set, rule_values, rules_listing
from meldsat.cli.inputs import JsonOption, PlayersOption, RuleOption, complete_rules
from meldsat.cli.render import console, print_line, rules_title
from meldsat.house_rules import HOUSE_RULES
from meldsat.rulesets import PRESETS

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
        listing = rules_listing()
        if json_output:
            print(to_json(listing.to_json()))
        else:
            for rules in listing.rule_sets:
                print_line(
                    f"{rules.name:<16} {rules.notation.value:<6} "
                    f"{rules.min_players}-{rules.max_players} players",
                    out=console(),
                )
        return 0
    answer = rule_set(name, players, house)
    if json_output:
        print(to_json(answer.to_json()))
        return 0
    out = console()
    print_line(rules_title(answer.rules), out=out)
    for field_name, value in rule_values(answer.rules).items():
        # The scoring constants are one line; those a house rule may set are marked inside it.
        text = _scoring_text(value) if field_name == "scoring" else _text(value)
        mark = "*" if field_name in HOUSE_RULES or "*" in text else " "
        print_line(f"  {mark} {field_name:<28} {text}", out=out)
    print_line("(* a house rule: --rule NAME=VALUE, or indented under rules: in a file)", out=out)
    return 0


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
