"""Every benchmark by the name ``python -m benchmarks NAME`` runs it under, and the runner.

Each benchmark is a module with ``main(argv) -> int`` (its exit code) that parses its own options;
the one-line description in the listing is the first line of the module's docstring, read from its
source so that listing them imports none of them (some need a peer, a cluster or a server).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Benchmark:
    """A benchmark's name on the command line and the module that runs it."""

    name: str
    module: str


BENCHMARKS = (
    Benchmark("engine", "benchmarks.compare.engine"),
    Benchmark("buckets", "benchmarks.compare.buckets"),
    Benchmark("phases", "benchmarks.compare.phases"),
    Benchmark("cold", "benchmarks.compare.cold"),
    Benchmark("gin", "benchmarks.compare.gin"),
    Benchmark("games", "benchmarks.compare.games"),
    Benchmark("bots", "benchmarks.compare.bots"),
    Benchmark("tail", "benchmarks.compare.tail"),
    Benchmark("puzzles", "benchmarks.compare.puzzles"),
    Benchmark("web", "benchmarks.compare.web"),
    Benchmark("web-abuse", "benchmarks.compare.web_abuse"),
    Benchmark("scale", "benchmarks.compare.scale"),
    Benchmark("batch-memory", "benchmarks.compare.batch_memory"),
    Benchmark("hunt-worst", "benchmarks.investigate.hunt_worst"),
    Benchmark("replay-worst", "benchmarks.investigate.replay_worst"),
    Benchmark("explain-slow", "benchmarks.investigate.explain_slow"),
    Benchmark("tiebreak-variants", "benchmarks.investigate.tiebreak_variants"),
    Benchmark("lp-gap", "benchmarks.investigate.lp_gap"),
    Benchmark("solve-floor", "benchmarks.investigate.solve_floor"),
    Benchmark("proto-writes", "benchmarks.investigate.proto_writes"),
    Benchmark("lay-downs", "benchmarks.investigate.lay_downs"),
    Benchmark("generate", "benchmarks.positions"),
    Benchmark("outputs", "benchmarks.outputs"),
)
# The listing's sections, by the package a benchmark's module is in.
SECTIONS = {
    "benchmarks.compare": "standing comparisons (benchmarks/compare/)",
    "benchmarks.investigate": "worst-case investigations (benchmarks/investigate/)",
    "benchmarks": "tools",
}
USAGE = "usage: python -m benchmarks NAME [ARGS...]"


def find(name: str) -> Benchmark | None:
    """The benchmark called ``name``, or None."""
    return next((benchmark for benchmark in BENCHMARKS if benchmark.name == name), None)


def description(module: str) -> str:
    """The first line of ``module``'s docstring, read from its source without importing it."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise LookupError(f"no module {module}")
    docstring = ast.get_docstring(ast.parse(Path(spec.origin).read_text(encoding="utf-8"))) or ""
    return docstring.partition("\n")[0].replace("``", "`")


def listing() -> str:
    """The help text: how to run a benchmark, then every benchmark by section."""
    width = max(len(benchmark.name) for benchmark in BENCHMARKS) + 2
    out = [
        USAGE,
        "",
        "Run from the repository root. `python -m benchmarks NAME --help` gives a benchmark's",
        "options; benchmarks/README.md says what each measures, benchmarks/RESULTS.md its figures.",
    ]
    for package, title in SECTIONS.items():
        out += ["", f"{title}:"]
        out += [
            f"  {benchmark.name:<{width}}{description(benchmark.module)}"
            for benchmark in BENCHMARKS
            if benchmark.module.rpartition(".")[0] == package
        ]
    return "\n".join(out)


def main(argv: Sequence[str]) -> int:
    """Run the benchmark ``argv`` names with the rest of ``argv``; its exit code.

    No name, ``-h`` or ``--help`` lists the benchmarks (exit 0); an unknown name lists them on
    standard error (exit 2).
    """
    if not argv or argv[0] in ("-h", "--help"):
        print(listing())
        return 0
    benchmark = find(argv[0])
    if benchmark is None:
        print(f"{listing()}\n\nerror: no benchmark named {argv[0]!r}", file=sys.stderr)
        return 2
    run = importlib.import_module(benchmark.module).main
    return int(run(list(argv[1:])))
