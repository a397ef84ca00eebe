"""Side-by-side benchmark: meldsat's exact engine against the peer solver ``rummikub-solver``.

Run from the repository root, with the peers installed (``pip install -r
benchmarks/requirements.txt``)::

    python benchmarks/bench_engine.py --positions 200 --seed 1

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
import datetime as dt
import gc
import itertools
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: make the ``benchmarks`` package importable
    sys.path.insert(0, str(ROOT))

from benchmarks.positions import generate, position_record  # noqa: E402
from benchmarks.units import ms, percentile  # noqa: E402
from meldsat.cards import Card, Joker, Piece, represented_card  # noqa: E402
from meldsat.engine.search import best_play  # noqa: E402
from meldsat.melds import meld_shapes  # noqa: E402
from meldsat.moves import ReasonCode, check_move  # noqa: E402
from meldsat.play import Objective, Play, Status  # noqa: E402
from meldsat.position import Position  # noqa: E402
from meldsat.rules import RuleSet  # noqa: E402

PEER_BACKENDS = ("GLPK_MI", "HIGHS", "SCIPY")
OBJECTIVES = (Objective.CARDS, Objective.POINTS)
PEER_JOKER = 53  # rummikub-solver's joker tile with 13 numbers in 4 colours
SLOW = 1.0  # seconds: a solve slower than this is counted


# --------------------------------------------------------------------------------------------
# The peer, driven through its public API (rummikub_solver.RuleSet, GameState, SolverMode).


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


def load_peer() -> Any:
    """The ``rummikub_solver`` module, or exit with a hint on how to install it."""
    try:
        import rummikub_solver
    except ImportError:
        sys.exit("rummikub-solver is missing: pip install -r benchmarks/requirements.txt")
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


# --------------------------------------------------------------------------------------------
# Re-checking both sides' answers with meldsat's rule checker (independent of its engine).


def _key(piece: Piece) -> Card | str:
    return "joker" if isinstance(piece, Joker) else piece


JOKER_LOCKING = "re-declares a table joker while its real card is not on the table"


def _declarations(sets: Sequence[Sequence[Piece]], rules: RuleSet) -> Iterator[list[list[Piece]]]:
    """Every way to declare the undeclared jokers of legal sets: the tables they make."""
    options: list[list[list[Piece]]] = []
    for meld in sets:
        known = [piece for piece in meld if isinstance(piece, Card)]
        wild = len(meld) - len(known)
        if not wild:
            options.append([list(meld)])
            continue
        declared = sorted({jokers for _, jokers in meld_shapes(known, wild, rules)})
        options.append([[*known, *(Joker(card) for card in jokers)] for jokers in declared])
    for choice in itertools.product(*options):
        yield list(choice)


def check_peer(position: Position, answer: PeerAnswer) -> str | None:
    """Why the peer's answer breaks meldsat's rules, or None when it is a legal play.

    The peer's sets carry undeclared jokers; the play is legal when some declaration of them makes
    a legal turn for meldsat's move checker (``meldsat.moves.check_move``, independent of the
    engine). When every declaration fails only on joker locking the answer is
    :data:`JOKER_LOCKING`: the peer treats every joker on the table as free to stand for any tile.
    """
    if not answer.tiles:
        return None
    if Counter(map(_key, answer.tiles)) - Counter(map(_key, position.hand)):
        return "places tiles that are not on the rack"
    rules = position.rules
    for meld in answer.sets:
        known = [piece for piece in meld if isinstance(piece, Card)]
        if not meld_shapes(known, len(meld) - len(known), rules):
            return f"illegal set {' '.join(piece.text(rules.notation) for piece in meld)}"
    before = Counter(_key(piece) for meld in position.table for piece in meld)
    after = Counter(_key(piece) for meld in answer.sets for piece in meld)
    if after != before + Counter(map(_key, answer.tiles)):
        return "its sets do not hold exactly the table plus the tiles placed"
    codes: set[str] = set()
    for table in _declarations(answer.sets, rules):
        verdict = check_move(position.table, position.hand, table, rules)
        if verdict.legal:
            return None
        codes.update(reason.code for reason in verdict.reasons)
    if codes == {ReasonCode.JOKER_REDECLARED}:
        return JOKER_LOCKING
    return "move checker: " + ", ".join(sorted(codes))


def check_meldsat(position: Position, play: Play) -> str | None:
    """Why meldsat's play breaks the rules (``meldsat.moves.check_move``), or None when legal."""
    if not play.found:
        return None
    verdict = check_move(position.table, position.hand, play.table, position.rules)
    if not verdict.legal:
        return "move checker: " + "; ".join(reason.message for reason in verdict.reasons)
    if Counter(map(_key, verdict.played)) != Counter(map(_key, play.played)):
        return "the cards played differ from what the table gained"
    if play.cards_played != len(play.played):
        return f"cards_played is {play.cards_played} but {len(play.played)} cards are played"
    if play.points_played != points(position.rules, play.played):
        return f"points_played is {play.points_played}, the cards played count differently"
    return None


def meldsat_problem(position: Position, play: Play) -> str | None:
    """What is wrong with meldsat's answer (not proven optimal, or illegal), or None."""
    if play.status not in (Status.OPTIMAL, Status.NO_MOVE):
        return f"not proven optimal ({play.status.value})"
    return check_meldsat(position, play)


