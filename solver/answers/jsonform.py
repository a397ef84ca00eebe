"""What every JSON answer shares, from the commands' ``--json`` and the web API alike: the schema
version, the rule set, pieces as text, the error object, and the one way JSON is written (strict:
never ``NaN`` or ``Infinity``, ASCII only)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from meldsat.cards import Notation, Piece
from meldsat.house_rules import house_rules_of
from meldsat.rules import RuleSet
from meldsat.schema import SCHEMA_VERSION


def json_header(rules: RuleSet) -> dict[str, Any]:
    """The keys that open every JSON answer: ``schema_version``, ``rules`` and ``players``.

    ``house_rules`` follows when the rule set differs from its preset (``--rule``, a rules block).
    """
    header: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "rules": rules.name,
        "players": rules.players,
    }
    house = house_rules_of(rules)
    if house:
        header["house_rules"] = house
    return header


def piece_texts(pieces: Iterable[Piece], notation: Notation) -> list[str]:
    """Pieces in canonical notation, jokers written with their declared card."""
    return [piece.text(notation) for piece in pieces]


def error_json(code: str, message: str) -> dict[str, Any]:
    """The JSON answer of a failure: ``{"schema_version": 1, "error": {"code", "message"}}``."""
    return {"schema_version": SCHEMA_VERSION, "error": {"code": code, "message": message}}


def to_json(data: Any) -> str:
    """``data`` as one line of strict JSON (any parser reads it; no control bytes reach a terminal).

    ``allow_nan=False`` makes a non-finite number an error here instead of invalid JSON out there.
    """
    return json.dumps(data, allow_nan=False, ensure_ascii=True)
