"""Puzzles: table rearrangements with one proven solution, graded, printable and playable.

``generate_puzzles`` makes puzzles aimed at a level; ``solve_puzzle`` proves a puzzle's solution
unique (or finds a second one); ``grade_puzzle`` grades it; ``answer_problems`` says why a final
table is not the solution, with the rule checker alone. ``read_puzzles`` / ``puzzles_json`` /
``puzzles_text`` read and write the two file forms; ``render_sheet`` draws the HTML sheet. The
definitions of the levels and features are in docs/PUZZLES.md.
"""

from meldsat.puzzles.canonical import Canonical, canonical_form
from meldsat.puzzles.goal import Goal, parse_goal
from meldsat.puzzles.puzzle import (
    LEVELS,
    Grade,
    Puzzle,
    load_puzzle,
    puzzles_json,
    puzzles_text,
    read_puzzles,
)

__all__ = [
    "LEVELS",
    "Canonical",
    "Goal",
    "Grade",
    "Puzzle",
    "canonical_form",
    "load_puzzle",
    "parse_goal",
    "puzzles_json",
    "puzzles_text",
    "read_puzzles",
]
