"""``repr`` of the domain values is notation that can be pasted back, not a field dump."""

from __future__ import annotations

from dataclasses import replace

import pytest

from meldsat import Card, Joker, Position, RuleSet, get_rules, parse_piece, read_position
from meldsat.errors import NotationError
from meldsat.rules import Scoring

NAMESPACE = {
    "Card": Card,
    "Joker": Joker,
    "Position": Position,
    "RuleSet": RuleSet,
    "Scoring": Scoring,
    "get_rules": get_rules,
    "replace": replace,
}


@pytest.mark.parametrize("token", ["10H", "AS", "KC", "*", "*=7H"])
def test_pieces_repr_as_parse_calls_that_read_back(token: str) -> None:
    piece = parse_piece(token)
    assert repr(piece) == f"{type(piece).__name__}.parse({token!r})"
    assert eval(repr(piece), NAMESPACE) == piece


def test_joker_parse_refuses_a_card() -> None:
    with pytest.raises(NotationError, match="not a joker"):
        Joker.parse("7H")


def test_position_repr_is_its_text_form() -> None:
    position = read_position("rules: rummikub\ntable: r1 r2 r3 | j=k5 b5 o5\nhand: k7 j")
    text = repr(position)
    assert text.startswith("Position.parse('rules: rummikub\\nplayers: 4\\n")
    assert len(text) < 200
    assert eval(text, NAMESPACE) == position


@pytest.mark.parametrize("name", ["manipulation", "rummikub", "gin", "rummy500"])
def test_a_preset_reprs_as_the_call_that_makes_it(name: str) -> None:
    rules = get_rules(name)
    assert repr(rules) == f"get_rules({name!r}, {rules.players})"
    assert eval(repr(rules), NAMESPACE) == rules


def test_a_house_rule_reprs_as_the_changed_fields_only() -> None:
    rules = replace(get_rules("manipulation", 2), initial_meld_points=30, run_min=4)
    assert repr(rules) == (
        "replace(get_rules('manipulation', 2), run_min=4, initial_meld_points=30)"
    )
    assert eval(repr(rules), NAMESPACE) == rules


def test_a_rule_set_of_no_preset_reprs_in_full() -> None:
    rules = replace(get_rules("gin"), name="my-gin")
    assert repr(rules).startswith("RuleSet(name='my-gin', ")
    assert eval(repr(rules), {**NAMESPACE, "Notation": __import__("meldsat").Notation}) == rules
