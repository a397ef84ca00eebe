"""The answer layer (``meldsat.answers``): the library answers every question the command line and
the web API ask, so neither the library nor the web server imports ``meldsat.cli``, and the
command's ``--json`` bytes are the library answer's own."""

from __future__ import annotations

import ast
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    # Starlette recommends the httpx2 fork for its test client; httpx still works (as in
    # tests/test_web_api.py).
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from meldsat.answers import cards, check, gin, hint, rules, validate
from meldsat.answers.jsonform import to_json
from meldsat.play import Objective
from meldsat.position import position_fields
from tests.conftest import CliRunner

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "manipulation.txt"

# The package each installed folder's modules are imported under (pyproject.toml's package-dir).
PACKAGES = {
    "solver": "meldsat",
    "games": "meldsat.games",
    "puzzles": "meldsat.puzzles",
    "cli": "meldsat.cli",
}
LIBRARY_FOLDERS = ("solver", "games", "puzzles")

# `python -m meldsat` runs the command line: the one module of the library that may import it.
ENTRY_POINT = "solver/__main__.py"


def module_name(path: Path) -> str:
    """The dotted name a library file is imported under (``solver/web/app.py``: meldsat.web.app)."""
    relative = path.relative_to(ROOT)
    package = PACKAGES[relative.parts[0]]
    parts = [*package.split("."), *relative.parts[1:-1]]
    if relative.stem != "__init__":
        parts.append(relative.stem)
    return ".".join(parts)


def all_modules() -> set[str]:
    """The dotted name of every module the package installs."""
    return {module_name(path) for folder in PACKAGES for path in (ROOT / folder).rglob("*.py")}


