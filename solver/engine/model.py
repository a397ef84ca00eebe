"""The CP-SAT model of a rearrangement, composed of parts chosen from the rule set.

The model counts instead of enumerating melds. Every part lives in ``meldsat.engine.parts``:

* the piece supply: hand cards played and jokers, per card (always);
* the kept-meld booleans: original melds left showing the same cards are taken out of the count;
* joker locking: a table joker changes its card only once its real card is on the table;
* groups counted per shape, and sequences as a flow along the positions of each suit;
* for 500 rummy (each new or changed meld needs a hand piece), the hand origin of pieces, hand
  pieces in groups, and the marked run flow in place of the plain one;
* the initial meld (before a first meld: new melds worth enough points);
* the lexicographic objective.

For every card, the pieces showing it outside kept melds equal those in groups plus those in runs;
under 500 rummy, the same holds for the pieces from the hand alone. Everything else is plain Python
(``inventory`` before, ``trace`` and ``arrange`` after), so nothing downstream sees the solver.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Protocol

from meldsat.cards import ALL_CARDS, Card
from meldsat.engine.cpsat import CpModel, Expr, Values, cp_model
from meldsat.engine.inventory import Inventory, take_inventory
from meldsat.engine.parts.groups import GroupShapes
from meldsat.engine.parts.initial import InitialMeld
from meldsat.engine.parts.jokers import JokerLocking
from meldsat.engine.parts.kept import KeptMelds
from meldsat.engine.parts.marked_groups import MarkedGroups
from meldsat.engine.parts.marked_runs import MarkedRunFlow
from meldsat.engine.parts.objective import LexicographicObjective
from meldsat.engine.parts.origin import HandOrigin
from meldsat.engine.parts.runs import RunFlow
from meldsat.engine.parts.supply import PieceSupply
from meldsat.engine.solving import EngineSearch, new_solver, run_solver
from meldsat.engine.trace import Slot
from meldsat.errors import UnsupportedError
from meldsat.play import Objective
from meldsat.position import Position


@dataclass(frozen=True)
class FlowSolution:
    """A solution of the model in plain numbers and card lists, ready to be filled with pieces.

    ``melds`` are the melds outside the kept ones, as slots: the card each place shows and where
    its piece must come from. ``jokers_at`` counts every joker by the card it stands for at the end;
    ``hand_jokers_at`` those that came from the hand, where the model tells them apart
    (``tracks_origin``: 500 rummy, where every new meld needs a hand card).
    """

    kept_melds: tuple[int, ...]
    hand_played: Counter[Card]
    hand_jokers_played: int
    jokers_at: Counter[Card]
    hand_jokers_at: Counter[Card]
    melds: tuple[tuple[Slot, ...], ...]
    value: int
    tracks_origin: bool = False


@dataclass(frozen=True)
class ModelOutcome:
    """What one solve returned: the CP-SAT status name, the best solution and the proven bound."""

    status: str
    solution: FlowSolution | None
    bound: int | None


class MeldPart(Protocol):
    """A family of melds (groups or runs) whose solution reads back as slots."""

    def slots(self, values: Values) -> list[list[Slot]]:
        """The melds of the solution, as slots."""
        ...


class RunPart(MeldPart, Protocol):
    """What the model needs of a run flow (plain or marked)."""

    def pieces(self, card: Card) -> Expr:
        """The pieces of ``card`` in runs."""
        ...

    def low_aces(self) -> Expr:
        """Aces played low, first in a run."""
        ...


def table_is_frozen(position: Position) -> bool:
    """True when the play may only add new melds from the hand, leaving the table as it is."""
    return position.initial or not position.rules.table_rearrangement


class RearrangementModel:
    """The CP-SAT model for one position and objective. Build it, then call :meth:`solve`.

    Before the initial meld, and in games without manipulation (gin), the table stays as it is and
    the hand alone makes new melds: the table is not part of the supply and no meld is kept. Only
    then does 500 rummy not need its origin parts, since every new piece comes from the hand.
    """

    def __init__(
        self,
        position: Position,
        objective: Objective = Objective.POINTS,
        *,
        play_all: bool = False,
    ) -> None:
        rules = position.rules
        if rules.wrap_around:
            raise UnsupportedError(
                "the engine does not solve wrap-around sequences (K-A-2); the checker does"
            )
        self.inventory: Inventory = take_inventory(position)
        self.table_frozen = table_is_frozen(position)
        self.tracks_origin = rules.new_meld_needs_hand_card and not self.table_frozen
        model = self.model = CpModel()
        supply = self.supply = PieceSupply(
            model, self.inventory, rules, table_used=not self.table_frozen, play_all=play_all
        )
        kept = self.kept = KeptMelds(model, () if self.table_frozen else self.inventory.melds)
        JokerLocking(model, supply)
        self.groups: MeldPart
        self.runs: RunPart
        self.origin: HandOrigin | None = None
        in_groups: dict[Card, Expr]
        if self.tracks_origin:
            self.origin = HandOrigin(model, supply, kept)
            marked_groups = MarkedGroups(model, rules, supply.bounds, supply.hand_bounds)
            marked_runs = MarkedRunFlow(
                model, rules, supply.bounds, supply.hand_bounds, supply.table_bounds
            )
            self.groups, self.runs = marked_groups, marked_runs
            in_groups = marked_groups.pieces
            for card, from_hand in self.origin.pieces.items():
                in_melds = marked_groups.hand_pieces.get(card, 0) + marked_runs.hand_pieces(card)
                model.add(from_hand == in_melds)
            # Implied, and a much tighter LP: each new or changed meld holds its own hand piece, so
            # there are no more of them than pieces played.
            melds = sum(marked_groups.count.values()) + marked_runs.run_count()
            model.add(melds <= supply.played_count)
        else:
            groups = GroupShapes(model, rules, supply.bounds)
            self.groups, self.runs = groups, RunFlow(model, rules, supply.bounds)
            in_groups = groups.pieces
        free: dict[Card, Expr] = {}
        for card in ALL_CARDS:
            if supply.bounds.most(card):
                free[card] = supply.shown(card) - kept.holds(card)
                model.add(free[card] == in_groups.get(card, 0) + self.runs.pieces(card))
        if position.initial and rules.initial_meld_points:
            InitialMeld(model, rules, rules.initial_meld_points, free, self.runs.low_aces())
        self.objective = LexicographicObjective(model, objective, rules, supply, kept)
        # 500 rummy's larger models have a weak LP: only what CP-SAT linearizes at level 1.
        self.search = EngineSearch(linearization_level=1 if self.tracks_origin else 2)

    def solver(
        self,
        time_limit: float | None = None,
        *,
        num_workers: int = 1,
        log_search_progress: bool = False,
    ) -> cp_model.CpSolver:
        """A CP-SAT solver set up as the engine solves this model (:meth:`solve` uses it; the
        benchmarks solve variants of the model with it)."""
        return new_solver(
            time_limit,
            search=self.search,
            num_workers=num_workers,
            log_search_progress=log_search_progress,
        )

    def solve(
        self,
        time_limit: float | None = None,
        *,
        num_workers: int = 1,
        log_search_progress: bool = False,
    ) -> ModelOutcome:
        """Solve and return plain numbers.

        With the defaults the search is deterministic (one worker, fixed seed). ``num_workers``
        above 1 runs CP-SAT's portfolio in parallel (answers stay exact, but which of several
        equally good plays is returned may vary); ``log_search_progress`` prints CP-SAT's log of
        the search to standard output, to see where the time goes.
        """
        solver = self.solver(
            time_limit, num_workers=num_workers, log_search_progress=log_search_progress
        )
        code = run_solver(solver, self.model)
        status = solver.status_name(code)
        bound = None if code == cp_model.INFEASIBLE else self.objective.bound(solver)
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return ModelOutcome(status, None, bound)
        return ModelOutcome(status, self.extract(Values(solver)), bound)

    def extract(self, values: Values) -> FlowSolution:
        """The solution in plain numbers, each part reading its own share."""
        supply = self.supply.extract(values)
        return FlowSolution(
            kept_melds=self.kept.extract(values),
            hand_played=supply.hand_played,
            hand_jokers_played=supply.hand_jokers_played,
            jokers_at=supply.jokers_at,
            hand_jokers_at=self.origin.extract(values) if self.origin else Counter(),
            melds=tuple(
                tuple(meld) for meld in self.groups.slots(values) + self.runs.slots(values)
            ),
            value=self.objective.extract(values),
            tracks_origin=self.tracks_origin,
        )
