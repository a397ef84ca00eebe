"""A puzzle's goal: play every hand card (the default), or play cards worth at least N points."""

from __future__ import annotations

from dataclasses import dataclass

from meldsat.errors import NotationError


@dataclass(frozen=True)
class Goal:
    """``points`` is ``None`` for "play every hand card", else the least value to play."""

    points: int | None = None

    @property
    def play_all(self) -> bool:
        """True when every hand card must be played."""
        return self.points is None

    def text(self) -> str:
        """``all`` or ``points 30``: the form the text and JSON files use."""
        return "all" if self.points is None else f"points {self.points}"

    def describe(self) -> str:
        """The goal in words, for the sheet and the human output."""
        if self.points is None:
            return "play every card of the hand"
        return f"play cards worth at least {self.points} points"


def parse_goal(text: str) -> Goal:
    """Read ``all`` or ``points N`` (``points:N`` also accepted)."""
    words = text.replace(":", " ").split()
    if [word.lower() for word in words] == ["all"]:
        return Goal()
    if len(words) == 2 and words[0].lower() == "points" and words[1].isdigit():
        points = int(words[1])
        if points >= 1:
            return Goal(points)
    raise NotationError(f"bad goal '{text}' (expected 'all' or 'points N' with N at least 1)")
