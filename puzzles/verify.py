"""Is a final table a solution of a puzzle? Every reason it is not, from the rule checker alone.

No solver here: the move checker (``meldsat.moves``) judges the turn, the goal is counted, and the
table is compared with the puzzle's solution in canonical form (``canonical``).
"""

from __future__ import annotations

from collections.abc import Sequence

from meldsat.cards import count_pieces
from meldsat.moves import check_move
from meldsat.notation import Meld, format_pieces
from meldsat.puzzles.canonical import canonical_form
from meldsat.puzzles.puzzle import Puzzle


def answer_problems(puzzle: Puzzle, answer: Sequence[Meld]) -> list[str]:
    """Every reason ``answer`` is not the puzzle's solution (empty: it is)."""
    rules = puzzle.rules
    verdict = check_move(puzzle.table, puzzle.hand, answer, rules)
    problems = [f"{reason.code}: {reason.message}" for reason in verdict.reasons]
    played = count_pieces(verdict.played)
    if puzzle.goal.play_all:
        missing = count_pieces(puzzle.hand) - played
        if missing:
            cards = format_pieces(sorted(missing.elements(), key=str), rules.notation)
            problems.append(f"goal: the hand still holds {cards}")
    else:
        points = sum(rules.value(piece) for piece in verdict.played)
        if points < (puzzle.goal.points or 0):
            problems.append(f"goal: {points} points played, {puzzle.goal.points} needed")
    if puzzle.solution is not None and verdict.table.legal:
        try:
            same = canonical_form(answer, rules) == canonical_form(puzzle.solution, rules)
        except ValueError as error:
            problems.append(f"not the solution: {error}")
        else:
            if not same and not problems:
                problems.append("not the solution: a legal table, but not the puzzle's solution")
    return problems