def imported_modules(path: Path, known: set[str]) -> Iterator[str]:
    """Every module ``path`` imports, anywhere in it (inside functions too), by absolute name;
    ``from a import b`` imports ``a.b`` when that is one of the ``known`` modules, else ``a``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path).rsplit(".", 1)[0] if path.stem != "__init__" else module_name(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # a relative import: resolve it against the file's package
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                name = f"{base}.{alias.name}"
                yield name if name in known else base


def library_files() -> list[Path]:
    return sorted(path for folder in LIBRARY_FOLDERS for path in (ROOT / folder).rglob("*.py"))


def within(module: str, package: str) -> bool:
    """True when ``module`` is ``package`` or a name inside it."""
    return module == package or module.startswith(f"{package}.")


def test_the_scan_reads_every_library_folder_and_sees_the_entry_point() -> None:
    files = {path.relative_to(ROOT).as_posix() for path in library_files()}
    assert {"solver/web/app.py", "games/engine.py", "puzzles/model.py", ENTRY_POINT} <= files
    # The scan finds the one import it must exempt, so it would find any other.
    assert "meldsat.cli.entry" in set(imported_modules(ROOT / ENTRY_POINT, all_modules()))


def test_no_library_module_imports_the_command_line() -> None:
    known = all_modules()
    found = {
        (path.relative_to(ROOT).as_posix(), module)
        for path in library_files()
        if path.relative_to(ROOT).as_posix() != ENTRY_POINT
        for module in imported_modules(path, known)
        if within(module, "meldsat.cli")
    }
    assert not found, sorted(found)


# docs/DESIGN.md's table of folders: the packages each layer must not import (the command line is
# covered above). The core is solver/ less the answers, the web server and the entry point.
FORBIDDEN = {
    "core": ("meldsat.games", "meldsat.puzzles", "meldsat.answers", "meldsat.web"),
    "games": ("meldsat.puzzles", "meldsat.answers", "meldsat.web"),
    "puzzles": ("meldsat.answers", "meldsat.web"),
}
# The puzzles read one module of games: the registry, which says which rule sets have puzzles.
PUZZLES_READ = "meldsat.games.registry"


def layer_of(module: str) -> str | None:
    """The layer of docs/DESIGN.md a library module belongs to (None: answers, web, entry point)."""
    for layer in ("games", "puzzles"):
        if within(module, f"meldsat.{layer}"):
            return layer
    if any(within(module, f"meldsat.{top}") for top in ("answers", "web", "cli", "__main__")):
        return None
    return "core"


def test_each_layer_imports_only_the_layers_below_it() -> None:
    graph = library_import_graph()
    found = sorted(
        (module, imported)
        for module, imports in graph.items()
        if (layer := layer_of(module)) is not None
        for imported in imports
        if any(within(imported, package) for package in FORBIDDEN[layer])
        or (layer == "puzzles" and within(imported, "meldsat.games") and imported != PUZZLES_READ)
    )
    assert not found, found
    # The scan sees the layers it checks: the answers import games and puzzles, the web the answers.
    assert "meldsat.games.registry" in graph["meldsat.answers.score"]
    assert any(within(module, "meldsat.answers") for module in graph["meldsat.web.answers"])


def test_the_web_app_imports_with_the_command_line_blocked() -> None:
    code = "import sys; sys.modules['meldsat.cli'] = None; import meldsat.web.app; print('ok')"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ok\n"


def library_import_graph() -> dict[str, set[str]]:
    """Each ``meldsat`` module (not the command line) and the ``meldsat`` modules it imports."""
    modules = {module_name(path): path for path in library_files()}
    known = all_modules()
    return {
        name: {module for module in imported_modules(path, known) if module in modules}
        for name, path in modules.items()
    }


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for module in graph[todo.pop()] - seen:
            seen.add(module)
            todo.append(module)
    return seen


def test_rules_and_rulesets_do_not_import_each_other() -> None:
    graph = library_import_graph()
    assert "meldsat.rules" in graph["meldsat.rulesets"]  # the presets are RuleSet values
    rulesets = {name for name in graph if name.split(".")[:2] == ["meldsat", "rulesets"]}
    assert len(rulesets) > 1
    # Not even lazily, inside a function, nor through a third module.
    assert not reachable(graph, "meldsat.rules") & rulesets


# --- the command's --json bytes are the library answer's ---------------------------------------


def same_bytes(run_cli: CliRunner, answer: dict[str, Any], *args: str) -> None:
    result = run_cli(*args, "--json")
    assert result.err == ""
    assert result.out == to_json(answer) + "\n"


# A rule set's name, its player count, and a table (with a hand) that is not legal under it.
TABLES = [
    ("rummikub", None, {"table": "r12 r13 r1 | k5 b5 o5"}),
    ("manipulation", 2, {"table": "7H 8H 9H | 7H 7H 7H", "hand": "7H"}),
]


@pytest.mark.parametrize(("rules_name", "players", "fields"), TABLES)
def test_validate_json_is_the_validate_command_json(
    run_cli: CliRunner, rules_name: str, players: int | None, fields: dict[str, str]
) -> None:
    answer = validate.validate(dict(fields), rules_name, players)
    args = [f"--{key}={value}" for key, value in fields.items()]
    if players is not None:
        args.append(f"--players={players}")
    same_bytes(run_cli, answer.to_json(), "validate", *args, "--rules", rules_name)
    assert answer.legal is False


TURNS = [
    {"table": "4S 5S 6S *=7S", "hand": "QH KH", "after": "4S 5S 6S | QH KH *=AH"},
    {"table": "7H 8H 9H", "hand": "10H KS", "after": "7H 8H 9H 10H"},
]


@pytest.mark.parametrize("turn", TURNS)
def test_check_json_is_the_check_command_json(run_cli: CliRunner, turn: dict[str, str]) -> None:
    answer = check.check(dict(turn), house=["group_max=3"])
    args = [f"--{key}={value}" for key, value in turn.items()]
    same_bytes(run_cli, answer.to_json(), "check", *args, "--rule", "group_max=3")


def test_hint_json_is_the_hint_command_json(run_cli: CliRunner) -> None:
    answer = hint.hint(position_fields(EXAMPLE.read_text(encoding="utf-8")))
    same_bytes(run_cli, answer.to_json(), "hint", "--position", str(EXAMPLE))
    assert answer.play.played


def test_hint_all_json_is_the_hint_command_json(run_cli: CliRunner) -> None:
    fields = {"table": "7H 8H 9H", "hand": "10H KS"}
    answer = hint.hint(dict(fields), Objective.CARDS, play_all=True, time_limit=5.0)
    args = ["--table", fields["table"], "--hand", fields["hand"], "--all", "--objective", "cards"]
    same_bytes(run_cli, answer.to_json(), "hint", *args, "--time-limit", "5")
    assert answer.partial is not None


def test_deadwood_json_is_the_deadwood_command_json(run_cli: CliRunner) -> None:
    hand = "4S 5S 6S 3C 4C 5C 3D 4D 5D 6D"
    answer = gin.deadwood("gin", hand, upcard="KH", seen="QH")
    args = ["--hand", hand, "--upcard", "KH", "--seen", "QH"]
    same_bytes(run_cli, answer.to_json(), "deadwood", *args)
    eleven = "4S 5S 6S 3C 4C 5C 3D 4D 5D 6D 6H"
    answer = gin.deadwood("oklahoma-gin", eleven, first_upcard="7C")
    args = ["--hand", eleven, "--rules", "oklahoma-gin", "--first-upcard", "7C"]
    same_bytes(run_cli, answer.to_json(), "deadwood", *args)


def test_layoff_json_is_the_layoff_command_json(run_cli: CliRunner) -> None:
    melds, deadwood = "5H 6H 7H | 9S 9D 9C | JC QC KC", "AS"
    hand = "8H 4H 9H 2S 3S KD QD JD 4C 2D"
    answer = gin.layoff("gin", melds, hand, knocker_deadwood=deadwood, upcard="3H")
    args = ["--melds", melds, "--hand", hand, "--knocker-deadwood", deadwood, "--upcard", "3H"]
    same_bytes(run_cli, answer.to_json(), "layoff", *args)
    assert answer.result.defender.laid_off


def test_rules_json_is_the_rules_command_json(run_cli: CliRunner) -> None:
    same_bytes(run_cli, rules.rules_listing().to_json(), "rules")
    one = rules.rule_set("rummikub", 2, ["initial_meld_points=25"])
    args = ["rummikub", "--players", "2", "--rule", "initial_meld_points=25"]
    same_bytes(run_cli, one.to_json(), "rules", *args)
    same_bytes(run_cli, rules.rule_set("gin").to_json(), "rules", "gin")


# --- the web API's bytes are the library answer's ----------------------------------------------


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    from meldsat.web.app import create_app

    with TestClient(create_app(), raise_server_exceptions=False) as test_client:
        yield test_client


def answer_text(response: Any) -> str:
    assert response.status_code == 200, response.text
    return str(response.text)


def test_the_web_gives_the_library_answers_bytes(client: TestClient) -> None:
    def post(path: str, body: dict[str, Any]) -> str:
        return answer_text(client.post(path, json=body))

    rules_name, _, fields = TABLES[0]
    body = {"rules": rules_name, **fields}
    assert post("/api/validate", body) == to_json(validate.validate(dict(body)).to_json())
    assert post("/api/check", TURNS[0]) == to_json(check.check(dict(TURNS[0])).to_json())
    body = {"table": "7H 8H 9H", "hand": "10H KS"}
    assert post("/api/hint", body) == to_json(hint.hint(dict(body)).to_json())
    hand = "4S 5S 6S 3C 4C 5C 3D 4D 5D 6D"
    expected = gin.deadwood("gin", hand, upcard="KH").to_json()
    assert post("/api/deadwood", {"hand": hand.split(), "upcard": "KH"}) == to_json(expected)


def test_the_web_gives_the_library_rules_and_cards_bytes(client: TestClient) -> None:
    assert answer_text(client.get("/api/rules")) == to_json(rules.rules_listing().to_json())
    one = rules.rule_set("rummy500", 3).to_json()
    assert answer_text(client.get("/api/rules/rummy500?players=3")) == to_json(one)
    deck = cards.cards("Rummikub").to_json()
    assert answer_text(client.get("/api/cards?rules=Rummikub")) == to_json(deck)
    assert len(deck["cards"]) == 53  # 52 tiles and the joker
