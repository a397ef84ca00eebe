"""The ``rollout`` shared-table bot: its play-outs' bookkeeping, its decisions on constructed
positions, and a short seeded game played legally and the same way twice (its strength is
measured in benchmarks/, not here)."""

from __future__ import annotations

import random

from meldsat.cards import count_pieces
from meldsat.games.agents import TurnView
from meldsat.games.bots import make_bot
from meldsat.games.deck import full_deck
from meldsat.games.log import MemoryLog
from meldsat.games.simulate import simulate
from meldsat.games.table_rollout import RolloutBot, RoundState
from meldsat.notation import parse_pieces
from meldsat.rulesets import get_rules


def rollout() -> RolloutBot:
    bot = make_bot("rollout", random.Random(3), time_limit=2.0)
    assert isinstance(bot, RolloutBot)
    return bot


def test_far_from_the_end_it_plays_as_patient_without_play_outs() -> None:
    rules = get_rules("manipulation")
    bot = rollout()
    hand = parse_pieces("5H 6H 7H KS QD")
    assert bot.choose_meld(TurnView(rules, 0, (), hand, 1, 40, False, (5, 26, 26, 26))) is None
    assert bot.decisions == 0


def test_a_play_that_wins_is_made_at_once() -> None:
    rules = get_rules("manipulation")
    bot = rollout()
    low = parse_pieces("5H 6H 7H 2C 3S")
    assert bot.choose_meld(TurnView(rules, 0, (), low, 1, 3, False, (5, 10, 10, 10)))
    assert bot.decisions == 0


def test_near_the_end_it_weighs_its_options_and_answers_one_of_them() -> None:
    rules = get_rules("manipulation")
    bot = rollout()
    hand = parse_pieces("5H 6H 7H KS QD 9C 9D 9H 2S")
    view = TurnView(rules, 0, (), hand, 1, 5, False, (9, 20, 20, 20))
    choice = bot.choose_meld(view)
    assert bot.decisions == 1
    if choice is not None:  # a meld of its own cards, every one of them legal on the table
        assert count_pieces(piece for meld in choice for piece in meld) <= count_pieces(hand)


def test_a_deal_gives_the_unseen_cards_to_the_public_hand_sizes_and_the_stock() -> None:
    rules = get_rules("manipulation")
    bot = rollout()
    table = (parse_pieces("8C 8D 8S"),)
    hand = parse_pieces("5H 6H 7H KS")
    view = TurnView(rules, 1, table, hand, 1, 6, False, (20, 4, 30, 25))
    hands, stock = bot.deal(view)
    assert [len(held) for held in hands] == [20, 0, 30, 25]
    assert len(stock) == 6
    dealt = count_pieces([*stock, *hand, *table[0]] + [piece for held in hands for piece in held])
    assert dealt <= count_pieces(full_deck(rules))
    assert sum(dealt.values()) == 20 + 30 + 25 + 6 + 4 + 3


def test_a_round_state_knocks_goes_out_and_counts_the_final_turns() -> None:
    rules = get_rules("manipulation")
    hands = [list(parse_pieces("2C 3S")), list(parse_pieces("KS")), [], list(parse_pieces("QD"))]
    state = RoundState(rules, 0, hands, (), [])
    assert state.end_turn(0) and state.knocker == 0
    assert state.share() == 0.0  # seat 2 went out with nothing left: the knocker lost
    state = RoundState(rules, 1, [list(parse_pieces("KS QD")) for _ in range(3)], (), [])
    assert not state.end_turn(0) and state.final_turns == 3  # the stock ran out
    assert not state.end_turn(1) and not state.end_turn(2) and state.end_turn(0)
    assert state.share() == 1 / 3  # a three-way tie


def test_a_seeded_game_is_legal_and_plays_the_same_twice() -> None:
    bots = ["rollout", "hoarder", "hoarder", "hoarder"]
    first, second = MemoryLog(), MemoryLog()
    # The game re-checks every play with the rule checker and stops on an illegal one.
    one = simulate("manipulation", bots, 1, 5, first, time_limit=2.0)
    two = simulate("manipulation", bots, 1, 5, second, time_limit=2.0)
    assert first.events == second.events
    assert [seat.wins for seat in one.seats] == [seat.wins for seat in two.seats]
