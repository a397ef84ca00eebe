"""The two OR-Tools start-up tricks in meldsat.engine.cpsat still work on the installed OR-Tools.

Both rely on OR-Tools internals (cp_model importing pandas at module level only for helpers meldsat
never calls, and ``CpModel._add_pre_pep8_methods`` adding camelCase aliases to every model). If a
release changes either, these tests fail, and the trick must be updated or removed.
"""

from __future__ import annotations

import subprocess
import sys

from ortools.sat.python import cp_model

from meldsat.engine.cpsat import CpModel


def _run(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    return result.stdout.strip()


def test_importing_the_engine_does_not_load_pandas_and_leaves_no_placeholder() -> None:
    code = (
        "import sys; import meldsat.engine.cpsat as c; "
        "print('pandas' in sys.modules, c.cp_model.CpModel.__name__)"
    )
    assert _run(code) == "False CpModel"


def test_pandas_imported_after_the_engine_is_the_real_one() -> None:
    code = "import meldsat.engine.cpsat; import pandas; print(hasattr(pandas, 'DataFrame'))"
    assert _run(code) == "True"


def test_cp_model_still_imports_pandas_so_the_placeholder_is_still_needed() -> None:
    """When OR-Tools stops importing pandas at start-up, the placeholder can go."""
    code = "import sys; from ortools.sat.python import cp_model; print('pandas' in sys.modules)"
    assert _run(code) == "True"


def test_the_overridden_alias_method_exists_in_or_tools() -> None:
    """The override must replace a real method, or it silently does nothing."""
    assert callable(getattr(cp_model.CpModel, "_add_pre_pep8_methods", None))


def test_models_skip_the_camel_case_aliases_and_still_solve() -> None:
    plain = cp_model.CpModel()
    light = CpModel()
    aliases = set(vars(plain)) - set(vars(light))
    assert aliases, "OR-Tools no longer adds per-model aliases: the override is not needed"
    x = light.new_int_var(0, 5, "x")
    light.maximize(x)
    solver = cp_model.CpSolver()
    assert solver.solve(light) == cp_model.OPTIMAL
    assert solver.value(x) == 5
