"""``meldsat validate``: is every meld of a table legal, and can the cards exist at all."""

from __future__ import annotations

from rich.text import Text

from meldsat.answers.jsonform import to_json
from meldsat.answers.validate import ValidateAnswer, validate
from meldsat.cli.inputs import (
    HandOption,
    JsonOption,
    PlayersOption,
    PositionOption,
    RuleOption,
    RulesOption,
    TableOption,
    gather_fields,
)
from meldsat.cli.render import (
    console,
    print_line,
    print_table,
    rules_title,
    status_text,
    verdict_mark,
)
from meldsat.errors import MeldsatError


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
    if table is None and position is None:
        raise MeldsatError("no table given: use --table or --position")
    answer = validate(gather_fields(table, hand, position), rules, players, house)
    if json_output:
        print(to_json(answer.to_json()))
    else:
        _print_human(answer)
    return 0 if answer.legal else 1


def _print_human(answer: ValidateAnswer) -> None:
    rule_set, verdict, problems = answer.rules, answer.verdict, answer.problems
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
    print_line(status_text("legal" if answer.legal else "illegal", answer.legal), out=out)
