"""Which game plays which rule set, and which bots play it (a log names its rule set; replay and
simulate look it up here). A new game family adds its entries to ``GAMES`` and ``AGENT_MAKERS``."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from meldsat.errors import RulesError
from meldsat.games.bots import make_bot
from meldsat.games.engine import Game
from meldsat.games.gin import GinGame, make_gin_bot
from meldsat.games.manipulation import ManipulationGame
from meldsat.games.rummy500 import Rummy500Game
from meldsat.house_rules import apply_house_rules
from meldsat.rules import RuleSet, get_rules

GameFactory = Callable[[RuleSet, dict[str, Any] | None], Game[Any]]
# (bot name, its random generator, seconds a hint may take) -> an agent for the game's turns
AgentMaker = Callable[[str, random.Random, float], Any]

GAMES: dict[str, GameFactory] = {
    "manipulation": ManipulationGame,
    "rummy500": Rummy500Game,
    "rummy300": Rummy500Game,
    "rummy500-killer": Rummy500Game,
    "gin": GinGame,
    "oklahoma-gin": GinGame,
    "hollywood-gin": GinGame,
}


def new_game(
    rules_name: str,
    players: int,
    options: dict[str, Any] | None = None,
    house: Mapping[str, object] | None = None,
) -> Game[Any]:
    """A fresh game of the rule set ``rules_name`` for ``players`` players, with ``house`` rules
    (``--rule``: the scoring constants, say) over the preset."""
    rules = apply_house_rules(get_rules(rules_name, players), house or {})
    factory = GAMES.get(rules.name)
    if factory is None:
        raise RulesError(
            f"no game is played under '{rules_name}' (games: {', '.join(sorted(GAMES))})"
        )
    return factory(rules, options)


# The shared-table games take the hint bots of games/bots.py; the gin games take the gin bots of
# games/gin.py, which play the exact deadwood analysis.
AGENT_MAKERS: dict[str, AgentMaker] = {
    name: make_gin_bot if factory is GinGame else make_bot for name, factory in GAMES.items()
}


def new_agent(rules_name: str, bot: str, rng: random.Random, time_limit: float) -> Any:
    """The bot called ``bot`` for a game of ``rules_name``."""
    rules = get_rules(rules_name)
    maker = AGENT_MAKERS.get(rules.name)
    if maker is None:
        raise RulesError(f"no bots play '{rules_name}'")
    return maker(bot, rng, time_limit)
