"""The bots a game family offers: each one's name, what it does in a line, and how to make it."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from meldsat.errors import MeldsatError
from meldsat.games.agents import Agent

# (bot name, its random generator, seconds a hint may take) -> the agent for the game's turns
BotMaker = Callable[[str, random.Random, float], Agent]


@dataclass(frozen=True)
class Bot:
    """One bot: its ``--bots`` name, a one-line description, and its maker."""

    name: str
    description: str
    make: BotMaker


@dataclass(frozen=True)
class Roster:
    """The bots of a family, in the order ``--help`` and error messages list them.

    ``noun`` is what an unknown name is refused as (``unknown gin bot 'x'``).
    """

    bots: tuple[Bot, ...]
    noun: str = "bot"

    @property
    def names(self) -> tuple[str, ...]:
        """Every bot's name, in order."""
        return tuple(bot.name for bot in self.bots)

    def make(self, name: str, rng: random.Random, time_limit: float) -> Agent:
        """The bot called ``name`` (case and spaces ignored), or the bot a spec with a colon
        names (``MODULE:NAME``, ``FILE.py:NAME``: :mod:`meldsat.games.custom_bots`); an unknown
        name is bad input."""
        if ":" in name:
            # Imported here: custom bots are rare, and the module imports this one's types.
            from meldsat.games.custom_bots import make_custom_bot

            return make_custom_bot(name, rng, time_limit)
        wanted = name.strip().lower()
        for bot in self.bots:
            if bot.name == wanted:
                return bot.make(wanted, rng, time_limit)
        raise MeldsatError(f"unknown {self.noun} '{name}' (choose from {', '.join(self.names)})")


NO_BOTS = Roster(())
