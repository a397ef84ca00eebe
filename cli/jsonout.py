"""What every ``--json`` answer shares: the schema version, the rule set, pieces as text."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from meldsat.cards import Notation, Piece
from meldsat.rules import RuleSet

SCHEMA_VERSION = 1


def json_header(rules: RuleSet) -> dict[str, Any]:
    """The keys that open every JSON answer: ``schema_version``, ``rules`` and ``players``."""
    return {"schema_version": SCHEMA_VERSION, "rules": rules.name, "players": rules.players}


def piece_texts(pieces: Iterable[Piece], notation: Notation) -> list[str]:
    """Pieces in canonical notation, jokers written with their declared card."""
    return [piece.text(notation) for piece in pieces]
