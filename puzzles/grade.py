"""Grade a puzzle by the reasoning its solution needs, and name its level.

The grader is a ladder of restricted solvers (``model.PuzzleModel`` with ``restricted=True``): the
solver that may change at most *k* starting melds, keeping the others whole (they may only grow at
their ends). The lowest *k* that solves the puzzle is found in one solve that minimises *k*, which
CP-SAT proves optimal: the solvers below it fail. *k = 0* is the lay-and-extend solver. The other
features are read off the solution and its steps. Levels (docs/PUZZLES.md):

* easy: the lay-and-extend solver succeeds (k = 0);
* medium: it fails; one or two starting melds must change (k = 1-2);
* hard: at least three starting melds must change (k >= 3);
* expert: at least four must change, and the cards travel a chain through at least three starting
  melds or a table joker is freed to stand for another card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from meldsat.cards import Card, Joker, represented_card
from meldsat.melds import is_legal_meld
from meldsat.notation import Meld, Table
from meldsat.puzzles.canonical import canonical_form
from meldsat.puzzles.cuts import arrangements
from meldsat.puzzles.model import PuzzleModel
from meldsat.puzzles.puzzle import Grade, Puzzle
from meldsat.puzzles.steps import Plan, plan_steps
from meldsat.rules import RuleSet
from meldsat.table import judge_table

EXPERT_CHANGED = 4
HARD_CHANGED = 3
EXPERT_CHAIN = 3
ARRANGEMENTS = 64  # ways of cutting the solution's runs tried by the step planner


@dataclass(frozen=True)
class Graded:
    """The grade, the solution as arranged by the grader (most melds kept), and its steps."""

    grade: Grade
    solution: Table
    plan: Plan


class GradingError(RuntimeError):
    """The restricted solver found no solution where the full solver did: a bug."""


class GradingTimeoutError(GradingError):
    """The time limit ran out before the grade was proven."""


def grade_puzzle(puzzle: Puzzle, time_limit: float = 30.0) -> Graded:
    """Grade a puzzle whose goal is reachable (raises :class:`GradingError` otherwise)."""
    rules = puzzle.rules
    model = PuzzleModel(rules, puzzle.table, puzzle.hand, puzzle.goal, restricted=True)
    result = model.solve(minimize_changed=True, time_limit=time_limit)
    if result.table is None or result.changed is None:
        if result.status != "INFEASIBLE":
            raise GradingTimeoutError(f"the grade was not proven in time ({result.status})")
        raise GradingError("the grader found no solution where the puzzle has one")
    solution = tuple(tuple(meld) for meld in _canonical_melds(result.table, rules))
    if puzzle.solution is not None and canonical_form(solution, rules) != canonical_form(
        puzzle.solution, rules
    ):
        raise GradingError("the grader's solution differs from the puzzle's: not unique")
    solution, plan = _ordered(*_fewest_moves(puzzle, solution))
    grade = Grade(
        changed_melds=result.changed,
        moves=plan.moves,
        cards_moved=plan.cards_moved,
        jokers_redeclared=jokers_redeclared(puzzle.table, solution),
        longest_chain=longest_chain(plan),
        decoys=decoys(puzzle.table, puzzle.hand, rules),
    )
    return Graded(grade, solution, plan)


def _fewest_moves(puzzle: Puzzle, solution: Table) -> tuple[Table, Plan]:
    """The arrangement of the solution (its runs cut every way) that takes the fewest moves."""
    best: tuple[Table, Plan] | None = None
    for arrangement in arrangements(solution, puzzle.rules, ARRANGEMENTS):
        plan = plan_steps(puzzle.table, puzzle.hand, arrangement, puzzle.rules)
        if best is None or plan.moves < best[1].moves:
            best = (arrangement, plan)
    assert best is not None  # the solution itself is the first arrangement
    return best


def _canonical_melds(table: Sequence[Meld], rules: RuleSet) -> list[Meld]:
    return [meld.pieces for meld in judge_table(table, rules).melds]


def _ordered(solution: Table, plan: Plan) -> tuple[Table, Plan]:
    """The final melds in the order of the starting melds they grew from, new melds last.

    The plan's meld indexes are renumbered to match, and its steps follow that order.
    """
    order = sorted(
        range(len(solution)),
        key=lambda k: (plan.home[k] is None, plan.home[k] or 0, str(solution[k])),
    )
    place = {k: new for new, k in enumerate(order)}
    steps = sorted(
        (replace(step, target=place[step.target]) for step in plan.steps),
        key=lambda step: (step.kind != "split", step.target),
    )
    renumbered = Plan(
        tuple(steps),
        tuple(plan.home[k] for k in order),
        tuple((source, place[final]) for source, final in plan.flows),
    )
    return tuple(solution[k] for k in order), renumbered


def level_of(grade: Grade) -> str:
    """The level a grade earns (see the module docstring and docs/PUZZLES.md)."""
    if grade.changed_melds == 0:
        return "easy"
    if grade.changed_melds < HARD_CHANGED:
        return "medium"
    tricky = grade.longest_chain >= EXPERT_CHAIN or grade.jokers_redeclared > 0
    if grade.changed_melds >= EXPERT_CHANGED and tricky:
        return "expert"
    return "hard"


def jokers_redeclared(table: Sequence[Meld], solution: Sequence[Meld]) -> int:
    """Table jokers that stand for another card at the end (freed by their real card, or in
    Rummikub by the other colour their group of three lacked)."""
    before = Counter(p.declared for meld in table for p in meld if isinstance(p, Joker))
    after = Counter(p.declared for meld in solution for p in meld if isinstance(p, Joker))
    return sum(max(0, count - after[card]) for card, count in before.items())


def longest_chain(plan: Plan) -> int:
    """The most starting melds on one chain of moves: A gives a card to what B becomes, B to C...

    The chain is the longest simple path in the directed graph (networkx) of starting melds with
    an edge A -> B when a card of A ends in the meld that grew out of B; 1 when no card moves into
    another starting meld's successor, 0 when no table card moves at all.
    """
    import networkx as nx

    graph = nx.DiGraph()
    for source, final in plan.flows:
        graph.add_node(source)
        target = plan.home[final]
        if target is not None and target != source:
            graph.add_edge(source, target)
    best = 0
    for start in graph.nodes:
        best = max(best, _longest_from(graph, start, {start}))
    return best


def _longest_from(graph: Any, node: int, seen: set[int]) -> int:
    successors = graph.successors(node)
    longest = 1
    for nxt in successors:
        if nxt not in seen:
            longest = max(longest, 1 + _longest_from(graph, nxt, seen | {nxt}))
    return longest


def decoys(table: Sequence[Meld], hand: Sequence[object], rules: RuleSet) -> int:
    """Hand cards that would fit (extend to a legal meld) more than one starting meld."""
    count = 0
    for piece in hand:
        if not isinstance(piece, Card):
            continue
        fits = 0
        for meld in table:
            shown = [represented_card(p) for p in meld]
            cards = [card for card in shown if card is not None]
            if is_legal_meld([*cards, piece], rules):
                fits += 1
        count += fits > 1
    return count
