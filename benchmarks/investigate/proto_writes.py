"""The floor of a model's build: what writing its proto through OR-Tools' Python API alone costs.

Run from the repository root (meldsat alone)::

    python -m benchmarks proto-writes --tables 10,20,40 --positions 15 --seed 1

For every position of the chosen buckets (``benchmarks.common.buckets``, Rummikub, cards played)
that needs a model (``best_play`` proves the others have no move without one) the engine's model
is built as ``best_play`` builds it (``meldsat.engine.search.solving_model``),
timed (CPU, least of ``--repeat``). Then the same proto's contents, read into plain Python lists
beforehand, are written into a fresh proto the way ``meldsat.engine.direct`` writes them (the
variables as one text, each linear constraint by ``add()`` and three ``extend`` calls, the
objective's two), and that is timed too: the part of the build no Python logic of meldsat's can
remove while OR-Tools' proto is written from Python. A second floor writes the variables and
constraints as one text (made beforehand, not timed) in a single call. It reports both medians,
their share of the build, and the constraints a model.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model_helper

from benchmarks.common.buckets import RACK_JOKERS, RACKS, Bucket, bucket_positions
from benchmarks.common.units import command_line, program
from meldsat.engine.no_move import has_no_move
from meldsat.engine.search import solving_model
from meldsat.play import Objective

COMMAND = program("proto-writes")
Linear = tuple[list[int], list[int], list[int]]


@dataclass(frozen=True)
class Contents:
    """A built model's proto as plain lists: variables' domains, linear constraints, clauses
    (``bool_or`` literals) and the objective's variables and coefficients."""

    domains: list[list[int]]
    linears: list[Linear]
    clauses: list[list[int]]
    objective: tuple[list[int], list[int]]


def contents(proto: cp_model_helper.CpModelProto) -> Contents:
    """Read ``proto`` into lists (its constraints are linear or ``bool_or``, as the engine's)."""
    linears: list[Linear] = []
    clauses: list[list[int]] = []
    for constraint in proto.constraints:
        if constraint.has_linear():
            linear = constraint.linear
            linears.append((list(linear.vars), list(linear.coeffs), list(linear.domain)))
        elif constraint.has_bool_or():
            clauses.append(list(constraint.bool_or.literals))
        else:
            raise ValueError("a constraint neither linear nor bool_or")
    domains = [list(variable.domain) for variable in proto.variables]
    objective = (list(proto.objective.vars), list(proto.objective.coeffs))
    return Contents(domains, linears, clauses, objective)


def _variables_text(domains: list[list[int]]) -> str:
    return " ".join(f"variables{{domain:{low} domain:{high}}}" for low, high in domains)


def write_by_calls(model: Contents) -> None:
    """The model written as ``meldsat.engine.direct._Writer`` writes it."""
    proto = cp_model_helper.CpModelProto()
    proto.merge_text_format(_variables_text(model.domains))
    add = proto.constraints.add
    for variables, coefficients, domain in model.linears:
        linear = add().linear
        linear.vars.extend(variables)
        linear.coeffs.extend(coefficients)
        linear.domain.extend(domain)
    for literals in model.clauses:
        add().bool_or.literals.extend(literals)
    objective = proto.objective
    objective.vars.extend(model.objective[0])
    objective.coeffs.extend(model.objective[1])


def write_as_text(text: str) -> None:
    """The whole model written from its text (:func:`model_text`, made beforehand)."""
    proto = cp_model_helper.CpModelProto()
    proto.merge_text_format(text)


def model_text(model: Contents) -> str:
    """The variables and constraints of ``model`` as one text of the proto's text format."""
    parts = [_variables_text(model.domains)]
    for variables, coefficients, domain in model.linears:
        terms = " ".join(f"vars:{var}" for var in variables)
        coeffs = " ".join(f"coeffs:{coeff}" for coeff in coefficients)
        bounds = " ".join(f"domain:{bound}" for bound in domain)
        parts.append(f"constraints{{linear{{{terms} {coeffs} {bounds}}}}}")
    for literals in model.clauses:
        parts.append("constraints{bool_or{" + " ".join(f"literals:{x}" for x in literals) + "}}")
    return " ".join(parts)


def least_time(work: Callable[[], object], repeat: int) -> float:
    """The least CPU seconds of ``repeat`` runs of ``work``."""
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return best


def main(argv: Sequence[str]) -> int:
    """Time the builds and the two floors; print a Markdown table."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="10,20,40", help="bucket table sizes, comma-separated")
    parser.add_argument("--positions", type=int, default=15, help="positions a bucket")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each timing (least kept)")
    args = parser.parse_args(argv)
    builds: list[float] = []
    calls: list[float] = []
    texts: list[float] = []
    sizes: list[int] = []
    for table in args.tables.split(","):
        for rack in RACKS:
            for jokers in RACK_JOKERS:
                bucket = Bucket(table, rack, jokers)
                for _, position in bucket_positions(bucket, args.seed, args.positions):
                    if has_no_move(position):
                        continue
                    make = functools.partial(solving_model, position, Objective.CARDS)
                    builds.append(least_time(make, args.repeat))
                    model = contents(make().model.proto)
                    calls.append(least_time(functools.partial(write_by_calls, model), args.repeat))
                    text = model_text(model)
                    texts.append(least_time(functools.partial(write_as_text, text), args.repeat))
                    sizes.append(len(model.linears) + len(model.clauses))
    build, by_calls, as_text = (statistics.median(x) * 1e3 for x in (builds, calls, texts))
    print(f"Command: `{command_line(COMMAND, argv)}`\n")
    print(f"{len(builds)} models, {statistics.median(sizes):.0f} constraints at the median\n")
    print("| CPU ms a model | build | proto written by calls | proto written as text |")
    print("| --- | ---: | ---: | ---: |")
    print(
        f"| median | {build:.3f} | {by_calls:.3f} ({by_calls / build:.0%}) | {as_text:.3f} "
        f"({as_text / build:.0%}) |"
    )
    return 0
