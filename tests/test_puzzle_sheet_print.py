"""The printed puzzle sheet: pages counted in PDFs printed by headless Chromium, at A4 and Letter.

Two puzzles a page, then two solutions a page: 6 puzzles print on 6 pages at both paper sizes
(the sheet names no paper size; the test adds one). Skipped, saying why, only where no Chromium
is installed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from meldsat.puzzles import read_puzzles
from meldsat.puzzles.puzzle import Puzzle, load_puzzle
from meldsat.puzzles.sheet import render_sheet

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _examples() -> list[Puzzle]:
    """The four hard example puzzles, then the four expert ones (every one solved)."""
    hard = json.loads((EXAMPLES / "puzzles-hard.json").read_text(encoding="utf-8"))["puzzles"]
    expert = read_puzzles((EXAMPLES / "puzzles-expert.txt").read_text(encoding="utf-8"))
    return [*map(load_puzzle, hard), *expert]


def print_pages(html: str, paper: str, folder: Path) -> int:
    """The pages Chromium prints ``html`` on, at ``paper`` (a CSS page size: A4, letter)."""
    assert CHROMIUM is not None
    page = folder / f"sheet-{paper}.html"
    page.write_text(html.replace("</style>", f"@page {{ size: {paper}; }}</style>", 1), "utf-8")
    pdf = folder / f"sheet-{paper}.pdf"
    subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tempfile.mkdtemp(dir=folder)}",
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
    )
    # Chromium writes every page as its own object, "/Type /Page" (the tree is "/Pages").
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf.read_bytes()))


@pytest.fixture(scope="module")
def sheets() -> dict[int, str]:
    """The sheet of 6 puzzles (4 hard, 2 expert), rendered once (each solution's steps are
    planned); 6 is three pages of pairs, the last pair's solutions the largest."""
    return {6: render_sheet(_examples()[:6])}


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine (Debian: chromium)")
@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_two_puzzles_and_two_solutions_a_page(
    paper: str, sheets: dict[int, str], tmp_path: Path
) -> None:
    for count, html in sheets.items():
        assert print_pages(html, paper, tmp_path) == count, f"{count} puzzles at {paper}"
