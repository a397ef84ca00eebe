"""``meldsat score --rules R FILE``: a score sheet from round (deal) results, one JSON line each.

The sheet is read and totalled by the scorer of the rule set's game family
(:func:`meldsat.answers.score.score_answer`); this module reads the file and prints the answer,
as JSON or as text in the form of the family's kind of sheet.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import singledispatch
from typing import Annotated, Any

import typer

from meldsat.answers.jsonform import to_json
from meldsat.answers.score import score_answer, sheet_rules
from meldsat.cli.batchio import file_lines
from meldsat.cli.ginscore import print_gin_sheet
from meldsat.cli.inputs import JsonOption, RuleOption
from meldsat.cli.render import console, house_rules_text
from meldsat.games.gin_sheet import GinSheet
from meldsat.games.sheets import TableSheet
from meldsat.jsonload import json_lines


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
    sheet_rules(rules, house)  # an unknown rule set or a bad house rule fails before the file
    answer = score_answer(rules, _entries(results), house)
    if as_json:
        print(to_json(answer.to_json()))
    else:
        print_sheet(answer.sheet)
    return 0


def _entries(source: str) -> Iterator[tuple[int, dict[str, Any]]]:
    # A generator: the file is opened only once the rule set is known to have a sheet, and read
    # a bounded line at a time with the strict JSON reader.
    return json_lines(file_lines(source), source, comments=True)


@singledispatch
def print_sheet(sheet: object) -> None:
    """A scored sheet as text, in the form of its kind (each kind registers its printer)."""
    raise TypeError(f"no text form for a {type(sheet).__name__}")


@print_sheet.register
def print_table_sheet(answer: TableSheet) -> None:
    """A shared-table game's sheet as text: a line a round, then the end of the game."""
    sheet = answer.to_json()
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


print_sheet.register(GinSheet, print_gin_sheet)
