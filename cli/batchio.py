"""A batch's input and output as streams of whole lines, and every reader of lines.

Input is read a line at a time (never all of it first), so memory stays flat however long the
batch; no reader of lines (a batch, a game log, a score sheet, the person at ``meldsat play``)
takes a line longer than its limit into memory: :func:`read_lines`, :func:`file_lines` and
:func:`read_bounded_line` are the readers.

Output goes to stdout, or to a file given with ``-o``: while the run lasts the lines go
to ``FILE.partial``, one whole line at a time, and the finished file is renamed to ``FILE``, so
``FILE`` only ever appears complete. An interrupted run's ``FILE.partial`` holds the answers to
the first items, in order; ``--resume`` counts them and carries on after them.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TextIO

from meldsat.cli.inputs import file_error
from meldsat.errors import InputTooLargeError, MeldsatError, NotationError, quote
from meldsat.files import check_output_path

# Past this many bytes a line is not kept whole: its first MAX_LINE_BYTES + 1 bytes are passed on
# (and refused as too long), the rest is skipped unread into memory.
MAX_LINE_BYTES = 1 << 20
_BOM = b"\xef\xbb\xbf"
_SKIP_BYTES = 1 << 16


@dataclass(frozen=True)
class InputLine:
    """One line of a batch: its number (from 1), its text, and how far into the input it ends."""

    number: int
    text: str
    end: int


@dataclass(frozen=True)
class LineSource:
    """The lines of a file or of stdin (``-``), and the input's size when known."""

    path: str
    size: int | None

    @classmethod
    def open(cls, path: str) -> tuple[LineSource, BinaryIO]:
        """The source and its open byte stream; an unreadable file is a one-line error."""
        if path == "-":
            # A stand-in stdin without bytes (a test's StringIO) is read whole: it is in memory.
            buffer = getattr(sys.stdin, "buffer", None)
            stream: BinaryIO = buffer or io.BytesIO(sys.stdin.read().encode("utf-8"))
        else:
            try:
                stream = Path(path).open("rb")  # noqa: SIM115 (closed by the caller)
            except (OSError, ValueError) as error:
                raise file_error("read", path, error) from None
        return cls(path, _regular_file_size(stream)), stream


def _regular_file_size(stream: BinaryIO) -> int | None:
    # A pipe or a terminal has no size: the progress line then shows no time left.
    try:
        status = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return status.st_size if stat.S_ISREG(status.st_mode) else None


def read_lines(stream: BinaryIO, max_bytes: int = MAX_LINE_BYTES) -> Iterator[InputLine]:
    """Every line of ``stream`` that is not blank, one at a time.

    Bytes that are not UTF-8 reach the text as lone surrogates (``surrogateescape``), so nothing
    is lost and the line's reader can refuse them. A UTF-8 byte-order mark at the start is dropped.
    """
    offset = 0
    number = 0
    while True:
        raw = stream.readline(max_bytes + 1)
        if not raw:
            return
        offset += len(raw)
        number += 1
        if number == 1 and raw.startswith(_BOM):
            raw = raw[len(_BOM) :]
        text = raw.decode("utf-8", "surrogateescape").rstrip("\r\n")
        if len(raw) > max_bytes and not raw.endswith(b"\n"):
            # Passed on before the rest is skipped, so a reader that refuses it stops here
            # (``/dev/zero`` has no end of line to skip to).
            yield InputLine(number, text, offset)
            offset += _skip_rest_of_line(stream)
        elif text.strip():
            yield InputLine(number, text, offset)


def file_lines(path: str, max_bytes: int = MAX_LINE_BYTES) -> Iterator[tuple[int, str]]:
    """``(number, text)`` of every line of a file (``-``: stdin) that is not blank, streamed.

    A line longer than ``max_bytes`` is a one-line error naming it (only its first
    ``max_bytes + 1`` bytes were read); the file is closed when the lines run out or the reader
    stops.
    """
    _, stream = LineSource.open(path)
    name = "stdin" if path == "-" else quote(path)
    with stream:
        for line in read_lines(stream, max_bytes):
            if len(line.text) > max_bytes:
                raise InputTooLargeError(
                    f"line {line.number} of {name} is too long: over {max_bytes} bytes, the limit"
                )
            yield line.number, line.text


