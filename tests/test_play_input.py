"""The terminal game's command parser: one-word commands and changes to the table, meld by meld."""

from __future__ import annotations

import re

import pytest

from meldsat.errors import NotationError
from meldsat.games.play_input import (
    Change,
    Word,
    apply_changes,
    read_changes,
    read_word,
    table_after_play,
)
from meldsat.games.records import canonical_table
from meldsat.notation import parse_pieces, parse_table
from meldsat.rulesets import get_rules

RULES = get_rules("manipulation")
BEFORE = tuple(parse_table("7S 8S 9S | 4D 4C 4H | *=JH QH KH"))


@pytest.mark.parametrize(
    ("typed", "word"),
    [
        ("t", Word.TAKE),
        (" T ", Word.TAKE),
        ("h", Word.HINT),
        ("hint", Word.HINT),
        ("d", Word.DRAW),
        ("", Word.PLAY),
        ("u", Word.UNDO),
        ("r", Word.RESET),
        ("?", Word.HELP),
        ("q", Word.QUIT),
        ("3+ 8D", None),
        ("QH KH AH", None),
    ],
)
def test_one_word_commands(typed: str, word: Word | None) -> None:
    assert read_word(typed) is word


@pytest.mark.parametrize(
    ("typed", "table"),
    [
        ("1+ 10S", "7S 8S 9S 10S | 4D 4C 4H | *=JH QH KH"),
        ("1: 10S JS", "7S 8S 9S 10S JS | 4D 4C 4H | *=JH QH KH"),
        ("2- 4H, n 4H 5H 6H", "7S 8S 9S | 4D 4C | *=JH QH KH | 4H 5H 6H"),
        ("3= QH KH *=AH, new JH JD JC", "7S 8S 9S | 4D 4C 4H | QH KH *=AH | JH JD JC"),
        ("QD KD AD", "7S 8S 9S | 4D 4C 4H | *=JH QH KH | QD KD AD"),
        ("n qd kd ad", "7S 8S 9S | 4D 4C 4H | *=JH QH KH | QD KD AD"),
        ("10S JS QS", "7S 8S 9S | 4D 4C 4H | *=JH QH KH | 10S JS QS"),
        ("table: 7S 8S | 9S 9H 9D", "7S 8S | 9S 9H 9D"),
        ("3- *, 1+ *=10S", "7S 8S 9S *=10S | 4D 4C 4H | QH KH"),
    ],
)
def test_changes_meld_by_meld(typed: str, table: str) -> None:
    after = table_after_play(typed, BEFORE, RULES)
    assert canonical_table(after, RULES) == canonical_table(parse_table(table), RULES)


def test_a_meld_emptied_leaves_the_table_at_the_end_of_the_line() -> None:
    # Meld 1 is emptied first; meld 3 keeps its number until the line ends.
    after = table_after_play("1- 7S 8S 9S, 3+ AH, n 7S 8S 9S", BEFORE, RULES)
    assert len(after) == 3
    assert after[1] == (*BEFORE[2], *parse_pieces("AH"))


def test_changes_apply_in_order_to_the_table_each_leaves() -> None:
    changes = read_changes("n 5S 6S, 4+ 4S", RULES)
    assert changes == (
        Change("new", 0, parse_pieces("5S 6S")),
        Change("add", 4, parse_pieces("4S")),
    )
    assert apply_changes(BEFORE, changes)[3] == parse_pieces("5S 6S 4S")


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("5+ 8D", "no meld 5 on the table (melds 1-3)"),
        ("1- 4D", "meld 1 holds no 4D"),
        ("1+ ZZ", "ZZ"),
        ("1+", "the change '1+' names no card"),
        ("n 5S,, n 6S", "empty change"),
        ("3- *=AH", "meld 3 holds no *=AH"),
    ],
)
def test_bad_changes_name_what_is_wrong(typed: str, message: str) -> None:
    with pytest.raises(NotationError, match=re.escape(message)):
        table_after_play(typed, BEFORE, RULES)


def test_an_empty_table_says_so() -> None:
    with pytest.raises(NotationError, match="the table is empty"):
        table_after_play("1+ 8D", (), RULES)
