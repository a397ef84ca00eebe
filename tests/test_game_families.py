"""Every registered game family with a game, run end to end from the registry alone.

The cases come from ``meldsat.games.registry.FAMILIES``, so a new family is tested here without
editing this file: every bot of the family plays a whole game that is scored and replays clean,
every rule set deals, plays and scores a round, every turn decision is a frozen dataclass of
pieces (text is only for the log), and a house rule reaches the game, its log and its replay.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
from itertools import cycle, islice
from typing import Any

import pytest

from meldsat.cards import Card, Joker
from meldsat.games.deck import seeded_rng
from meldsat.games.engine import (
    first_dealer,
    game_header,
    leading_seats,
    play_game,
    round_deck,
)
from meldsat.games.family import GameFamily
from meldsat.games.log import Event, MemoryLog
from meldsat.games.registry import FAMILIES, new_agent, new_game
from meldsat.games.replay import ReplayReport, WrongTurnError, replay_events
from meldsat.rulesets import get_rules

GAME_FAMILIES = [family for family in FAMILIES if family.game is not None]
FAMILY_BOTS = [
    pytest.param(family, bot, id=f"{family.name}-{bot}")
    for family in GAME_FAMILIES
    for bot in family.bots.names
]
RULE_SETS = [
    pytest.param(family, rules, id=rules) for family in GAME_FAMILIES for rules in family.rule_sets
]
TIME_LIMIT = 5.0


def _agents(rules: str, bots: list[str], seed: int) -> list[Any]:
    return [
        new_agent(rules, bot, seeded_rng(seed, 1, "bot", seat), TIME_LIMIT)
        for seat, bot in enumerate(bots)
    ]


def _replay(events: list[Event]) -> ReplayReport:
    return replay_events(enumerate(events, start=1))


def _of(events: list[Event], kind: str) -> list[Event]:
    return [event for event in events if event["event"] == kind]


def test_there_are_families_with_games_and_every_one_has_bots() -> None:
    assert GAME_FAMILIES
    assert all(family.bots.bots for family in GAME_FAMILIES)


@pytest.mark.parametrize(("family", "bot"), FAMILY_BOTS)
def test_every_bot_plays_a_whole_game_that_is_scored_and_replays(
    family: GameFamily, bot: str
) -> None:
    rules = family.rule_sets[0]
    # The bot against the family's first bot, in the fewest seats the rules allow.
    players = get_rules(rules).min_players
    seats = list(islice(cycle([bot, family.bots.names[0]]), players))
    log = MemoryLog()
    result = play_game(new_game(rules, players), _agents(rules, seats, 3), seats, seed=3, log=log)
    events = log.events
    turns = _of(events, "turn")
    assert {turn["seat"] for turn in turns} == set(range(players))  # every seat moved
    for end in _of(events, "round_end"):
        assert len(end["scores"]) == len(end["totals"]) == players
        assert set(end["winners"]) <= set(range(players))
    assert result == {
        key: value for key, value in events[-1].items() if key not in ("event", "game")
    }
    assert tuple(result["winners"]) == leading_seats(result["totals"])
    report = _replay(events)
    assert (report.games, report.rounds, report.turns) == (
        1,
        len(_of(events, "round_end")),
        len(turns),
    )
    assert report.incomplete_game is None


class _RoundOverError(Exception):
    """Stops a game after its first round."""


class _FirstRoundLog(MemoryLog):
    """Keeps the events up to the end of the first round, then stops the game."""

    def write(self, event: Event) -> None:
        super().write(event)
        if event["event"] == "round_end":
            raise _RoundOverError


@pytest.mark.parametrize(("family", "rules"), RULE_SETS)
def test_every_rule_set_deals_plays_scores_and_replays_a_round(
    family: GameFamily, rules: str
) -> None:
    preset = get_rules(rules)
    # As many of the family's bots as the table seats (at least the fewest it plays with).
    players = min(max(len(family.bots.bots), preset.min_players), preset.max_players)
    seats = list(islice(cycle(family.bots.names), players))
    log = _FirstRoundLog()
    with pytest.raises(_RoundOverError):
        play_game(new_game(rules, players), _agents(rules, seats, 8), seats, seed=8, log=log)
    events = log.events
    assert [event["event"] for event in events[:2]] == ["game", "deal"]
    assert events[0]["rules"] == rules and events[0]["seats"] == seats
    (end,) = _of(events, "round_end")
    assert end["totals"] == end["scores"]  # the first round's scores are the totals so far
    report = _replay(events)
    assert (report.rounds, report.turns, report.incomplete_game) == (
        1,
        len(_of(events, "turn")),
        1,
    )
    tampered = copy.deepcopy(events)
    first_turn = _of(tampered, "turn")[0]
    first_turn["seat"] = (first_turn["seat"] + 1) % players
    with pytest.raises(WrongTurnError, match="played, but it was seat"):
        _replay(tampered)


def _only_pieces(value: object) -> bool:
    """True for a decision's values: pieces, numbers, flags, enums, ``None``, tuples of them."""
    if isinstance(value, tuple):
        return all(_only_pieces(item) for item in value)
    if isinstance(value, enum.Enum):
        return True
    return value is None or isinstance(value, bool | int | Card | Joker)


@pytest.mark.parametrize(("family", "bot"), FAMILY_BOTS)
def test_turn_decisions_are_frozen_dataclasses_of_pieces(family: GameFamily, bot: str) -> None:
    rules = family.rule_sets[0]
    players = get_rules(rules).min_players
    game = new_game(rules, players)
    agents = _agents(rules, [bot] * players, 5)
    game.start_round(1, first_dealer(5, 1, players), round_deck(game, 5, 1, 1))
    for _ in range(6):
        if game.round_over:
            break
        decision = game.choose_turn(agents[game.to_move])
        assert dataclasses.is_dataclass(decision)
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(decision, dataclasses.fields(decision)[0].name, None)
        values = [getattr(decision, field.name) for field in dataclasses.fields(decision)]
        assert all(_only_pieces(value) for value in values), decision
        game.play_turn(decision)


@pytest.mark.parametrize("family", GAME_FAMILIES, ids=lambda family: family.name)
def test_house_rules_reach_the_game_its_log_and_its_replay(family: GameFamily) -> None:
    rules = family.rule_sets[0]
    players = get_rules(rules).min_players
    seats = [family.bots.names[0]] * players
    game = new_game(rules, players, house={"game_target": "1"})
    assert game.rules.scoring.game_target == 1
    log = MemoryLog()
    result = play_game(game, _agents(rules, seats, 4), seats, seed=4, log=log)
    events = log.events
    assert events[0]["house_rules"] == {"game_target": 1}
    assert max(result["totals"]) >= 1  # the game ended at the house rule's target
    assert _replay(events).incomplete_game is None
    # Without its house rules the log is another game, and replay says so.
    plain = copy.deepcopy(events)
    del plain[0]["house_rules"]
    with pytest.raises(WrongTurnError):
        _replay(plain)
    assert "house_rules" not in game_header(new_game(rules, players), 1, seats, 4)
