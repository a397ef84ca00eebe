"""Writing files so that nothing is lost: the output path checked first, then a temporary file
beside the target and a rename.

A reader sees either the old file or the whole new one, never half of it; a failed write leaves
the old file as it was and no stray temporary file. :func:`check_output_path` is the one check
every writer makes before any work: the output must be a new or regular file in a folder that
exists, and none of the command's inputs.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from meldsat.errors import MeldsatError, quote


def check_output_path(path: str, inputs: Iterable[str] = ()) -> None:
    """Refuse an output ``path`` that no write should touch, with one line; return if it is fine.

    Refused: ``''``, a name no file can have (a NUL byte), a folder that does not exist, a
    directory, anything but a regular file (a device node, a pipe, a socket: a rename would
    replace it), and any of ``inputs`` (the same file under another name too; ``-`` is stdin,
    which may be a file redirected in: ``< in.jsonl``).
    """
    if not path:
        raise MeldsatError("cannot write '': no file name given")
    if "\0" in path:
        raise MeldsatError(f"cannot write {quote(path)}: not a possible file name")
    target = Path(path)
    folder = target.parent
    if not folder.is_dir():
        raise MeldsatError(
            f"cannot write {quote(path)}: the folder {quote(str(folder))} does not exist"
        )
    try:
        status = target.stat()
    except FileNotFoundError:
        return  # a new file: nothing to compare with the inputs, which all exist
    except OSError as error:
        raise MeldsatError(f"cannot write {quote(path)}: {error.strerror or error}") from None
    if stat.S_ISDIR(status.st_mode):
        raise MeldsatError(f"cannot write {quote(path)}: it is a directory")
    if not stat.S_ISREG(status.st_mode):
        raise MeldsatError(f"cannot write {quote(path)}: not a regular file")
    for source in inputs:
        if source and _same_file(status, source):
            raise MeldsatError(
                f"cannot write {quote(path)}: it is the input {quote(source)}; "
                "name another output file"
            )


def _same_file(status: os.stat_result, other: str) -> bool:
    try:
        theirs = os.fstat(0) if other == "-" else os.stat(other)
    except (OSError, ValueError):
        return False
    return (status.st_dev, status.st_ino) == (theirs.st_dev, theirs.st_ino)


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically. Raises ``OSError`` or ``ValueError``."""
    target = Path(path)
    temporary: str | None = None
    try:
        handle, temporary = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", text=True
        )
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        # mkstemp makes the file private; give it the mode a plain new file would have.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, target)
    except BaseException:
        if temporary is not None:  # a failed write or rename leaves no stray temporary file
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        raise
