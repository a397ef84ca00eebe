"""Rule-set presets: names, player counts, decks and jokers, card values, and the rule flags."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from meldsat import PRESETS, RULE_SET_NAMES, Card, Joker, RulesError, RuleSet, get_rules
from meldsat.cards import Notation
from meldsat.rules import HIGH_ACE, Scoring, rank_at

ALL_NAMES = (
    "manipulation",
    "rummikub",
    "gin",
    "oklahoma-gin",
    "hollywood-gin",
    "rummy500",
    "rummy300",
    "rummy500-killer",
)
GIN_NAMES = ("gin", "oklahoma-gin", "hollywood-gin")
RUMMY500_NAMES = ("rummy500", "rummy300", "rummy500-killer")

ACE, KING, QUEEN, JACK = 1, 13, 12, 11


def test_preset_names() -> None:
    assert set(PRESETS) == set(ALL_NAMES)
    assert set(RULE_SET_NAMES) == set(ALL_NAMES)
    for name, rules in PRESETS.items():
        assert rules.name == name


@pytest.mark.parametrize("name", ALL_NAMES)
def test_get_rules_by_name(name: str) -> None:
    assert get_rules(name) == PRESETS[name]
    assert get_rules(name.upper()) == PRESETS[name]
    assert get_rules(f"  {name} ") == PRESETS[name]


def test_default_is_manipulation() -> None:
    assert get_rules().name == "manipulation"


@pytest.mark.parametrize("name", ["rumikub", "", "gin rummy", "500"])
def test_unknown_rule_set(name: str) -> None:
    with pytest.raises(RulesError) as error:
        get_rules(name)
    message = str(error.value)
    assert f"'{name}'" in message
    assert "manipulation" in message and "rummikub" in message  # the choices are listed


@pytest.mark.parametrize(
    ("name", "low", "high"),
    [
        ("manipulation", 2, 5),
        ("rummikub", 2, 4),
        ("gin", 2, 2),
        ("oklahoma-gin", 2, 2),
        ("hollywood-gin", 2, 2),
        ("rummy500", 2, 6),
        ("rummy300", 2, 6),
        ("rummy500-killer", 2, 6),
    ],
)
def test_player_ranges(name: str, low: int, high: int) -> None:
    rules = get_rules(name)
    assert (rules.min_players, rules.max_players) == (low, high)
    for players in range(low, high + 1):
        assert get_rules(name, players).players == players
        assert rules.with_players(players).players == players
    for players in (low - 1, high + 1, 0, -1):
        with pytest.raises(RulesError) as error:
            rules.with_players(players)
        assert f"'{players}'" in str(error.value)
        assert f"{low}-{high}" in str(error.value)


@pytest.mark.parametrize(("players", "decks"), [(2, 1), (3, 2), (4, 2), (5, 2)])
def test_manipulation_decks_follow_players(players: int, decks: int) -> None:
    rules = get_rules("manipulation", players)
    assert rules.decks == decks
    assert rules.jokers == decks  # one joker per deck: 53 or 106 cards
    assert rules.copies == decks


def test_manipulation_back_to_two_decks() -> None:
    two = get_rules("manipulation", 2)
    assert two.with_players(3).decks == 2
    assert two.with_players(3).jokers == 2


@pytest.mark.parametrize("name", [n for n in ALL_NAMES if n != "manipulation"])
def test_other_games_keep_their_decks(name: str) -> None:
    rules = get_rules(name)
    for players in range(rules.min_players, rules.max_players + 1):
        changed = rules.with_players(players)
        assert (changed.decks, changed.jokers) == (rules.decks, rules.jokers)


@pytest.mark.parametrize(
    ("name", "decks", "jokers", "hand_size", "notation"),
    [
        ("manipulation", 2, 2, 10, Notation.CARDS),
        ("rummikub", 2, 2, 14, Notation.TILES),
        ("gin", 1, 0, 10, Notation.CARDS),
        ("oklahoma-gin", 1, 0, 10, Notation.CARDS),
        ("hollywood-gin", 1, 0, 10, Notation.CARDS),
        ("rummy500", 2, 2, 13, Notation.CARDS),
        ("rummy300", 2, 2, 13, Notation.CARDS),
        ("rummy500-killer", 2, 2, 13, Notation.CARDS),
    ],
)
def test_equipment(name: str, decks: int, jokers: int, hand_size: int, notation: Notation) -> None:
    rules = get_rules(name)
    assert (rules.decks, rules.jokers, rules.hand_size, rules.notation) == (
        decks,
        jokers,
        hand_size,
        notation,
    )


@pytest.mark.parametrize(
    ("name", "joker", "values"),
    [
        # values of: ace, 2, 10, jack, queen, king
        ("manipulation", 25, (1, 2, 10, 10, 10, 10)),
        ("rummikub", 30, (1, 2, 10, 11, 12, 13)),  # a tile counts its number
        ("gin", 0, (1, 2, 10, 10, 10, 10)),
        ("oklahoma-gin", 0, (1, 2, 10, 10, 10, 10)),
        ("hollywood-gin", 0, (1, 2, 10, 10, 10, 10)),
        ("rummy500", 15, (15, 2, 10, 10, 10, 10)),
        ("rummy300", 15, (15, 2, 10, 10, 10, 10)),
        ("rummy500-killer", 15, (15, 2, 10, 10, 10, 10)),
    ],
)
def test_values(name: str, joker: int, values: tuple[int, ...]) -> None:
    rules = get_rules(name)
    assert rules.joker_value == joker
    assert rules.value(Joker()) == joker
    assert rules.value(Joker(Card(KING, 0))) == joker  # whatever it declares
    for rank, expected in zip((ACE, 2, 10, JACK, QUEEN, KING), values, strict=True):
        assert rules.value(Card(rank, 1)) == expected
        assert rules.card_value(Card(rank, 3)) == expected
    for rank in range(3, 10):
        assert rules.card_value(Card(rank, 2)) == rank


def test_rummy500_ace_melded_low_counts_one() -> None:
    for name in RUMMY500_NAMES:
        assert get_rules(name).ace_low_meld_value == 1
    for name in ("manipulation", "rummikub", *GIN_NAMES):
        assert get_rules(name).ace_low_meld_value is None


@pytest.mark.parametrize(
    ("name", "ace_low", "ace_high"),
    [
        ("manipulation", True, True),
        ("rummikub", True, False),
        ("gin", True, False),
        ("oklahoma-gin", True, False),
        ("hollywood-gin", True, False),
        ("rummy500", True, True),
        ("rummy300", True, True),
        ("rummy500-killer", True, True),
    ],
)
def test_ace_and_meld_sizes(name: str, ace_low: bool, ace_high: bool) -> None:
    rules = get_rules(name)
    assert (rules.ace_low, rules.ace_high) == (ace_low, ace_high)
    assert rules.wrap_around is False  # no game here turns the corner
    assert (rules.group_min, rules.group_max, rules.run_min) == (3, 4, 3)


def test_turn_rules() -> None:
    manipulation = get_rules("manipulation")
    assert manipulation.knock_limit == 5
    assert manipulation.draws_before_meld_forbidden == 3
    assert manipulation.table_rearrangement
    assert manipulation.initial_meld_points == 0
    assert not manipulation.new_meld_needs_hand_card

    rummikub = get_rules("rummikub")
    assert rummikub.initial_meld_points == 30
    assert rummikub.table_rearrangement
    assert rummikub.knock_limit is None

    for name in GIN_NAMES:
        gin = get_rules(name)
        assert gin.knock_limit == 10
        assert not gin.table_rearrangement
        assert gin.knock_limit_from_upcard == (name == "oklahoma-gin")

    for name in RUMMY500_NAMES:
        rummy = get_rules(name)
        assert rummy.new_meld_needs_hand_card
        assert rummy.table_rearrangement
        assert rummy.knock_limit is None


def test_scoring_constants() -> None:
    manipulation = get_rules("manipulation").scoring
    assert manipulation.game_target == 150
    assert manipulation.undercut_bonus == 10
    assert manipulation.going_out_bonus == 25
    assert manipulation.game_bonus == 100
    assert manipulation.round_win_bonus == 25
    assert not manipulation.round_win_bonus_for_everyone

    gin = get_rules("gin").scoring
    assert (gin.game_target, gin.undercut_bonus, gin.gin_bonus, gin.big_gin_bonus) == (
        100,
        25,
        25,
        31,
    )
    assert (gin.game_bonus, gin.round_win_bonus, gin.shutout_doubles) == (100, 25, True)
    assert gin.games_at_once == 1
    oklahoma = get_rules("oklahoma-gin").scoring
    assert oklahoma.game_target == 150
    assert oklahoma.spade_upcard_doubles
    assert not gin.spade_upcard_doubles
    assert get_rules("hollywood-gin").scoring.games_at_once == 3

    for name, target, pool, killer in [
        ("rummy500", 500, 30, False),
        ("rummy300", 300, 30, False),
        ("rummy500-killer", 500, 0, True),
    ]:
        scoring = get_rules(name).scoring
        assert scoring.game_target == target
        assert scoring.deal_pool == pool
        assert scoring.only_deal_winner_scores == killer
        assert scoring.rounds_per_deal == 10


def test_rule_sets_are_immutable_and_options_are_one_replace_away() -> None:
    rules = get_rules("manipulation")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.knock_limit = 10  # type: ignore[misc]
    house = dataclasses.replace(rules, wrap_around=True)
    assert house.wrap_around and not rules.wrap_around
    assert get_rules("manipulation") == rules  # the preset is untouched


def test_rules_document_names_every_preset_and_field() -> None:
    """docs/RULES.md must keep up with the code: every preset and every option is named in it."""
    text = (Path(__file__).parent.parent / "docs" / "RULES.md").read_text(encoding="utf-8")
    for name in PRESETS:
        assert f"(`{name}`)" in text, name
    fields = [f.name for f in dataclasses.fields(RuleSet)]
    fields += [f.name for f in dataclasses.fields(Scoring)]
    for field_name in fields:
        if field_name not in {"name", "scoring"}:
            assert f"`{field_name}" in text, field_name


def test_sequence_positions_put_the_high_ace_at_14() -> None:
    assert get_rules("manipulation").sequence_positions == range(1, HIGH_ACE + 1)
    assert get_rules("rummikub").sequence_positions == range(1, 14)  # the 1 is low only
    assert dataclasses.replace(get_rules("gin"), ace_low=False).sequence_positions == range(2, 14)
    assert [rank_at(position) for position in (1, 13, HIGH_ACE)] == [1, 13, 1]
    assert get_rules("manipulation").longest_sequence == 14
    assert get_rules("rummikub").longest_sequence == 13
