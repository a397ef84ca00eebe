"""Ctrl-C and a closed pipe at every stage: while the command line loads, while it reads its
arguments, inside a solve (each solving command opts into stoppable solves), and ``| head``."""

from __future__ import annotations

import importlib
import importlib.abc
import json
import subprocess
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import pytest

from meldsat.engine import solving
from tests.conftest import CliRunner


def _solves_are_stoppable(*args: Any, **kwargs: Any) -> Any:
    assert solving._open_blocks, "the command's solves are not stoppable by Ctrl-C"
    raise KeyboardInterrupt


@pytest.mark.parametrize(
    ("module", "name", "args"),
    [
        ("meldsat.cli.hint", "hint", ["hint", "-t", "7H 8H 9H", "--hand", "10H"]),
        ("meldsat.cli.simulate", "simulate", ["simulate", "--games", "1", "--bots", "random"]),
    ],
)
def test_each_solving_command_stops_a_solve_at_ctrl_c(
    run_cli: CliRunner, monkeypatch: pytest.MonkeyPatch, module: str, name: str, args: list[str]
) -> None:
    monkeypatch.setattr(importlib.import_module(module), name, _solves_are_stoppable)
    result = run_cli(*args)
    assert result.code == 130
    assert result.err.endswith("meldsat: error: interrupted\n")


def test_ctrl_c_while_the_arguments_are_read_is_the_one_line_and_130(
    run_cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.core import TyperGroup

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(TyperGroup, "make_context", interrupted)
    result = run_cli("rules")
    assert (result.code, result.err) == (130, "meldsat: error: interrupted\n")


class _InterruptImport(importlib.abc.MetaPathFinder):
    """Ctrl-C as ``meldsat.cli.main`` is being imported."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> None:
        if fullname == "meldsat.cli.main":
            raise KeyboardInterrupt


def test_ctrl_c_while_the_command_line_loads_is_the_one_line_and_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from meldsat.cli import entry

    monkeypatch.delitem(sys.modules, "meldsat.cli.main", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_InterruptImport(), *sys.meta_path])
    with pytest.raises(SystemExit) as stopped:
        entry.run()
    assert stopped.value.code == 130
    assert capsys.readouterr().err == "meldsat: error: interrupted\n"


def test_the_console_script_loads_nothing_before_it_can_catch_ctrl_c() -> None:
    # The console script imports ``meldsat.cli.entry`` before its handler runs: that import (and
    # the package's ``__init__``) must load none of the library, or a Ctrl-C in it is a traceback.
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json, sys, meldsat.cli.entry; print(json.dumps(sorted(sys.modules)))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    library = [name for name in json.loads(loaded) if name.startswith("meldsat.")]
    assert library == ["meldsat.cli", "meldsat.cli.entry"]


def test_the_package_still_answers_every_name_of_its_api() -> None:
    import meldsat

    for name in meldsat.__all__:
        assert getattr(meldsat, name) is not None, name
    assert "best_play" in dir(meldsat)


def test_puzzle_generate_into_a_closed_pipe_exits_141() -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "meldsat", "puzzle", "generate", "--count", "8"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None
    child.stdout.close()  # `| head -1` gone before the first puzzle is made
    _, err = child.communicate(timeout=300)
    assert (child.returncode, err) == (141, b"")
