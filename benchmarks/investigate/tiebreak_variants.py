"""Ways to prove the tie-break faster, tried on the slow positions: CP-SAT options, model changes.

Run from the repository root (meldsat alone)::

    python -m benchmarks tiebreak-variants benchmarks/worst-positions.jsonl --repeats 1

The engine's objective is lexicographic in one weighted solve (the value, then the original melds
kept, then those of them holding a joker); on the slowest positions proving the tie-break takes
most of the time. For every position and both objectives this builds the engine's model
(``meldsat.engine.search.build_model``) and solves it once per variant, by CPU time
(``time.process_time``) of the whole solve (a variant that solves twice counts both):

* ``engine``: as the engine solves it;
* a CP-SAT option set on top of the engine's own (``core``, ``lb-tree``, ``objective-lb``, ...):
  ``cp_model.CpSolver`` is wrapped for the time of one call, as ``explain-slow`` does;
* ``identical-ordered``: of two original melds with the same cards the first is kept before the
  second (a valid symmetry cut);
* ``value-bound`` / ``value-fixed`` / ``value-hint``: first the value alone is solved (proven),
  then the full objective with ``value <= best``, ``value == best``, or that solution as a hint;
* ``keep-first-partial`` / ``-fixed`` / ``-pseudo``: a decision strategy deciding the kept-meld
  booleans first (in table order, kept first), under CP-SAT's partial fixed, fixed or pseudo-cost
  search;
* ``root-cuts``, ``root-cg``, ``root-mir``, ``root-zero-half``, ``cut-level-2``: CP-SAT's cuts
  (all of them or one family, or all at cut level 2) added at the root only;
* ``seed-1`` to ``seed-7``: the engine with another random seed (is a slow position unlucky, or
  hard whatever the search's choices?);
* ``interleave-core``, ``-max-lp``, ``-pseudo-costs``, ``-quick-restart``, ``-no-lp``: CP-SAT's
  portfolio on one thread (``interleave_search``), the engine's ``default_lp`` search and one
  other full-problem subsolver taking turns and sharing solutions and bounds;
* ``linearization-0``: no LP at all.

The ``least`` column is, per position and objective, the least time of the variants run: the time
a solver picking the best variant for each position with hindsight would take.

Every variant must reach OPTIMAL with the engine's objective value: the table says where not.
Nothing in the engine is changed.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.common.units import command_line, program
from benchmarks.investigate.solver_swap import solver_replaced
from benchmarks.investigate.timing import OBJECTIVES, recorded
from meldsat.engine.cpsat import cp_model
from meldsat.engine.model import RearrangementModel
from meldsat.engine.search import build_model
from meldsat.files import write_text_atomic
from meldsat.play import Objective
from meldsat.position import Position, load_position

COMMAND = program("tiebreak-variants")

# CP-SAT options set on top of the engine's parameters, one variant each.
OPTIONS: dict[str, dict[str, Any]] = {
    "core": {"optimize_with_core": True},
    "lb-tree": {"optimize_with_lb_tree_search": True},
    "objective-lb": {"use_objective_lb_search": True},
    "linearization-2": {"linearization_level": 2},
    "cuts": {"add_mir_cuts": True, "add_zero_half_cuts": True, "add_clique_cuts": True},
    "presolve": {"cp_model_presolve": True},
    "presolve-symmetry": {"cp_model_presolve": True, "symmetry_level": 2},
    "probing": {"cp_model_probing_level": 2},
    "pseudo-cost": {"search_branching": cp_model.PSEUDO_COST_SEARCH},
    "lp-search": {"search_branching": cp_model.LP_SEARCH},
    "quick-restart": {"search_branching": cp_model.PORTFOLIO_WITH_QUICK_RESTART_SEARCH},
    "exploit": {"exploit_best_solution": True, "exploit_all_lp_solution": True},
    "polish-lp": {"polish_lp_solution": True},
    "keep-first-partial": {"search_branching": cp_model.PARTIAL_FIXED_SEARCH},
    "keep-first-fixed": {"search_branching": cp_model.FIXED_SEARCH},
    "keep-first-pseudo": {"search_branching": cp_model.PSEUDO_COST_SEARCH},
    "root-cuts": {
        "add_cg_cuts": True,
        "add_mir_cuts": True,
        "add_zero_half_cuts": True,
        "add_clique_cuts": True,
        "only_add_cuts_at_level_zero": True,
    },
    "root-cg": {"add_cg_cuts": True, "only_add_cuts_at_level_zero": True},
    "root-mir": {"add_mir_cuts": True, "only_add_cuts_at_level_zero": True},
    "root-zero-half": {"add_zero_half_cuts": True, "only_add_cuts_at_level_zero": True},
    "objective-cut": {"add_objective_cut": True},
    "linearization-0": {"linearization_level": 0},
    **{f"seed-{seed}": {"random_seed": seed} for seed in range(1, 8)},
    **{
        f"interleave-{name.replace('_', '-')}": {
            "num_workers": 2,
            "interleave_search": True,
            "use_lns": False,
            "subsolvers": ["default_lp", name],
        }
        for name in ("core", "max_lp", "pseudo_costs", "quick_restart", "no_lp")
    },
    "cut-level-2": {
        "add_cg_cuts": True,
        "add_mir_cuts": True,
        "add_zero_half_cuts": True,
        "cut_level": 2,
        "only_add_cuts_at_level_zero": True,
    },
}

# (status, objective value of the full model) of one solve.
Answer = tuple[str, float]


@dataclass
class Slowest:
    """The slowest solve of a rule set's positions: the engine's, and the least of the variants'
    (per position and objective, the best variant picked with hindsight)."""

    engine: float | None = None  # None when the engine itself was not among the variants
    least: float = 0.0  # math.inf when some solve had no correct variant


def rule_set_table(by_rule_set: dict[str, Slowest]) -> list[str]:
    """Markdown rows: per rule set, the slowest solve of the engine and of the least column."""
    rows = [
        "| rule set | slowest, engine ms | slowest, least of the variants ms |",
        "|---|---:|---:|",
    ]
    for label, slowest in by_rule_set.items():
        engine, least = (
            "—" if seconds is None or math.isinf(seconds) else f"{seconds * 1000:.1f}"
            for seconds in (slowest.engine, slowest.least)
        )
        rows.append(f"| {label} | {engine} | {least} |")
    return rows


@contextlib.contextmanager
def solver_options(options: dict[str, Any]) -> Iterator[None]:
    """Make ``cp_model.CpSolver`` set ``options`` after the engine has set its own parameters."""
    original = cp_model.CpSolver

    class OptionSolver(original):  # type: ignore[misc, valid-type]
        def solve(self, proto: Any, *args: Any, **kwargs: Any) -> Any:
            for name, value in options.items():
                if isinstance(value, list):  # a repeated field is extended, not assigned
                    getattr(self.parameters, name).extend(value)
                else:
                    setattr(self.parameters, name, value)
            code = super().solve(proto, *args, **kwargs)
            answers.append((self.status_name(code), self.objective_value))
            solvers.append(self)
            return code

    with solver_replaced(OptionSolver):
        yield


answers: list[Answer] = []  # what each wrapped solve returned, last one last
solvers: list[Any] = []  # the wrapped solvers, last one last (to read a solution's values)


def order_identical(model: RearrangementModel) -> None:
    """Keep the first of two original melds with the same cards before the second."""
    first: dict[tuple[Any, ...], Any] = {}
    for keep, meld in zip(model.kept.keep, model.inventory.melds, strict=True):
        key = (tuple(sorted(meld.real.items())), tuple(sorted(meld.jokers.items())))
        if key in first:
            model.model.add(first[key] >= keep)
        else:
            first[key] = keep


def after_value(mode: str) -> Callable[[RearrangementModel, Position, Objective], None]:
    """Solve the value alone (the engine's parameters), then bound, fix or hint the full model."""

    def prepare(model: RearrangementModel, position: Position, objective: Objective) -> None:
        alone = build_model(position, objective)
        alone.model.maximize(alone.objective.value)
        with solver_options({}):
            outcome = alone.solve()
        if outcome.solution is None:
            return
        best = outcome.solution.value
        if mode == "bound":
            model.model.add(model.objective.value <= best)
        elif mode == "fixed":
            model.model.add(model.objective.value == best)
        else:  # the two models are built alike, so their variables correspond by index
            for index in range(len(model.model.proto.variables)):
                var = model.model.get_int_var_from_proto_index(index)
                same = alone.model.get_int_var_from_proto_index(index)
                model.model.add_hint(var, solvers[-1].value(same))

    return prepare


def keep_strategy(value: Any) -> Callable[[RearrangementModel, Position, Objective], None]:
    """Decide the kept-meld booleans first, in table order, trying ``value`` first."""

    def prepare(model: RearrangementModel, _position: Position, _objective: Objective) -> None:
        if model.kept.keep:
            model.model.add_decision_strategy(model.kept.keep, cp_model.CHOOSE_FIRST, value)

    return prepare


Prepare = Callable[[RearrangementModel, Position, Objective], None]
CHANGES: dict[str, Prepare] = {
    "keep-first-partial": keep_strategy(cp_model.SELECT_MAX_VALUE),
    "keep-first-fixed": keep_strategy(cp_model.SELECT_MAX_VALUE),
    "keep-first-pseudo": keep_strategy(cp_model.SELECT_MAX_VALUE),
    "identical-ordered": lambda model, _position, _objective: order_identical(model),
    "value-bound": after_value("bound"),
    "value-fixed": after_value("fixed"),
    "value-hint": after_value("hint"),
}
VARIANTS = ["engine", *CHANGES, *OPTIONS]


def time_variant(position: Position, objective: Objective, variant: str) -> tuple[float, Answer]:
    """CPU seconds of one solve under ``variant`` (with its own preparation) and its answer."""
    gc.collect()
    model = build_model(position, objective)
    start = time.process_time()
    if variant in CHANGES:
        CHANGES[variant](model, position, objective)
    with solver_options(OPTIONS.get(variant, {})):
        model.solve()
    return time.process_time() - start, answers[-1]


@dataclass
class Tally:
    """What the report sums up over the positions: per variant the total and the slowest solve,
    per rule set the slowest of the engine and of the least column."""

    totals: dict[str, float]
    worst: dict[str, float]
    by_rule_set: dict[str, Slowest] = field(default_factory=dict)


def position_row(
    position: Position, label: str, variants: Sequence[str], repeats: int, tally: Tally
) -> str:
    """Solve ``position`` under every variant, both objectives; its table cells, tallied."""
    slowest = tally.by_rule_set.setdefault(label, Slowest())
    cells: dict[str, list[str]] = {name: [] for name in [*variants, "least"]}
    for objective in OBJECTIVES:
        reference: Answer | None = None
        least = math.inf
        for name in variants:
            runs = [time_variant(position, objective, name) for _ in range(repeats)]
            seconds, answer = min(runs, key=lambda run: run[0])
            if name == "engine":
                reference = answer
                slowest.engine = max(slowest.engine or 0.0, seconds)
            wrong = answer[0] != "OPTIMAL" or (reference is not None and answer != reference)
            cells[name].append(f"{seconds * 1000:.1f}" + ("!" if wrong else ""))
            tally.totals[name] += seconds
            tally.worst[name] = max(tally.worst[name], seconds)
            if not wrong:
                least = min(least, seconds)
        cells["least"].append("—" if math.isinf(least) else f"{least * 1000:.1f}")
        slowest.least = max(slowest.least, least)
    return " | ".join(" / ".join(cells[name]) for name in [*variants, "least"])


def main(argv: Sequence[str]) -> int:
    """Time every variant on every chosen position; print the Markdown table."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path, help="JSONL positions, e.g. worst-positions.jsonl")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated")
    parser.add_argument("--ids", default="", help="comma-separated id prefixes (default: all)")
    parser.add_argument("--repeats", type=int, default=1, help="least CPU time of this many")
    parser.add_argument("--out", type=Path, help="also write the table here")
    args = parser.parse_args(argv)
    variants = [name for name in args.variants.split(",") if name]
    unknown = [name for name in variants if name not in VARIANTS]
    if unknown:
        parser.error(f"unknown variant {unknown[0]!r}; known: {', '.join(VARIANTS)}")
    prefixes = [prefix for prefix in args.ids.split(",") if prefix]
    out = [
        f"Command: `{command_line(COMMAND, argv)}`",
        "",
        "CPU ms, cards / points; `!`: not OPTIMAL with the engine's objective value.",
        "",
        "| id | " + " | ".join([*variants, "least"]) + " |",
        "|---|" + "---:|" * (len(variants) + 1),
    ]
    tally = Tally(dict.fromkeys(variants, 0.0), dict.fromkeys(variants, 0.0))
    for line in args.file.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        data = json.loads(line)
        if prefixes and not any(str(data["id"]).startswith(p) for p in prefixes):
            continue
        position = load_position(data)
        then = recorded(str(data.get("comment", "")))
        label = then[0] if then else position.rules.name
        out.append(
            f"| {data['id']} | {position_row(position, label, variants, args.repeats, tally)} |"
        )
        print(out[-1], flush=True)
    out.append(
        "| **sum** | " + " | ".join(f"{tally.totals[n] * 1000:.0f}" for n in variants) + " | |"
    )
    out.append(
        "| **slowest** | " + " | ".join(f"{tally.worst[n] * 1000:.1f}" for n in variants) + " | |"
    )
    summary = ["", *rule_set_table(tally.by_rule_set)]
    print("\n".join([*out[-2:], *summary]))
    if args.out:
        write_text_atomic(args.out, "\n".join([*out, *summary]) + "\n")
    return 0
