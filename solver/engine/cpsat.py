"""OR-Tools' CP-SAT module, imported without loading pandas, a lighter model class, and solution
values read in one call.

``ortools.sat.python.cp_model`` imports pandas at module level, only for its pandas-based helpers
(``new_int_var_series`` and the like), which meldsat never calls. Loading pandas costs about half a
second, over half of a cold ``meldsat hint``. So, unless pandas is already loaded, a placeholder
stands in for it while cp_model is imported and is removed right after: a later ``import pandas``
anywhere gets the real one. Only cp_model's pandas helpers see the placeholder.
"""

from __future__ import annotations

import sys
import types


def _placeholder_pandas() -> types.ModuleType:
    module = types.ModuleType("pandas", "placeholder: cp_model's pandas helpers are not used")
    module.Index = type("Index", (), {})  # type: ignore[attr-defined]
    module.Series = type("Series", (), {})  # type: ignore[attr-defined]
    return module


if "pandas" in sys.modules:
    from ortools.sat.python import cp_model
else:
    sys.modules["pandas"] = _placeholder_pandas()
    try:
        from ortools.sat.python import cp_model
    finally:
        del sys.modules["pandas"]

# A term of the model: a variable, a sum of them, or a plain number where a count is known to be 0.
Expr = cp_model.LinearExpr | int


class CpModel(cp_model.CpModel):
    """``cp_model.CpModel`` without the per-model camelCase aliases of its old API.

    OR-Tools adds a deprecated alias for every ``add_*``/``new_*`` method to each new model,
    which costs about 0.4 ms a model (several percent of a whole solve here); meldsat uses the
    snake_case API only.
    """

    def _add_pre_pep8_methods(self) -> None:
        pass


class Values:
    """The values of a solved model's best solution, read from the solver's response at once."""

    def __init__(self, solver: cp_model.CpSolver) -> None:
        self._solver = solver
        self._solution = list(solver.response_proto.solution)

    def __call__(self, expr: Expr) -> int:
        """The value of a number, a variable or a linear expression in the solution."""
        if isinstance(expr, int):
            return expr
        if isinstance(expr, cp_model.IntVar):
            return int(self._solution[expr.index])
        return int(self._solver.value(expr))


__all__ = ["CpModel", "Expr", "Values", "cp_model"]
