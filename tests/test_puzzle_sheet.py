"""The HTML puzzle sheet without a browser: self-contained, every puzzle and solution drawn."""

from __future__ import annotations

import re

from meldsat.puzzles import canonical_form, read_puzzles
from meldsat.puzzles.report import solved_copy
from meldsat.puzzles.sheet import canonical_keys, render_sheet

PUZZLE = """rules: manipulation
table: 2H 3H 4H 5H 6H 7H 8H | 4C 5C *=6C
hand: 5S 5D
level: medium
"""


def test_the_sheet_is_self_contained_with_print_rules_and_separate_solution_pages() -> None:
    puzzle = solved_copy(read_puzzles(PUZZLE)[0])
    html = render_sheet([puzzle, puzzle])
    assert html.startswith("<!DOCTYPE html>")
    # nothing is fetched: no external scripts, styles, fonts or images
    assert not re.search(r"""(src|href)\s*=\s*["']?https?:""", html)
    assert "@import" not in html and "url(" not in html
    assert html.count('<section class="puzzle"') == 2
    assert html.count('<section class="solution"') == 2
    assert "break-before: page" in html and "@media print" in html
    assert "Puzzle 2 · medium" in html
    assert "JOKER" in html  # the table joker is drawn, showing its card
    assert html.count("<svg") >= 2 * (len(puzzle.table[0]) + 3 + 2)


def test_the_page_carries_the_solution_in_canonical_form() -> None:
    puzzle = solved_copy(read_puzzles(PUZZLE)[0])
    assert puzzle.solution is not None
    keys = canonical_keys(canonical_form(puzzle.solution, puzzle.rules))
    assert keys == sorted(keys)
    assert "g:5:0,1,2" in keys  # the group 5S 5H 5D
    assert "j:6:3" in keys  # the joker still stands for 6C
    assert keys.count("r:1:2") == 1  # 2H once, in a sequence
    html = render_sheet([puzzle])
    assert '"g:5:0,1,2"'.replace('"', "&quot;") in html
