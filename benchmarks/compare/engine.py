"""Side-by-side benchmark: meldsat's exact engine against the peer solver ``rummikub-solver``.

Run from the repository root, with the peers installed (``pip install -r
benchmarks/requirements.txt``)::

    python -m benchmarks engine --positions 200 --seed 1

For every generated Rummikub position the script solves "the best play" in-process with

- meldsat: ``best_play(position, Objective.CARDS)`` and ``Objective.POINTS``;
- rummikub-solver: ``RuleSet.solve(state, SolverMode.TILE_COUNT)`` and ``SolverMode.TOTAL_VALUE``
  with each installed backend (GLPK_MI, HIGHS, SCIPY). "warm" reuses one ``RuleSet`` per backend
  for all positions (how the library is meant to be used: its cvxpy problem is built once and
  re-solved with new parameters); "fresh" builds a new ``RuleSet`` for every position, so the
  peer's model build is timed too, as meldsat's is.

Only the solve call is timed (``time.perf_counter``); converting a position to each side's input is
not. Each solver solves one warm-up position first, untimed. The optimum values of the two sides are
compared on every position, and every answer is re-checked against the rules. Manipulation positions
(ace high or low) cannot be expressed to the peer, so meldsat is timed alone on those.

Last, a cold-start comparison: the wall time of one ``meldsat hint --position FILE --json`` process
against one ``rsconsole`` process fed the same position on standard input.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.common.cold_start import cold_tools, run_cold
from benchmarks.common.environment import load_average, source_state
from benchmarks.common.peer import Peer, QuietStdout, load_peer
from benchmarks.common.units import command_line, program
from benchmarks.common.verdicts import EQUAL, check_meldsat, classify, points
from benchmarks.compare.engine_report import Mismatch, Report, Series
from benchmarks.positions import generate, position_record
from meldsat.engine.search import best_play
from meldsat.play import Objective, Play, Status
from meldsat.position import Position

COMMAND = program("engine")
PEER_BACKENDS = ("GLPK_MI", "HIGHS", "SCIPY")
OBJECTIVES = (Objective.CARDS, Objective.POINTS)


def meldsat_solve(position: Position, objective: Objective) -> tuple[float, Play]:
    """Wall seconds of one ``best_play`` (model build included), and its play."""
    start = time.perf_counter()
    play = best_play(position, objective)
    return time.perf_counter() - start, play


class EngineBench:
    """Solves every position with every configuration, timing and cross-checking the answers."""

    def __init__(self, backends: Sequence[str], fresh_backends: Sequence[str]) -> None:
        module = load_peer()
        self.peers: dict[str, Peer] = {}
        for backend in backends:
            self.peers[f"rummikub-solver {backend} warm"] = Peer(module, backend, fresh=False)
        for backend in fresh_backends:
            self.peers[f"rummikub-solver {backend} fresh"] = Peer(module, backend, fresh=True)
        self.series: dict[str, Series] = {}
        self.mismatches: list[Mismatch] = []
        self.rows: list[dict[str, Any]] = []
        self.tally: Counter[tuple[str, str, str]] = Counter()
        self.cases: dict[tuple[str, str], list[str]] = {}

    def warm_up(self, position: Position) -> None:
        """Untimed: imports, lazy initialisation, the peer's first compile of its problem."""
        with QuietStdout():
            for objective in OBJECTIVES:
                meldsat_solve(position, objective)
            for peer in self.peers.values():
                for mode in ("tiles", "value"):
                    peer.solve(position, mode)

    def _record(self, name: str, seconds: float) -> Series:
        entry = self.series.setdefault(name, Series(name))
        entry.times.append(seconds)
        return entry

    def _flag(self, ident: str, what: str, position: Position) -> None:
        self.mismatches.append(Mismatch(ident, what, position))

    def _meldsat(self, ident: str, position: Position, suffix: str) -> dict[Objective, Play]:
        plays: dict[Objective, Play] = {}
        row: dict[str, Any] = {"id": ident, "game": position.rules.name}
        for objective in OBJECTIVES:
            seconds, play = meldsat_solve(position, objective)
            entry = self._record(f"meldsat {objective.value}{suffix}", seconds)
            plays[objective] = play
            row[f"meldsat {objective.value}"] = _play_row(seconds, play)
            if play.status is not Status.OPTIMAL:
                entry.not_proven += 1
                self._flag(ident, f"meldsat {objective.value}: {play.status.value}", position)
            problem = check_meldsat(position, play)
            if problem:
                self._flag(ident, f"meldsat {objective.value}: {problem}", position)
        self.rows.append(row)
        return plays

    def rummikub(self, ident: str, position: Position) -> None:
        """Both sides on a Rummikub position, compared."""
        gc.collect()
        plays = self._meldsat(ident, position, "")
        row = self.rows[-1]
        for name, peer in self.peers.items():
            for mode, objective in (("tiles", Objective.CARDS), ("value", Objective.POINTS)):
                seconds, answer = peer.solve(position, mode)
                label = objective.value
                self._record(f"{name} {label}", seconds)
                found = {"cards": len(answer.tiles), "points": points(position.rules, answer.tiles)}
                row[f"{name} {label}"] = {"seconds": seconds, **found}
                category = classify(position, plays[objective], answer, objective)
                self.tally[(label, category, name)] += 1
                if category != EQUAL:
                    self.cases.setdefault((label, category), []).append(ident)
                    best = found[label] - (
                        plays[objective].cards_played
                        if objective is Objective.CARDS
                        else plays[objective].points_played
                    )
                    self._flag(ident, f"{label}: {name} {best:+d} vs meldsat: {category}", position)

    def manipulation(self, ident: str, position: Position) -> None:
        """meldsat alone (the peer has no ace-high runs)."""
        gc.collect()
        self._meldsat(ident, position, " (manipulation)")


