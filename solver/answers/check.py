"""``check``: is changing the table into ``after`` a legal turn with this hand, and if not, why."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meldsat.answers.fields import draws_field, house_options
from meldsat.answers.jsonform import json_header, piece_texts
from meldsat.errors import MeldsatError
from meldsat.moves import MoveVerdict, check_move
from meldsat.position import load_position, table_field
from meldsat.rules import RuleSet


@dataclass(frozen=True)
class CheckAnswer:
    """The rule checker's verdict on one turn, under the rule set of its position."""

    rules: RuleSet
    verdict: MoveVerdict

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``check --json`` (schema version 1); the table has jokers declared."""
        notation = self.rules.notation
        verdict = self.verdict
        return {
            **json_header(self.rules),
            "legal": verdict.legal,
            "played": piece_texts(verdict.played, notation),
            "reasons": [
                {"code": reason.code, "message": reason.message} for reason in verdict.reasons
            ],
            "table": [piece_texts(meld.pieces, notation) for meld in verdict.table.melds],
        }


def check(
    fields: dict[str, Any],
    rules: str | None = None,
    players: int | None = None,
    house: list[str] | None = None,
) -> CheckAnswer:
    """Check the turn a position's fields describe (``table``, ``hand``, ``after``, ``draws``).

    ``rules``, ``players`` and ``house`` (``NAME=VALUE`` texts) apply where the fields do not say.
    """
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
    return CheckAnswer(before.rules, verdict)
