"""House rules: a preset's fields overridden by name (``initial_meld_points=50``, ``jokers=4``).

Only fields that the rule checker, the CP-SAT engine and the test suite's brute-force search all
honour may be overridden, each within a range where all three agree; anything else is refused
with a message listing the valid names. One exception: ``wrap_around`` is honoured by the checker
(``validate``, ``check``) while the engine refuses it with :class:`UnsupportedError`. The scoring
constants named here (``gin_bonus``, ``game_target``, ...) are fields of ``RuleSet.scoring``,
read only by the games' scoring (``score``, ``simulate``, ``play`` and ``replay``, which takes
them from the log). A rule set with house rules keeps its preset's name, and
:func:`house_rules_of` recovers the overrides (for output, and to write a position back).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from meldsat.errors import RulesError, quote, require_text
from meldsat.rules import RuleSet, require_rules
from meldsat.rulesets import get_rules


@dataclass(frozen=True)
class HouseRule:
    """One overridable field: its kind (``int`` or ``bool``), range, and what it means."""

    name: str
    kind: type
    meaning: str
    lowest: int = 0
    highest: int = 0
    optional: bool = False  # ``none`` is a value (no limit)
    scoring: bool = False  # a field of ``RuleSet.scoring``, not of the rule set itself

    def value_in(self, rules: RuleSet) -> int | bool | None:
        """This field's value in ``rules``."""
        value: int | bool | None = getattr(rules.scoring if self.scoring else rules, self.name)
        return value

    def parse(self, value: object) -> int | bool | None:
        """``value`` (text, or a JSON number/boolean/null) as this field's value, or an error."""
        if isinstance(value, str):
            value = _from_text(value.strip().lower())
        if value is None and self.optional:
            return None
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            raise RulesError(f"bad value {quote(_shown(value))} for {self.name} (true or false)")
        number = isinstance(value, int) and not isinstance(value, bool)
        if number and self.lowest <= value <= self.highest:  # type: ignore[operator]
            return value  # type: ignore[return-value]
        expected = f"a whole number from {self.lowest} to {self.highest}"
        if self.optional:
            expected += ", or none"
        raise RulesError(f"bad value {quote(_shown(value))} for {self.name} ({expected})")

    def text(self, value: object) -> str:
        """The value as written in a position file or on the command line."""
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)


HOUSE_RULES: dict[str, HouseRule] = {
    rule.name: rule
    for rule in (
        HouseRule("initial_meld_points", int, "points the first meld must reach", 0, 200),
        HouseRule("jokers", int, "jokers in the game", 0, 8),
        HouseRule("decks", int, "copies of each card (decks or tile sets)", 1, 4),
        HouseRule("run_min", int, "shortest sequence", 3, 7),
        HouseRule("group_max", int, "largest group", 3, 4),
        HouseRule("ace_low", bool, "an ace may start a sequence (A 2 3)"),
        HouseRule("ace_high", bool, "an ace may end a sequence (Q K A)"),
        HouseRule("wrap_around", bool, "a sequence may turn the corner (K A 2)"),
        HouseRule("joker_value", int, "what a joker counts in hand", 0, 100),
        HouseRule("knock_limit", int, "most points left in hand to knock", 0, 100, True),
        HouseRule("new_meld_needs_hand_card", bool, "every new or changed meld holds a hand card"),
        HouseRule(
            "draws_before_meld_forbidden",
            int,
            "the draw after which no meld is allowed",
            1,
            10,
            True,
        ),
        HouseRule(
            "group_joker_either_missing",
            bool,
            "a joker in a group of three is won back by either missing suit (colour)",
        ),
        # Scoring constants (RuleSet.scoring): the gin family's, then the 500 family's pool.
        HouseRule("game_target", int, "points that end the game", 1, 10000, scoring=True),
        HouseRule("gin_bonus", int, "gin: bonus for going gin", 0, 1000, scoring=True),
        HouseRule("undercut_bonus", int, "bonus for an undercut", 0, 1000, scoring=True),
        HouseRule("big_gin_bonus", int, "gin: bonus for big gin", 0, 1000, scoring=True),
        HouseRule("round_win_bonus", int, "line (box) bonus per hand won", 0, 1000, scoring=True),
        HouseRule("game_bonus", int, "bonus for winning the game", 0, 1000, scoring=True),
        HouseRule(
            "shutout_doubles", bool, "gin: a shutout doubles the winner's total", scoring=True
        ),
        HouseRule(
            "shutout_enters_next_game",
            bool,
            "Hollywood: a shut-out player's next win opens the next open game",
            scoring=True,
        ),
        HouseRule("deal_pool", int, "500 rummy: points in each deal's pool", 0, 1000, scoring=True),
    )
}


