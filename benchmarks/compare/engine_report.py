"""The engine comparison's results and their Markdown report: the solve times of each solver
configuration, the positions where the two sides differ, and the cold-start table."""

from __future__ import annotations

import datetime as dt
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from benchmarks.common.cold_start import cold_table
from benchmarks.common.environment import machine, versions
from benchmarks.common.units import ms, percentile
from benchmarks.common.verdicts import EQUAL
from meldsat.position import Position

SLOW = 1.0  # seconds: a solve slower than this is counted
# The packages whose versions the report's header names.
PACKAGES = (
    "meldsat",
    "ortools",
    "rummikub-solver",
    "rummikubconsole",
    "cvxpy-base",
    "cvxopt",
    "highspy",
    "scipy",
)


@dataclass
class Series:
    """The per-position solve times of one solver configuration."""

    name: str
    times: list[float] = field(default_factory=list)
    not_proven: int = 0

    def summary(self) -> dict[str, float]:
        """Count, median, p90 and max seconds, and the solves over :data:`SLOW`."""
        data = sorted(self.times)
        return {
            "n": len(data),
            "median": statistics.median(data),
            "p90": percentile(data, 90),
            "max": data[-1],
            "over_1s": sum(1 for value in data if value > SLOW),
        }


@dataclass
class Mismatch:
    """A position where the two sides disagree on an optimum, or an answer breaks the rules."""

    ident: str
    what: str
    position: Position


def _natural(ident: str) -> tuple[str, int]:
    head, _, tail = ident.rpartition("-")
    return head, int(tail) if tail.isdigit() else 0


@dataclass
class Report:
    """Everything one run measured, ready to print as Markdown."""

    command: str
    counts: dict[str, int]
    series: Sequence[Series]
    mismatches: Sequence[Mismatch]
    tally: dict[tuple[str, str, str], int]
    cases: dict[tuple[str, str], list[str]]
    cold: Sequence[dict[str, Any]] = ()
    cold_position: str = ""
    cold_runs: int = 0
    load: Sequence[str] = ()
    source: str = ""

    def markdown(self) -> str:
        lines = [*self._header(), *self._timings(), *self._values(), *self._cold()]
        return "\n".join(lines) + "\n"

    def _header(self) -> list[str]:
        info = machine()
        found = ", ".join(f"{name} {version}" for name, version in versions(PACKAGES).items())
        return [
            f"Command: `{self.command}`  ",
            f"Date: {dt.datetime.now(dt.UTC).strftime('%Y-%m-%d %H:%M UTC')}  ",
            f"Machine: {info['nproc']} cores (`nproc`), {info['cpu']}, {info['platform']}  ",
            f"Versions: {found}  ",
            f"meldsat source: {self.source}  ",
            "Load average (1 min) before the run, after the in-process part, at the end: "
            + ", ".join(self.load)
            + " (other work on the machine shares its 2 cores)",
            "",
            f"Positions: {self.counts['rummikub']} Rummikub (both sides), "
            f"{self.counts['manipulation']} Manipulation (meldsat alone).",
            "",
        ]

    def _timings(self) -> list[str]:
        out: list[str] = []
        by_name = {entry.name: entry for entry in self.series}
        for label, peer_mode in (("cards", "tile count"), ("points", "total value")):
            base = by_name.get(f"meldsat {label}")
            if base is None:
                continue
            out += [
                f"### Rummikub, objective {label} (peer mode: {peer_mode})",
                "",
                "| solver | n | median ms | p90 ms | max ms | > 1 s | not proven "
                "| meldsat/peer median | meldsat/peer p90 |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
                _timing_row(base, base, label),
            ]
            out += [
                _timing_row(entry, base, label)
                for entry in self.series
                if entry.name.startswith("rummikub-solver") and entry.name.endswith(f" {label}")
            ]
            out.append("")
        manipulation = [entry for entry in self.series if entry.name.endswith("(manipulation)")]
        if manipulation:
            out += [
                "### Manipulation (ace high or low; the peer cannot express it): meldsat alone",
                "",
                "| solver | n | median ms | p90 ms | max ms | > 1 s | not proven |",
                "|---|---:|---:|---:|---:|---:|---:|",
            ]
            out += [_timing_row(entry, None, "") for entry in manipulation]
            out.append("")
        return out

    def _values(self) -> list[str]:
        total = self.counts["rummikub"]
        out = [
            "### Optimum values compared (Rummikub)",
            "",
            "Cards: meldsat `Objective.CARDS` against the peer's tile-count mode. Points: meldsat "
            "`Objective.POINTS` against the points (joker 30) of the peer's total-value answer.",
            "",
            "| objective | verdict | peer configuration: positions | positions |",
            "|---|---|---|---|",
        ]
        verdicts = sorted({(label, category) for label, category, _ in self.tally})
        for label, category in verdicts:
            per_peer = ", ".join(
                f"{name.removeprefix('rummikub-solver ')}: {count}"
                for (lab, cat, name), count in self.tally.items()
                if (lab, cat) == (label, category)
            )
            cases = sorted(set(self.cases.get((label, category), [])), key=_natural)
            shown = ", ".join(f"`{ident}`" for ident in cases[:12])
            more = f" and {len(cases) - 12} more" if len(cases) > 12 else ""
            listed = "" if category == EQUAL else shown + more
            out.append(f"| {label} | {category} | {per_peer} | {listed} |")
        out += ["", f"(of {total} positions per configuration)", ""]
        failures = [item for item in self.mismatches if item.what.startswith("meldsat ")]
        if failures:
            out += [f"meldsat answers that failed a check ({len(failures)}):", ""]
            out += [f"- `{item.ident}`: {item.what}" for item in failures]
            out.append("")
        return out

    def _cold(self) -> list[str]:
        if not self.cold:
            return []
        out = [
            f"### Cold start: one process per solve (position `{self.cold_position}`)",
            "",
            *cold_table(self.cold, self.cold_runs),
        ]
        out.append("")
        return out


def _timing_row(entry: Series, base: Series | None, label: str) -> str:
    summary = entry.summary()
    name = entry.name.removesuffix(f" {label}") if label else entry.name
    cells = [
        name,
        f"{summary['n']:.0f}",
        ms(summary["median"]),
        ms(summary["p90"]),
        ms(summary["max"]),
        f"{summary['over_1s']:.0f}",
    ]
    if base is None:
        cells.append(str(entry.not_proven))
    elif entry is base:
        cells += [str(entry.not_proven), "—", "—"]
    else:
        reference = base.summary()
        cells += [
            "n/a",
            f"{reference['median'] / summary['median']:.2f}",
            f"{reference['p90'] / summary['p90']:.2f}",
        ]
    return "| " + " | ".join(cells) + " |"
