"""The puzzle generator's jokers: a joker may go to the hand, and such a puzzle is still unique."""

from __future__ import annotations

from meldsat.cards import Joker
from meldsat.puzzles.generate import generate_one
from meldsat.puzzles.solve import Verdict, solve_puzzle
from meldsat.puzzles.verify import answer_problems
from meldsat.rules import get_rules


def test_a_generated_hand_may_hold_a_joker_and_the_puzzle_stays_unique() -> None:
    puzzle = generate_one(get_rules("rummikub"), "medium", 3, 8)
    assert sum(isinstance(piece, Joker) for piece in puzzle.hand) == 1
    report = solve_puzzle(puzzle)
    assert report.verdict is Verdict.UNIQUE
    assert puzzle.solution is not None and answer_problems(puzzle, puzzle.solution) == []
