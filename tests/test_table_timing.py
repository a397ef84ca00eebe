"""Timing the end of a Manipulation round (games/table_timing.py): who lays down first, when to
stop drawing, the small meld that stops it, and ``patient`` playing it on a constructed position
and in a short seeded game (its strength is measured in benchmarks/, not here)."""

from __future__ import annotations

import random

from meldsat.games.agents import TurnView
from meldsat.games.bots import make_bot
from meldsat.games.table_patient import PatientBot
from meldsat.games.table_timing import first_to_lay_down, lays_down, small_meld, stop_drawing
from meldsat.notation import Table, parse_pieces
from meldsat.rulesets import get_rules
from tests.conftest import simulated_twice

RULES = get_rules("manipulation")  # 4 players, melding after the first or second draw only
HAND = parse_pieces("KS KH KD 2C 3C 4C 9H JS 5D 8S")


def view(start: int, draws: int, table: Table = ()) -> TurnView:
    """Seat 0 holding HAND, ``draws`` cards into a turn that started with ``start`` in stock."""
    return TurnView(RULES, 0, table, HAND, draws, start - draws, False, (10, 22, 22, 22))


def test_an_opponent_lays_down_once_a_draw_that_may_meld_leaves_four_cards_or_fewer() -> None:
    assert [lays_down(stock, 4, 3) for stock in (7, 6, 5, 1, 0)] == [False, True, True, True, True]


def test_who_lays_down_first_follows_from_the_stock() -> None:
    # From 12 the next players draw 3 each: 12, 9, then 6 lays down, the seat just before ours.
    assert first_to_lay_down(12, 4, 3, []) == 3
    # Drawing one card fewer first (13): 13, 10, 7 (no), we draw 3 from 4, then 1 lays down.
    assert first_to_lay_down(13, 4, 3, []) == 1
    assert first_to_lay_down(9, 4, 3, []) == 2
    assert first_to_lay_down(3, 4, 3, []) == 1
    # Our own planned draws count: from 24 (24, 21, 18, then us at 15) as from 12 in full, but
    # drawing 2 there gives 13 for the next player, as above.
    assert first_to_lay_down(24, 4, 3, [3]) == 3
    assert first_to_lay_down(24, 4, 3, [2]) == 1


def test_it_stops_drawing_only_at_the_last_turn_that_can_fix_a_bad_seat() -> None:
    # Starting at 19, drawing in full seats it after the next player (it would act fourth in
    # the lay-downs): stop after two draws, not one (the second draw can still fix it).
    assert stop_drawing(view(19, 2))
    assert not stop_drawing(view(19, 1))
    assert stop_drawing(view(18, 1))  # from 18 it stops after the first draw
    assert not stop_drawing(view(27, 2))  # next turn can fix it too, with no meld on the table yet
    assert not stop_drawing(view(22, 1)) and not stop_drawing(view(22, 2))  # already well seated
    # From 15 in full the seat just before it lays down first: that costs more than a small
    # meld and the next player's seat, so it stops after two draws (13 for the next player).
    assert not stop_drawing(view(15, 1)) and stop_drawing(view(15, 2))


def test_the_small_meld_is_a_group_of_three_real_cards_when_there_is_one() -> None:
    assert sorted(map(str, small_meld(view(15, 2)) or ())) == ["KD", "KH", "KS"]
    runs_only = TurnView(RULES, 0, (), parse_pieces("2C 3C 4C 9H *"), 2, 13, False, (5,) * 4)
    assert sorted(map(str, small_meld(runs_only) or ())) == ["2C", "3C", "4C"]
    assert (
        small_meld(TurnView(RULES, 0, (), parse_pieces("2C 9H *"), 2, 13, False, (3,) * 4)) is None
    )


def test_patient_lays_the_small_meld_until_someone_else_melds() -> None:
    bot = make_bot("patient", random.Random(3), time_limit=2.0)
    assert isinstance(bot, PatientBot)
    table = bot.choose_meld(view(19, 2))
    assert table is not None and sorted(map(str, table[0])) == ["KD", "KH", "KS"]
    # An opponent's meld on the table ends the timing: it holds, as patient always did.
    foreign = (tuple(parse_pieces("5H 6H 7H")),)
    assert bot.choose_meld(view(19, 2, foreign)) is None


def test_a_seeded_four_player_game_lays_the_small_meld_legally_and_the_same_twice() -> None:
    bots = ["patient", "hoarder", "hoarder", "hoarder"]
    first, second = simulated_twice("manipulation", bots, 1, 7)
    assert first == second
    small = [
        event
        for event in first
        if event["event"] == "turn" and event["seat"] == 0 and event["draws"] in (1, 2)
    ]
    # Seed 7 seats patient badly: it stops after its first draw twice, with three sixes, then
    # three eights.
    expected = [(["6S", "6H", "6C"], 1), (["8S", "8H", "8D"], 1)]
    assert [(event["played"], event["draws"]) for event in small] == expected
