"""``meldsat check``: is changing the table into ``--after`` a legal turn with this hand."""

from __future__ import annotations

from rich.text import Text

from meldsat.answers.check import CheckAnswer, check
from meldsat.answers.jsonform import to_json
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
    gather_fields,
)
from meldsat.cli.render import (
    console,
    print_line,
    print_table,
    render_meld,
    status_text,
    verdict_mark,
)
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
    answer = check(fields, rules, players, house)
    if json_output:
        print(to_json(answer.to_json()))
    else:
        _print_human(answer)
    return 0 if answer.verdict.legal else 1


def _print_human(answer: CheckAnswer) -> None:
    rule_set, verdict = answer.rules, answer.verdict
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
