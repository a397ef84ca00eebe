"""The API's answers, built by the same functions as the commands' ``--json`` output.

A request body is a position's JSON form (``rules``, ``players``, ``table``, ``hand``, ...) plus the
command's options under the names of its JSON keys. Nothing here knows about HTTP: the app turns a
:class:`~meldsat.errors.MeldsatError` into a 422 answer with the error object below.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

from meldsat.cli.check import check_fields, check_json
from meldsat.cli.hint import play_json
from meldsat.cli.inputs import table_from_fields
from meldsat.cli.jsonout import SCHEMA_VERSION, json_header
from meldsat.cli.validate import judge_with_copies, validate_json
from meldsat.errors import NotationError
from meldsat.play import Objective
from meldsat.position import load_position
from meldsat.rules import PRESETS, RuleSet, get_rules
from meldsat.web import drawing

# The options of ``meldsat hint`` a request may carry besides the position.
HINT_OPTIONS = ("objective", "time_limit", "all")


def validate_answer(data: Mapping[str, Any], *, draw: bool = False) -> dict[str, Any]:
    """The answer of ``meldsat validate --json`` for a position's fields."""
    rule_set, melds, hand = table_from_fields(dict(data))
    verdict, problems = judge_with_copies(rule_set, melds, hand)
    answer = validate_json(rule_set, verdict, problems)
    if draw:
        answer["drawing"] = drawing.validate_drawing(rule_set, verdict, hand)
    return answer


def check_answer(data: Mapping[str, Any], *, draw: bool = False) -> dict[str, Any]:
    """The answer of ``meldsat check --json``: the fields hold the turn's ``after`` table."""
    rule_set, verdict = check_fields(dict(data))
    answer = check_json(rule_set, verdict)
    if draw:
        answer["drawing"] = drawing.check_drawing(rule_set, verdict)
    return answer


def hint_answer(data: Mapping[str, Any], time_cap: float, *, draw: bool = False) -> dict[str, Any]:
    """The answer of ``meldsat hint --json``, the solver's time capped at ``time_cap`` seconds."""
    from meldsat.engine.search import best_play  # OR-Tools loads with the first hint, not before

    fields = dict(data)
    options = {key: fields.pop(key) for key in HINT_OPTIONS if key in fields}
    objective = _objective(options.get("objective", Objective.POINTS.value))
    time_limit = min(_seconds(options.get("time_limit", time_cap)), time_cap)
    play_all = options.get("all", False)
    if not isinstance(play_all, bool):
        raise NotationError(f"'all' must be true or false, not '{play_all}'")
    position = load_position(fields)
    play = best_play(position, objective, play_all=play_all, time_limit=time_limit)
    answer = play_json(position, play)
    if draw:
        answer["drawing"] = drawing.hint_drawing(position, play)
    return answer


def rules_answer() -> dict[str, Any]:
    """The rule sets and their player ranges (``meldsat rules --json``)."""
    return {
        "schema_version": SCHEMA_VERSION,
        "rule_sets": [
            {
                "name": rule_set.name,
                "notation": rule_set.notation.value,
                "min_players": rule_set.min_players,
                "max_players": rule_set.max_players,
            }
            for rule_set in PRESETS.values()
        ],
    }


def rule_set_answer(name: str, players: str | None = None) -> dict[str, Any]:
    """One rule set's fields and values (``meldsat rules NAME [--players N] --json``)."""
    if players is not None and not players.isdigit():
        raise NotationError(f"bad player count '{players}' (expected a whole number)")
    rule_set = get_rules(name, None if players is None else int(players))
    return {**json_header(rule_set), "fields": rules_json(rule_set)}


def rules_json(rule_set: RuleSet) -> dict[str, Any]:
    """Every field of :class:`~meldsat.rules.RuleSet` as JSON values."""
    fields = dataclasses.asdict(rule_set)
    fields["notation"] = rule_set.notation.value
    fields["rank_values"] = list(rule_set.rank_values)
    return fields


def cards_answer(rules_name: str) -> dict[str, Any]:
    """Every piece of a rule set drawn once, for the page's card picker."""
    rule_set = PRESETS.get(rules_name.strip().lower())
    if rule_set is None:
        raise NotationError(f"unknown rule set '{rules_name}'")
    return {
        "schema_version": SCHEMA_VERSION,
        "rules": rule_set.name,
        "cards": drawing.deck_drawing(rule_set),
    }


def _objective(value: Any) -> Objective:
    choices = [objective.value for objective in Objective]
    if value not in choices:
        raise NotationError(f"bad objective '{value}' (choose from {', '.join(choices)})")
    return Objective(value)


def _seconds(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise NotationError(f"bad time_limit '{value}' (expected a number of seconds)")
    if value <= 0:
        raise NotationError(f"bad time_limit '{value}' (expected more than 0 seconds)")
    return float(value)
