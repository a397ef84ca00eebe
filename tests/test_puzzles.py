"""Puzzles: every invariant on generated puzzles of every level, uniqueness, grading, steps.

Every solution is re-checked here by the rule checker (``meldsat.moves``), never by CP-SAT; the
uniqueness proofs and the ladder of restricted solvers are re-run on each generated puzzle.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace

import pytest

from meldsat.cards import Card, Joker
from meldsat.melds import is_legal_meld, meld_shapes
from meldsat.moves import check_move
from meldsat.notation import parse_table
from meldsat.puzzles import Puzzle, canonical_form, puzzles_json, puzzles_text, read_puzzles
from meldsat.puzzles.generate import generate_puzzles
from meldsat.puzzles.grade import grade_puzzle, level_of
from meldsat.puzzles.model import PuzzleModel
from meldsat.puzzles.solve import Verdict, solve_puzzle
from meldsat.puzzles.verify import answer_problems
from meldsat.rulesets import get_rules
from meldsat.table import judge_table

# (rules, players, level, count, seed): a few small puzzles of every level, fixed seeds.
SERIES = [
    ("manipulation", 4, "easy", 2, 3),
    ("manipulation", 4, "medium", 2, 3),
    ("manipulation", 4, "hard", 2, 3),
    ("manipulation", 4, "expert", 1, 3),
    ("manipulation", 2, "medium", 1, 3),
    ("rummikub", 4, "hard", 1, 3),
    ("rummikub", 4, "expert", 1, 5),
]


@pytest.fixture(scope="module")
def generated() -> list[Puzzle]:
    puzzles: list[Puzzle] = []
    for rules, players, level, count, seed in SERIES:
        puzzles += generate_puzzles(get_rules(rules, players), level, count, seed=seed)
    return puzzles


def _changed_at_most(puzzle: Puzzle, k: int) -> str:
    model = PuzzleModel(puzzle.rules, puzzle.table, puzzle.hand, puzzle.goal, restricted=True)
    model.model.add(model.changed <= k)
    return model.solve().status


def _subsets_make_a_meld(puzzle: Puzzle) -> bool:
    """Brute force over every subset of the hand (jokers as any card)."""
    for size in range(3, len(puzzle.hand) + 1):
        for subset in itertools.combinations(puzzle.hand, size):
            real = [piece for piece in subset if isinstance(piece, Card)]
            wild = size - len(real)
            if (
                is_legal_meld(real, puzzle.rules)
                if not wild
                else meld_shapes(real, wild, puzzle.rules)
            ):
                return True
    return False


def test_generated_puzzles_hold_every_invariant(generated: list[Puzzle]) -> None:
    assert [p.level for p in generated] == [
        level for _, _, level, count, _ in SERIES for _ in range(count)
    ]
    for puzzle in generated:
        rules = puzzle.rules
        assert puzzle.solution is not None and puzzle.grade is not None
        # the table is legal; the goal is reachable: the rule checker accepts the solution
        assert judge_table(puzzle.table, rules).legal
        verdict = check_move(puzzle.table, puzzle.hand, puzzle.solution, rules)
        assert verdict.legal, verdict.reasons
        assert sorted(map(str, verdict.played)) == sorted(
            str(Joker() if isinstance(p, Joker) else p) for p in puzzle.hand
        )
        assert answer_problems(puzzle, puzzle.solution) == []
        # no subset of the hand is a meld on its own
        assert not _subsets_make_a_meld(puzzle)
        # unique: with the solution's canonical counts forbidden, CP-SAT proves infeasibility
        model = PuzzleModel(rules, puzzle.table, puzzle.hand, puzzle.goal)
        model.forbid(canonical_form(puzzle.solution, rules))
        assert model.solve().status == "INFEASIBLE"
        # the grade is reproduced and earns the level
        graded = grade_puzzle(puzzle)
        assert graded.grade == puzzle.grade
        assert level_of(puzzle.grade) == puzzle.level


def test_levels_follow_the_ladder_of_restricted_solvers(generated: list[Puzzle]) -> None:
    for puzzle in generated:
        assert puzzle.grade is not None
        k = puzzle.grade.changed_melds
        assert _changed_at_most(puzzle, k) == "OPTIMAL"
        if k:
            assert _changed_at_most(puzzle, k - 1) == "INFEASIBLE"
        lay_and_extend = _changed_at_most(puzzle, 0)
        if puzzle.level == "easy":
            assert lay_and_extend == "OPTIMAL"
        else:  # from medium up the lay-and-extend solver fails
            assert lay_and_extend == "INFEASIBLE"
        if puzzle.level in ("hard", "expert"):  # at least three original melds change
            assert k >= 3
            assert _changed_at_most(puzzle, 2) == "INFEASIBLE"


def test_puzzles_read_back_from_text_and_json(generated: list[Puzzle]) -> None:
    import json

    assert read_puzzles(puzzles_text(generated)) == generated
    assert read_puzzles(json.dumps(puzzles_json(generated))) == generated


def test_the_same_seed_gives_the_same_puzzles() -> None:
    rules = get_rules("manipulation")
    first = generate_puzzles(rules, "medium", 2, seed=11)
    assert generate_puzzles(rules, "medium", 2, seed=11) == first
    assert generate_puzzles(rules, "medium", 2, seed=12) != first


TWO_SOLUTIONS = """rules: manipulation
table: 4S 5S 6S *=7S | 7H 7D 7C
hand: 7S QH KH
"""


def test_a_puzzle_with_two_solutions_is_reported_as_such() -> None:
    puzzle = read_puzzles(TWO_SOLUTIONS)[0]
    report = solve_puzzle(puzzle)
    assert report.verdict is Verdict.SEVERAL
    assert report.solution is not None and report.other is not None
    # both are real solutions by the rule checker, and different in canonical form
    assert answer_problems(puzzle, report.solution) == []
    assert answer_problems(puzzle, report.other) == []
    rules = puzzle.rules
    assert canonical_form(report.solution, rules) != canonical_form(report.other, rules)


def test_an_unreachable_goal_is_reported_as_none() -> None:
    puzzle = read_puzzles("table: 4S 5S 6S | 9H 9D 9C\nhand: KD 2C")[0]
    assert solve_puzzle(puzzle).verdict is Verdict.NONE


def test_canonical_form_ignores_order_and_run_cuts_but_not_joker_cards() -> None:
    rules = get_rules("manipulation")
    whole = parse_table("3H 4H 5H 6H 7H 8H | 9S 9D 9C")
    cut = parse_table("9C 9S 9D | 6H 7H 8H | 3H 4H 5H")
    assert canonical_form(whole, rules) == canonical_form(cut, rules)
    spade = parse_table("7H 7D 7C *=7S")
    heart = parse_table("*=7H 7D 7C 7S")
    assert canonical_form(spade, rules) != canonical_form(heart, rules)


def test_a_wrong_answer_gets_every_reason() -> None:
    puzzle = read_puzzles("table: 2H 3H 4H 5H 6H 7H 8H\nhand: 5S 5D")[0]
    report = solve_puzzle(puzzle)
    assert report.verdict is Verdict.UNIQUE and report.solution is not None
    solved = replace(puzzle, solution=report.solution)
    assert answer_problems(solved, parse_table("2H 3H 4H | 5S 5H 5D | 6H 7H 8H")) == []
    problems = answer_problems(solved, parse_table("2H 3H 4H 5H 6H 7H 8H 9H"))
    assert any(p.startswith("card_removed") or p.startswith("card_not_in_hand") for p in problems)
    assert any(p.startswith("goal") for p in problems)


def test_steps_are_the_fewest_moves_and_taking_a_middle_card_splits_for_free() -> None:
    puzzle = read_puzzles("table: 2H 3H 4H 5H 6H 7H 8H\nhand: 5S 5D")[0]
    report = solve_puzzle(puzzle)
    assert report.solution is not None
    graded = grade_puzzle(replace(puzzle, solution=report.solution))
    # 5H moves into the new group; 5S and 5D are played: three moves, no separate split
    assert [step.kind for step in graded.plan.steps] == ["play", "move", "play"]
    assert graded.grade.changed_melds == 1
    assert graded.grade.cards_moved == 1


def _physical(pieces: object) -> Counter[object]:
    assert isinstance(pieces, (list, tuple))
    return Counter(Joker() if isinstance(p, Joker) else p for p in pieces)


def test_steps_account_for_every_card_and_end_at_the_solution(generated: list[Puzzle]) -> None:
    for puzzle in generated:
        assert puzzle.solution is not None and puzzle.grade is not None
        plan = grade_puzzle(puzzle).plan
        final = puzzle.solution
        assert plan.moves == puzzle.grade.moves == len(plan.steps)
        arrivals: list[Counter[object]] = [Counter() for _ in final]
        departures: list[Counter[object]] = [Counter() for _ in puzzle.table]
        played: Counter[object] = Counter()
        for step in plan.steps:
            if step.kind == "play":
                played += _physical(step.pieces)
                arrivals[step.target] += _physical(step.pieces)
            elif step.kind == "move":
                arrivals[step.target] += _physical(step.pieces)
                departures[step.source - 1] += _physical(step.pieces)
        assert played == _physical(puzzle.hand)  # every hand card is played, once
        for k, meld in enumerate(final):
            stays = _physical(meld) - arrivals[k]
            assert arrivals[k] + stays == _physical(meld)
            if plan.home[k] is None:
                assert not stays  # a new meld is built only from cards that arrive
        for i, meld in enumerate(puzzle.table):
            stays_here = Counter[object]()
            for k, home in enumerate(plan.home):
                if home == i:
                    stays_here += _physical(final[k]) - arrivals[k]
            assert stays_here + departures[i] == _physical(meld)


def test_a_points_goal_is_solved_and_checked() -> None:
    puzzle = read_puzzles("table: 4S 5S 6S | 9H 9D 9C\nhand: 7S KD 2C\ngoal: points 7")[0]
    report = solve_puzzle(puzzle)
    assert report.verdict is Verdict.UNIQUE and report.solution is not None
    assert answer_problems(puzzle, report.solution) == []
    assert read_puzzles(puzzles_text([puzzle]))[0].goal == puzzle.goal
    too_much = read_puzzles("table: 4S 5S 6S | 9H 9D 9C\nhand: 7S KD 2C\ngoal: points 8")[0]
    assert solve_puzzle(too_much).verdict is Verdict.NONE


def test_the_step_planner_tries_every_cut_of_the_solution_runs() -> None:
    from meldsat.puzzles.cuts import arrangements

    rules = get_rules("manipulation")
    final = parse_table("3H 4H 5H 6H 7H 8H 9H 10H | 5H 6H 7H | 9S 9D 9C")
    found = arrangements(final, rules, 64)
    assert found[0] == tuple(final)
    assert len(found) == 5  # 3-10 + 5-7, 3-7 + 5-10, 3-7 + 5-7 + 8-10, 3-6 + ..., 3-5 + ...
    assert len({canonical_form(table, rules) for table in found}) == 1
    assert all(judge_table(table, rules).legal for table in found)
    assert len(arrangements(final, rules, 2)) == 2
