"""The batch loop shared by every batch command: in order, streaming, resumable, interruptible.

A command hands over its items (read lazily), a picklable function that turns one item into
``(exit code, one line of output)``, and how to read an exit code back from a line already written
(for ``--resume``). This module runs them through :mod:`meldsat.executor`, writes each line as
soon as it and every line before it are known, draws the progress line, and turns Ctrl-C and a
closed pipe into the shell's conventions.
"""

from __future__ import annotations

import logging
import os
import sys
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Annotated, TypeVar

import typer

from meldsat.cli.batchio import BatchOutput
from meldsat.cli.exits import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED
from meldsat.cli.interrupts import InterruptGuard
from meldsat.cli.progress import ProgressLine
from meldsat.errors import MeldsatError
from meldsat.executor import open_runner, ordered_map, scheduler_from_environment

T = TypeVar("T")


WorkersOption = Annotated[
    int | None,
    typer.Option("--workers", min=1, help="Batch: spread the work over N processes here."),
]
SchedulerOption = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="Batch: run on the Dask cluster whose scheduler is at ADDRESS "
        "(default: $MELDSAT_SCHEDULER; needs meldsat[dask]).",
        metavar="ADDRESS",
    ),
]
OutputOption = Annotated[
    str | None,
    typer.Option(
        "--output", "-o", help="Batch: write the answers to FILE (FILE.partial until done)."
    ),
]
ResumeOption = Annotated[
    bool,
    typer.Option("--resume", help="Batch: continue the interrupted run whose output is -o FILE."),
]


@dataclass(frozen=True)
class BatchSettings:
    """Where a batch runs and where its answers go (the batch options of a command)."""

    workers: int | None = None
    scheduler: str | None = None
    output: str | None = None
    resume: bool = False
    inputs: tuple[str, ...] = ()  # files the batch reads, which its output must not be

    def where(self) -> tuple[int, str | None]:
        """(local processes, scheduler address): an explicit ``--workers`` beats the variable."""
        if self.scheduler is not None and self.workers is not None:
            raise MeldsatError("--workers and --scheduler exclude each other: choose one")
        if self.scheduler is not None:
            return 1, self.scheduler
        if self.workers is not None:
            return self.workers, None
        return 1, scheduler_from_environment()


def run_batch(
    work: Iterable[tuple[T, float | None]],
    function: Callable[[T], tuple[int, str]],
    settings: BatchSettings,
    *,
    code_of_line: Callable[[str], int],
    exit_code: Callable[[Counter[int]], int],
) -> int:
    """Answer every item and return the batch's exit code.

    ``work`` pairs each item with the share of the whole input done once it is answered (None
    when unknown), for the time left on the progress line. ``exit_code`` turns the count of each
    item's code (including those a resumed run had already written, read back with
    ``code_of_line``) into the batch's code.
    """
    workers, scheduler = settings.where()
    if scheduler is not None:
        _quiet_dask_logs()
    output = BatchOutput(settings.output, settings.resume, settings.inputs)
    codes: Counter[int] = Counter()
    done_before = output.open(lambda line: codes.update([code_of_line(line)]))
    if output.already_complete:
        return exit_code(codes)
    source = iter(work)
    fractions: deque[float | None] = deque()
    todo = _noting_fractions(source, fractions)
    written = 0
    with InterruptGuard() as guard:
        try:
            start_fraction = _skip_answered(source, done_before)
            with open_runner(workers, scheduler) as runner:
                progress = ProgressLine(sys.stderr, runner.workers_alive, start_fraction)
                for code, line in ordered_map(function, todo, runner=runner, on_wait=progress.tick):
                    with guard.deferred():
                        output.write(line)
                        codes[code] += 1
                        written += 1
                    progress.update(written, fractions.popleft())
                progress.clear()
            with guard.deferred():
                output.finish()
        except BrokenPipeError:
            output.close()
            _silence_stdout()
            return EXIT_BROKEN_PIPE
        except BaseException as error:
            output.close()
            if not isinstance(error, KeyboardInterrupt) and not guard.interrupted:
                raise
            _stopped_message(written + done_before, settings.output)
            return EXIT_INTERRUPTED
    return exit_code(codes)


def _skip_answered(work: Iterator[tuple[T, float | None]], answered: int) -> float:
    """Pass over the items a resumed run had answered; return the share of the input they were."""
    skipped = 0
    fraction: float | None = None
    for _, share in islice(work, answered):
        skipped += 1
        fraction = share
    if skipped < answered:
        raise MeldsatError(
            f"the output already holds {answered} answers but the input has only {skipped} "
            "items: resume with the same input"
        )
    return fraction or 0.0


def _noting_fractions(
    work: Iterator[tuple[T, float | None]], fractions: deque[float | None]
) -> Iterator[T]:
    # Results come back in input order, so the oldest fraction noted belongs to the next result.
    for item, fraction in work:
        fractions.append(fraction)
        yield item


def _stopped_message(lines: int, output: str | None) -> None:
    sys.stderr.write("\r\x1b[K" if sys.stderr.isatty() else "")
    if output is None:
        detail = f"{lines} answers written"
    else:
        detail = f"{lines} answers kept in '{output}.partial'; --resume continues"
    # The same words as any other command stopped by Ctrl-C ("meldsat: error: interrupted").
    print(f"meldsat: error: interrupted: {detail}", file=sys.stderr)


def _silence_stdout() -> None:
    # The reader went away: whatever Python still holds for stdout must not fail again on exit.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _quiet_dask_logs() -> None:
    """Keep Dask's log records (tracebacks of lost connections) off stderr.

    The batch says what went wrong in its own one line; Dask's client would otherwise log every
    reconnection attempt.
    """
    try:
        import distributed  # noqa: F401 (importing it sets up its loggers)
    except ImportError:
        return  # the runner reports the missing extra
    for handler in logging.getLogger("distributed").handlers:
        handler.setLevel(logging.CRITICAL + 1)
