"""The tie-break's LP gap: how far the LP bound on melds kept is from the truth, and what closes it.

Run from the repository root (meldsat alone)::

    python -m benchmarks lp-gap benchmarks/worst-positions.jsonl --ids hunt-rummikub-3-1

For each position the engine's model is built (``meldsat.engine.search.build_model``) and solved
in two CP-SAT stages: the value alone (points or cards played, proven), then, with the value fixed,
the tie-break (original melds kept, then those of them holding a joker), proven: the *optimum*
below, with CP-SAT's branches. The second stage's linear constraints then go to OR-Tools' linear
solver wrapper, as an analysis aid only (the engine proves everything with CP-SAT):

* ``lp``: the bound of the LP relaxation (GLOP);
* ``kept integral``: the bound with only the kept-meld booleans integral (SCIP, with its own
  presolve and cuts), and ``all integral``: the model as it is, solved by SCIP (its nodes and
  wall-clock seconds);
* ``B&B nodes``: a plain LP branch-and-bound that branches only on the kept-meld booleans (most
  fractional first, no cuts) until the optimum is proven, given the optimum as incumbent; ``>N``
  when it needed more than ``--nodes``, ``not alone`` when it reached kept-meld choices all whole
  whose LP still beats the optimum (the groups and runs need branching too).

A bound equal to the optimum means that relaxation alone proves the tie-break. Linear, exactly-one,
at-most-one and clause constraints are relaxed as they are; any other (none in the engine's
models), and any with an enforcement literal, is left out and counted.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ortools.linear_solver import pywraplp
from ortools.sat import cp_model_pb2

from benchmarks.common.units import command_line, program
from meldsat.engine.cpsat import cp_model
from meldsat.engine.model import RearrangementModel
from meldsat.engine.search import build_model
from meldsat.play import Objective
from meldsat.position import load_position

COMMAND = program("lp-gap")
_INFINITY = 2**62  # CP-SAT's domains use large integers for "no bound"


@dataclass(frozen=True)
class Gap:
    """One position's tie-break: the optimum, CP-SAT's branches and each relaxation's bound."""

    ident: str
    optimum: int
    branches: int
    lp: float
    kept_integral: float
    all_integral: float
    whole_nodes: int
    whole_seconds: float
    nodes: str
    skipped: int


def second_stage(model: RearrangementModel) -> tuple[int, int]:
    """Fix the proven best value in ``model`` and make the tie-break its objective; return the
    tie-break's proven optimum and CP-SAT's branches."""
    cp = model.model
    value = model.objective.value
    cp.maximize(value)
    first = model.solver()
    if first.solve(cp) != cp_model.OPTIMAL:
        raise RuntimeError("the value was not proven")
    cp.add(value == int(first.objective_value))
    cp.maximize(model.objective.tie_break)
    second = model.solver()
    if second.solve(cp) != cp_model.OPTIMAL:
        raise RuntimeError("the tie-break was not proven")
    return int(second.objective_value), int(second.num_branches)


def proto_of(model: cp_model.CpModel) -> cp_model_pb2.CpModelProto:
    """The model as a protocol buffer (written out and read back: the stable way to walk it)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.pb"
        model.export_to_file(str(path))
        proto = cp_model_pb2.CpModelProto()
        proto.ParseFromString(path.read_bytes())
    return proto


def relaxation(
    proto: cp_model_pb2.CpModelProto, backend: str, integral: Callable[[str], bool]
) -> tuple[pywraplp.Solver, list[pywraplp.Variable], int]:
    """The linear constraints of ``proto`` in ``backend`` (variables named by ``integral``
    integral), the objective minimised as CP-SAT stores it; and the constraints left out."""
    solver = pywraplp.Solver.CreateSolver(backend)
    if solver is None:
        raise RuntimeError(f"OR-Tools has no {backend} here")
    variables = []
    for var in proto.variables:
        low, high = var.domain[0], var.domain[-1]
        make = solver.IntVar if integral(var.name) else solver.NumVar
        variables.append(make(low, high, var.name))
    skipped = 0

    def literal(index: int) -> pywraplp.LinearExpr:
        return variables[index] if index >= 0 else 1 - variables[-index - 1]

    for constraint in proto.constraints:
        kind = constraint.WhichOneof("constraint")
        if constraint.enforcement_literal:
            skipped += 1
            continue
        if kind in ("exactly_one", "at_most_one", "bool_or"):
            literals = solver.Sum([literal(index) for index in getattr(constraint, kind).literals])
            if kind != "bool_or":
                solver.Add(literals <= 1)
            if kind != "at_most_one":
                solver.Add(literals >= 1)
            continue
        if kind != "linear":
            skipped += 1
            continue
        linear = constraint.linear
        terms = [
            coef * variables[var] for var, coef in zip(linear.vars, linear.coeffs, strict=True)
        ]
        low, high = linear.domain[0], linear.domain[-1]
        if low > -_INFINITY:
            solver.Add(solver.Sum(terms) >= low)
        if high < _INFINITY:
            solver.Add(solver.Sum(terms) <= high)
    objective = proto.objective
    solver.Minimize(
        solver.Sum(
            [
                coef * variables[var]
                for var, coef in zip(objective.vars, objective.coeffs, strict=True)
            ]
        )
    )
    return solver, variables, skipped


def bound(solver: pywraplp.Solver, seconds: float) -> float:
    """The maximised objective's proven bound after solving (CP-SAT stores it negated)."""
    solver.SetTimeLimit(int(seconds * 1000))
    solver.Solve()
    best = float(solver.Objective().BestBound())
    if not math.isfinite(best):  # an LP (GLOP) states its optimum as the value, not a bound
        best = float(solver.Objective().Value())
    return -best


