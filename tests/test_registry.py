"""The game-family registry: every rule set in one family, the lookups, the score answer."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from meldsat.answers.score import score_answer
from meldsat.errors import MeldsatError, RulesError
from meldsat.games.gin_sheet import GinSheet
from meldsat.games.registry import (
    FAMILIES,
    bot_names,
    bots_of,
    family_named,
    family_of,
    game_rule_sets,
    new_agent,
    puzzle_rule_sets,
    sheet_rule_sets,
)
from meldsat.games.sheets import TableSheet
from meldsat.rulesets import RULE_SET_NAMES
from meldsat.schema import SCHEMA_VERSION

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_every_rule_set_belongs_to_exactly_one_family() -> None:
    names = [name for family in FAMILIES for name in family.rule_sets]
    assert sorted(names) == sorted(RULE_SET_NAMES)
    assert len({family.name for family in FAMILIES}) == len(FAMILIES)
    for name in RULE_SET_NAMES:
        assert name in family_of(name).rule_sets


def test_lookups_by_rule_set() -> None:
    assert family_of(" Hollywood-Gin ") is family_named("gin")
    assert family_of("rummy500-killer").name == "rummy500"
    assert puzzle_rule_sets() == ("manipulation", "rummikub")
    assert "rummikub" not in game_rule_sets()
    assert set(game_rule_sets()) == set(RULE_SET_NAMES) - {"rummikub"}
    assert set(sheet_rule_sets()) == set(game_rule_sets())
    assert not family_of("gin").shared_table and family_of("rummikub").shared_table
    assert bots_of("rummikub") == ()
    assert [bot.name for bot in bots_of("oklahoma-gin")] == list(family_named("gin").bots.names)
    assert bot_names() == (
        "greedy-points",
        "greedy-cards",
        "knocker",
        "hoarder",
        "cautious",
        "patient",
        "shedder",
        "random",
        "expert",
        "racer",
        "sprinter",
    )
    with pytest.raises(RulesError, match="no game family 'go'"):
        family_named("go")


def test_every_bot_has_a_one_line_description() -> None:
    for family in FAMILIES:
        for bot in family.bots.bots:
            assert bot.description and "\n" not in bot.description, bot.name


def test_bots_are_made_by_name_and_unknown_names_are_refused() -> None:
    rng = random.Random(1)
    assert new_agent("gin", " Hoarder ", rng, 1.0).name == "hoarder"
    assert new_agent("rummy300", "random", rng, 1.0).name == "random"
    with pytest.raises(MeldsatError, match=r"unknown gin bot 'cheater' \(choose from knocker,"):
        new_agent("gin", "cheater", rng, 1.0)
    with pytest.raises(MeldsatError, match=r"unknown bot 'x' \(choose from greedy-points,"):
        new_agent("manipulation", "x", rng, 1.0)
    with pytest.raises(RulesError, match="no bots play 'rummikub'"):
        new_agent("rummikub", "random", rng, 1.0)


def _lines(name: str) -> list[tuple[int, dict[str, Any]]]:
    text = (EXAMPLES / name).read_text(encoding="utf-8").splitlines()
    return [
        (number, json.loads(line))
        for number, line in enumerate(text, start=1)
        if line.strip() and not line.startswith("#")
    ]


def test_the_score_answer_of_each_kind_of_sheet() -> None:
    manipulation = score_answer("manipulation", _lines("manipulation-rounds.jsonl"))
    assert isinstance(manipulation.sheet, TableSheet)
    data = manipulation.to_json()
    assert data["schema_version"] == SCHEMA_VERSION
    assert (data["rules"], data["players"], data["game_over"]) == ("manipulation", 3, True)
    assert data["bonuses"] == [25, 100, 25] and data["totals"] == [60, 251, 85]
    deals = score_answer("rummy500", _lines("rummy500-deals.jsonl")).to_json()
    assert "bonuses" not in deals and deals["totals"] == [218, 249, -42]
    gin = score_answer("hollywood-gin", _lines("gin-hands.jsonl"))
    assert isinstance(gin.sheet, GinSheet)
    assert gin.to_json()["names"] == ["Ann", "Bob"]
    assert [game["finished"] for game in gin.to_json()["games"]] == [True, False, False]


def test_the_score_answer_carries_the_house_rules_at_the_sheets_player_count() -> None:
    lines = _lines("manipulation-rounds.jsonl")
    plain = score_answer("manipulation", lines).to_json()
    # The preset is for 4 players; the sheet's 3 players keep the house rule's 3 decks.
    house = score_answer("manipulation", lines, ["decks=3", "round_win_bonus=50"])
    assert isinstance(house.sheet, TableSheet) and house.sheet.rules.decks == 3
    data = house.to_json()
    assert list(data)[:4] == ["schema_version", "rules", "players", "house_rules"]
    assert data["house_rules"] == {"decks": 3, "round_win_bonus": 50}
    assert data["rounds"] == plain["rounds"] and data["totals"] != plain["totals"]
    with pytest.raises(RulesError, match="gin_bonus"):
        score_answer("gin", _lines("gin-hands.jsonl"), ["gin_bonus=-1"])


def test_a_rule_set_without_a_sheet_is_refused_before_its_lines_are_read() -> None:
    def lines() -> Iterator[tuple[int, dict[str, Any]]]:
        raise AssertionError("the lines were read")
        yield  # a generator

    with pytest.raises(RulesError, match=r"no score sheet for 'Rummikub' \(sheets: gin,"):
        score_answer("Rummikub", lines())
