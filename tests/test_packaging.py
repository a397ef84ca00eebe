"""What a user installs: one package named ``meldsat``, a command, and a complete sdist."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import meldsat

ROOT = Path(__file__).resolve().parent.parent


def _build(kind: str, out: Path) -> Path:
    """Build the wheel or sdist of this checkout into ``out`` without network access."""
    if kind == "wheel":
        arguments = ["-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(out), "."]
    else:
        build = f"from setuptools import build_meta; build_meta.build_sdist({str(out)!r})"
        arguments = ["-c", build]
    subprocess.run(
        [sys.executable, *arguments], cwd=ROOT, capture_output=True, text=True, check=True
    )
    suffix = ".whl" if kind == "wheel" else ".tar.gz"
    (built,) = out.glob(f"*{suffix}")
    return built


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build("wheel", tmp_path_factory.mktemp("wheel"))


def test_the_wheel_installs_only_the_meldsat_package(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        top_level = {name.split("/")[0] for name in archive.namelist()}
        names = set(archive.namelist())
    assert top_level == {"meldsat", f"meldsat-{meldsat.__version__}.dist-info"}
    assert {"meldsat/__main__.py", "meldsat/cli/main.py", "meldsat/engine/model.py"} <= names
    assert "meldsat/py.typed" in names


def test_the_wheel_carries_every_json_schema(wheel: Path) -> None:
    """The schemas are package data: the web server builds its OpenAPI document from them."""
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    files = (ROOT / "solver" / "schema").glob("*.json")
    schemas = {f"meldsat/schema/{path.name}" for path in files}
    assert "meldsat/schema/hint.schema.json" in schemas
    assert schemas <= names


def test_the_wheel_names_the_command_and_the_licence(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        info = f"meldsat-{meldsat.__version__}.dist-info"
        entry_points = archive.read(f"{info}/entry_points.txt").decode()
        metadata = archive.read(f"{info}/METADATA").decode()
        names = archive.namelist()
    assert "meldsat = meldsat.cli.entry:run" in entry_points
    assert f"Version: {meldsat.__version__}" in metadata
    assert any(name.endswith("/LICENSE") for name in names)


def test_the_sdist_carries_docs_examples_and_tests(tmp_path: Path) -> None:
    sdist = _build("sdist", tmp_path)
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for needed in ("LICENSE", "README.md", "docs/RULES.md", "examples/manipulation.txt"):
        assert needed in names
    assert "tests/conftest.py" in names
    assert "solver/schema/hint.schema.json" in names  # tests/test_json_schemas.py reads them there
    assert "tests/oracle.py" in names


def test_python_dash_m_meldsat_ignores_modules_named_solver_and_cli_in_the_cwd(
    tmp_path: Path,
) -> None:
    """A user's own solver.py or cli.py in the working directory must not shadow the library."""
    for name in ("solver.py", "cli.py"):
        (tmp_path / name).write_text("raise SystemExit('the wrong module was imported')\n")
    example = ROOT / "examples" / "manipulation.txt"
    result = subprocess.run(
        [sys.executable, "-m", "meldsat", "hint", "--position", str(example)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("best play: optimal")
