"""The library API of the README: ``from meldsat import ...`` for bots and servers."""

from __future__ import annotations

import json
import subprocess
import sys

import meldsat
from meldsat import Objective, Status, best_play, check_move, read_position
from meldsat.cards import WILD_JOKER, count_pieces, piece_identity


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


def test_reason_codes_and_objectives_are_their_strings() -> None:
    """JSON output carries the codes as plain strings; objectives read from their names."""
    assert json.dumps([meldsat.ReasonCode.CARD_REMOVED]) == '["card_removed"]'
    assert meldsat.Objective("cards") is meldsat.Objective.CARDS
    assert f"{meldsat.Objective.POINTS}" == "points"


def test_pieces_are_counted_by_identity() -> None:
    """Jokers are one kind of piece whatever they declare; real cards are themselves."""
    pieces = meldsat.parse_pieces("*=7S * 7S 7S")
    assert count_pieces(pieces) == {WILD_JOKER: 2, meldsat.parse_card("7S"): 2}
    assert piece_identity(meldsat.Joker(meldsat.parse_card("7S"))) == WILD_JOKER


def test_changes_read_as_the_tuple_of_their_steps() -> None:
    """The steps in words are worked out when first read, and then behave as a tuple."""
    position = read_position("table: 7H 8H 9H\nhand: 10H\n")
    play = best_play(position, Objective.POINTS)
    expected = ("play 10H from the hand to 7H 8H 9H (now 7H 8H 9H 10H)",)
    assert play.changes == expected
    assert list(play.changes) == list(expected) and len(play.changes) == 1
    assert hash(play.changes) == hash(expected)