def kept_nodes(proto: cp_model_pb2.CpModelProto, optimum: int, limit: int) -> str:
    """Nodes an LP branch-and-bound on the kept-meld booleans alone needs to prove ``optimum``."""
    solver, variables, _ = relaxation(proto, "GLOP", lambda _name: False)
    branchable = [
        variables[index]
        for index, var in enumerate(proto.variables)
        if var.name.startswith("keep_")
    ]
    nodes = 0
    stuck = False

    def explore() -> bool:
        """False when the node limit was reached."""
        nonlocal nodes
        nodes += 1
        if nodes > limit:
            return False
        if solver.Solve() != pywraplp.Solver.OPTIMAL:
            return True  # infeasible: pruned
        if -solver.Objective().Value() < optimum + 1 - 1e-6:
            return True  # cannot beat the optimum: pruned
        fractional = [
            (abs(var.solution_value() - round(var.solution_value())), index)
            for index, var in enumerate(branchable)
        ]
        gap, index = max(fractional, default=(0.0, -1))
        if gap <= 1e-6:
            # Every kept-meld boolean is whole and the LP still beats the optimum: branching on
            # them alone cannot prove it (the groups and runs would have to be branched on too).
            nonlocal stuck
            stuck = True
            return False
        var = branchable[index]
        low, high, value = var.lb(), var.ub(), var.solution_value()
        var.SetBounds(low, math.floor(value))
        going = explore()
        var.SetBounds(math.ceil(value), high)
        going = going and explore()
        var.SetBounds(low, high)
        return going

    if explore():
        return str(nodes)
    return "not alone" if stuck else f">{limit}"


def measure(ident: str, model: RearrangementModel, seconds: float, limit: int) -> Gap:
    """Every figure of one position (``model`` is changed: it gets the second stage)."""
    optimum, branches = second_stage(model)
    proto = proto_of(model.model)
    lp, _, skipped = relaxation(proto, "GLOP", lambda _name: False)
    kept, _, _ = relaxation(proto, "SCIP", lambda name: name.startswith("keep_"))
    whole, _, _ = relaxation(proto, "SCIP", lambda _name: True)
    started = time.perf_counter()
    whole_bound = bound(whole, seconds)
    whole_seconds = time.perf_counter() - started
    return Gap(
        ident=ident,
        optimum=optimum,
        branches=branches,
        lp=bound(lp, seconds),
        kept_integral=bound(kept, seconds),
        all_integral=whole_bound,
        whole_nodes=int(whole.nodes()),
        whole_seconds=whole_seconds,
        nodes=kept_nodes(proto, optimum, limit),
        skipped=skipped,
    )


def main(argv: Sequence[str]) -> int:
    """Measure every chosen position's gap; print the Markdown table."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path, help="JSONL positions, e.g. worst-positions.jsonl")
    parser.add_argument("--ids", default="", help="comma-separated ids (default: all)")
    parser.add_argument("--objective", default="cards", choices=("cards", "points"))
    parser.add_argument("--seconds", type=float, default=30.0, help="SCIP's limit a bound")
    parser.add_argument("--nodes", type=int, default=5000, help="branch-and-bound node limit")
    args = parser.parse_args(argv)
    wanted = {ident for ident in args.ids.split(",") if ident}
    objective = Objective(args.objective)
    print(f"Command: `{command_line(COMMAND, argv)}`\n")
    print(
        "| id | tie-break optimum | CP-SAT branches | LP bound | kept integral | all integral "
        "| SCIP nodes, s | B&B nodes on kept | constraints left out |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for line in args.file.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        data = json.loads(line)
        ident = str(data.get("id", ""))
        if wanted and ident not in wanted:
            continue
        started = time.process_time()
        gap = measure(ident, build_model(load_position(data), objective), args.seconds, args.nodes)
        print(
            f"| {gap.ident} | {gap.optimum} | {gap.branches} | {gap.lp:.2f} "
            f"| {gap.kept_integral:.2f} | {gap.all_integral:.2f} "
            f"| {gap.whole_nodes}, {gap.whole_seconds:.2f} | {gap.nodes} | {gap.skipped} |",
            flush=True,
        )
        print(f"[lp_gap] {ident}: {time.process_time() - started:.1f} s", file=sys.stderr)
    return 0
