"""``meldsat check``: is changing the table into ``--after`` a legal turn with this hand."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from meldsat.cli.inputs import (
    AfterOption,
    DrawsOption,
    HandOption,
    InitialOption,
    JsonOption,
    PlayersOption,
    PositionOption,
    RuleOption,
    RulesOption,
    TableOption,
    draws_field,
    gather_fields,
    house_options,
)
from meldsat.cli.jsonout import json_header, piece_texts, to_json
from meldsat.cli.render import (
    console,
    print_line,
    print_table,
    render_meld,
    status_text,
    verdict_mark,
)
from meldsat.errors import MeldsatError
from meldsat.moves import MoveVerdict, check_move
from meldsat.position import load_position, table_field
from meldsat.rules import RuleSet
from meldsat.wording import counted


def check_command(
    *,
    table: TableOption = None,
    hand: HandOption = None,
    after: AfterOption = None,
    position: PositionOption = None,
    rules: RulesOption = None,
    players: PlayersOption = None,
    json_output: JsonOption = False,
    initial: InitialOption = False,
    draws: DrawsOption = None,
    house: RuleOption = None,
) -> int:
    """Check one turn; exit 0 when it is legal, 1 with every reason when it is not."""
    fields = gather_fields(table, hand, position)
    if after is not None:
        fields["after"] = after
    if initial:
        fields["initial"] = True
    if draws is not None:
        fields["draws"] = draws
    rule_set, verdict = check_fields(fields, rules, players, house)
    if json_output:
        print(to_json(check_json(rule_set, verdict)))
    else:
        _print_human(rule_set, verdict)
    return 0 if verdict.legal else 1


def check_fields(
    fields: dict[str, Any],
    rules: str | None = None,
    players: int | None = None,
    house: list[str] | None = None,
) -> tuple[RuleSet, MoveVerdict]:
    """Check the turn a position's fields describe (``table``, ``hand``, ``after``, ``draws``)."""
    if "after" not in fields:
        raise MeldsatError("no table after the turn: use --after or an 'after' key in the position")
    # The table before the turn must be a legal position: load_position refuses anything else.
    before = load_position(fields, rules, players, house_options(house))
    after_melds = table_field(fields["after"], "after", before.rules)
    verdict = check_move(
        before.table,
        before.hand,
        after_melds,
        before.rules,
        initial=before.initial,
        draws=draws_field(fields.get("draws")),
    )
    return before.rules, verdict


def check_json(rule_set: RuleSet, verdict: MoveVerdict) -> dict[str, Any]:
    """The JSON object of ``check --json`` (schema version 1); the table has jokers declared."""
    notation = rule_set.notation
    return {
        **json_header(rule_set),
        "legal": verdict.legal,
        "played": piece_texts(verdict.played, notation),
        "reasons": [{"code": reason.code, "message": reason.message} for reason in verdict.reasons],
        "table": [piece_texts(meld.pieces, notation) for meld in verdict.table.melds],
    }


def _print_human(rule_set: RuleSet, verdict: MoveVerdict) -> None:
    out = console()
    count = len(verdict.reasons)
    summary = "legal" if verdict.legal else f"illegal ({counted(count, 'reason')})"
    print_line(status_text(summary, verdict.legal), out=out)
    for reason in verdict.reasons:
        print_line("  ", verdict_mark(False), f" {reason.code}: {reason.message}", out=out)
    played = render_meld(verdict.played, rule_set.notation) if verdict.played else Text("nothing")
    print_line("played: ", played, out=out)
    notes = [None if meld.legal else verdict_mark(False) for meld in verdict.table.melds]
    print_table(
        [meld.pieces for meld in verdict.table.melds],
        rule_set.notation,
        title="table after:",
        notes=notes,
        out=out,
    )
