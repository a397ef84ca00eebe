"""The CP-SAT model of a puzzle: every final table that reaches the goal, counted.

The model is composed of the engine's parts (``meldsat.engine.parts``, docs/ENGINE.md), so a puzzle
and a best play count groups and sequences the same way: the piece supply (hand cards and jokers
played, jokers by the card they show), joker locking, groups counted per shape (a rank and a set of
suits) and sequences as a flow along the positions of each suit. A puzzle adds its own parts
(``meldsat.puzzles.parts``):

* **the goal**: every hand piece played, or pieces worth at least N points;
* **uniqueness**: the canonical counts of a solution (group shapes, sequence cards per position,
  jokers per card; see ``canonical``) can be forbidden and the model solved again;
* **restricted solvers** for grading: an original meld may be *kept* (it stays whole, showing the
  same cards, and may only grow at its ends, or a group by its missing suit, with any piece); the
  solver may change at most ``max_changed`` original melds, or find the fewest it must change.
  With ``max_changed=0`` this is the lay-and-extend solver: table melds are only extended and
  new melds come from the hand alone.

Nothing downstream sees the solver: a solve returns a plain ``ModelResult``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from meldsat.cards import ALL_CARDS, Card, Joker, Piece
from meldsat.engine.cpsat import CpModel, Expr, Values, cp_model
from meldsat.engine.inventory import count_inventory
from meldsat.engine.parts.groups import GroupShapes
from meldsat.engine.parts.jokers import JokerLocking
from meldsat.engine.parts.kept import KeptMelds
from meldsat.engine.parts.runs import RunFlow
from meldsat.engine.parts.supply import PieceSupply
from meldsat.engine.solving import new_solver, run_solver
from meldsat.notation import Meld, Table
from meldsat.puzzles.canonical import Canonical, GroupShape, RunPlace
from meldsat.puzzles.goal import Goal
from meldsat.puzzles.parts import GrowingMelds, PointsGoal, forbid_counts
from meldsat.rules import RuleSet


@dataclass(frozen=True)
class ModelResult:
    """One solve: the CP-SAT status name and, when solved, the final table and its counts.

    ``changed`` is the number of original melds the restricted solver did not keep.
    """

    status: str
    table: Table | None = None
    canonical: Canonical | None = None
    changed: int | None = None

    @property
    def found(self) -> bool:
        """True when the solve produced a final table."""
        return self.table is not None


class PuzzleModel:
    """The model of one puzzle. ``restricted`` adds the keep/extend choices of the grader.

    ``group_shapes`` (by rank and suits), ``starts`` and ``coverage`` (by suit and sequence
    position: runs starting there, sequence cards there), ``jokers_at``, ``hand_played`` and
    ``hand_jokers`` are the engine parts' variables, named the way ``canonical`` counts a table.
    """

    def __init__(
        self,
        rules: RuleSet,
        table: Sequence[Meld],
        hand: Sequence[Piece],
        goal: Goal,
        *,
        restricted: bool = False,
        max_changed: int | None = None,
    ) -> None:
        self.rules = rules
        model = self.model = CpModel()
        inventory = count_inventory(table, hand)
        # The goal says how much must be played; arranging given pieces may play nothing. The
        # plain bounds (no pruning) keep the search, and so the generator's puzzles, as they were.
        supply = self.supply = PieceSupply(
            model, inventory, rules, play_all=goal.play_all, least_played=0, prune=False
        )
        if goal.points is not None:
            PointsGoal(model, rules, supply, goal.points)
        JokerLocking(model, supply)
        self.groups = GroupShapes(model, rules, supply.bounds)
        self.runs = RunFlow(model, rules, supply.bounds)
        self.growing: GrowingMelds | None = None
        if restricted:
            kept = KeptMelds(model, inventory.melds)
            self.growing = GrowingMelds(model, rules, table, kept, supply)
        for card in ALL_CARDS:
            held = self.growing.holds(card) if self.growing else 0
            used = self.groups.pieces.get(card, 0) + self.runs.pieces(card)
            model.add(supply.shown(card) - held == used)
        self.changed: Expr = self.growing.changed if self.growing else 0
        if self.growing and max_changed is not None:
            model.add(self.changed <= max_changed)
        self._own_jokers = [contents.jokers for contents in inventory.melds]
        self._table_real = inventory.table_real
        self.hand_played: dict[Card, Expr] = dict(supply.hand_played)
        self.hand_jokers: Expr = supply.hand_jokers
        self.jokers_at: dict[Card, Expr] = supply.jokers_at
        self.group_shapes: dict[GroupShape, Expr] = {
            (shape.rank, shape.suits): count for shape, count in self.groups.count.items()
        }
        self.starts: dict[RunPlace, Expr] = {}
        self.coverage: dict[RunPlace, Expr] = {}
        for suit, steps in enumerate(self.runs.steps):
            for position, step in steps.items():
                self.starts[suit, position] = step.start
                self.coverage[suit, position] = step.pieces

    # --- uniqueness ------------------------------------------------------------------------------

    def forbid(self, canonical: Canonical) -> None:
        """Exclude every final table with these canonical counts (a different one must be found)."""
        groups = dict(canonical.groups)
        runs = dict(canonical.runs)
        jokers = dict(canonical.jokers)
        forbid_counts(
            self.model,
            [
                *((expr, groups.get(key, 0)) for key, expr in self.group_shapes.items()),
                *((expr, runs.get(key, 0)) for key, expr in self.coverage.items()),
                *((expr, jokers.get(card, 0)) for card, expr in self.jokers_at.items()),
            ],
        )

    # --- solving ---------------------------------------------------------------------------------

    def solve(self, *, minimize_changed: bool = False, time_limit: float = 30.0) -> ModelResult:
        """Solve deterministically (one worker, seed 0; Ctrl-C stops it, see
        ``meldsat.engine.solving``); optionally change the fewest melds."""
        if minimize_changed and not isinstance(self.changed, int):
            self.model.minimize(self.changed)
        # CP-SAT's default search: the generator's puzzles for a seed follow from it.
        solver = new_solver(time_limit)
        code = run_solver(solver, self.model)
        status = solver.status_name(code)
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return ModelResult(status)
        if minimize_changed and code != cp_model.OPTIMAL:
            return ModelResult("UNKNOWN")
        return self._extract(Values(solver), status)

    def _extract(self, values: Values, status: str) -> ModelResult:
        melds: list[list[Card]] = []
        own_jokers: list[Counter[Card]] = []
        if self.growing:
            melds = self.growing.extract(values)
            kept = self.growing.kept.extract(values)
            own_jokers = [self._own_jokers[index] for index in kept]
        kept_count = len(melds)
        melds.extend(
            shape.cards
            for shape, count in sorted(self.groups.extract(values).items())
            for _ in range(count)
        )
        melds.extend(self.runs.extract(values))
        played = self.supply.extract(values)
        table = _fill(melds, own_jokers, self._table_real + played.hand_played, played.jokers_at)
        if self.growing:
            return ModelResult(status, table, None, len(self._own_jokers) - kept_count)
        groups = Counter({key: values(v) for key, v in self.group_shapes.items()})
        runs = Counter({key: values(v) for key, v in self.coverage.items()})
        canonical = Canonical.from_counts(groups, runs, played.jokers_at)
        return ModelResult(status, table, canonical, None)


def _fill(
    melds: list[list[Card]],
    own_jokers: list[Counter[Card]],
    real: Counter[Card],
    jokers: Counter[Card],
) -> Table:
    """Pieces for every slot: a real card while one is left, else a joker declared as the card.

    Kept melds come first (``own_jokers`` holds each one's jokers), so they keep their pieces.
    """
    real = Counter(real)
    jokers = Counter(jokers)
    table: list[Meld] = []
    for number, meld in enumerate(melds):
        pieces: list[Piece] = []
        wanted = Counter(own_jokers[number]) if number < len(own_jokers) else Counter()
        for card in meld:
            if wanted[card] > 0:
                wanted[card] -= 1
                jokers[card] -= 1
                pieces.append(Joker(card))
            elif real[card] > 0:
                real[card] -= 1
                pieces.append(card)
            else:
                jokers[card] -= 1
                pieces.append(Joker(card))
        table.append(tuple(pieces))
    if +real or +jokers or any(n < 0 for n in jokers.values()):
        raise AssertionError("the model's counts do not match the pieces")
    return tuple(table)
