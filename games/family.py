"""The record of one game family: its rule sets, game, bots, score sheet, table and puzzles.

Every family is one :class:`GameFamily`, registered once in :mod:`meldsat.games.registry`; the
commands (``simulate``, ``replay``, ``play``, ``score``) look a family up there by rule set
instead of knowing the games themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

from meldsat.games.engine import Game
from meldsat.games.roster import NO_BOTS, Roster
from meldsat.games.sheets import NumberedEntries
from meldsat.rules import RuleSet

# (the rule set with its player count, the game's options) -> a fresh game
GameFactory = Callable[[RuleSet, dict[str, Any] | None], Game[Any, Any]]


class ScoreSheet(Protocol):
    """A family's score sheet, scored: its JSON form (the answer of ``meldsat score --json``)."""

    def to_json(self) -> dict[str, Any]:
        """The sheet as a JSON-ready dict (without the schema version)."""


# (the rule set, a sheet's (line number, JSON object) pairs) -> the sheet read and totalled
SheetReader = Callable[[RuleSet, NumberedEntries], ScoreSheet]


@dataclass(frozen=True)
class GameFamily:
    """One game family.

    ``rule_sets`` are its presets' names (from its module in :mod:`meldsat.rulesets`). ``game``
    is the game class that plays them (``None`` for a family with positions and puzzles but no
    game yet, as Rummikub); ``bots`` the bots that play it; ``score_sheet`` its scorer, which
    reads a score sheet and totals it with the family's own scoring (``None``: no sheet).
    ``shared_table`` says whether the players meld onto one table (else each keeps its melds, as
    in gin); ``puzzles`` whether ``meldsat puzzle`` poses puzzles under its rules.
    """

    name: str
    rule_sets: tuple[str, ...]
    shared_table: bool
    puzzles: bool
    game: GameFactory | None = None
    bots: Roster = NO_BOTS
    score_sheet: SheetReader | None = None


def preset_names(module: ModuleType) -> tuple[str, ...]:
    """The names of the presets a :mod:`meldsat.rulesets` module defines, in its order."""
    presets: Callable[[], list[RuleSet]] = module.presets
    return tuple(rules.name for rules in presets())