def house_rule_names() -> str:
    """The overridable field names, for messages and help."""
    return ", ".join(HOUSE_RULES)


def parse_rule_option(text: str) -> tuple[str, str]:
    """One ``--rule NAME=VALUE`` as (name, value text); the value is checked when applied."""
    require_text(text, "text")
    name, equals, value = text.partition("=")
    if not equals:
        raise RulesError(f"bad house rule {quote(text)} (write NAME=VALUE, e.g. jokers=4)")
    return name.strip().lower(), value.strip()


def parse_house_rules(overrides: Mapping[str, object]) -> dict[str, int | bool | None]:
    """Each override's value as its field's value, by field name (names are case-insensitive);
    an unknown name or a bad value is an error."""
    values: dict[str, int | bool | None] = {}
    for name, value in overrides.items():
        rule = HOUSE_RULES.get(str(name).strip().lower())
        if rule is None:
            raise RulesError(
                f"unknown house rule {quote(str(name))} (choose from {house_rule_names()})"
            )
        values[rule.name] = rule.parse(value)
    return values


def apply_house_rules(rules: RuleSet, overrides: Mapping[str, object]) -> RuleSet:
    """``rules`` with each named field replaced, every name and value checked, then the whole."""
    require_rules(rules)
    values = parse_house_rules(overrides)
    if not values:
        return rules
    changes: dict[str, Any] = {
        name: value for name, value in values.items() if not HOUSE_RULES[name].scoring
    }
    scoring: dict[str, Any] = {
        name: value for name, value in values.items() if HOUSE_RULES[name].scoring
    }
    if scoring:
        changes["scoring"] = replace(rules.scoring, **scoring)
    changed = replace(rules, **changes)
    _check_consistent(changed)
    return changed


def house_rules_of(rules: RuleSet) -> dict[str, int | bool | None]:
    """The fields where ``rules`` differs from its preset (for the same number of players).

    A rule set built by hand under a name that is no preset has no preset to differ from: ``{}``.
    """
    try:
        preset = get_rules(rules.name, rules.players)
    except RulesError:
        return {}
    return {
        name: rule.value_in(rules)
        for name, rule in HOUSE_RULES.items()
        if rule.value_in(rules) != rule.value_in(preset)
    }


def with_players(rules: RuleSet, players: int) -> RuleSet:
    """``rules`` for ``players`` players, its house rules kept: laid again over the preset for
    that many players, so a house rule on a field the player count sets (``decks``, ``jokers``)
    stays as it was set."""
    if players == rules.players:
        return rules
    house = house_rules_of(rules)
    if not house:
        return rules.with_players(players)
    return apply_house_rules(get_rules(rules.name, players), house)


def _check_consistent(rules: RuleSet) -> None:
    if not (rules.ace_low or rules.ace_high):
        raise RulesError("bad house rules: the ace must be low, high or both (ace_low, ace_high)")
    if rules.wrap_around and not (rules.ace_low and rules.ace_high):
        raise RulesError("bad house rules: wrap_around needs ace_low and ace_high both true")
    if rules.run_min > rules.longest_sequence:
        raise RulesError(f"bad house rules: run_min {rules.run_min} is longer than any sequence")


def _from_text(text: str) -> object:
    if text in {"true", "yes", "on"}:
        return True
    if text in {"false", "no", "off"}:
        return False
    if text in {"none", "null"}:
        return None
    if text.isascii() and text.isdigit() and len(text) <= 6:
        return int(text)
    return text


def _shown(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if isinstance(value, int | str) else type(value).__name__
