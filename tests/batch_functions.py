"""Functions the executor tests send to worker processes (importable there, so picklable)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

# An item is (number, marker): when the marker file is named and absent, the worker creates it
# and kills its own process: a worker lost in the middle of a run, once.
Item = tuple[int, str | None]


def square_after_a_nap(item: Item) -> int:
    """``number ** 2``, slowly enough that several chunks are in flight at once."""
    number, marker = item
    if marker is not None and not Path(marker).exists():
        Path(marker).touch()
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.005)
    return number * number


def always_kill_the_worker(item: int) -> int:
    """Kill the worker process at every attempt: the chunk can never finish."""
    os.kill(os.getpid(), signal.SIGKILL)
    return item


def fail_on_seven(item: int) -> int:
    """Raise the function's own error on item 7."""
    if item == 7:
        raise ArithmeticError("seven")
    return item


def kill_the_worker_on_thirteen(item: int) -> int:
    """Kill the worker at item 13, every time; every other item is answered, slowly."""
    if item == 13:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.005)
    return item
