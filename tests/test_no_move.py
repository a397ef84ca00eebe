"""The shortcut of ``meldsat.engine.no_move``: a position it says has no move is one the solver
proves infeasible (the shortcut is a proof, never a guess), and it does decide some positions."""

from __future__ import annotations

from hypothesis import given, settings

from meldsat.cards import parse_piece
from meldsat.engine.no_move import has_no_move
from meldsat.engine.search import solving_model
from meldsat.play import Objective
from meldsat.position import Position
from meldsat.rulesets import get_rules
from tests.strategies import GAMES, MORE_GAMES, positions


@settings(max_examples=150, deadline=None)
@given(positions(games=GAMES + MORE_GAMES, max_pieces=16, max_hand=8))
def test_no_move_is_what_the_solver_proves(position: Position) -> None:
    if has_no_move(position):
        for objective in Objective:
            for play_all in (False, True):
                model = solving_model(position, objective, play_all=play_all)
                assert model.solve(None).status == "INFEASIBLE"


def _position(game: str, table: list[str], hand: str) -> Position:
    rules = get_rules(game, 4)
    melds = [[parse_piece(token, rules.notation) for token in meld.split()] for meld in table]
    return Position.build(rules, melds, [parse_piece(t, rules.notation) for t in hand.split()])


def test_lone_cards_have_no_move_and_a_fitting_card_may() -> None:
    table = ["2S 3S 4S", "9H 9D 9C"]
    assert has_no_move(_position("manipulation", table, "7D QH"))
    assert not has_no_move(_position("manipulation", table, "7D 5S"))  # 2S-5S
    assert not has_no_move(_position("manipulation", table, "7D *"))  # a joker fits anywhere
    assert not has_no_move(_position("manipulation", table, "7D 7H 7S"))  # a group of its own
