"""The game sessions of a server: bounded in number, forgotten when idle; and what they play."""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from meldsat.games.registry import FAMILIES
from meldsat.games.session import GameSession
from meldsat.rulesets import get_rules


def default_players(rules_name: str) -> int:
    """The players of a game when none are asked for: 3 (as ``meldsat play``), or what the rule
    set seats (2 in gin)."""
    rules = get_rules(rules_name)
    return min(max(3, rules.min_players), rules.max_players)


def game_catalogue() -> list[dict[str, Any]]:
    """Every rule set a session plays: its family, players (range and default) and bots."""
    games = []
    for family in FAMILIES:
        if family.game is None:
            continue
        for name in family.rule_sets:
            rules = get_rules(name)
            games.append(
                {
                    "rules": name,
                    "family": family.name,
                    "min_players": rules.min_players,
                    "max_players": rules.max_players,
                    "players": default_players(name),
                    "bots": [
                        {"name": bot.name, "description": bot.description}
                        for bot in family.bots.bots
                    ],
                }
            )
    return games


class TooManyGamesError(Exception):
    """Every session slot is taken by a game played recently (the server is busy, not the input
    bad)."""

    code = "busy"


@dataclass
class _Entry:
    session: GameSession
    used: float
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class SessionStore:
    """At most ``max_sessions`` games, each forgotten ``idle_seconds`` after its last request."""

    max_sessions: int = 32
    idle_seconds: float = 1800.0
    clock: Callable[[], float] = time.monotonic
    _entries: dict[str, _Entry] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, make: Callable[[], GameSession]) -> tuple[str, GameSession]:
        """A new session from ``make`` (called outside the store's lock), and its id."""
        with self._lock:
            self._forget_idle()
            if len(self._entries) >= self.max_sessions:
                raise TooManyGamesError(
                    f"{self.max_sessions} games are being played: try again later"
                )
        session = make()
        session_id = secrets.token_urlsafe(12)
        with self._lock:
            self._entries[session_id] = _Entry(session, self.clock())
        return session_id, session

    def entry(self, session_id: str) -> _Entry | None:
        """The session called ``session_id`` (``None``: unknown or expired), marked as used."""
        with self._lock:
            self._forget_idle()
            entry = self._entries.get(session_id)
            if entry is not None:
                entry.used = self.clock()
            return entry

    def __len__(self) -> int:
        with self._lock:
            self._forget_idle()
            return len(self._entries)

    def _forget_idle(self) -> None:
        now = self.clock()
        for key in [k for k, e in self._entries.items() if now - e.used > self.idle_seconds]:
            del self._entries[key]


def seeded(seed: int | None) -> int:
    """The seed given, or a fresh random one (a game needs a seed to replay)."""
    return random.SystemRandom().randrange(1 << 31) if seed is None else seed
