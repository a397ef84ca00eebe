"""The ``patient`` shared-table bot: its decisions on constructed positions, and a short seeded
game of each family played legally and the same way twice (its strength is measured in
benchmarks/, not here)."""

from __future__ import annotations

import random

import pytest

from meldsat.games.agents import TurnView
from meldsat.games.bots import make_bot
from meldsat.games.log import MemoryLog
from meldsat.games.simulate import simulate
from meldsat.games.table_patient import PatientBot
from meldsat.notation import parse_pieces
from meldsat.rulesets import get_rules


def patient() -> PatientBot:
    bot = make_bot("patient", random.Random(3), time_limit=2.0)
    assert isinstance(bot, PatientBot)
    return bot


def test_in_manipulation_it_melds_only_to_win_or_on_its_last_turn() -> None:
    rules = get_rules("manipulation")
    bot = patient()
    hand = parse_pieces("5H 6H 7H KS QD")  # the run leaves 20 points: no knock
    # The stock nearly gone does not make it lay down (hoarder would), only its last turn does.
    assert bot.choose_meld(TurnView(rules, 0, (), hand, 1, 2, False, (5, 26, 26, 26))) is None
    last = bot.choose_meld(TurnView(rules, 0, (), hand, 0, 0, True, (5, 26, 26, 26)))
    assert last is not None and sorted(map(str, last[0])) == ["5H", "6H", "7H"]
    # A play that reaches the knock limit is made at once, and it knocks.
    low = parse_pieces("5H 6H 7H 2C 3S")
    assert bot.choose_meld(TurnView(rules, 0, (), low, 1, 40, False, (5, 10, 10, 10)))
    assert bot.wants_knock(TurnView(rules, 0, (), parse_pieces("2C 3S"), 1, 40, False, (2,) * 4))


def test_in_500_it_holds_its_melds_until_an_opponent_is_nearly_out() -> None:
    rules = get_rules("rummy500")
    bot = patient()
    hand = parse_pieces("5H 6H 7H KS QD 9C")
    assert bot.choose_meld(TurnView(rules, 0, (), hand, 1, 30, False, (6, 9, 4, 7))) is None
    caught = bot.choose_meld(TurnView(rules, 0, (), hand, 1, 30, False, (6, 9, 3, 7)))
    assert caught is not None and sorted(map(str, caught[0])) == ["5H", "6H", "7H"]
    # A play that leaves one card (the discard) goes out whatever the others hold.
    out = parse_pieces("5H 6H 7H KS")
    assert bot.choose_meld(TurnView(rules, 0, (), out, 1, 30, False, (4, 9, 8, 7)))


def test_in_500_it_discards_the_lowest_card_it_cannot_meld() -> None:
    rules = get_rules("rummy500")
    bot = patient()
    # 2H-3H-4H melds (kept though low); KS KD are a pair (kept); 5C and AD are loose: 5C goes.
    hand = parse_pieces("2H 3H 4H KS KD 5C AD")
    assert str(bot.choose_discard(TurnView(rules, 0, (), hand, 1, 30, False, (7,) * 4))) == "5C"


@pytest.mark.parametrize("rules", ["manipulation", "rummy500"])
def test_a_seeded_game_is_legal_and_plays_the_same_twice(rules: str) -> None:
    other = "hoarder" if rules == "manipulation" else "greedy-points"
    bots = ["patient", other, other]
    first, second = MemoryLog(), MemoryLog()
    # The game re-checks every play with the rule checker and stops on an illegal one.
    one = simulate(rules, bots, 1, 5, first, time_limit=2.0)
    two = simulate(rules, bots, 1, 5, second, time_limit=2.0)
    assert first.events == second.events
    assert [seat.wins for seat in one.seats] == [seat.wins for seat in two.seats]
