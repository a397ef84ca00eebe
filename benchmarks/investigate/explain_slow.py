"""Why a position is slow: model size per part, time per phase, and what CP-SAT did.

Run from the repository root (meldsat alone)::

    python -m benchmarks explain-slow benchmarks/worst-positions.jsonl --objective cards

For every position of the JSONL file (``--ids`` picks some by id) it builds the engine's model as
``best_play`` does (``meldsat.engine.search.build_model``), counting the variables and constraints
each part of the build adds (pieces and jokers, groups, sequences, linking, objective); then
solves it with the engine's own parameters plus CP-SAT's search log, and turns the solution into a
play. It reports the CPU time of each phase (``time.process_time``), CP-SAT's own account (time to
the first solution and to the proof, presolve, branches, conflicts, LP iterations) and, with
``--log DIR``, writes each full CP-SAT log there. Nothing in the engine is changed: the counting
wraps the model's build steps and the logging wraps ``CpSolver`` for the time of one call.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import re
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.common.units import ms, program
from benchmarks.investigate.solver_swap import solver_replaced
from meldsat.cards import Joker
from meldsat.engine import model
from meldsat.engine.cpsat import cp_model
from meldsat.engine.parts.groups import GroupShapes
from meldsat.engine.parts.initial import InitialMeld
from meldsat.engine.parts.jokers import JokerLocking
from meldsat.engine.parts.kept import KeptMelds
from meldsat.engine.parts.marked_groups import MarkedGroups
from meldsat.engine.parts.marked_runs import MarkedRunFlow
from meldsat.engine.parts.objective import LexicographicObjective
from meldsat.engine.parts.origin import HandOrigin
from meldsat.engine.parts.runs import RunFlow
from meldsat.engine.parts.supply import PieceSupply
from meldsat.engine.search import build_model, play_from_outcome
from meldsat.files import write_text_atomic
from meldsat.play import Objective
from meldsat.position import Position, load_position

COMMAND = program("explain-slow")
# The model's parts (meldsat.engine.parts), by the name the report gives them. Whatever the model
# adds outside them (linking pieces to melds) is reported as "link".
PARTS: dict[type[Any], str] = {
    PieceSupply: "pieces",
    KeptMelds: "pieces",
    JokerLocking: "pieces",
    HandOrigin: "pieces",
    GroupShapes: "groups",
    MarkedGroups: "groups",
    RunFlow: "sequences",
    MarkedRunFlow: "sequences",
    InitialMeld: "link",
    LexicographicObjective: "objective",
}
PART_LABELS = ("pieces", "groups", "sequences", "link", "objective")
POSITION_FIELDS = ("rules", "players", "table", "hand", "initial")


@dataclass
class Explained:
    """What one solve of one position showed."""

    variables: Counter[str] = field(default_factory=Counter)
    constraints: Counter[str] = field(default_factory=Counter)
    cpu: dict[str, float] = field(default_factory=dict)
    stats: dict[str, str] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)


@contextlib.contextmanager
def counting_parts(found: Explained) -> Iterator[None]:
    """Wrap each part's constructor (its first argument is the CP-SAT model) to count what it adds
    to the proto; what the whole build adds beyond the parts is counted as "link"."""
    saved: list[tuple[type[Any], Any]] = []

    def wrap(method: Callable[..., None], part: str) -> Callable[..., None]:
        @functools.wraps(method)
        def counted(self: Any, model: Any, *args: Any, **kwargs: Any) -> None:
            proto = model.proto
            before = (len(proto.variables), len(proto.constraints))
            method(self, model, *args, **kwargs)
            found.variables[part] += len(proto.variables) - before[0]
            found.constraints[part] += len(proto.constraints) - before[1]

        return counted

    for cls, part in PARTS.items():
        saved.append((cls, cls.__init__))
        cls.__init__ = wrap(cls.__init__, part)
    try:
        yield
    finally:
        for cls, method in saved:
            cls.__init__ = method


def count_link(found: Explained, built: model.RearrangementModel) -> None:
    """Count what the build added outside the parts as "link"."""
    proto = built.model.proto
    found.variables["link"] += len(proto.variables) - sum(found.variables.values())
    found.constraints["link"] += len(proto.constraints) - sum(found.constraints.values())


@contextlib.contextmanager
def logging_solver(found: Explained) -> Iterator[None]:
    """Make ``cp_model.CpSolver`` log its search into ``found`` (the engine's parameters kept)."""
    original = cp_model.CpSolver

    class LoggingSolver(original):  # type: ignore[misc, valid-type]
        def solve(self, proto: Any, *args: Any, **kwargs: Any) -> Any:
            self.parameters.log_search_progress = True
            self.parameters.log_to_stdout = False
            self.log_callback = found.log.append
            code = super().solve(proto, *args, **kwargs)
            response = self.response_proto
            found.stats.update(
                {
                    "status": self.status_name(code),
                    "branches": str(response.num_branches),
                    "conflicts": str(response.num_conflicts),
                    "binary propagations": str(response.num_binary_propagations),
                    "integer propagations": str(response.num_integer_propagations),
                    "lp iterations": str(response.num_lp_iterations),
                }
            )
            return code

    with solver_replaced(LoggingSolver):
        yield


_SOLUTION = re.compile(r"^#(\d+)\s+([\d.]+)s\s+best:(-?\d+)")
_DONE = re.compile(r"^#(Done|Model)\s+([\d.]+)s")


def log_facts(log: Sequence[str], weight: int) -> dict[str, str]:
    """From a CP-SAT log: the solutions found, when the first one and the first one of the optimal
    value came, as shares of the whole search (the log's clock is wall time, so shares rather than
    seconds), and the loaded model's size line.

    The engine's objective is ``value * weight + melds kept (+ those with a joker)``: a solution's
    value is its objective divided by ``weight``; what comes after the first solution of the best
    value only improves and proves the tie-break on the melds kept.
    """
    lines = [line for entry in log for line in entry.splitlines()]
    facts: dict[str, str] = {}
    found = [(float(match[2]), int(match[3])) for line in lines if (match := _SOLUTION.match(line))]
    ends = [float(match[2]) for line in lines if (match := _DONE.match(line))]
    if found:
        facts["solutions"] = str(len(found))
        end = max([*ends, found[-1][0]])
        best = found[-1][1] // weight
        value_at = next(at for at, objective in found if objective // weight == best)
        if end > 0:
            facts["first solution at"] = f"{found[0][0] / end:.0%}"
            facts["best value first at"] = f"{value_at / end:.0%}"
    size = next((line for line in lines if line.startswith("#Variables:")), None)
    if size is not None:
        facts["loaded"] = size.removeprefix("#Variables: ").split(" (")[0] + " variables"
    return facts


def explain(position: Position, objective: Objective) -> Explained:
    """Build, solve (logged) and extract one position, counting and timing each part; then solve
    it again with the value alone as the objective (no tie-break on the melds kept), to see what
    the tie-break costs."""
    found = Explained()
    with counting_parts(found):
        start = time.process_time()
        built = build_model(position, objective)
        found.cpu["build"] = time.process_time() - start
    count_link(found, built)
    with logging_solver(found):
        start = time.process_time()
        outcome = built.solve(10.0)
        found.cpu["solve"] = time.process_time() - start
    start = time.process_time()
    play_from_outcome(position, objective, built, outcome)
    found.cpu["extract"] = time.process_time() - start
    found.stats.update(log_facts(found.log, built.objective.weight))
    found.stats["model class"] = "marked" if built.tracks_origin else "plain"
    plain = build_model(position, objective)
    plain.model.maximize(plain.objective.value)  # replaces the lexicographic objective
    start = time.process_time()
    plain.solve(10.0)
    found.cpu["solve, value alone"] = time.process_time() - start
    return found


def report_lines(
    ident: str, position: Position, objective: Objective, found: Explained
) -> list[str]:
    """Markdown for one position."""
    table = sum(len(meld) for meld in position.table)
    jokers = sum(isinstance(piece, Joker) for meld in position.table for piece in meld)
    parts = ", ".join(
        f"{part} {found.variables[part]} / {found.constraints[part]}" for part in PART_LABELS
    )
    stats = ", ".join(f"{key} {value}" for key, value in found.stats.items())
    return [
        f"- **{ident}** ({position.rules.name}, {position.rules.players} players, objective "
        f"{objective.value}): table {table} cards in {len(position.table)} melds "
        f"({jokers} jokers), hand {len(position.hand)}",
        f"  - CPU ms: build {ms(found.cpu['build'])}, solve {ms(found.cpu['solve'])}, "
        f"extract {ms(found.cpu['extract'])}; solve with the value alone as objective "
        f"{ms(found.cpu['solve, value alone'])}",
        f"  - variables / constraints per part: {parts}; total "
        f"{found.variables.total()} / {found.constraints.total()}",
        f"  - CP-SAT: {stats}",
    ]


def summary_lines(explained: Sequence[Explained]) -> list[str]:
    """Medians over many positions: CPU per phase, variables and constraints per part."""
    phases = ", ".join(
        f"{phase} {ms(statistics.median(item.cpu[phase] for item in explained))}"
        for phase in explained[0].cpu
    )
    parts = ", ".join(
        f"{name} {statistics.median(item.variables[name] for item in explained):g} / "
        f"{statistics.median(item.constraints[name] for item in explained):g}"
        for name in PART_LABELS
    )
    return [
        f"- {len(explained)} positions, medians. CPU ms: {phases}",
        f"- variables / constraints per part: {parts}",
    ]


def main(argv: Sequence[str]) -> int:
    """Explain every chosen position of the file; print the Markdown."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path, help="JSONL positions")
    parser.add_argument("--ids", default="", help="comma-separated ids (default: every line)")
    parser.add_argument("--objective", default="cards", choices=("cards", "points"))
    parser.add_argument("--log", type=Path, default=None, help="write each CP-SAT log here")
    parser.add_argument("--summary", action="store_true", help="medians over the positions only")
    args = parser.parse_args(argv)
    wanted = {ident for ident in args.ids.split(",") if ident}
    objective = Objective(args.objective)
    out: list[str] = []
    explained: list[Explained] = []
    warmed = False
    for number, line in enumerate(args.file.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        data = json.loads(line)
        ident = str(data.get("id", f"line {number}"))
        if wanted and ident not in wanted:
            continue
        # Result files carry measurements beside the position: read the position's fields only.
        position = load_position({key: data[key] for key in POSITION_FIELDS if key in data})
        if not warmed:
            explain(position, objective)  # imports and lazy set-up, untimed
            warmed = True
        found = explain(position, objective)
        explained.append(found)
        if not args.summary:
            out += report_lines(ident, position, objective, found)
        if args.log:
            args.log.mkdir(parents=True, exist_ok=True)
            write_text_atomic(
                args.log / f"{ident}-{objective.value}.log", "\n".join(found.log) + "\n"
            )
    if args.summary and explained:
        out += summary_lines(explained)
    print("\n".join(out))
    return 0
