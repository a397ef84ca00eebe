"""Reading a gin score file: JSON lines, a players line first, then one line per hand.

The lines come already parsed (``meldsat score`` reads JSON lines the same way for every game),
as (line number, object) pairs; this module checks and reads them.

::

    {"players": ["Ann", "Bob"]}
    {"knocker": "Ann", "knocker_deadwood": 4, "defender_deadwood": 15}
    {"knocker": "Bob", "knocker_deadwood": 0, "defender_deadwood": 22, "upcard": "7S"}
    {"knocker": "Ann", "knocker_deadwood": 0, "defender_deadwood": 30, "big_gin": true}
    {"dead": true}

``defender_deadwood`` is counted after the defender's layoffs. ``upcard`` is the hand's first
upcard (Oklahoma needs it: a spade doubles the hand). ``{"dead": true}`` is a hand nobody knocked.
Every error names its line.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from meldsat.cards import Card, parse_card
from meldsat.errors import MeldsatError, quote
from meldsat.gin.scoring import HandResult

_HAND_KEYS = {"knocker", "knocker_deadwood", "defender_deadwood", "big_gin", "upcard"}
# No gin hand holds more deadwood: eleven cards (ten and the one drawn) of ten points each.
MOST_DEADWOOD = 110


def read_hand_results(
    entries: Iterable[tuple[int, dict[str, Any]]],
) -> tuple[list[str], list[HandResult]]:
    """The players and the hand results of a score file's (line number, object) pairs."""
    players: list[str] | None = None
    results: list[HandResult] = []
    for number, item in entries:
        if players is None:
            players = _players(item, number)
        else:
            results.append(_hand_result(item, number))
    if players is None:
        raise MeldsatError('the score file is empty: it starts with {"players": ["A", "B"]}')
    return players, results


def _players(item: dict[str, Any], number: int) -> list[str]:
    names = item.get("players")
    if set(item) != {"players"} or not isinstance(names, list):
        raise MeldsatError(f'line {number}: the file starts with {{"players": ["A", "B"]}}')
    if len(names) != 2 or not all(isinstance(name, str) and name for name in names):
        raise MeldsatError(f"line {number}: two player names expected, got {quote(names)}")
    if names[0] == names[1]:
        raise MeldsatError(f"line {number}: the two players are both named {quote(names[0])}")
    return names


def _hand_result(item: dict[str, Any], number: int) -> HandResult:
    if item.get("dead") is True and set(item) == {"dead"}:
        return HandResult(knocker=None)
    unknown = sorted(set(item) - _HAND_KEYS)
    if unknown:
        raise MeldsatError(f"line {number}: unknown key {quote(unknown[0])}")
    knocker = item.get("knocker")
    if not isinstance(knocker, str):
        raise MeldsatError(f"line {number}: 'knocker' (a player's name) is missing")
    big_gin = item.get("big_gin", False)
    if not isinstance(big_gin, bool):
        raise MeldsatError(f"line {number}: bad big_gin '{big_gin}' (true or false)")
    return HandResult(
        knocker=knocker,
        knocker_deadwood=_points(item, "knocker_deadwood", number),
        defender_deadwood=_points(item, "defender_deadwood", number),
        big_gin=big_gin,
        first_upcard=_upcard(item.get("upcard"), number),
    )


def _points(item: dict[str, Any], key: str, number: int) -> int:
    value = item.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MOST_DEADWOOD:
        raise MeldsatError(
            f"line {number}: bad {key} {quote(value)} (a whole number from 0 to {MOST_DEADWOOD})"
        )
    return value


def _upcard(value: Any, number: int) -> Card | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise MeldsatError(f"line {number}: bad upcard {quote(value)}")
    try:
        return parse_card(value)
    except MeldsatError as error:
        raise MeldsatError(f"line {number}: {error}") from None
