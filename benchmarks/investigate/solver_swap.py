"""CP-SAT's solver class swapped for a subclass for the time of one block: how the investigations
log a solve or add options to the engine's own parameters without changing the engine."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from meldsat.engine.cpsat import cp_model


@contextlib.contextmanager
def solver_replaced(replacement: Any) -> Iterator[None]:
    """Let ``cp_model.CpSolver`` be ``replacement`` (a subclass of it) for the time of the block."""
    original = cp_model.CpSolver
    cp_model.CpSolver = replacement  # type: ignore[misc]
    try:
        yield
    finally:
        cp_model.CpSolver = original  # type: ignore[misc]
