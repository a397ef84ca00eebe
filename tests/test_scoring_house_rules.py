"""Scoring as the rule books have it: the knock limit in ``score``, the scoring constants as house
rules wherever a game is scored (``score``, ``simulate``, ``play``, ``replay`` from the log), and
Hollywood's shut-out player entering its next win in the next open game."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from meldsat.cards import Card
from meldsat.errors import MeldsatError
from meldsat.games.log import MemoryLog
from meldsat.games.replay import WrongTurnError, replay_events
from meldsat.games.simulate import simulate
from meldsat.gin.knocking import KnockLimitError
from meldsat.gin.scoring import HandResult, hand_score, score_sheet
from meldsat.house_rules import apply_house_rules, house_rules_of
from meldsat.rulesets import get_rules
from tests.conftest import CliRunner
from tests.test_cli import as_json, assert_one_line_error
from tests.test_json_schemas import assert_matches

PLAYERS = '{"players": ["Ann", "Bob"]}\n'


def _score_file(tmp_path: Path, *hands: dict[str, object]) -> str:
    path = tmp_path / "hands.jsonl"
    path.write_text(PLAYERS + "".join(json.dumps(hand) + "\n" for hand in hands))
    return str(path)


# --- the knock limit --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "hand", "limit"),
    [
        ("gin", {"knocker_deadwood": 15, "defender_deadwood": 30}, 10),
        ("oklahoma-gin", {"knocker_deadwood": 1, "defender_deadwood": 30, "upcard": "AH"}, 0),
        ("oklahoma-gin", {"knocker_deadwood": 8, "defender_deadwood": 30, "upcard": "5H"}, 5),
        ("hollywood-gin", {"knocker_deadwood": 11, "defender_deadwood": 30}, 10),
    ],
)
def test_score_refuses_a_knock_above_the_limit(
    run_cli: CliRunner, tmp_path: Path, rules: str, hand: dict[str, object], limit: int
) -> None:
    path = _score_file(tmp_path, {"knocker": "Ann", **hand})
    deadwood = hand["knocker_deadwood"]
    message = f"hand 1: the knocker's deadwood {deadwood} is above the knock limit {limit}"
    assert_one_line_error(run_cli("score", "--rules", rules, path), message)


def test_score_takes_a_knock_at_the_limit_and_a_raised_limit(
    run_cli: CliRunner, tmp_path: Path
) -> None:
    at_limit = _score_file(
        tmp_path, {"knocker": "Ann", "knocker_deadwood": 5, "defender_deadwood": 30, "upcard": "5H"}
    )
    assert run_cli("score", "--rules", "oklahoma-gin", at_limit).code == 0
    above = _score_file(
        tmp_path, {"knocker": "Ann", "knocker_deadwood": 15, "defender_deadwood": 30}
    )
    raised = run_cli("score", "--rules", "gin", above, "--rule", "knock_limit=15")
    assert raised.code == 0 and "hand 1: Ann knock 15; game 1" in raised.out


def test_hand_score_and_layoff_refuse_the_same_knock_alike(run_cli: CliRunner) -> None:
    with pytest.raises(KnockLimitError, match="deadwood 15 is above the knock limit 10"):
        hand_score(get_rules("gin"), 15, 30)
    layoff = run_cli(
        "layoff",
        "--melds",
        "2C 3C 4C | 5D 6D 7D",
        "--knocker-deadwood",
        "9S 8H 7S 2H",
        "--hand",
        "KS KH KD QS QH QD JS JH JD 10S",
    )
    assert_one_line_error(layoff, "the knocker's deadwood 26 is above the knock limit 10")


def test_a_big_gin_and_a_gin_are_within_any_limit() -> None:
    oklahoma = get_rules("oklahoma-gin")
    ace = Card(1, 1)
    assert hand_score(oklahoma, 0, 30, first_upcard=ace).points == 55
    assert hand_score(oklahoma, 0, 30, big_gin=True, first_upcard=ace).points == 61


# --- the scoring constants as house rules -----------------------------------------------------

CLASSIC = ("--rule", "gin_bonus=20", "--rule", "undercut_bonus=10")


def test_score_with_classic_gin_values(run_cli: CliRunner, tmp_path: Path) -> None:
    path = _score_file(
        tmp_path,
        {"knocker": "Ann", "knocker_deadwood": 0, "defender_deadwood": 22},
        {"knocker": "Bob", "knocker_deadwood": 8, "defender_deadwood": 5},
    )
    modern = as_json(run_cli("score", "--rules", "gin", path, "--json"))
    assert [hand["points"] for hand in modern["hands"]] == [22 + 25, 3 + 25]
    assert "house_rules" not in modern
    classic = as_json(run_cli("score", "--rules", "gin", path, "--json", *CLASSIC))
    assert [hand["points"] for hand in classic["hands"]] == [22 + 20, 3 + 10]
    assert classic["house_rules"] == {"gin_bonus": 20, "undercut_bonus": 10}
    text = run_cli("score", "--rules", "gin", path, *CLASSIC)
    assert text.out.startswith("gin: Ann v Bob, game to 100; house rules: gin_bonus=20")
    assert "hand 1: Ann gin 42; game 1" in text.out


def test_every_gin_scoring_constant_is_a_house_rule(run_cli: CliRunner, tmp_path: Path) -> None:
    path = _score_file(
        tmp_path,
        {"knocker": "Ann", "knocker_deadwood": 0, "defender_deadwood": 30, "big_gin": True},
        {"knocker": "Ann", "knocker_deadwood": 2, "defender_deadwood": 40},
    )
    house = (
        ("big_gin_bonus", "20"),
        ("game_target", "60"),
        ("game_bonus", "50"),
        ("round_win_bonus", "20"),
        ("shutout_doubles", "false"),
    )
    options = [item for name, value in house for item in ("--rule", f"{name}={value}")]
    sheet = as_json(run_cli("score", "--rules", "gin", path, "--json", *options))
    (game,) = sheet["games"]
    assert (sheet["target"], sheet["finished"]) == (60, True)
    assert game["points"]["Ann"] == (30 + 20) + (40 - 2)
    # 50 for the game and 20 a hand won; Bob won no hand, but a shutout doubles nothing here.
    assert (game["shutout"], game["total"]["Ann"]) == (False, 88 + 50 + 2 * 20)
    doubled = as_json(run_cli("score", "--rules", "gin", path, "--json", *options[:-2]))
    assert doubled["games"][0]["total"]["Ann"] == 2 * (88 + 50 + 2 * 20)


def test_500_pool_and_target_are_house_rules(run_cli: CliRunner) -> None:
    example = "examples/rummy500-deals.jsonl"
    plain = as_json(run_cli("score", "--rules", "rummy500", example, "--json"))
    pooled = as_json(
        run_cli("score", "--rules", "rummy500", example, "--json", "--rule", "deal_pool=50")
    )
    assert "house_rules" not in plain and pooled["house_rules"] == {"deal_pool": 50}
    assert (plain["rounds"][0]["pool_won"], pooled["rounds"][0]["pool_won"]) == (30, 50)
    assert pooled["rounds"][0]["totals"][0] == plain["rounds"][0]["totals"][0] + 20
    text = run_cli("score", "--rules", "rummy500", example, "--rule", "deal_pool=50")
    assert "3 players (seats from 0); house rules: deal_pool=50\n" in text.out
    assert_one_line_error(
        run_cli("score", "--rules", "rummy500", example, "--rule", "game_target=100"),
        "deal 2: the game ended after deal 1",
    )


def test_bad_scoring_house_rules_are_one_line(run_cli: CliRunner, tmp_path: Path) -> None:
    path = _score_file(tmp_path, {"knocker": "Ann", "knocker_deadwood": 3, "defender_deadwood": 9})
    assert_one_line_error(
        run_cli("score", "--rules", "gin", path, "--rule", "gin_bonus=lots"), "'lots'", "gin_bonus"
    )
    assert_one_line_error(
        run_cli("score", "--rules", "gin", path, "--rule", "game_target=0"), "from 1 to 10000"
    )


def test_scoring_house_rules_live_in_the_scoring_and_read_back() -> None:
    rules = apply_house_rules(get_rules("gin"), {"gin_bonus": "20", "shutout_doubles": "no"})
    assert (rules.scoring.gin_bonus, rules.scoring.shutout_doubles) == (20, False)
    assert house_rules_of(rules) == {"gin_bonus": 20, "shutout_doubles": False}
    assert house_rules_of(apply_house_rules(get_rules("gin"), {"gin_bonus": 25})) == {}


def test_a_simulated_gin_log_with_house_rules_replays(run_cli: CliRunner, tmp_path: Path) -> None:
    log = tmp_path / "gin.jsonl"
    bots = ("--bots", "knocker,hoarder", "--games", "3", "--seed", "2")
    args = ("simulate", "--rules", "gin", *bots, "--log", str(log))
    result = run_cli(*args, *CLASSIC, "--rule", "game_target=60")
    assert result.code == 0, result.err
    assert result.out.startswith(
        "gin, 2 players, 3 games, seed 2; house rules: game_target=60, gin_bonus=20, "
        "undercut_bonus=10\n"
    )
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    headers = [event for event in events if event["event"] == "game"]
    assert all(
        header["house_rules"] == {"game_target": 60, "gin_bonus": 20, "undercut_bonus": 10}
        for header in headers
    )
    gins = [e for e in events if e["event"] == "round_end" and e["ends"] == "gin"]
    undercuts = [e for e in events if e["event"] == "round_end" and e["ends"] == "undercut"]
    assert gins and undercuts
    for end in gins:
        assert max(end["scores"]) == end["defender_deadwood"] + 20
    for end in undercuts:
        assert max(end["scores"]) == end["knocker_deadwood"] - end["defender_deadwood"] + 10
    replay = run_cli("replay", str(log))
    assert replay.code == 0 and replay.out.startswith("confirmed: 3 games")
    # Without its house rules the same log does not add up.
    for header in headers:
        del header["house_rules"]
    log.write_text("".join(json.dumps(event) + "\n" for event in events), encoding="utf-8")
    assert run_cli("replay", str(log)).code == 1


def test_simulate_json_names_the_house_rules(run_cli: CliRunner) -> None:
    args = ("simulate", "--rules", "hollywood-gin", "--games", "1", "--json")
    plain = as_json(run_cli(*args))
    assert "house_rules" not in plain
    house = as_json(run_cli(*args, "--rule", "shutout_enters_next_game=false"))
    assert house["house_rules"] == {"shutout_enters_next_game": False}
    assert_one_line_error(run_cli(*args[:-1], "--rule", "gin_bonus=-1"), "gin_bonus")


def test_a_log_whose_house_rules_are_not_an_object_is_refused() -> None:
    log = MemoryLog()
    simulate("gin", ["knocker", "random"], 1, 4, log, time_limit=1.0, house={"gin_bonus": 20})
    log.events[0]["house_rules"] = ["gin_bonus", 20]
    with pytest.raises(WrongTurnError, match="'house_rules' of a game event must be an object"):
        replay_events(enumerate(log.events, start=1))
    log.events[0]["house_rules"] = {"gin_bonus": 25}  # the preset's own value: no house rule
    with pytest.raises(WrongTurnError, match="the game plays with"):
        replay_events(enumerate(log.events, start=1))


def test_play_takes_house_rules_into_its_log(
    run_cli: CliRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    log = tmp_path / "play.jsonl"
    result = run_cli("play", "--rules", "gin", "--log", str(log), *CLASSIC)
    assert result.code == 0 and "game abandoned" in result.out
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["house_rules"] == {"gin_bonus": 20, "undercut_bonus": 10}
    assert run_cli("replay", str(log)).code == 0
    assert_one_line_error(run_cli("play", "--rules", "gin", "--rule", "gin_bonus=x"), "'x'")


# --- Hollywood: the shut-out player's next win ------------------------------------------------


def test_hollywood_enters_a_shut_out_players_next_win_in_the_next_open_game() -> None:
    # Ann closes game 1 (100 points) before Bob wins a hand; Bob's first win goes to game 2.
    results = [HandResult("Ann", 0, 40), HandResult("Ann", 0, 40), HandResult("Bob", 0, 30)]
    hollywood = get_rules("hollywood-gin")
    sheet = score_sheet(hollywood, ["Ann", "Bob"], results)
    assert [hand.games for hand in sheet.hands] == [(1,), (1, 2), (2,)]
    assert sheet.games[0].finished and sheet.games[0].shutout
    assert sheet.games[1].points == {"Ann": 65, "Bob": 55}
    more = score_sheet(hollywood, ["Ann", "Bob"], [*results, HandResult("Bob", 0, 10)])
    assert more.hands[-1].games == (2, 3)
    scored_nowhere = apply_house_rules(hollywood, {"shutout_enters_next_game": False})
    old = score_sheet(scored_nowhere, ["Ann", "Bob"], results)
    assert [hand.games for hand in old.hands] == [(1,), (1, 2), ()]
    assert old.games[1].points == {"Ann": 65, "Bob": 0}


def test_hollywood_reading_changes_nothing_without_a_shutout() -> None:
    results = [HandResult("Ann", 1, 11)] * 3 + [HandResult("Bob", 1, 21)] * 2
    hollywood = get_rules("hollywood-gin")
    scored_nowhere = apply_house_rules(hollywood, {"shutout_enters_next_game": False})
    published = score_sheet(hollywood, ["Ann", "Bob"], results)
    assert published == score_sheet(scored_nowhere, ["Ann", "Bob"], results)


def test_a_hand_scoring_in_no_game_says_so(run_cli: CliRunner, tmp_path: Path) -> None:
    path = _score_file(
        tmp_path,
        {"knocker": "Ann", "knocker_deadwood": 0, "defender_deadwood": 40},
        {"knocker": "Ann", "knocker_deadwood": 0, "defender_deadwood": 40},
        {"knocker": "Bob", "knocker_deadwood": 0, "defender_deadwood": 30},
    )
    published = run_cli("score", "--rules", "hollywood-gin", path)
    assert "hand 3: Bob gin 55; game 2\n" in published.out
    old = run_cli(
        "score", "--rules", "hollywood-gin", path, "--rule", "shutout_enters_next_game=false"
    )
    assert "hand 3: Bob gin 55; game none (games over)\n" in old.out


def test_score_sheet_errors_stay_one_line() -> None:
    with pytest.raises(MeldsatError, match=r"^hand 2: the knocker's deadwood 11"):
        score_sheet(get_rules("gin"), ["A", "B"], [HandResult("A", 1, 5), HandResult("B", 11, 5)])


def test_house_rules_in_score_and_simulate_match_their_schemas(run_cli: CliRunner) -> None:
    gin = ("score", "--rules", "gin", "examples/gin-hands.jsonl", "--json", *CLASSIC)
    deals = ("score", "--rules", "rummy500", "examples/rummy500-deals.jsonl", "--json")
    simulated = ("simulate", "--rules", "gin", "--games", "1", "--json", *CLASSIC)
    for args in (gin, (*deals, "--rule", "deal_pool=40"), simulated):
        answer = as_json(run_cli(*args))
        assert_matches(args[0], answer)
        assert answer["house_rules"]


def test_rules_marks_the_scoring_constants_a_house_rule_may_set(run_cli: CliRunner) -> None:
    shown = run_cli("rules", "gin", "--rule", "undercut_bonus=10").out
    scoring = next(line for line in shown.splitlines() if " scoring " in line)
    assert scoring.startswith("  * scoring")
    assert "*undercut_bonus=10, " in scoring and " games_at_once=1" in scoring
    assert "house rules: undercut_bonus=10" in shown
    rummikub = run_cli("rules", "rummikub").out
    assert "  * group_joker_either_missing   true\n" in rummikub
