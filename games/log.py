"""Game logs: one JSON object a line, written as the game goes.

A log is the one file meldsat writes line by line instead of atomically: each line is flushed as
soon as it is complete, so an interrupted simulation keeps every turn and every finished game.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Protocol

from meldsat.errors import MeldsatError, quote
from meldsat.files import check_output_path
from meldsat.jsonload import json_lines

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
    """A log file, one event a line, each line written to the file as soon as it is complete.

    A write the disk has no room for (or a folder gone read-only) cuts the file back to the end
    of its last whole game, so what the log keeps replays, and is a one-line error.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        check_output_path(self.path)
        try:
            # Unbuffered, kept open for the whole run and closed by close() or the with block.
            self._file: IO[bytes] = Path(path).open("wb", buffering=0)  # noqa: SIM115
        except OSError as error:
            raise MeldsatError(f"cannot write {quote(self.path)}: {error.strerror}") from None
        self._written = 0  # bytes in the file
        self._whole_games = 0  # bytes up to the end of the last game_end line
        self._games = 0

    def write(self, event: Event) -> None:
        """Write the event as one line, at once."""
        data = (dump_event(event) + "\n").encode("utf-8", "surrogateescape")
        try:
            view = memoryview(data)
            while view:  # a raw write may take only part of the bytes
                view = view[self._file.write(view) or 0 :]
        except OSError as error:
            self._cut_to_whole_games()
            raise MeldsatError(
                f"cannot write {quote(self.path)}: {error.strerror or error}; the log keeps its "
                f"{self._games} whole games"
            ) from None
        self._written += len(data)
        if event.get("event") == "game_end":
            self._whole_games, self._games = self._written, self._games + 1

    def _cut_to_whole_games(self) -> None:
        # Truncating needs no room on the disk; a game cut in half is dropped whole.
        with contextlib.suppress(OSError):
            os.ftruncate(self._file.fileno(), self._whole_games)

    def close(self) -> None:
        """Close the file."""
        with contextlib.suppress(OSError):  # unbuffered: nothing is left to lose
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


def read_events(lines: Iterable[str], source: str) -> Iterator[tuple[int, Event]]:
    """``(line number, event)`` for every non-blank line; bad JSON is a one-line error."""
    return read_numbered_events(enumerate(lines, start=1), source)


def read_numbered_events(
    lines: Iterable[tuple[int, str]], source: str
) -> Iterator[tuple[int, Event]]:
    """``(line number, event)`` for every non-blank ``(line number, text)``, read with the strict
    JSON reader (a key given twice, ``NaN``, an endless number are refused)."""
    for number, event in json_lines(lines, source):
        if not isinstance(event.get("event"), str):
            raise MeldsatError(f"line {number} of {quote(source)} is not a game log event")
        yield number, event
