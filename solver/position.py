"""Positions: a rule set, the melds on the table and a hand, read from and written to text or JSON.

A ``Position`` is always valid: every table meld is legal with each joker declared, and no card is
present more often than the decks hold. Anything else is refused with a message naming the problem.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from meldsat.cards import Piece
from meldsat.errors import ImpossiblePositionError, NotationError, RulesError
from meldsat.notation import (
    Meld,
    Pieces,
    Table,
    check_hand_jokers,
    format_pieces,
    format_table,
    parse_pieces,
    parse_table,
    sort_pieces,
)
from meldsat.rules import RuleSet, get_rules
from meldsat.table import copy_problems, judge_table

# Keys a position file may carry besides the position itself (used by other commands or by tests).
_EXTRA_KEYS = frozenset({"after", "expect", "id", "name", "comment", "draws"})
_POSITION_KEYS = frozenset({"rules", "players", "table", "hand", "initial"})


@dataclass(frozen=True)
class Position:
    """A rule set, the table (legal melds, jokers declared) and the hand of the player to move.

    ``initial`` marks a player who has not yet made the initial meld (Rummikub's 30 points).
    """

    rules: RuleSet
    table: Table
    hand: Pieces
    initial: bool = False

    @classmethod
    def build(
        cls,
        rules: RuleSet,
        table: Sequence[Sequence[Piece]],
        hand: Sequence[Piece],
        initial: bool = False,
    ) -> Position:
        """Check and normalise a position; raises on an illegal table or too many copies."""
        verdict = judge_table(table, rules)
        for number, meld in enumerate(verdict.melds, start=1):
            if not meld.legal:
                text = format_pieces(meld.pieces, rules.notation)
                raise ImpossiblePositionError(
                    f"illegal meld {number} on the table '{text}': {meld.reason}"
                )
        check_hand_jokers(hand, rules.notation)
        melds = tuple(meld.pieces for meld in verdict.melds)
        problems = copy_problems([*hand, *(piece for meld in melds for piece in meld)], rules)
        if problems:
            raise ImpossiblePositionError(f"impossible position: {problems[0]}")
        return cls(rules, melds, sort_pieces(hand), initial)

    def to_text(self) -> str:
        """The position in the text form of DESIGN.md (reads back with :func:`read_position`)."""
        lines = [
            f"rules: {self.rules.name}",
            f"players: {self.rules.players}",
            f"table: {format_table(self.table, self.rules.notation)}",
            f"hand: {format_pieces(self.hand, self.rules.notation)}",
        ]
        if self.initial:
            lines.append("initial: true")
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict[str, Any]:
        """The position as a JSON-ready dict (reads back with :func:`load_position`)."""
        notation = self.rules.notation
        data: dict[str, Any] = {
            "rules": self.rules.name,
            "players": self.rules.players,
            "table": [[piece.text(notation) for piece in meld] for meld in self.table],
            "hand": [piece.text(notation) for piece in self.hand],
        }
        if self.initial:
            data["initial"] = True
        return data


def rules_from_fields(
    data: Mapping[str, Any],
    rules_name: str | None = None,
    players: int | None = None,
) -> RuleSet:
    """The rule set a position names, unless the caller gives one (command-line options win)."""
    name = rules_name or data.get("rules") or "manipulation"
    if not isinstance(name, str):
        raise RulesError(f"unknown rule set '{name}'")
    count = players if players is not None else data.get("players")
    if count is not None and (isinstance(count, bool) or not isinstance(count, int)):
        raise RulesError(f"bad player count '{count}'")
    return get_rules(name, count)


def pieces_field(value: Any, key: str, rules: RuleSet) -> Meld:
    """A hand-like field given as text (``"5H 6H"``) or as a list of card strings."""
    if isinstance(value, str):
        return parse_pieces(value, rules.notation)
    if isinstance(value, list) and all(isinstance(token, str) for token in value):
        return tuple(piece for token in value for piece in parse_pieces(token, rules.notation))
    raise NotationError(f"'{key}' must be text or a list of cards, not {json.dumps(value)}")


def table_field(value: Any, key: str, rules: RuleSet) -> list[Meld]:
    """A table given as text (``"7H 8H 9H | QS QH QD"``) or as a list of melds."""
    if value is None:
        return []
    if isinstance(value, str):
        return parse_table(value, rules.notation)
    if isinstance(value, list):
        return [pieces_field(meld, key, rules) for meld in value]
    raise NotationError(f"'{key}' must be text or a list of melds, not {json.dumps(value)}")


def load_position(
    data: Mapping[str, Any],
    rules_name: str | None = None,
    players: int | None = None,
) -> Position:
    """Build a position from a JSON object (``rules``, ``players``, ``table``, ``hand``)."""
    check_position_keys(data)
    rules = rules_from_fields(data, rules_name, players)
    table = table_field(data.get("table"), "table", rules)
    hand = pieces_field(data.get("hand", []), "hand", rules)
    initial = data.get("initial", False)
    if not isinstance(initial, bool):
        raise NotationError(f"'initial' must be true or false, not {json.dumps(initial)}")
    return Position.build(rules, table, hand, initial)


def check_position_keys(data: Mapping[str, Any]) -> None:
    """Refuse a key no position holds (a misspelt ``tabel`` must not go unnoticed)."""
    unknown = sorted(set(data) - _POSITION_KEYS - _EXTRA_KEYS)
    if unknown:
        raise NotationError(f"unknown key '{unknown[0]}' in position")


def position_fields(text: str) -> dict[str, Any]:
    """The fields of a position given as JSON or in the ``key: value`` text form."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as error:
            raise NotationError(f"bad JSON at line {error.lineno}: {error.msg}") from None
        if not isinstance(data, dict):
            raise NotationError("a JSON position must be an object")
        return data
    fields: dict[str, Any] = {}
    for line in text.splitlines():
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        key, colon, value = content.partition(":")
        key = key.strip().lower()
        if not colon or key not in _POSITION_KEYS | _EXTRA_KEYS:
            raise NotationError(f"unknown line '{content}' in position (expected key: value)")
        fields[key] = _text_field_value(key, value.strip())
    return fields


def _text_field_value(key: str, value: str) -> Any:
    if key in {"players", "draws"}:
        if not value.isdigit():
            raise NotationError(f"bad {key} '{value}' (expected a whole number)")
        return int(value)
    if key == "initial":
        if value.lower() not in {"true", "false", "yes", "no"}:
            raise NotationError(f"bad initial '{value}' (expected true or false)")
        return value.lower() in {"true", "yes"}
    return value


def read_position(
    text: str,
    rules_name: str | None = None,
    players: int | None = None,
) -> Position:
    """Read a position from JSON or from the text form of DESIGN.md."""
    return load_position(position_fields(text), rules_name, players)
