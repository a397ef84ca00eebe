"""Manipulation Rummy turns: draws, melding, knocking, going out, the stock running out."""

from __future__ import annotations

import pytest

from meldsat.games.deck import full_deck
from meldsat.games.engine import IllegalTurnError
from meldsat.games.manipulation import ManipulationGame
from meldsat.notation import parse_pieces
from meldsat.rulesets import get_rules


def _game(hands: list[str], stock: str) -> ManipulationGame:
    """A two-player round with the hands given and ``stock`` (its last card is drawn first)."""
    game = ManipulationGame(get_rules("manipulation", 2))
    game.start_round(1, 1, full_deck(game.rules))  # seat 0 (left of dealer 1) starts
    game.hands = [parse_pieces(hand) for hand in hands]
    game.stock = list(parse_pieces(stock))
    return game


def test_a_meld_after_the_first_draw() -> None:
    game = _game(["5H 6H KS", "2C 3C 9D"], "2S 7H")
    record = game.apply_turn({"draws": 1, "table_after": [["5H", "6H", "7H"]], "knock": False})
    assert record["drawn"] == ["7H"]
    assert record["played"] == ["5H", "6H", "7H"]
    assert record["hand_left"] == ["KS"]
    assert record["hand_points"] == 10
    assert record["ends"] is None
    assert game.to_move == 1


def test_without_a_meld_the_turn_draws_three_cards() -> None:
    game = _game(["5H 6H KS", "2C 3C 9D"], "4D 3D 2S 7H")
    with pytest.raises(IllegalTurnError, match="drew 1 card: this turn draws 3"):
        game.apply_turn({"draws": 1, "table_after": None, "knock": False})
    record = game.apply_turn({"draws": 3, "table_after": None, "knock": False})
    assert record["drawn"] == ["2S", "3D", "7H"]
    assert game.stock == list(parse_pieces("4D"))


def test_no_meld_after_the_third_draw() -> None:
    game = _game(["5H 6H KS", "2C 3C 9D"], "7H 2S 3D")
    after = [["5H", "6H", "7H"]]
    with pytest.raises(IllegalTurnError, match="melded_after_third_draw"):
        game.apply_turn({"draws": 3, "table_after": after, "knock": False})


def test_an_illegal_meld_is_refused_with_its_reasons() -> None:
    game = _game(["5H 6H KS", "2C 3C 9D"], "2S 7H")
    with pytest.raises(IllegalTurnError, match="illegal_meld"):
        game.apply_turn({"draws": 1, "table_after": [["5H", "6H", "KS"]], "knock": False})


def test_going_out_ends_the_round_with_the_bonus() -> None:
    game = _game(["5H 6H", "2C 3C 9D"], "2S 7H")
    record = game.apply_turn({"draws": 1, "table_after": [["5H", "6H", "7H"]], "knock": False})
    assert record["ends"] == "out"
    assert game.round_over
    end = game.end_round()
    assert end["scores"] == [14 + 25, 0]
    assert end["went_out"] == 0


def test_knocking_with_five_points_or_less() -> None:
    game = _game(["AS 2C 5H 6H", "2D 3C 9D"], "2S 7H")
    after = [["5H", "6H", "7H"]]
    record = game.apply_turn({"draws": 1, "table_after": after, "knock": True})
    assert record["ends"] == "knock"
    end = game.end_round()
    assert end["knocker"] == 0
    assert end["scores"] == [14 - 3, 0]


def test_when_the_stock_runs_out_everyone_takes_one_more_turn() -> None:
    game = _game(["5H 6H KS", "2C 3C 9D"], "QD")
    first = game.apply_turn({"draws": 1, "table_after": None, "knock": False})
    assert first["drawn"] == ["QD"]
    assert not game.round_over
    with pytest.raises(IllegalTurnError, match="this turn draws 0"):
        game.apply_turn({"draws": 1, "table_after": None, "knock": False})
    game.apply_turn({"draws": 0, "table_after": None, "knock": False})
    last = game.apply_turn({"draws": 0, "table_after": None, "knock": False})
    assert last["ends"] == "stock"
    end = game.end_round()
    # 5H 6H KS QD = 31 against 2C 3C 9D = 14: seat 1 wins the difference, no knock, no bonus.
    assert end["scores"] == [0, 17]
