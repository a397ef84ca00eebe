"""The gin commands end to end: ``deadwood`` (with draw advice), JSON keys, bad input."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from tests.conftest import CliRunner
from tests.gin_oracle import least_deadwood
from tests.test_cli import as_json, assert_one_line_error

TIED_GROUPS = "4S 5S 6S 3C 4C 5C 3D 4D 5D 6D 6H"


def test_deadwood_json_gives_the_gin_discard(run_cli: CliRunner) -> None:
    result = run_cli("deadwood", "--rules", "gin", "--hand", TIED_GROUPS, "--json")
    data = as_json(result)
    assert result.code == 0
    assert data["discard"] == "6H"
    assert data["deadwood"] == 0
    assert data["gin"] is True and data["big_gin"] is False and data["can_knock"] is True
    assert len(data["discards"]) == 11
    assert sorted(card for meld in data["melds"] for card in meld) == sorted(
        TIED_GROUPS.replace("6H", "").split()
    )


def test_deadwood_human_output_names_discard_and_knock(run_cli: CliRunner) -> None:
    result = run_cli("deadwood", "--hand", TIED_GROUPS)
    assert result.code == 0
    assert "discard: 6♥" in result.out
    assert "knock limit 10: gin" in result.out


def test_oklahoma_needs_the_upcard_for_its_knock_limit(run_cli: CliRunner) -> None:
    hand = "4S 5S 6S 3C 4C 5C 3D 4D 5D 2H"
    assert_one_line_error(run_cli("deadwood", "--rules", "oklahoma-gin", "--hand", hand), "upcard")
    ace = as_json(
        run_cli("deadwood", "-r", "oklahoma-gin", "--hand", hand, "--upcard", "AC", "--json")
    )
    assert ace["knock_limit"] == 0 and ace["can_knock"] is False
    two = run_cli(
        "deadwood",
        "-r",
        "oklahoma-gin",
        "--hand",
        hand,
        "--upcard",
        "KC",
        "--first-upcard",
        "2C",
        "--json",
    )
    assert as_json(two)["knock_limit"] == 2 and as_json(two)["can_knock"] is True


def test_draw_advice_is_the_exact_mean_over_unseen_cards(run_cli: CliRunner) -> None:
    hand = "4S 5S 6S 3C 4C 5C 3D 4D KD 6D"
    seen = "2C 9H"
    data = as_json(run_cli("deadwood", "--hand", hand, "--upcard", "8H", "--seen", seen, "--json"))
    stock = data["draw"]["stock"]
    known = set(hand.split()) | {"8H", *seen.split()}
    ranks = {"A": 1, "J": 11, "Q": 12, "K": 13}
    suits = "SHDC"
    deck = [(rank, suit) for rank in range(1, 14) for suit in range(4)]

    def name(card: tuple[int, int]) -> str:
        rank_name = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(card[0], str(card[0]))
        return f"{rank_name}{suits[card[1]]}"

    def key(text: str) -> tuple[int, int]:
        return (ranks.get(text[:-1]) or int(text[:-1]), suits.index(text[-1]))

    held = frozenset(key(text) for text in hand.split())
    unseen = [card for card in deck if name(card) not in known]
    outcomes = [
        min(least_deadwood((held | {card}) - {gone}) for gone in held | {card}) for card in unseen
    ]
    assert stock["unseen"] == len(unseen) == 39
    assert Fraction(stock["expected_deadwood_exact"]) == Fraction(sum(outcomes), len(outcomes))
    assert sum(item["cards"] for item in stock["distribution"]) == 39
    upcard = data["draw"]["upcard"]
    assert upcard["discard"] != "8H"
    assert data["draw"]["advice"] == (
        "upcard" if upcard["deadwood"] < Fraction(sum(outcomes), len(outcomes)) else "stock"
    )


def test_gin_commands_refuse_bad_input_in_one_line(run_cli: CliRunner) -> None:
    assert_one_line_error(run_cli("deadwood", "--hand", "4S 5S 6S"), "10 or 11")
    assert_one_line_error(run_cli("deadwood", "--hand", "4S 4S 5S 6S 7S 8S 9S 10S JS QS"), "4S")
    assert_one_line_error(run_cli("deadwood", "--hand", "4S 5S 6S 7S 8S 9S 10S JS QS ZZ"), "ZZ")
    assert_one_line_error(
        run_cli("deadwood", "--rules", "manipulation", "--hand", TIED_GROUPS), "manipulation"
    )
    # Options that do not go together are a usage error: click's usage and "Try" lines, then ours.
    usage = run_cli("deadwood", "--hand", TIED_GROUPS, "--seen", "2C")
    assert usage.code == 2
    assert usage.out == ""
    assert "Try 'meldsat deadwood -h' for help." in usage.err
    assert usage.err.splitlines()[-1].startswith("meldsat: error: ")
    assert "--seen" in usage.err.splitlines()[-1]


LAYOFF = ("--melds", "5H 6H 7H | 9S 9D 9C | JC QC KC", "--hand", "3H 4H 8H 9H AC AD AS 2D 3D 10C")


def test_layoff_json_lists_cards_laid_off_and_the_score(run_cli: CliRunner) -> None:
    data = as_json(run_cli("layoff", *LAYOFF, "--knocker-deadwood", "2S", "--json"))
    assert data["deadwood"] == 2
    assert {item["card"] for item in data["laid_off"]} == {"3H", "4H", "8H", "9H", "10C"}
    assert data["score"] == {
        "kind": "undercut",
        "winner": "defender",
        "points": 25,
        "doubled": False,
    }
    assert ["3H", "4H", "5H", "6H", "7H", "8H"] in data["knocker_melds"]


def test_layoff_needs_the_knockers_deadwood_unless_gin(run_cli: CliRunner) -> None:
    assert_one_line_error(run_cli("layoff", *LAYOFF), "--knocker-deadwood")
    result = run_cli("layoff", *LAYOFF, "--knocker-deadwood", "5C")
    assert result.code == 0 and "lay off 10♣ on meld 3" in result.out


def test_score_file_gives_a_sheet_with_open_and_finished_games(
    run_cli: CliRunner, tmp_path: Path
) -> None:
    sheet = tmp_path / "hands.jsonl"
    sheet.write_text(
        '{"players": ["Ann", "Bob"]}\n'
        '{"knocker": "Bob", "knocker_deadwood": 5, "defender_deadwood": 30}\n'
        '{"knocker": "Ann", "knocker_deadwood": 0, "defender_deadwood": 80}\n',
        encoding="utf-8",
    )
    finished = as_json(run_cli("score", "--rules", "gin", str(sheet), "--json"))
    assert finished["finished"] is True
    assert finished["games"][0]["total"] == {"Ann": 105 + 100 + 25, "Bob": 25 + 25}
    hollywood = run_cli("score", "--rules", "hollywood-gin", str(sheet))
    assert hollywood.code == 0 and "game 2: in progress" in hollywood.out
    assert_one_line_error(run_cli("score", "--rules", "rummikub", str(sheet)), "rummikub")