def read_bounded_line(stream: TextIO, limit: int, name: str = "stdin") -> str:
    """One line of a text stream (``""`` at its end), at most ``limit`` characters long.

    A longer line (``/dev/zero`` has no end of line at all) or bytes that are not UTF-8 are a
    one-line error; neither is ever read into memory whole.
    """
    try:
        line = stream.readline(limit + 1)
    except UnicodeDecodeError as error:
        raise NotationError(f"cannot read {name}: {error.reason}, not UTF-8 text") from None
    if len(line) > limit and not line.endswith("\n"):
        raise InputTooLargeError(f"a line of {name} is too long: over {limit} characters")
    return line


def _skip_rest_of_line(stream: BinaryIO) -> int:
    skipped = 0
    while True:
        piece = stream.readline(_SKIP_BYTES)
        skipped += len(piece)
        if not piece or piece.endswith(b"\n"):
            return skipped


class BatchOutput:
    """Where a batch's answers go: stdout, or ``FILE`` by way of ``FILE.partial``."""

    def __init__(self, path: str | None, resume: bool, inputs: tuple[str, ...] = ()) -> None:
        if resume and path is None:
            raise MeldsatError("--resume needs the output file of the run: add -o FILE")
        if path is not None:
            # Before any work: neither the output nor its .partial may be an input, a folder or
            # a device, and the folder must exist.
            check_output_path(path, inputs)
            check_output_path(path + ".partial", inputs)
        self.path = path
        self.resume = resume
        self.partial = None if path is None else Path(path + ".partial")
        self._file: BinaryIO | None = None
        self.already_complete = False

    def open(self, on_done_line: Callable[[str], None]) -> int:
        """Get ready to write; return how many answers an earlier run already wrote.

        With ``--resume`` each of those answers is passed to ``on_done_line`` (to count its
        exit code); a trailing line cut short by a crash is dropped, to be answered again.
        """
        if self.path is None or self.partial is None:
            return 0
        final = Path(self.path)
        if self.resume and not self.partial.exists() and final.exists():
            # The earlier run finished: nothing to do but report its answers.
            self.already_complete = True
            return _scan_lines(final, on_done_line, truncate=False)
        if self.partial.exists() and not self.resume:
            raise MeldsatError(
                f"'{self.partial}' holds an interrupted run: add --resume to continue it, "
                "or delete it to start again"
            )
        done = 0
        try:
            if self.resume and self.partial.exists():
                done = _scan_lines(self.partial, on_done_line, truncate=True)
            # Unbuffered: a line the disk has no room for is never left half in a buffer.
            self._file = self.partial.open("ab", buffering=0)
        except OSError as error:
            raise file_error("write", str(self.partial), error) from None
        return done

    def write(self, line: str) -> None:
        """Write one answer as a whole line, at once.

        A disk that is full (or gone read-only) is a one-line error; ``FILE.partial`` keeps the
        whole lines before it (a line cut short is dropped by ``--resume``).
        """
        if self._file is None:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()
            return
        data = line.encode("utf-8", "surrogateescape") + b"\n"
        try:
            while data:  # a raw write may take only part of the bytes
                data = data[self._file.write(data) or 0 :]
        except OSError as error:
            raise self._kept_error(error) from None

    def _kept_error(self, error: OSError) -> MeldsatError:
        return MeldsatError(
            f"cannot write '{self.partial}': {error.strerror or error}; the answers written so "
            f"far are kept there: free some room and run again with --resume"
        )

    def finish(self) -> None:
        """The run is complete: the output file takes its final name."""
        if self._file is not None and self.partial is not None and self.path is not None:
            try:
                os.fsync(self._file.fileno())
                self._file.close()
                self._file = None
                os.replace(self.partial, self.path)
            except OSError as error:
                raise self._kept_error(error) from None

    def close(self) -> None:
        """The run stopped early: keep the whole lines written so far in ``FILE.partial``."""
        if self._file is not None:
            with contextlib.suppress(OSError):  # unbuffered: nothing is left to lose
                self._file.close()
            self._file = None


def _scan_lines(path: Path, on_line: Callable[[str], None], *, truncate: bool) -> int:
    count = 0
    whole = 0  # bytes up to the end of the last whole line
    with path.open("rb+" if truncate else "rb") as file:
        for raw in file:
            if not raw.endswith(b"\n"):
                break
            whole += len(raw)
            count += 1
            on_line(raw.decode("utf-8", "surrogateescape").rstrip("\n"))
        if truncate:
            file.truncate(whole)
    return count
