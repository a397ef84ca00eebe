"""Which game class plays which rule set (a log names its rule set; replay looks it up here)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meldsat.errors import RulesError
from meldsat.games.engine import Game
from meldsat.games.gin import GinGame
from meldsat.games.manipulation import ManipulationGame
from meldsat.games.rummy500 import Rummy500Game
from meldsat.rules import RuleSet, get_rules

GameFactory = Callable[[RuleSet, dict[str, Any] | None], Game[Any]]

GAMES: dict[str, GameFactory] = {
    "manipulation": ManipulationGame,
    "rummy500": Rummy500Game,
    "rummy300": Rummy500Game,
    "rummy500-killer": Rummy500Game,
    "gin": GinGame,
    "oklahoma-gin": GinGame,
    "hollywood-gin": GinGame,
}


def new_game(rules_name: str, players: int, options: dict[str, Any] | None = None) -> Game[Any]:
    """A fresh game of the rule set ``rules_name`` for ``players`` players."""
    rules = get_rules(rules_name, players)
    factory = GAMES.get(rules.name)
    if factory is None:
        raise RulesError(
            f"no game is played under '{rules_name}' (games: {', '.join(sorted(GAMES))})"
        )
    return factory(rules, options)
