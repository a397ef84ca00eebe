"""Cold start: one process per solve, public command-line tools only (``meldsat hint`` against the
peer's console ``rsconsole`` and a one-shot peer script), timed in turns, and the table of their
medians."""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.positions import position_record
from meldsat.cards import Joker
from meldsat.position import Position


def find_executable(name: str) -> str:
    """An executable installed beside this Python (the virtualenv's bin), else on PATH."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    if found is None:
        sys.exit(f"'{name}' not found: install meldsat and benchmarks/requirements.txt")
    return found


def rsconsole_script(position: Position) -> str:
    """The console input that sets up the position and asks for the best tile-count play."""
    notation = position.rules.notation
    table = " ".join(
        "j" if isinstance(piece, Joker) else piece.text(notation)
        for meld in position.table
        for piece in meld
    )
    rack = " ".join(
        "j" if isinstance(piece, Joker) else piece.text(notation) for piece in position.hand
    )
    # "n" answers "Automatically place tiles for selected solution?"; "stop" leaves the console.
    return f"addtable {table}\naddrack {rack}\ninitial clear\nsolve tiles\nn\nstop\n"


@dataclass(frozen=True)
class ColdTool:
    """One command to time cold: argv, standard input, and how to read the cards played."""

    name: str
    argv: list[str]
    stdin: str
    cards: Callable[[str], int]


def _meldsat_cards(stdout: str) -> int:
    data = json.loads(stdout)
    for key in ("cards_played", "cards"):
        if isinstance(data.get(key), int):
            return int(data[key])
    played = data.get("played")
    return len(played) if isinstance(played, list) else -1


def _rsconsole_cards(stdout: str) -> int:
    """The tiles rsconsole lists after "Using the following tiles" (wrapped to the terminal)."""
    head, found, rest = stdout.partition("Using the following tiles from your rack:")
    if not found:
        return 0 if "No solution found" in head else -1
    listing = rest.split("Make the following sets", 1)[0]
    return len([tile for tile in listing.replace("\n", ",").split(",") if tile.strip()])


def _oneshot_cards(stdout: str) -> int:
    return int(stdout.strip().splitlines()[-1])


_PEER_ONESHOT = """
import json, sys
from rummikub_solver import MILPSolver, RuleSet, SolverMode
data = json.loads(sys.stdin.read())
names = {f"{c}{n}": i * 13 + n for i, c in enumerate("kbor") for n in range(1, 14)}
tile = lambda text: 53 if text.startswith("j") else names[text]
rules = RuleSet(solver_backend=MILPSolver("%s"))
state = rules.new_game()
state.add_table(*(tile(t) for meld in data["table"] for t in meld))
state.add_rack(*(tile(t) for t in data["hand"]))
state.initial = False
solution = rules.solve(state, SolverMode.TILE_COUNT)
print(0 if solution is None else len(solution.tiles))
"""


def cold_tools(position_file: Path, position: Position, objective: str) -> list[ColdTool]:
    record = json.dumps(position_record("cold", position))
    script = rsconsole_script(position)
    meldsat = find_executable("meldsat")
    rsconsole = find_executable("rsconsole")
    return [
        ColdTool(
            f"meldsat hint --json (objective {objective})",
            [
                meldsat,
                "hint",
                "--position",
                str(position_file),
                "--json",
                *_objective_flag(objective),
            ],
            "",
            _meldsat_cards,
        ),
        ColdTool(
            "rsconsole --solver-backend glpk_mi",
            [rsconsole, "--solver-backend", "glpk_mi"],
            script,
            _rsconsole_cards,
        ),
        ColdTool("rsconsole (default backend: HiGHS)", [rsconsole], script, _rsconsole_cards),
        ColdTool(
            "python -c: import rummikub_solver, solve once (GLPK_MI)",
            [sys.executable, "-c", _PEER_ONESHOT % "GLPK_MI"],
            record,
            _oneshot_cards,
        ),
    ]


def _objective_flag(objective: str) -> list[str]:
    return [] if not objective else ["--objective", objective]


def run_cold(
    tools: Sequence[ColdTool], runs: int, progress: Callable[[str], None]
) -> list[dict[str, Any]]:
    """Median wall time of each tool over ``runs`` runs, the tools taking turns.

    The CPU time (user + system) of each process is kept too (``cpu_median``): on a shared
    machine it depends less on other work than the wall time. A tool that fails is reported with
    its error and not run again.
    """
    times: dict[str, list[float]] = {tool.name: [] for tool in tools}
    cpu: dict[str, list[float]] = {tool.name: [] for tool in tools}
    cards: dict[str, set[int]] = {tool.name: set() for tool in tools}
    failed: dict[str, str] = {}
    for run in range(runs):
        for tool in tools:
            if tool.name in failed:
                continue
            with tempfile.TemporaryDirectory() as data_home:
                # rsconsole keeps its games in a shelve under the user data directory: start empty.
                env = {**os.environ, "XDG_DATA_HOME": data_home}
                start = time.perf_counter()
                used = _children_cpu()
                done = subprocess.run(
                    tool.argv,
                    input=tool.stdin,
                    capture_output=True,
                    text=True,
                    env=env,
                    check=False,
                )
                elapsed = time.perf_counter() - start
                used = _children_cpu() - used
            if done.returncode != 0:
                error = " ".join(done.stderr.strip().splitlines()[-1:])
                failed[tool.name] = f"exit {done.returncode}: {error}"
                continue
            times[tool.name].append(elapsed)
            cpu[tool.name].append(used)
            cards[tool.name].add(tool.cards(done.stdout))
        progress(f"cold start run {run + 1}/{runs}")
    results: list[dict[str, Any]] = []
    for tool in tools:
        entry: dict[str, Any] = {"tool": tool.name, "runs": len(times[tool.name])}
        if tool.name in failed:
            entry["failed"] = failed[tool.name]
        if times[tool.name]:
            entry |= {
                "median": statistics.median(times[tool.name]),
                "cpu_median": statistics.median(cpu[tool.name]),
                "min": min(times[tool.name]),
                "max": max(times[tool.name]),
                "cards": sorted(cards[tool.name]),
            }
        results.append(entry)
    return results


def _children_cpu() -> float:
    """User + system CPU seconds of every finished child process so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cold_table(cold: Sequence[dict[str, Any]], runs: int, *, cpu: bool = False) -> list[str]:
    """Markdown table lines of :func:`run_cold`'s results; ``cpu`` adds the median CPU time."""
    out = [
        f"| command | median s ({runs} runs) |{' median CPU s |' if cpu else ''} min s | max s "
        "| cards played |",
        "|---|---:|" + ("---:|" if cpu else "") + "---:|---:|---|",
    ]
    for entry in cold:
        if "median" not in entry:
            out.append(f"| {entry['tool']} | failed: {entry['failed']} |" + " |" * (3 + cpu))
            continue
        cards = ", ".join(str(value) for value in entry["cards"])
        cpu_cell = f" {entry['cpu_median']:.3f} |" if cpu else ""
        out.append(
            f"| {entry['tool']} | {entry['median']:.3f} |{cpu_cell} {entry['min']:.3f} | "
            f"{entry['max']:.3f} | {cards} |"
        )
    return out
