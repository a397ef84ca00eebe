"""Writing files so that nothing is lost: a temporary file beside the target, then a rename.

A reader sees either the old file or the whole new one, never half of it; a failed write leaves
the old file as it was and no stray temporary file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


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
