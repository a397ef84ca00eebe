"""Positions: a rule set, the melds on the table and a hand, read from and written to text or JSON.

A ``Position`` is always valid: every table meld is legal with each joker declared, and no card is
present more often than the decks hold. Anything else is refused with a message naming the problem.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from meldsat.cards import Piece, require_pieces
from meldsat.errors import (
    ImpossiblePositionError,
    InputTooLargeError,
    NotationError,
    RulesError,
    quote,
    require_text,
)
from meldsat.house_rules import HOUSE_RULES, apply_house_rules, house_rules_of
from meldsat.jsonload import load_object
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
from meldsat.rules import RuleSet, require_rules
from meldsat.rulesets import RULE_SET_NAMES, get_rules
from meldsat.table import copy_problems, judge_table

# The largest position (a file, stdin, one batch line) read, in characters. A real position is a
# few hundred characters; the limit refuses a runaway input (a log, /dev/zero) at once.
MAX_POSITION_CHARS = 64 * 1024

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

    def __repr__(self) -> str:
        # The text form, which reads back to this position: paste it to get the same value.
        return f"Position.parse({self.to_text()!r})"

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read a position from its text form or JSON (the same as :func:`read_position`)."""
        return read_position(text)

    @classmethod
    def build(
        cls,
        rules: RuleSet,
        table: Sequence[Sequence[Piece]],
        hand: Sequence[Piece],
        initial: bool = False,
    ) -> Position:
        """Check and normalise a position; raises on an illegal table or too many copies."""
        require_rules(rules)
        hand = require_pieces(hand, "hand")
        if not isinstance(initial, bool):
            raise TypeError(f"initial must be a bool, not {type(initial).__name__}")
        verdict = judge_table(table, rules)
        for number, meld in enumerate(verdict.melds, start=1):
            if not meld.legal:
                text = format_pieces(meld.pieces, rules.notation)
                raise ImpossiblePositionError(
                    f"illegal meld {number} on the table {quote(text)}: {meld.reason}"
                )
        check_hand_jokers(hand, rules.notation)
        melds = tuple(meld.pieces for meld in verdict.melds)
        problems = copy_problems([*hand, *(piece for meld in melds for piece in meld)], rules)
        if problems:
            raise ImpossiblePositionError(f"impossible position: {problems[0]}")
        return cls(rules, melds, sort_pieces(hand), initial)

    def to_text(self) -> str:
        """The position in the text form of docs/NOTATION.md (read back by ``read_position``)."""
        house = house_rules_of(self.rules)
        lines = [
            f"rules: {self.rules.name}",
            *(f"  {name}: {HOUSE_RULES[name].text(value)}" for name, value in house.items()),
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
        house = house_rules_of(self.rules)
        data: dict[str, Any] = {
            "rules": {"preset": self.rules.name, **house} if house else self.rules.name,
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
    house: Mapping[str, object] | None = None,
) -> RuleSet:
    """The rule set a position names, unless the caller gives one (command-line options win).

    A key whose value is ``null`` counts as absent; any other rule-set name must be a non-empty
    string and a player count a whole number (``""``, ``0``, ``false`` or ``[]`` are refused,
    never read as "the default"). ``rules`` may also be a block, ``{"preset": NAME, FIELD:
    VALUE, ...}``: house rules over the preset, kept unless the caller names another preset.
    ``house`` (``--rule``) overrides fields on top of everything.
    """
    own_name, own_house = rules_spec(data.get("rules"))
    name = rules_name if rules_name is not None else own_name
    if name is None:
        name = "manipulation"
    if not isinstance(name, str) or not name.strip():
        raise RulesError(f"unknown rule set {quote(_json_text(name))} (choose from {_names()})")
    count = players if players is not None else data.get("players")
    if count is not None and (isinstance(count, bool) or not isinstance(count, int)):
        raise RulesError(f"bad player count {quote(_json_text(count))} (expected a whole number)")
    rules = get_rules(name, count)
    same_preset = own_name is None or (
        isinstance(own_name, str) and own_name.strip().lower() == rules.name
    )
    if own_house and same_preset:
        rules = apply_house_rules(rules, own_house)
    return apply_house_rules(rules, house or {})


def rules_spec(value: Any) -> tuple[Any, dict[str, Any]]:
    """A position's ``rules`` as (preset name or None, house rules): a name or a block."""
    if not isinstance(value, Mapping):
        return value, {}
    if "preset" not in value:
        raise RulesError('a rules block needs its "preset" (e.g. {"preset": "rummikub", ...})')
    overrides = {str(key): field for key, field in value.items() if key != "preset"}
    return value["preset"], overrides


def _names() -> str:
    return ", ".join(RULE_SET_NAMES)


def _json_text(value: Any) -> str:
    """A field's value as it was written (JSON for anything but a string)."""
    return value if isinstance(value, str) else json.dumps(value)


def pieces_field(value: Any, key: str, rules: RuleSet) -> Meld:
    """A hand-like field given as text (``"5H 6H"``) or as a list of card strings."""
    if value is None:
        return ()
    if isinstance(value, str):
        return parse_pieces(value, rules.notation)
    if isinstance(value, list) and all(isinstance(token, str) for token in value):
        return tuple(piece for token in value for piece in parse_pieces(token, rules.notation))
    raise NotationError(f"'{key}' must be text or a list of cards, not {quote(json.dumps(value))}")


def table_field(value: Any, key: str, rules: RuleSet) -> list[Meld]:
    """A table given as text (``"7H 8H 9H | QS QH QD"``) or as a list of melds."""
    if value is None:
        return []
    if isinstance(value, str):
        return parse_table(value, rules.notation)
    if isinstance(value, list):
        return [pieces_field(meld, key, rules) for meld in value]
    raise NotationError(f"'{key}' must be text or a list of melds, not {quote(json.dumps(value))}")


def load_position(
    data: Mapping[str, Any],
    rules_name: str | None = None,
    players: int | None = None,
    house: Mapping[str, object] | None = None,
) -> Position:
    """Build a position from a JSON object (``rules``, ``players``, ``table``, ``hand``).

    ``rules_name``, ``players`` and ``house`` (house rules by field name) override the object's.
    """
    if not isinstance(data, Mapping):
        raise TypeError(f"data must be a mapping of position fields, not {type(data).__name__}")
    if rules_name is not None:
        require_text(rules_name, "rules_name")
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise TypeError(f"players must be an int or None, not {type(players).__name__}")
    check_position_keys(data)
    rules = rules_from_fields(data, rules_name, players, house)
    table = table_field(data.get("table"), "table", rules)
    hand = pieces_field(data.get("hand", []), "hand", rules)
    return Position.build(rules, table, hand, initial_field(data.get("initial")))


def initial_field(value: Any) -> bool:
    """The ``initial`` of a position's fields: absent (false), true or false."""
    if value is None:
        return False
    if not isinstance(value, bool):
        raise NotationError(f"'initial' must be true or false, not {quote(json.dumps(value))}")
    return value


def check_position_keys(data: Mapping[str, Any]) -> None:
    """Refuse a key no position holds (a misspelt ``tabel`` must not go unnoticed)."""
    unknown = sorted(str(key) for key in set(data) - _POSITION_KEYS - _EXTRA_KEYS)
    if unknown:
        raise NotationError(f"unknown key {quote(unknown[0])} in position")


def position_fields(text: str) -> dict[str, Any]:
    """The fields of a position given as JSON or in the ``key: value`` text form.

    Text longer than :data:`MAX_POSITION_CHARS` is refused before it is parsed; a UTF-8 byte order
    mark at the start is skipped.
    """
    require_text(text, "text")
    check_size(text, "position")
    text = text.removeprefix("\ufeff")
    stripped = text.strip()
    if stripped.startswith("{"):
        return json_object(stripped)
    fields: dict[str, Any] = {}
    block: dict[str, Any] | None = None  # the house rules indented under "rules:"
    rules_indent = 0
    for line in text.splitlines():
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        key, colon, value = content.partition(":")
        key = key.strip().lower()
        indent = len(line) - len(line.lstrip())
        if block is not None and indent > rules_indent and colon:
            if key in block:
                raise NotationError(f"house rule {quote(key)} given twice under 'rules'")
            block[key] = value.strip()
            continue
        block = None
        if not colon or key not in _POSITION_KEYS | _EXTRA_KEYS:
            raise NotationError(f"unknown line {quote(content)} in position (expected key: value)")
        if key in fields:
            raise NotationError(f"'{key}' given twice in position (one line per key)")
        fields[key] = _text_field_value(key, value.strip())
        if key == "rules":
            block, rules_indent = {}, indent
            fields[key] = {"preset": fields[key], "house": block}
    return {key: _flat_rules(value) if key == "rules" else value for key, value in fields.items()}


def _flat_rules(value: dict[str, Any]) -> Any:
    """A text ``rules:`` line with its block, as a name or as ``{"preset": ..., FIELD: ...}``."""
    if not value["house"]:
        return value["preset"]
    return {"preset": value["preset"], **value["house"]}


def check_size(text: str, what: str, limit: int = MAX_POSITION_CHARS) -> None:
    """Refuse ``text`` longer than ``limit`` characters (``what`` names it in the message)."""
    if len(text) > limit:
        raise InputTooLargeError(f"{what} too large: {len(text)} characters, the limit is {limit}")


def json_object(text: str) -> dict[str, Any]:
    """Parse one JSON object with the strict reader (:mod:`meldsat.jsonload`): no ``NaN``, no
    duplicate keys, no endless numbers, bounded depth; every failure is a :class:`NotationError`."""
    return load_object(text, "a JSON position")


def _text_field_value(key: str, value: str) -> Any:
    if key in {"players", "draws"}:
        # Only ASCII digits ("²" passes isdigit but not int), and few of them.
        if not (value.isascii() and value.isdigit()) or len(value) > 6:
            raise NotationError(f"bad {key} {quote(value)} (expected a whole number)")
        return int(value)
    if key == "initial":
        if value.lower() not in {"true", "false", "yes", "no"}:
            raise NotationError(f"bad initial {quote(value)} (expected true or false)")
        return value.lower() in {"true", "yes"}
    return value


def read_position(
    text: str,
    rules_name: str | None = None,
    players: int | None = None,
) -> Position:
    """Read a position from JSON or from the text form of docs/NOTATION.md."""
    return load_position(position_fields(text), rules_name, players)
