"""The engine on the 40 full-table Rummikub positions of the development set.

Each line of ``tests/data/rummikub-dev.jsonl`` holds a position and ``expect``: the most tiles and
the most points that can be played, found by the peer ``rummikub-solver`` and two independent CP-SAT
formulations (see ``tests/data/README.md``). The engine must prove the same optima, and the
move checker must accept every play it returns.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from meldsat.engine.search import best_play
from meldsat.moves import check_move
from meldsat.play import Objective, Status
from meldsat.position import load_position

DEV_SET = Path(__file__).parent / "data" / "rummikub-dev.jsonl"


def _lines() -> list[dict[str, Any]]:
    with DEV_SET.open(encoding="utf-8") as file:
        return [json.loads(line) for line in file if line.strip()]


LINES = _lines()


def test_dev_set_is_complete() -> None:
    assert len(LINES) == 40
    assert all({"cards", "points"} <= set(line["expect"]) for line in LINES)


@pytest.mark.parametrize("objective", list(Objective), ids=lambda objective: objective.value)
@pytest.mark.parametrize("number", range(len(LINES)))
def test_dev_position(number: int, objective: Objective) -> None:
    line = LINES[number]
    position = load_position(line)
    play = best_play(position, objective)
    assert play.status is Status.OPTIMAL
    expected = line["expect"][objective.value]
    achieved = play.cards_played if objective is Objective.CARDS else play.points_played
    assert achieved == expected, position.to_text()
    assert Counter(play.hand_left) + Counter(play.played) == Counter(position.hand)
    verdict = check_move(position.table, position.hand, play.table, position.rules)
    assert verdict.legal, [reason.message for reason in verdict.reasons]
    assert Counter(verdict.played) == Counter(play.played)