def _play_row(seconds: float, play: Play) -> dict[str, Any]:
    return {
        "seconds": seconds,
        "status": play.status.value,
        "cards": play.cards_played,
        "points": play.points_played,
    }


def _arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=COMMAND, description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    parser.add_argument("--positions", type=int, default=200, help="Rummikub positions")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--manipulation",
        type=int,
        default=None,
        help="Manipulation positions (default: --positions)",
    )
    parser.add_argument("--backends", default=",".join(PEER_BACKENDS), help="peer backends, warm")
    parser.add_argument(
        "--fresh-backends", default="GLPK_MI", help="peer backends, new RuleSet each solve"
    )
    parser.add_argument("--cold-runs", type=int, default=7, help="0 skips the cold-start part")
    parser.add_argument("--cold-objective", default="cards", help="meldsat hint --objective")
    parser.add_argument("--markdown", type=Path, default=None, help="also write the report here")
    parser.add_argument("--json", type=Path, default=None, help="per-position results (JSON)")
    parser.add_argument("--mismatches", type=Path, default=None, help="mismatch positions (JSONL)")
    return parser.parse_args(argv)


def _progress(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def _run_all(
    bench: EngineBench,
    rummikub: Sequence[tuple[str, Position]],
    manipulation: Sequence[tuple[str, Position]],
) -> None:
    for number, (ident, position) in enumerate(rummikub, start=1):
        bench.rummikub(ident, position)
        if number % 20 == 0 or number == len(rummikub):
            _progress(f"rummikub {number}/{len(rummikub)}")
    for number, (ident, position) in enumerate(manipulation, start=1):
        bench.manipulation(ident, position)
        if number % 20 == 0 or number == len(manipulation):
            _progress(f"manipulation {number}/{len(manipulation)}")


def _write_mismatches(path: Path, mismatches: Sequence[Mismatch]) -> None:
    """One JSONL line per position with a finding: the position, and its findings as a comment."""
    found: dict[str, tuple[Position, list[str]]] = {}
    for item in mismatches:
        found.setdefault(item.ident, (item.position, []))[1].append(item.what)
    lines = [
        json.dumps({**position_record(ident, position), "comment": "; ".join(whats)})
        for ident, (position, whats) in found.items()
    ]
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def main(argv: Sequence[str]) -> int:
    """Run the comparison and print its Markdown report."""
    args = _arguments(argv)
    command = command_line(COMMAND, argv)
    manipulation_count = args.positions if args.manipulation is None else args.manipulation
    rummikub = list(generate("rummikub", args.positions, args.seed))
    manipulation = list(generate("manipulation", manipulation_count, args.seed))
    warmup = next(iter(generate("rummikub", 1, args.seed + 1_000_000)))[1]
    _progress(f"{len(rummikub)} Rummikub and {len(manipulation)} Manipulation positions")
    bench = EngineBench(
        [name for name in args.backends.split(",") if name],
        [name for name in args.fresh_backends.split(",") if name],
    )
    load = [load_average()]
    source = source_state()
    bench.warm_up(warmup)
    _run_all(bench, rummikub, manipulation)
    load.append(load_average())
    cold: list[dict[str, Any]] = []
    cold_ident = ""
    if args.cold_runs > 0 and rummikub:
        cold_ident, cold_position = _median_position(rummikub, bench.rows)
        with tempfile.TemporaryDirectory() as folder:
            position_file = Path(folder) / "position.json"
            position_file.write_text(json.dumps(position_record(cold_ident, cold_position)) + "\n")
            tools = cold_tools(position_file, cold_position, args.cold_objective)
            cold = run_cold(tools, args.cold_runs, _progress)
    load.append(load_average())
    source_end = source_state()
    if source_end != source:
        source = f"{source} at the start, {source_end} at the end"
    counts = {"rummikub": len(rummikub), "manipulation": len(manipulation)}
    report = Report(
        command,
        counts,
        list(bench.series.values()),
        bench.mismatches,
        dict(bench.tally),
        bench.cases,
        cold,
        cold_ident,
        args.cold_runs,
        load,
        source,
    ).markdown()
    print(report)
    if args.markdown:
        args.markdown.write_text(report, encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps({"rows": bench.rows, "cold": cold}, indent=1) + "\n")
    if args.mismatches:
        _write_mismatches(args.mismatches, bench.mismatches)
    return 0


def _median_position(
    positions: Sequence[tuple[str, Position]], rows: Sequence[dict[str, Any]]
) -> tuple[str, Position]:
    """The Rummikub position with the median meldsat cards solve time, among those on which both
    sides agree on the cards played (so both cold-start answers can be compared)."""

    def agreed(row: dict[str, Any]) -> bool:
        ours = row["meldsat cards"]["cards"]
        return all(
            value["cards"] == ours
            for key, value in row.items()
            if key.startswith("rummikub-solver") and key.endswith(" cards")
        )

    rummikub = [row for row in rows if row["game"] == "rummikub"]
    timed = sorted((row["meldsat cards"]["seconds"], row["id"]) for row in rummikub if agreed(row))
    if not timed:
        timed = sorted((row["meldsat cards"]["seconds"], row["id"]) for row in rummikub)
    ident = timed[len(timed) // 2][1]
    return next((name, position) for name, position in positions if name == ident)
