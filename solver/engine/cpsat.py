"""OR-Tools' CP-SAT module, imported without loading pandas, and a lighter model class.

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


class CpModel(cp_model.CpModel):
    """``cp_model.CpModel`` without the per-model camelCase aliases of its old API.

    OR-Tools adds a deprecated alias for every ``add_*``/``new_*`` method to each new model,
    which costs about 0.4 ms a model (several percent of a whole solve here); meldsat uses the
    snake_case API only.
    """

    def _add_pre_pep8_methods(self) -> None:
        pass


__all__ = ["CpModel", "cp_model"]
