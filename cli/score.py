"""``meldsat score --rules R FILE``: a score sheet from round (deal) results, one JSON line each.

The sheet is made by the scoring of the game the rule set names, looked up by rule set in
``SCORERS`` (each game family adds its own entry).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any

import typer

from meldsat.cli.ginscore import GIN_FAMILY, score_gin_sheet
from meldsat.cli.inputs import MAX_LOG_BYTES, JsonOption, RuleOption, house_options, read_source
from meldsat.cli.jsonout import to_json
from meldsat.cli.render import console, house_rules_text
from meldsat.errors import MeldsatError, RulesError
from meldsat.games.sheets import SHEETS
from meldsat.house_rules import apply_house_rules
from meldsat.rules import get_rules
from meldsat.schema import SCHEMA_VERSION

SCORERS: dict[
    str, Callable[[Sequence[dict[str, Any]], str, Mapping[str, object] | None], dict[str, Any]]
] = dict(SHEETS)


def score_command(
    results: Annotated[
        str, typer.Argument(help="Round results, one JSON object a line; - reads stdin.")
    ],
    rules: Annotated[
        str, typer.Option("--rules", "-r", help="Rule set of the game.")
    ] = "manipulation",
    as_json: JsonOption = False,
    house: RuleOption = None,
) -> int:
    """Turn round (deal) results into the score sheet: every round's scores and the game's end."""
    overrides = house_options(house)
    rule_set = apply_house_rules(get_rules(rules), overrides)
    name = rule_set.name
    text = read_source(results, limit=MAX_LOG_BYTES)
    if name in GIN_FAMILY:
        return score_gin_sheet(rule_set, _entries(text, results), as_json)
    scorer = SCORERS.get(name)
    if scorer is None:
        raise RulesError(
            f"no score sheet for '{rules}' (sheets: {', '.join(sorted([*SCORERS, *GIN_FAMILY]))})"
        )
    entries = [entry for _, entry in _entries(text, results)]
    sheet = scorer(entries, name, overrides)
    if as_json:
        print(to_json({"schema_version": SCHEMA_VERSION, **sheet}))
    else:
        print_sheet(sheet)
    return 0


def _entries(text: str, source: str) -> list[tuple[int, dict[str, Any]]]:
    lines = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as error:
            raise MeldsatError(f"bad JSON in '{source}' line {number}: {error.msg}") from None
        if not isinstance(entry, dict):
            raise MeldsatError(f"line {number} of '{source}' is not a JSON object")
        lines.append((number, entry))
    return lines


def print_sheet(sheet: dict[str, Any]) -> None:
    """The sheet as text: a line a round, then the end of the game."""
    out = console()
    noun = "deal" if "laid" in (sheet["rounds"][0] if sheet["rounds"] else {}) else "round"
    house = house_rules_text(sheet.get("house_rules", {}))
    out.print(f"{sheet['rules']}, {sheet['players']} players (seats from 0){house}")
    for entry in sheet["rounds"]:
        parts = [f"{noun} {entry['round']}: hands {_row(entry['hand_points'])}"]
        if "laid" in entry:
            parts.append(f"laid {_row(entry['laid'])}")
        for key in ("knocker", "went_out"):
            if entry.get(key) is not None:
                parts.append(f"{key.replace('_', ' ')} {entry[key]}")
        winners = ", ".join(map(str, entry["winners"])) or "none"
        parts.append(f"won by {winners}")
        if entry.get("undercut"):
            parts.append("undercut")
        if entry.get("pool_carried"):
            parts.append(f"pool of {entry['pool_carried']} carried over")
        parts.append(f"scores {_row(entry['scores'])}")
        parts.append(f"totals {_row(entry['totals'])}")
        out.print("; ".join(parts))
    if not sheet["game_over"]:
        out.print(f"game not over: totals {_row(sheet['totals'])}")
        return
    if "bonuses" in sheet:
        out.print(f"game over: bonuses {_row(sheet['bonuses'])}")
    winners = ", ".join(map(str, sheet["winners"]))
    out.print(f"final totals {_row(sheet['totals'])}; winner {winners}")


def _row(values: Sequence[int]) -> str:
    return " ".join(str(value) for value in values)
