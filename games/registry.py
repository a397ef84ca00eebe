"""Every game family, registered once (as python-chess lists its variants), and the lookups the
commands use: the family of a rule set, the rule sets with games, puzzles or score sheets, and the
bots of a rule set.

Adding a game is a rule-set module (:mod:`meldsat.rulesets`), a game module, and one entry in
``FAMILIES``: ``simulate``, ``replay``, ``play`` and ``score`` then find it here.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from meldsat.errors import RulesError
from meldsat.games.agents import Agent
from meldsat.games.bots import TABLE_BOTS
from meldsat.games.engine import Game
from meldsat.games.family import GameFamily, preset_names
from meldsat.games.gin import GinGame
from meldsat.games.gin_bots import GIN_BOTS
from meldsat.games.gin_sheet import gin_sheet
from meldsat.games.manipulation import ManipulationGame
from meldsat.games.roster import Bot
from meldsat.games.rummy500 import Rummy500Game
from meldsat.games.sheets import manipulation_sheet, rummy500_sheet
from meldsat.house_rules import apply_house_rules
from meldsat.rulesets import get_rules, gin, manipulation, rummikub, rummy500

FAMILIES: tuple[GameFamily, ...] = (
    GameFamily(
        "manipulation",
        preset_names(manipulation),
        shared_table=True,
        puzzles=True,
        game=ManipulationGame,
        bots=TABLE_BOTS,
        score_sheet=manipulation_sheet,
    ),
    GameFamily("rummikub", preset_names(rummikub), shared_table=True, puzzles=True),
    GameFamily(
        "gin",
        preset_names(gin),
        shared_table=False,
        puzzles=False,
        game=GinGame,
        bots=GIN_BOTS,
        score_sheet=gin_sheet,
    ),
    GameFamily(
        "rummy500",
        preset_names(rummy500),
        shared_table=True,
        puzzles=False,
        game=Rummy500Game,
        bots=TABLE_BOTS,
        score_sheet=rummy500_sheet,
    ),
)


def family_named(name: str) -> GameFamily:
    """The family called ``name`` (``manipulation``, ``rummikub``, ``gin``, ``rummy500``)."""
    for family in FAMILIES:
        if family.name == name:
            return family
    raise RulesError(f"no game family '{name}' (families: {', '.join(f.name for f in FAMILIES)})")


def family_of(rules_name: str) -> GameFamily:
    """The family of the rule set ``rules_name`` (any spelling ``get_rules`` reads)."""
    name = get_rules(rules_name).name
    for family in FAMILIES:
        if name in family.rule_sets:
            return family
    raise RulesError(f"the rule set '{name}' belongs to no game family")


def game_rule_sets() -> tuple[str, ...]:
    """The rule sets a game plays (``simulate``, ``replay``, ``play``), family by family."""
    return tuple(name for family in FAMILIES if family.game for name in family.rule_sets)


def puzzle_rule_sets() -> tuple[str, ...]:
    """The rule sets ``meldsat puzzle`` poses puzzles under, family by family."""
    return tuple(name for family in FAMILIES if family.puzzles for name in family.rule_sets)


def sheet_rule_sets() -> tuple[str, ...]:
    """The rule sets ``meldsat score`` reads score sheets of, family by family."""
    return tuple(name for family in FAMILIES if family.score_sheet for name in family.rule_sets)


def bots_of(rules_name: str) -> tuple[Bot, ...]:
    """The bots that play the rule set ``rules_name`` (none for a family without a game)."""
    return family_of(rules_name).bots.bots


def bot_names() -> tuple[str, ...]:
    """Every bot name of every family, each once, in the order the families list them."""
    return tuple(dict.fromkeys(bot.name for family in FAMILIES for bot in family.bots.bots))


def new_game(
    rules_name: str,
    players: int,
    options: dict[str, Any] | None = None,
    house: Mapping[str, object] | None = None,
) -> Game[Any, Any]:
    """A fresh game of the rule set ``rules_name`` for ``players`` players, with ``house`` rules
    (``--rule``: the scoring constants, say) over the preset."""
    rules = apply_house_rules(get_rules(rules_name, players), house or {})
    factory = family_of(rules.name).game
    if factory is None:
        raise RulesError(
            f"no game is played under '{rules_name}' (games: {', '.join(sorted(game_rule_sets()))})"
        )
    return factory(rules, options)


def new_agent(rules_name: str, bot: str, rng: random.Random, time_limit: float) -> Agent:
    """The bot called ``bot`` for a game of ``rules_name``."""
    roster = family_of(rules_name).bots
    if not roster.bots:
        raise RulesError(f"no bots play '{rules_name}'")
    return roster.make(bot, rng, time_limit)
