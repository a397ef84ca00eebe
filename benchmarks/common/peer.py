"""The peer solver ``rummikub-solver``, driven through its public API (``RuleSet``,
``GameState``, ``SolverMode``): a meldsat position in, the tiles it places and its sets out.

The peer is installed for the benchmarks only (``pip install -r benchmarks/requirements.txt``);
meldsat never depends on it.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from meldsat.cards import Card, Joker, Piece
from meldsat.position import Position

PEER_JOKER = 53  # rummikub-solver's joker tile with 13 numbers in 4 colours


def peer_tile(piece: Piece) -> int:
    """The peer's tile number: colours black, blue, orange, red (meldsat's k b o r), 1-13 each."""
    if isinstance(piece, Joker):
        return PEER_JOKER
    return piece.suit * 13 + piece.rank


def peer_piece(tile: int) -> Piece:
    """The meldsat piece for one of the peer's tile numbers."""
    if tile == PEER_JOKER:
        return Joker()
    return Card((tile - 1) % 13 + 1, (tile - 1) // 13)


def missing_peer(package: str) -> NoReturn:
    """Stop with a line saying how to install a peer that is not installed."""
    sys.exit(f"{package} is missing: pip install -r benchmarks/requirements.txt")


def load_peer() -> Any:
    """The ``rummikub_solver`` module, or exit with a hint on how to install it."""
    try:
        import rummikub_solver
    except ImportError:
        missing_peer("rummikub-solver")
    return rummikub_solver


@dataclass(frozen=True)
class PeerAnswer:
    """What the peer proposed: the rack tiles it places and the sets it makes."""

    tiles: tuple[Piece, ...]
    sets: tuple[tuple[Piece, ...], ...]


class Peer:
    """One backend of rummikub-solver; ``fresh`` builds a new RuleSet for every solve.

    ``clock`` times the solve: wall time by default, ``time.process_time`` for CPU time.
    """

    def __init__(
        self,
        module: Any,
        backend: str,
        *,
        fresh: bool,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.module = module
        self.backend = module.MILPSolver(backend)
        self.fresh = fresh
        self.clock = clock
        self.ruleset: Any = None if fresh else module.RuleSet(solver_backend=self.backend)

    def state(self, position: Position, ruleset: Any | None = None) -> Any:
        """The peer's game state for a position (the player has made the initial meld)."""
        rules = self.ruleset if ruleset is None else ruleset
        if rules is None:
            rules = self.module.RuleSet(solver_backend=self.backend)
        state = rules.new_game()
        state.add_table(*(peer_tile(piece) for meld in position.table for piece in meld))
        state.add_rack(*(peer_tile(piece) for piece in position.hand))
        state.initial = False
        return state

    def solve(self, position: Position, mode: str) -> tuple[float, PeerAnswer]:
        """Time one solve (``mode`` is ``tiles`` or ``value``); returns (seconds, answer)."""
        solver_mode = self.module.SolverMode(mode)
        if self.fresh:
            # The state only holds tile counts; any RuleSet of the same rules accepts it.
            state = self.state(position, self.module.RuleSet(solver_backend=self.backend))
            start = self.clock()
            ruleset = self.module.RuleSet(solver_backend=self.backend)
            solution = ruleset.solve(state, solver_mode)
            elapsed = self.clock() - start
        else:
            state = self.state(position)
            start = self.clock()
            solution = self.ruleset.solve(state, solver_mode)
            elapsed = self.clock() - start
        if solution is None:
            return elapsed, PeerAnswer((), ())
        tiles = tuple(peer_piece(int(tile)) for tile in solution.tiles)
        sets = tuple(tuple(peer_piece(int(tile)) for tile in meld) for meld in solution.sets)
        return elapsed, PeerAnswer(tiles, sets)


class QuietStdout:
    """Silence file descriptor 1 (HiGHS prints a banner from C++ on its first solve)."""

    def __enter__(self) -> None:
        sys.stdout.flush()
        self.saved = os.dup(1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)

    def __exit__(self, *exc: object) -> None:
        sys.stdout.flush()
        os.dup2(self.saved, 1)
        os.close(self.saved)
