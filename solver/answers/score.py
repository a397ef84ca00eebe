"""The score-sheet answer (``meldsat score``): a rule set and a sheet's lines in, the scored sheet
with its JSON form out.

The sheet is read and totalled by the scorer of the rule set's game family
(:data:`meldsat.games.registry.FAMILIES`), with the scoring the games themselves use.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from meldsat.answers.fields import house_options
from meldsat.errors import RulesError
from meldsat.games.family import ScoreSheet
from meldsat.games.registry import family_of, sheet_rule_sets
from meldsat.house_rules import apply_house_rules
from meldsat.rules import RuleSet
from meldsat.rulesets import get_rules
from meldsat.schema import SCHEMA_VERSION

Entry = dict[str, Any]


@dataclass(frozen=True)
class ScoreAnswer:
    """A scored sheet: ``sheet`` is the family's own (``meldsat.games.sheets.TableSheet`` for
    the shared-table games, ``meldsat.games.gin_sheet.GinSheet`` for gin)."""

    sheet: ScoreSheet

    def to_json(self) -> dict[str, Any]:
        """The JSON answer: ``schema_version``, then the sheet's own keys."""
        return {"schema_version": SCHEMA_VERSION, **self.sheet.to_json()}


def sheet_rules(rules: str, house: list[str] | None = None) -> RuleSet:
    """The rule set ``rules`` with the house rules ``house`` (``NAME=VALUE`` texts: the scoring
    constants, say) that a sheet is scored under; an unknown name or a bad house rule raises a
    :class:`~meldsat.errors.RulesError`."""
    return apply_house_rules(get_rules(rules), house_options(house))


def score_answer(
    rules: str, entries: Iterable[tuple[int, Entry]], house: list[str] | None = None
) -> ScoreAnswer:
    """Score the sheet ``entries`` ((line number, JSON object) pairs, in order) under ``rules``
    with the house rules ``house`` (``NAME=VALUE`` texts), which the sheet's JSON then names
    (``house_rules``).

    ``entries`` is read only once the rule set is known to have a score sheet, so a lazy reader
    of a file reports a rule set without one before any bad line. Bad input raises a
    :class:`~meldsat.errors.MeldsatError` naming the line (round, hand) at fault.
    """
    rule_set = sheet_rules(rules, house)
    reader = family_of(rule_set.name).score_sheet
    if reader is None:
        raise RulesError(
            f"no score sheet for '{rules}' (sheets: {', '.join(sorted(sheet_rule_sets()))})"
        )
    return ScoreAnswer(reader(rule_set, list(entries)))
