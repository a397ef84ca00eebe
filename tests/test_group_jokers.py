"""A joker in a group of three, won back by either missing colour (Rummikub's official rules).

The reading is the rule-set field ``group_joker_either_missing``: on in Rummikub, off in every game
whose text says nothing of it. The checker (``check``), the engine (``hint``) and the brute-force
oracle must agree on it, under either value, on the issue's example and on positions hypothesis
builds around such a group.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldsat.cards import Card
from meldsat.engine.search import best_play
from meldsat.group_jokers import group_joker_pairs, won_back_by_other
from meldsat.house_rules import apply_house_rules
from meldsat.moves import check_move
from meldsat.notation import parse_pieces
from meldsat.play import Objective, Status
from meldsat.position import Position, read_position
from meldsat.rulesets import get_rules
from tests.conftest import CliRunner
from tests.oracle import group_pairs, locking_needs, oracle_best
from tests.strategies import group_joker_positions
from tests.test_engine_oracle import assert_matches_oracle
from tests.test_moves import codes, messages, move

TABLE = "j=r2 k2 b2 | o3 o4 o5"
HAND = "o2 b7 b8"
AFTER = "k2 b2 o2 | o3 o4 o5 | b7 b8 j=b9"
STRICT = ("--rule", "group_joker_either_missing=false")


def test_rummikub_takes_the_official_reading_and_the_others_do_not() -> None:
    assert get_rules("rummikub").group_joker_either_missing
    others = ("manipulation", "gin", "rummy500", "rummy300", "rummy500-killer")
    assert not any(get_rules(name).group_joker_either_missing for name in others)


def test_check_frees_the_joker_with_the_other_missing_colour(run_cli: CliRunner) -> None:
    args = ("check", "--rules", "rummikub", "--table", TABLE, "--hand", HAND, "--after", AFTER)
    legal = run_cli(*args)
    assert legal.code == 0 and legal.out.startswith("legal\n")
    strict = run_cli(*args, *STRICT, "--json")
    assert strict.code == 1
    assert [reason["code"] for reason in json.loads(strict.out)["reasons"]] == ["joker_redeclared"]


def test_manipulation_still_asks_for_the_declared_card(run_cli: CliRunner) -> None:
    # The example in cards: the joker declared 2H in 2H 2S 2D, won back by 2C (the other missing).
    args = ("check", "--table", "*=2H 2S 2D | 3C 4C 5C", "--hand", "2C 7D 8D")
    refused = run_cli(*args, "--after", "2S 2D 2C | 3C 4C 5C | 7D 8D *=9D")
    assert refused.code == 1
    assert "joker_redeclared: the joker declared 2H was redeclared" in refused.out
    house = ("--rule", "group_joker_either_missing=true")
    assert run_cli(*args, "--after", "2S 2D 2C | 3C 4C 5C | 7D 8D *=9D", *house).code == 0


def test_hint_plays_the_whole_hand_only_under_the_official_reading(run_cli: CliRunner) -> None:
    args = ("hint", "--rules", "rummikub", "--table", TABLE, "--hand", HAND, "--json")
    official = json.loads(run_cli(*args).out)
    assert (official["status"], official["cards_played"], official["points_played"]) == (
        "optimal",
        3,
        17,
    )
    strict = json.loads(run_cli(*args, *STRICT).out)
    assert (strict["cards_played"], strict["points_played"]) == (1, 2)
    steps = run_cli("hint", "--rules", "rummikub", "--table", TABLE, "--hand", HAND).out
    assert "(the real o2, the group's other missing colour, is on the table)" in steps


def _position(rules: str, *house: tuple[str, object]) -> Position:
    position = read_position(f"rules: {rules}\ntable: {TABLE}\nhand: {HAND}\n")
    return Position.build(
        apply_house_rules(position.rules, dict(house)), position.table, position.hand
    )


def test_oracle_agrees_on_the_example() -> None:
    official = oracle_best(_position("rummikub"), Objective.POINTS)
    strict = oracle_best(_position("rummikub", ("group_joker_either_missing", False)))
    assert official is not None and strict is not None
    assert (official.value, strict.value) == (17, 2)
    for position in (
        _position("rummikub"),
        _position("rummikub", ("group_joker_either_missing", False)),
    ):
        for objective in Objective:
            assert_matches_oracle(position, objective)


def test_one_real_card_frees_one_joker() -> None:
    # Two groups of three lack o2; one o2 cannot free both of their jokers.
    before = "j=r2 k2 b2 | j=r2 k2 b2 | r5 r6 r7"
    one = move(before, "o2 r4", "k2 b2 o2 | j=r2 k2 b2 | j=r3 r4 r5 r6 r7", "rummikub")
    assert one.legal
    both = move(before, "o2 r4 r8", "k2 b2 o2 | k2 b2 j=o2 | j=r3 r4 r5 r6 r7 r8", "rummikub")
    assert codes(both) == ["joker_redeclared"]


def test_a_joker_declared_as_the_other_card_comes_first() -> None:
    # One o2 frees the joker declared o2 or the group's joker declared r2, not both.
    before = "j=r2 k2 b2 | j=o2 o3 o4"
    both = move(before, "o2 o5 r4", "k2 b2 o2 | o3 o4 o5 | j=r3 r4 j=r5", "rummikub")
    assert messages(both, "joker_redeclared") == [
        "the joker declared r2 was redeclared but r2 is not on the table"
    ]
    one = move(before, "o2 o5 r3 r4", "k2 b2 o2 | j=o2 o3 o4 o5 | r3 r4 j=r5", "rummikub")
    assert one.legal


def test_pairs_of_a_group_of_three_only() -> None:
    notation = get_rules("rummikub").notation

    def pairs(text: str) -> list[tuple[str, str]]:
        return [
            (card.text(notation), other.text(notation))
            for card, other in group_joker_pairs(parse_pieces(text, notation))
        ]

    assert pairs("j=r2 k2 b2") == [("r2", "o2")]
    assert pairs("j=r2 j=k2 b2") == [("r2", "o2"), ("k2", "o2")]
    assert pairs("j=r2 k2 b2 o2") == []  # a group of four lacks only the joker's own colour
    assert pairs("r3 r4 j=r5") == []
    assert pairs("k2 b2 o2") == []


def test_won_back_by_other_prefers_keeping_and_the_own_card() -> None:
    r2, o2 = Card(2, 3), Card(2, 2)
    pairs = Counter({(r2, o2): 1})
    # The joker keeps its declaration: nothing to free.
    assert won_back_by_other({r2: 1}, {r2: 1}, {o2: 1}, pairs) == Counter()
    # Freed with r2 and o2 both on the table: its own card frees it.
    assert won_back_by_other({r2: 1}, {}, {r2: 1, o2: 1}, pairs) == Counter()
    # Freed with only o2 on the table: o2 frees it.
    assert won_back_by_other({r2: 1}, {}, {o2: 1}, pairs) == Counter({(r2, o2): 1})
    assert won_back_by_other({r2: 1}, {}, {}, pairs) == Counter()


def test_oracle_needs_list_every_least_way() -> None:
    r2, o2 = (2, 3), (2, 2)
    assert locking_needs(Counter({r2: 1}), Counter(), Counter()) == [((r2, 1),)]
    assert locking_needs(Counter({r2: 1}), Counter({o2: 1}), Counter({(r2, o2): 1})) == [()]
    table = read_position(f"rules: rummikub\ntable: {TABLE}\n").table
    assert group_pairs(table) == Counter({(r2, o2): 1})


# --- hypothesis: positions built around a group of three holding a joker ---------------------

READINGS = (
    ("rummikub", True),
    ("rummikub", False),
    ("manipulation", True),
    ("manipulation", False),
)


@pytest.mark.parametrize(("name", "either"), READINGS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_engine_matches_oracle_around_group_jokers(
    name: str, either: bool, data: st.DataObject
) -> None:
    position = data.draw(group_joker_positions(name, either))
    for objective in Objective:
        assert_matches_oracle(position, objective)


@pytest.mark.parametrize(("name", "either"), READINGS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_the_reading_only_ever_allows_more(name: str, either: bool, data: st.DataObject) -> None:
    """Every play the strict reading allows, the official one allows too (the checker agrees)."""
    position = data.draw(group_joker_positions(name, either))
    strict = apply_house_rules(position.rules, {"group_joker_either_missing": False})
    play = best_play(Position.build(strict, position.table, position.hand), time_limit=None)
    if play.status is Status.NO_MOVE:
        return
    official = apply_house_rules(position.rules, {"group_joker_either_missing": True})
    assert check_move(position.table, position.hand, play.table, official).legal
