"""The server's limits: what one request and one connection may cost (docs/WEB.md, "Limits").

Every part of the server leans on these numbers, so a new part (a route module mounted from
``meldsat.web.app``) bounds its work the same way: its solving work goes to the ``solve`` lane
(``workers`` threads, ``queue`` waiting, each solve capped at ``time_limit`` seconds and stopped
when its client goes away), its quick work to the ``quick`` lane, its bodies are read by the app's
reader (``max_body_bytes``, ``max_tokens``, ``body_seconds``), and its answers are held for a
slow reader at most ``send_seconds`` (``max_answer_bytes`` each, ``max_connections`` at once).
The memory the answers waiting to be read may hold is at most
``max_connections * max_answer_bytes`` (:meth:`Limits.held_bytes`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from meldsat.errors import MeldsatError

# The longest error message the server sends (the library's quoting already cuts each token).
MESSAGE_CHARS = 300


@dataclass(frozen=True)
class Limits:
    """What one request may cost, and how many may run, wait or be connected at once.

    ``time_limit`` caps the solver's seconds for one request (a request may ask for less);
    ``workers`` solving threads run at a time and at most ``queue`` more requests wait for one
    (then 503, busy); the quick answers (no solver) have their own ``quick_workers`` threads and
    ``quick_queue``, so they never wait behind a solve. A body is at most ``max_body_bytes`` (413)
    and ``max_tokens`` words of card text (413), an answer at most ``max_answer_bytes`` (413).
    A connection must send its request head and body within ``body_seconds`` of its first byte
    (or of opening), and read each answer within ``send_seconds``, or it is closed; at most
    ``max_connections`` are served at once (then 503).
    """

    max_body_bytes: int = 64 * 1024
    max_tokens: int = 600
    max_answer_bytes: int = 1024 * 1024
    time_limit: float = 5.0
    workers: int = 2
    queue: int = 256
    quick_workers: int = 2
    quick_queue: int = 256
    max_connections: int = 100
    body_seconds: float = 10.0
    send_seconds: float = 30.0

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise MeldsatError(f"limit {field.name} must be a number, not {value!r}")
            least = 0 if field.name in {"queue", "quick_queue"} else 1
            if isinstance(value, float) and not (math.isfinite(value) and value > 0):
                raise MeldsatError(
                    f"bad {_option(field.name)} '{value}' (expected a finite number of seconds "
                    "above 0)"
                )
            if isinstance(value, int) and value < least:
                raise MeldsatError(
                    f"bad {_option(field.name)} '{value}' (expected {least} or more)"
                )

    def held_bytes(self) -> int:
        """The most the answers waiting for slow readers may hold at once."""
        return self.max_connections * self.max_answer_bytes


# The option of each limit whose name is not the field's.
_OPTIONS = {"max_body_bytes": "max-body", "max_answer_bytes": "max-answer", "quick_queue": "queue"}


def _option(name: str) -> str:
    """The ``meldsat serve`` option that sets the limit called ``name``."""
    return "--" + _OPTIONS.get(name, name.replace("_", "-"))