EQUAL = "equal"
PEER_LOCKING = "peer higher: its play re-declares a locked table joker (rule difference)"
PEER_ILLEGAL = "peer higher: its play breaks the rules"
MELDSAT_SHORT = "PEER HIGHER WITH A LEGAL PLAY: meldsat's optimum is wrong"
PEER_JOKER_SETS = "peer lower: meldsat's play needs a joker set the peer omits"
PEER_VALUE_MODE = "peer lower: its total value mode maximises the tile count"
PEER_UNEXPLAINED = "PEER LOWER, UNEXPLAINED"


def classify(position: Position, play: Play, answer: PeerAnswer, objective: Objective) -> str:
    """How the peer's answer compares with meldsat's optimum, and why they differ."""
    if objective is Objective.CARDS:
        ours, theirs = play.cards_played, len(answer.tiles)
    else:
        ours, theirs = play.points_played, points(position.rules, answer.tiles)
    if ours == theirs:
        return EQUAL
    if theirs > ours:
        problem = check_peer(position, answer)
        if problem == JOKER_LOCKING:
            return PEER_LOCKING
        return MELDSAT_SHORT if problem is None else f"{PEER_ILLEGAL} ({problem})"
    if objective is Objective.POINTS:
        return PEER_VALUE_MODE
    return PEER_JOKER_SETS if uses_omitted_joker_set(play.table) else PEER_UNEXPLAINED


def uses_omitted_joker_set(table: Iterable[Sequence[Piece]]) -> bool:
    """True when a meld holds a joker in a 4-card group or at an end of a 4-5 card run.

    rummikub-solver leaves such sets out on purpose (its README: they leave a joker free for the
    next player), so it cannot make plays that need one.
    """
    for meld in table:
        if not any(isinstance(piece, Joker) for piece in meld):
            continue
        cards = [card for card in map(represented_card, meld) if card is not None]
        group = len({card.rank for card in cards}) == 1 and len({card.suit for card in cards}) > 1
        if group and len(meld) == 4:
            return True
        ends = isinstance(meld[0], Joker) or isinstance(meld[-1], Joker)
        if not group and len(meld) in (4, 5) and ends:
            return True
    return False


def points(rules: RuleSet, pieces: Iterable[Piece]) -> int:
    """Hand value of pieces (a Rummikub joker counts 30)."""
    return sum(rules.value(piece) for piece in pieces)


# --------------------------------------------------------------------------------------------
# Running and summarising.


@dataclass
class Series:
    """The per-position solve times of one solver configuration."""

    name: str
    times: list[float] = field(default_factory=list)
    not_proven: int = 0

    def summary(self) -> dict[str, float]:
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


def meldsat_solve(position: Position, objective: Objective) -> tuple[float, Play]:
    start = time.perf_counter()
    play = best_play(position, objective)
    return time.perf_counter() - start, play


class _Quiet:
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
        with _Quiet():
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


# --------------------------------------------------------------------------------------------
# Cold start: one process per solve, public command-line tools only.


def _bin(name: str) -> str:
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
    meldsat = _bin("meldsat")
    rsconsole = _bin("rsconsole")
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


# --------------------------------------------------------------------------------------------
# Report.


def versions() -> dict[str, str]:
    found: dict[str, str] = {"python": platform.python_version()}
    for package in (
        "meldsat",
        "ortools",
        "rummikub-solver",
        "rummikubconsole",
        "cvxpy-base",
        "cvxopt",
        "highspy",
        "scipy",
    ):
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = "not installed"
    return found


def machine() -> dict[str, str]:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"nproc": str(os.cpu_count()), "cpu": model, "platform": platform.platform()}


def _natural(ident: str) -> tuple[str, int]:
    head, _, tail = ident.rpartition("-")
    return head, int(tail) if tail.isdigit() else 0


def _source_state() -> str:
    """The commit of the meldsat checkout, and whether its working tree had changes."""
    try:
        head = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--", "solver", "cli"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "not a git checkout"
    return f"commit {head}" + (" with uncommitted changes in solver/ or cli/" if changed else "")


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
        found = ", ".join(f"{name} {version}" for name, version in versions().items())
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


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
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


def _load() -> str:
    return f"{os.getloadavg()[0]:.2f}"


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


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    command = "python benchmarks/bench_engine.py " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    manipulation_count = args.positions if args.manipulation is None else args.manipulation
    rummikub = list(generate("rummikub", args.positions, args.seed))
    manipulation = list(generate("manipulation", manipulation_count, args.seed))
    warmup = next(iter(generate("rummikub", 1, args.seed + 1_000_000)))[1]
    _progress(f"{len(rummikub)} Rummikub and {len(manipulation)} Manipulation positions")
    bench = EngineBench(
        [name for name in args.backends.split(",") if name],
        [name for name in args.fresh_backends.split(",") if name],
    )
    load = [_load()]
    source = _source_state()
    bench.warm_up(warmup)
    _run_all(bench, rummikub, manipulation)
    load.append(_load())
    cold: list[dict[str, Any]] = []
    cold_ident = ""
    if args.cold_runs > 0 and rummikub:
        cold_ident, cold_position = _median_position(rummikub, bench.rows)
        with tempfile.TemporaryDirectory() as folder:
            position_file = Path(folder) / "position.json"
            position_file.write_text(json.dumps(position_record(cold_ident, cold_position)) + "\n")
            tools = cold_tools(position_file, cold_position, args.cold_objective)
            cold = run_cold(tools, args.cold_runs, _progress)
    load.append(_load())
    source_end = _source_state()
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


if __name__ == "__main__":
    sys.exit(main())
