"""The progress line of a batch on stderr: items done, rate, time left, workers alive.

Drawn only when stderr is a terminal, so pipes and log files never see it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

# Redraw at most this often: a terminal needs no more, and each redraw is a write.
_REDRAW_SECONDS = 0.2


def progress_text(
    done: int, elapsed: float, fraction: float | None, start_fraction: float, workers: int
) -> str:
    """One progress line, e.g. ``1,200 done · 310/s · 0:42 left · 2 workers``.

    ``fraction`` is the share of the whole input done (None when unknown, as on a pipe);
    ``start_fraction`` the share already done when this run started (a resumed run).
    """
    parts = [f"{done:,} done"]
    if elapsed > 0 and done:
        parts.append(
            f"{done / elapsed:,.0f}/s" if done / elapsed >= 10 else f"{done / elapsed:.1f}/s"
        )
    if fraction is not None and fraction > start_fraction and elapsed > 0:
        share = (fraction - start_fraction) / elapsed
        left = max(0.0, (1.0 - fraction) / share)
        parts.append(f"{_clock(left)} left")
    parts.append(f"{workers} worker" + ("" if workers == 1 else "s"))
    return " · ".join(parts)


def _clock(seconds: float) -> str:
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


class ProgressLine:
    """Keeps one line on a terminal up to date; does nothing when ``stream`` is not a terminal."""

    def __init__(
        self, stream: TextIO, workers_alive: Callable[[], int], start_fraction: float = 0.0
    ) -> None:
        self.enabled = _is_terminal(stream)
        self._stream = stream
        self._workers_alive = workers_alive
        self._start = time.monotonic()
        self._start_fraction = start_fraction
        self._drawn_at = -_REDRAW_SECONDS
        self._done = 0
        self._fraction: float | None = None
        self._width = 0

    def update(self, done: int, fraction: float | None) -> None:
        """Record ``done`` items finished in this run and the share of the input done."""
        self._done = done
        self._fraction = fraction
        self.tick()

    def tick(self) -> None:
        """Redraw if it is time (also called while waiting, so the clock moves)."""
        now = time.monotonic()
        if not self.enabled or now - self._drawn_at < _REDRAW_SECONDS:
            return
        self._drawn_at = now
        text = progress_text(
            self._done,
            now - self._start,
            self._fraction,
            self._start_fraction,
            self._workers_alive(),
        )
        self._stream.write("\r" + text.ljust(self._width))
        self._stream.flush()
        self._width = len(text)

    def clear(self) -> None:
        """Remove the line, so whatever comes next starts on a clean line."""
        if self.enabled and self._width:
            self._stream.write("\r" + " " * self._width + "\r")
            self._stream.flush()
            self._width = 0


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
