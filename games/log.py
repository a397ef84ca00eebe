"""Game logs: one JSON object a line, written as the game goes.

A log is the one file meldsat writes line by line instead of atomically: each line is flushed as
soon as it is complete, so an interrupted simulation keeps every turn and every finished game.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Protocol

from meldsat.errors import MeldsatError, quote

Event = dict[str, Any]


class GameLog(Protocol):
    """Where the engine sends each event (a JSON-ready dict) as it happens."""

    def write(self, event: Event) -> None:
        """Record one event."""


class NullLog:
    """A log that keeps nothing (simulations without ``--log``)."""

    def write(self, event: Event) -> None:
        """Drop the event."""


class MemoryLog:
    """A log kept in a list (tests, and replaying a game just played)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def write(self, event: Event) -> None:
        """Keep the event (a JSON round trip, so it is exactly what a file would hold)."""
        self.events.append(json.loads(dump_event(event)))


class JsonlLog:
    """A log file, one event a line, each line flushed when written."""

    def __init__(self, path: str | Path) -> None:
        try:
            # Kept open for the whole run and closed by close() or the with block.
            self._file: IO[str] = Path(path).open("w", encoding="utf-8")  # noqa: SIM115
        except OSError as error:
            raise MeldsatError(f"cannot write '{path}': {error.strerror}") from None
        except ValueError:  # a NUL byte in the name, which no file name can hold
            raise MeldsatError(
                f"cannot write {quote(str(path))}: not a possible file name"
            ) from None

    def write(self, event: Event) -> None:
        """Write the event as one line and flush it to the file."""
        self._file.write(dump_event(event) + "\n")
        self._file.flush()

    def close(self) -> None:
        """Close the file."""
        self._file.close()

    def __enter__(self) -> JsonlLog:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def dump_event(event: Event) -> str:
    """One event as one line of compact JSON (keys in the order the engine wrote them)."""
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


def read_events(lines: Iterator[str] | list[str], source: str) -> Iterator[tuple[int, Event]]:
    """``(line number, event)`` for every non-blank line; bad JSON is a one-line error."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as error:
            raise MeldsatError(f"bad JSON in '{source}' line {number}: {error.msg}") from None
        if not isinstance(event, dict) or not isinstance(event.get("event"), str):
            raise MeldsatError(f"line {number} of '{source}' is not a game log event")
        yield number, event
