"""``validate``: is every meld of a table legal, and can its cards (and the hand's) exist at all."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meldsat.answers.fields import table_from_fields
from meldsat.answers.jsonform import json_header, piece_texts
from meldsat.notation import Meld
from meldsat.rules import RuleSet
from meldsat.table import TableVerdict, copy_problems, judge_table


@dataclass(frozen=True)
class ValidateAnswer:
    """Every meld's verdict, and one message for each card present more often than the decks hold
    it (``problems``); ``hand`` is the hand given with the table, which shares its decks."""

    rules: RuleSet
    verdict: TableVerdict
    hand: Meld
    problems: tuple[str, ...]

    @property
    def legal(self) -> bool:
        """True when every meld is legal and no card is there too often."""
        return self.verdict.legal and not self.problems

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``validate --json`` (schema version 1)."""
        notation = self.rules.notation
        return {
            **json_header(self.rules),
            "legal": self.legal,
            "melds": [
                {
                    "cards": piece_texts(meld.pieces, notation),
                    "legal": meld.legal,
                    "kind": meld.kind.value if meld.kind is not None else None,
                    "reason": meld.reason,
                }
                for meld in self.verdict.melds
            ],
            "problems": list(self.problems),
        }


def validate(
    fields: dict[str, Any],
    rules: str | None = None,
    players: int | None = None,
    house: list[str] | None = None,
) -> ValidateAnswer:
    """Judge the table of a position's fields (``table``, ``hand``, ``rules``, ...), legal or not.

    ``rules``, ``players`` and ``house`` (``NAME=VALUE`` texts) apply where the fields do not say.
    """
    rule_set, melds, hand = table_from_fields(fields, rules, players, house)
    return validate_table(rule_set, melds, hand)


def validate_table(rules: RuleSet, melds: list[Meld], hand: Meld) -> ValidateAnswer:
    """Every meld's verdict, and the cards of the table and ``hand`` present too often."""
    verdict = judge_table(melds, rules)
    table_pieces = [piece for meld in verdict.melds for piece in meld.pieces]
    # A hand given with the table shares the same decks, so its cards count towards the copies.
    problems = copy_problems([*table_pieces, *hand], rules)
    return ValidateAnswer(rules, verdict, hand, tuple(problems))
