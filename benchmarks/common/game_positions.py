"""The positions a bot asked the engine about, rebuilt from a ``meldsat simulate`` game log.

A shared-table turn's record holds the table before the turn and the hand after drawing
(``table_before``, ``hand``). In the 500 family a bot asks once a turn, holding that hand. In
Manipulation it asks after each draw that still allows melding (before the last of
``draws_before_meld_forbidden`` draws), and stops drawing once it melds: so a turn of ``d`` draws
asked with the hand before the turn plus the first 1, ..., ``min(d, limit - 1)`` cards drawn (with
the hand as it was when the turn drew nothing, a deal's last turn). Positions are returned in the
log's order, each once (a bot asked the same question twice, or another bot asked it, counts once).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meldsat.position import Position, load_position


@dataclass(frozen=True)
class LoggedPosition:
    """A position asked in a logged game, with the rule set's name and where it came from."""

    rules: str
    position: Position
    fields: dict[str, Any]  # the position's JSON fields, to write it out again
    source: str  # log file, game and turn


def positions_of_log(path: Path) -> list[LoggedPosition]:
    """Every distinct position the bots of the log at ``path`` asked, in the log's order."""
    seen: set[str] = set()
    out: list[LoggedPosition] = []
    for fields, source in _asked(path):
        key = json.dumps(fields, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        position = load_position(fields)
        out.append(LoggedPosition(position.rules.name, position, fields, f"{path.name} {source}"))
    return out


def _asked(path: Path) -> Iterator[tuple[dict[str, Any], str]]:
    header: dict[str, Any] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("event") == "game":
            header = record
            continue
        if record.get("event") != "turn" or not record.get("hand"):
            continue
        base = {"rules": header["rules"], "players": header["players"]}
        if header.get("house_rules"):
            base["rules"] = {"preset": header["rules"], **header["house_rules"]}
        table = record["table_before"]
        source = f"game {record['game']} deal {record['round']} turn {record['turn']}"
        limit = load_position({**base, "table": table}).rules.draws_before_meld_forbidden or 3
        for hand in _hands_asked(record, limit):
            yield {**base, "table": table, "hand": hand}, source


def _hands_asked(record: dict[str, Any], limit: int) -> list[list[str]]:
    """The hands the bot held each time it asked during this turn (``limit``: the draws after
    which melding is forbidden)."""
    hand: list[str] = list(record["hand"])
    draws = record.get("draws")
    if draws is None or not draws:  # the 500 family, or Manipulation's last turn
        return [hand]
    drawn: list[str] = list(record["drawn"])
    before = list(hand)
    for card in drawn:
        before.remove(card)
    return [before + drawn[:step] for step in range(1, min(draws, limit - 1) + 1)]
