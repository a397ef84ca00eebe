"""The server's safety limits, all configurable on the command line (docs/WEB.md)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """What one request may cost, and how many may run or wait at once.

    ``time_limit`` caps the solver's seconds for one request (a request may ask for less);
    ``workers`` solving threads run at a time, and at most ``queue`` more requests wait for one
    before the server answers 503 (busy).
    """

    max_body_bytes: int = 64 * 1024
    time_limit: float = 5.0
    workers: int = 2
    queue: int = 256
