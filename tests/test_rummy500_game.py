"""The 500 rummy game: its turn rules, whole games of every variant replayed, the hand-card rule."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from meldsat import Objective, best_play, check_move, get_rules, read_position
from meldsat.games.deck import full_deck
from meldsat.games.engine import IllegalTurnError
from meldsat.games.log import MemoryLog
from meldsat.games.replay import WrongTurnError, replay_events
from meldsat.games.rummy500 import Rummy500Game
from meldsat.games.simulate import simulate
from meldsat.notation import parse_pieces, parse_table


def _game(hands: list[str], stock: str, table: str = "") -> Rummy500Game:
    """A two-player deal with the hands and table given; the stock's last card is drawn first."""
    game = Rummy500Game(get_rules("rummy500", 2))
    game.start_round(1, 1, full_deck(game.rules))  # seat 0 (left of dealer 1) starts
    game.hands = [parse_pieces(hand) for hand in hands]
    game.stock = list(parse_pieces(stock))
    game.table = tuple(parse_table(table))
    return game


def test_draw_meld_and_discard() -> None:
    game = _game(["5H 6H KS 2C", "9D 9C"], "3D 7H")
    record = game.apply_turn({"table_after": [["5H", "6H", "7H"]], "discard": "KS"})
    assert record["drawn"] == ["7H"]
    assert record["laid_points"] == 18
    assert record["hand_left"] == ["2C"]
    assert game.discards == list(parse_pieces("KS"))
    assert not game.round_over


def test_a_turn_that_keeps_cards_must_discard() -> None:
    game = _game(["5H 6H KS 2C", "9D 9C"], "3D 7H")
    with pytest.raises(IllegalTurnError, match="must discard"):
        game.apply_turn({"table_after": None, "discard": None})


def test_every_new_meld_needs_a_hand_card() -> None:
    game = _game(["5C 5D QS", "9D 9C"], "3D KS", table="2H 3H 4H 5H 6H 7H 8H")
    after = [["2H", "3H", "4H"], ["5H", "5C", "5D"], ["6H", "7H", "8H"]]
    with pytest.raises(IllegalTurnError, match="meld_without_hand_card"):
        game.apply_turn({"table_after": after, "discard": "QS"})


def test_going_out_takes_the_pool() -> None:
    game = _game(["5H 6H KS", "9D 9C"], "3D 7H")
    record = game.apply_turn({"table_after": [["5H", "6H", "7H"]], "discard": "KS"})
    assert record["ends"] == "out"
    end = game.end_round()
    assert end["scores"] == [18 + 30, -18]
    assert end["pool_won"] == 30


def test_the_deal_ends_when_the_stock_runs_out() -> None:
    game = _game(["5H 6H KS", "9D 9C"], "7H")
    record = game.apply_turn({"table_after": None, "discard": "KS"})
    assert record["ends"] == "stock"
    end = game.end_round()
    # 5H 6H 7H = 18 against 9D 9C = 18: a tie, so the pool carries over and nobody takes it.
    assert end["winners"] == []
    assert end["pool_carried"] == 30


VARIANTS = ["rummy500", "rummy300", "rummy500-killer"]


@pytest.fixture(scope="module")
def logs() -> dict[str, list[dict[str, Any]]]:
    result = {}
    # Between them the three games seat every bot.
    seats = {
        "rummy500": ["greedy-points", "hoarder", "random"],
        "rummy300": ["greedy-cards", "knocker"],
        "rummy500-killer": ["random", "greedy-points", "hoarder", "greedy-cards"],
    }
    for rules in VARIANTS:
        log = MemoryLog()
        bots = seats[rules]
        simulate(rules, bots, 1, 5, log, time_limit=5.0, options={"max_deals": 2})
        result[rules] = log.events
    return result


@pytest.mark.parametrize("rules", VARIANTS)
def test_simulated_games_replay_clean(rules: str, logs: dict[str, list[dict[str, Any]]]) -> None:
    events = logs[rules]
    report = replay_events(enumerate(events, start=1))
    assert report.games == 1
    assert report.rounds == 2
    for event in events:
        if event["event"] == "round_end" and rules == "rummy500-killer":
            assert sum(1 for score in event["scores"] if score) <= 1


def test_a_tampered_500_log_is_refused(logs: dict[str, list[dict[str, Any]]]) -> None:
    events = copy.deepcopy(logs["rummy500"])
    turn = next(e for e in events if e["event"] == "turn" and e["laid_points"] > 0)
    turn["laid_points"] += 5
    with pytest.raises(WrongTurnError, match="'laid_points' is"):
        replay_events(enumerate(events, start=1))


def test_a_500_hint_never_lays_a_meld_without_a_hand_card() -> None:
    text = "table: 2H 3H 4H 5H 6H 7H 8H | 9S 10S JS\nhand: 5C 5D QS KS"
    manipulation = read_position(text, "manipulation")
    rummy500 = read_position(text, "rummy500")
    free = best_play(manipulation, Objective.POINTS)
    strict = best_play(rummy500, Objective.POINTS)
    # Manipulation splits the run round a new group 5H 5C 5D: two melds without a hand card.
    free_verdict = check_move(rummy500.table, rummy500.hand, free.table, rummy500.rules)
    assert free.found
    assert check_move(manipulation.table, manipulation.hand, free.table, manipulation.rules).legal
    assert [reason.code for reason in free_verdict.reasons] == ["meld_without_hand_card"] * 2
    # 500 rummy only extends the spade run, a meld that holds hand cards.
    assert strict.found
    assert check_move(rummy500.table, rummy500.hand, strict.table, rummy500.rules).legal
    assert [piece.text() for piece in strict.played] == ["QS", "KS"]
