"""The ``shedder`` shared-table bot: when it sheds its hand in Manipulation (constructed
positions), and a short seeded game played legally and the same way twice (its strength is
measured in benchmarks/, not here)."""

from __future__ import annotations

import random

from meldsat.games.agents import TurnView
from meldsat.games.bots import make_bot
from meldsat.games.log import MemoryLog
from meldsat.games.simulate import simulate
from meldsat.games.table_patient import PatientBot
from meldsat.games.table_shedder import ShedderBot
from meldsat.notation import parse_pieces
from meldsat.rulesets import get_rules

RULES = get_rules("manipulation")
# Another player's meld on the table; the run 5H-6H-7H leaves 20 points in hand: no knock.
TABLE = (parse_pieces("9C 9D 9S"),)
HAND = parse_pieces("5H 6H 7H KS QD")
SIZES = (5, 10, 10, 10)


def shedder() -> ShedderBot:
    bot = make_bot("shedder", random.Random(3), time_limit=2.0)
    assert isinstance(bot, ShedderBot)
    return bot


def test_it_sheds_the_most_points_at_its_last_draw_once_others_have_melded() -> None:
    bot = shedder()
    after = bot.choose_meld(TurnView(RULES, 0, TABLE, HAND, 2, 2, False, SIZES))
    assert after is not None
    assert sorted(sorted(map(str, meld)) for meld in after) == [
        ["5H", "6H", "7H"],
        ["9C", "9D", "9S"],
    ]
    # The draw that empties the stock is the last one too, even the first of the turn.
    assert bot.choose_meld(TurnView(RULES, 0, TABLE, HAND, 1, 0, False, SIZES)) is not None
    # patient holds the same hand on the same table.
    patient = make_bot("patient", random.Random(3), time_limit=2.0)
    assert isinstance(patient, PatientBot)
    assert patient.choose_meld(TurnView(RULES, 0, TABLE, HAND, 2, 2, False, SIZES)) is None


def test_it_holds_before_its_last_draw_with_the_stock_high_or_nobody_else_down() -> None:
    bot = shedder()
    # A draw left after this one: it draws it first.
    assert bot.choose_meld(TurnView(RULES, 0, TABLE, HAND, 1, 3, False, SIZES)) is None
    # The stock is not nearly gone (more than one card a player).
    assert bot.choose_meld(TurnView(RULES, 0, TABLE, HAND, 2, 5, False, SIZES)) is None
    # Nobody has melded: laying down first would feed the others.
    assert bot.choose_meld(TurnView(RULES, 0, (), HAND, 2, 2, False, SIZES)) is None
    # Five players: it plays as patient (shedding measured worse there).
    five = (5, 10, 10, 10, 10)
    assert bot.choose_meld(TurnView(RULES, 0, TABLE, HAND, 2, 2, False, five)) is None


def test_a_seeded_game_is_legal_and_plays_the_same_twice() -> None:
    bots = ["shedder", "hoarder", "hoarder", "hoarder"]
    first, second = MemoryLog(), MemoryLog()
    # The game re-checks every play with the rule checker and stops on an illegal one.
    one = simulate("manipulation", bots, 1, 5, first, time_limit=2.0)
    two = simulate("manipulation", bots, 1, 5, second, time_limit=2.0)
    assert first.events == second.events
    assert [seat.wins for seat in one.seats] == [seat.wins for seat in two.seats]
