"""Run a function over many items, in input order, on local processes or a Dask cluster.

Every batch-shaped command (``hint --jsonl``, ``puzzle generate``, ``simulate``, ``replay``) uses
this one layer. The whole interface is::

    from meldsat.executor import ordered_map

    for result in ordered_map(solve_one, items, workers=4):  # or scheduler="tcp://host:8786"
        ...

``solve_one`` must be picklable (a module-level function) and depend only on its item, so the
results are the same, byte for byte, whatever runs them. Items are read lazily and results come
back as soon as they and every result before them are known. See docs/SCALE.md.
"""

from meldsat.executor.ordered import ordered_map
from meldsat.executor.runner import (
    DASK_EXTRA,
    ExecutorError,
    Runner,
    WorkerLostError,
    open_runner,
    scheduler_from_environment,
)

__all__ = [
    "DASK_EXTRA",
    "ExecutorError",
    "Runner",
    "WorkerLostError",
    "open_runner",
    "ordered_map",
    "scheduler_from_environment",
]
