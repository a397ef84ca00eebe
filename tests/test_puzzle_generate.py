"""The puzzle generator's options: a joker may go to the hand, and a points goal keeps spare cards;
the puzzles stay unique and check out."""

from __future__ import annotations

from meldsat.cards import Joker, count_pieces
from meldsat.puzzles.generate import generate_one
from meldsat.puzzles.solve import Verdict, solve_puzzle
from meldsat.puzzles.verify import answer_problems
from meldsat.rulesets import get_rules
from tests.conftest import CliRunner


def test_a_generated_hand_may_hold_a_joker_and_the_puzzle_stays_unique() -> None:
    puzzle = generate_one(get_rules("rummikub"), "medium", 3, 8)
    assert sum(isinstance(piece, Joker) for piece in puzzle.hand) == 1
    report = solve_puzzle(puzzle)
    assert report.verdict is Verdict.UNIQUE
    assert puzzle.solution is not None and answer_problems(puzzle, puzzle.solution) == []


def test_points_puzzles_keep_spare_cards_and_one_solution_reaches_the_goal() -> None:
    rules = get_rules("rummikub")
    for number in range(3):
        puzzle = generate_one(rules, "medium", 2, number, goal="points")
        assert puzzle.goal.points is not None and puzzle.solution is not None
        assert solve_puzzle(puzzle).verdict is Verdict.UNIQUE
        assert answer_problems(puzzle, puzzle.solution) == []
        on_table = count_pieces(piece for meld in puzzle.solution for piece in meld)
        on_table.subtract(count_pieces(piece for meld in puzzle.table for piece in meld))
        played = list(on_table.elements())
        assert sum(rules.value(piece) for piece in played) == puzzle.goal.points
        assert len(puzzle.hand) - len(played) in (1, 2)  # the spare cards stay in the hand


def test_generate_command_takes_the_points_goal(run_cli: CliRunner) -> None:
    result = run_cli("puzzle", "generate", "--level", "easy", "--seed", "3", "--goal", "points")
    assert result.code == 0 and "\ngoal: points " in result.out
    refused = run_cli("puzzle", "generate", "--goal", "most")
    assert refused.code == 2 and "'most'" in refused.err
