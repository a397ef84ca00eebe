"""``meldsat validate``: is every meld of a table legal, and can the cards exist at all."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from meldsat.cli.inputs import (
    HandOption,
    JsonOption,
    PlayersOption,
    PositionOption,
    RuleOption,
    RulesOption,
    TableOption,
    load_cli_table,
)
from meldsat.cli.jsonout import json_header, piece_texts, to_json
from meldsat.cli.render import (
    console,
    print_line,
    print_table,
    rules_title,
    status_text,
    verdict_mark,
)
from meldsat.notation import Meld
from meldsat.rules import RuleSet
from meldsat.table import TableVerdict, copy_problems, judge_table


def validate_command(
    *,
    table: TableOption = None,
    hand: HandOption = None,
    position: PositionOption = None,
    rules: RulesOption = None,
    players: PlayersOption = None,
    json_output: JsonOption = False,
    house: RuleOption = None,
) -> int:
    """Check every meld of the table; exit 0 when all are legal, 1 when any is not."""
    rule_set, melds, hand_pieces = load_cli_table(table, hand, position, rules, players, house)
    verdict, problems = judge_with_copies(rule_set, melds, hand_pieces)
    legal = verdict.legal and not problems
    if json_output:
        print(to_json(validate_json(rule_set, verdict, problems)))
    else:
        _print_human(rule_set, verdict, problems)
    return 0 if legal else 1


def judge_with_copies(
    rule_set: RuleSet, melds: list[Meld], hand: Meld
) -> tuple[TableVerdict, list[str]]:
    """Every meld's verdict, and the cards present more often than the decks hold."""
    verdict = judge_table(melds, rule_set)
    table_pieces = [piece for meld in verdict.melds for piece in meld.pieces]
    # A hand given with the table shares the same decks, so its cards count towards the copies.
    return verdict, copy_problems([*table_pieces, *hand], rule_set)


def validate_json(rule_set: RuleSet, verdict: TableVerdict, problems: list[str]) -> dict[str, Any]:
    """The JSON object of ``validate --json`` (schema version 1)."""
    notation = rule_set.notation
    return {
        **json_header(rule_set),
        "legal": verdict.legal and not problems,
        "melds": [
            {
                "cards": piece_texts(meld.pieces, notation),
                "legal": meld.legal,
                "kind": meld.kind.value if meld.kind is not None else None,
                "reason": meld.reason,
            }
            for meld in verdict.melds
        ],
        "problems": problems,
    }


def _print_human(rule_set: RuleSet, verdict: TableVerdict, problems: list[str]) -> None:
    out = console()
    notes: list[Text | None] = []
    for meld in verdict.melds:
        note = verdict_mark(meld.legal)
        detail = meld.kind.value if meld.kind is not None else f"illegal: {meld.reason}"
        note.append(f" {detail}", style="" if meld.legal else "red")
        notes.append(note)
    print_table(
        [meld.pieces for meld in verdict.melds],
        rule_set.notation,
        title=rules_title(rule_set),
        notes=notes,
        out=out,
    )
    for problem in problems:
        print_line(verdict_mark(False), f" {problem}", out=out)
    legal = verdict.legal and not problems
    print_line(status_text("legal" if legal else "illegal", legal), out=out)
