"""The library API of the README: ``from meldsat import ...`` for bots and servers."""

from __future__ import annotations

import subprocess
import sys

import meldsat
from meldsat import Objective, Status, best_play, check_move, read_position


def test_readme_example() -> None:
    position = read_position(
        "rules: manipulation\ntable: 4S 5S 6S *=7S | 7S 7H 7D 7C\nhand: QH KH\n"
    )
    play = best_play(position, Objective.POINTS)
    assert play.status is Status.OPTIMAL
    assert play.points_played == 20
    verdict = check_move(position.table, position.hand, play.table, position.rules)
    assert verdict.legal


def test_importing_the_library_does_not_load_the_solver() -> None:
    """Parsing and checking start fast: OR-Tools loads only when best_play is first used."""
    code = "import sys, meldsat; print('ortools' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def test_unknown_attribute_is_an_attribute_error() -> None:
    assert not hasattr(meldsat, "no_such_thing")
