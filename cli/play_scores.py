"""Score tables for ``meldsat play``: one row a player, numbers right-aligned under their heading.

The last column may hold drawn cards (a styled text), which needs no alignment after it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text


def print_scores(
    out: Console,
    headers: Sequence[str],
    rows: Sequence[Sequence[str | int]],
    last: Sequence[Text] | None = None,
    last_header: str = "",
) -> None:
    """Print ``rows`` under ``headers``: the first column left-aligned, the others right-aligned.

    ``last`` (one text a row, headed ``last_header``) is printed after the aligned columns.
    """
    cells = [[str(cell) for cell in row] for row in rows]
    widths = [max(len(row[i]) for row in [list(headers), *cells]) for i in range(len(headers))]

    def line(row: Sequence[str]) -> str:
        first = row[0].ljust(widths[0])
        rest = "  ".join(cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True))
        return f"  {first}  {rest}"

    head = line(headers) + (f"  {last_header}" if last is not None else "")
    out.print(Text(head.rstrip(), style="bold"))
    for index, row in enumerate(cells):
        text = Text(line(row))
        if last is not None:
            text.append("  ").append_text(last[index])
        out.print(text)


def signed(number: int) -> str:
    """A round's score with its sign (``+12``, ``-3``, ``0``)."""
    return f"{number:+d}" if number else "0"
