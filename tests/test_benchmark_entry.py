"""The benchmarks' one entry point: ``python -m benchmarks`` lists every benchmark, and each
module imports and parses its options under the name it is listed by. Nothing is timed here."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.positions import generate, position_record
from benchmarks.registry import BENCHMARKS, Benchmark, main

ROOT = Path(__file__).resolve().parent.parent


def test_python_dash_m_benchmarks_lists_every_benchmark_with_a_description() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.startswith("usage: python -m benchmarks NAME [ARGS...]")
    for benchmark in BENCHMARKS:
        assert re.search(rf"^  {re.escape(benchmark.name)} +\w", done.stdout, re.MULTILINE)


@pytest.mark.parametrize("benchmark", BENCHMARKS, ids=lambda benchmark: benchmark.name)
def test_every_benchmark_imports_and_its_help_names_its_command(
    benchmark: Benchmark, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([benchmark.name, "--help"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: python -m benchmarks {benchmark.name} ")


def test_an_unknown_name_is_refused_with_the_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["no-such-benchmark"]) == 2
    error = capsys.readouterr().err
    assert "error: no benchmark named 'no-such-benchmark'" in error
    assert "  hunt-worst " in error


def test_the_runner_hands_a_benchmark_its_arguments(tmp_path: Path) -> None:
    out = tmp_path / "positions.jsonl"
    assert main(["generate", "--count", "2", "--seed", "3", "--out", str(out)]) == 0
    expected = [json.dumps(position_record(*pair)) for pair in generate("rummikub", 2, 3)]
    assert out.read_text(encoding="utf-8").splitlines() == expected


def test_every_benchmark_module_is_listed_and_none_changes_sys_path() -> None:
    listed = {benchmark.module for benchmark in BENCHMARKS}
    for path in (ROOT / "benchmarks").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "sys.path" not in source, path
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        if "\ndef main(" in source and path.parent.name in ("compare", "investigate"):
            assert module in listed, module
