"""The CP-SAT model of a rearrangement: which hand cards join the table, and how it all melds.

The model counts instead of enumerating melds. For every card it decides how many pieces (real
cards and jokers standing for it) lie in groups and how many in sequences:

* groups are counted per shape (a rank and a set of suits, at most five shapes a rank), so no
  symmetric copies arise and the LP relaxation stays tight;
* sequences of one suit are a flow along the ranks (after van Rijn, Takes and Vis, 2015): a run
  started at rank ``p`` must go on through ``p + run_min - 1``; a complete run may go on or end.

Original melds that stay as they were (showing the same cards) are taken out of the count by one
boolean each; the objective prefers the most of them among equally good plays. Everything else
is plain Python (``inventory`` before, ``trace`` and ``arrange`` after, in this package), so
nothing downstream sees the solver.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from meldsat.cards import ALL_CARDS, Card, card_of
from meldsat.engine.cpsat import CpModel, cp_model
from meldsat.engine.inventory import Inventory, take_inventory
from meldsat.engine.trace import Origin, Slot, card_at, sequence_positions, trace_groups, trace_runs
from meldsat.errors import UnsupportedError
from meldsat.play import Objective
from meldsat.position import Position
from meldsat.rules import RuleSet

Expr = cp_model.LinearExpr | int


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


def joker_candidates(
    present: set[Card], declared: set[Card], joker_total: int, rules: RuleSet
) -> set[Card]:
    """The cards a joker can stand for in some legal meld of this position.

    A meld holds at most ``joker_total`` jokers, so a joker in a group needs at least
    ``group_min - joker_total`` real cards of its rank, and a joker in a run a window of ``run_min``
    ranks around it with at least ``run_min - joker_total`` real cards. Table jokers may also keep
    their cards. Pruning the rest keeps the model small.
    """
    if not joker_total:
        return set()
    if joker_total >= min(rules.group_min, rules.run_min):
        return set(ALL_CARDS)  # jokers alone could make a meld anywhere
    cards = set(declared)
    for rank in range(1, 14):
        row = [card_of(rank, suit) for suit in range(4)]
        if sum(card in present for card in row) >= rules.group_min - joker_total:
            cards.update(row)
    positions = list(sequence_positions(rules))
    for suit in range(4):
        for start in range(len(positions) - rules.run_min + 1):
            window = [card_of(card_at(p), suit) for p in positions[start : start + rules.run_min]]
            if sum(card in present for card in window) >= rules.run_min - joker_total:
                cards.update(window)
    return cards


def table_is_frozen(position: Position) -> bool:
    """True when the play may only add new melds from the hand, leaving the table as it is."""
    return position.initial or not position.rules.table_rearrangement


class RearrangementModel:
    """The CP-SAT model for one position and objective. Build it, then call :meth:`solve`."""

    tracks_origin = False

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
        self.rules: RuleSet = rules
        self.objective = objective
        self.inventory: Inventory = take_inventory(position)
        # Before the initial meld, and in games without manipulation (gin), the table stays as it
        # is and the hand alone makes new melds (worth the initial-meld points where the rules say).
        self.table_frozen = table_is_frozen(position)
        self.initial_points = rules.initial_meld_points if position.initial else 0
        self.model = CpModel()
        self._positions = sequence_positions(rules)
        self._first = self._positions.start
        self._last = self._positions.stop - 1
        self._build_pieces(play_all)
        self._build_groups()
        self._build_sequences()
        self._link_pieces()
        self._build_objective()

    # --- pieces: hand cards played, jokers, melds kept ------------------------------------------

    def _build_pieces(self, play_all: bool) -> None:
        inv = self.inventory
        model = self.model
        self.hand_played: dict[Card, Expr] = {}
        for card, count in sorted(inv.hand_real.items()):
            low = count if play_all else 0
            self.hand_played[card] = model.new_int_var(low, count, f"h_{card}")
        low_jokers = inv.hand_jokers if play_all else 0
        self.hand_jokers: Expr = (
            model.new_int_var(low_jokers, inv.hand_jokers, "hj") if inv.hand_jokers else 0
        )
        self.played_count: Expr = sum(self.hand_played.values()) + self.hand_jokers
        model.add(self.played_count >= 1)
        table_melds = () if self.table_frozen else inv.melds
        self.table_real: Counter[Card] = Counter() if self.table_frozen else inv.table_real
        self.table_jokers: Counter[Card] = Counter() if self.table_frozen else inv.table_jokers
        # A kept meld reads exactly as before: the same cards, jokers standing for the same cards
        # (a joker swapped for its real card still counts, as the meld shows the same cards).
        self.kept = [model.new_bool_var(f"keep_{index}") for index in range(len(table_melds))]
        self.kept_with_joker = [
            keep for keep, meld in zip(self.kept, table_melds, strict=True) if meld.jokers.total()
        ]
        joker_total = self.table_jokers.total() + inv.hand_jokers
        # For each card, the kept-meld booleans of the melds showing it, with how often they do,
        # as a real card and as a joker.
        real_holders: dict[Card, list[tuple[cp_model.IntVar, int]]] = {}
        joker_holders: dict[Card, list[tuple[cp_model.IntVar, int]]] = {}
        for keep, meld in zip(self.kept, table_melds, strict=True):
            for holders, counts in ((real_holders, meld.real), (joker_holders, meld.jokers)):
                for card, count in counts.items():
                    holders.setdefault(card, []).append((keep, count))
        self.kept_jokers: dict[Card, Expr] = {
            card: sum(keep * count for keep, count in holders)
            for card, holders in joker_holders.items()
        }
        self.jokers_at: dict[Card, Expr] = {}
        self.most: dict[Card, int] = {}
        self.free: dict[Card, Expr] = {}
        present = {card for card, count in (self.table_real + inv.hand_real).items() if count}
        joker_cards = joker_candidates(present, set(self.table_jokers), joker_total, self.rules)
        for card in ALL_CARDS:
            # Bound on the pieces standing for a card: every real copy present, every joker.
            on_table = self.table_real[card]
            joker_bound = joker_total if card in joker_cards else 0
            self.most[card] = on_table + inv.hand_real[card] + joker_bound
            if not self.most[card]:
                self.jokers_at[card] = self.free[card] = 0
                continue
            jokers: Expr = 0
            if joker_bound:
                jokers = model.new_int_var(0, joker_total, f"j_{card}")
            self.jokers_at[card] = jokers
            real = on_table + self.hand_played.get(card, 0)
            if self.table_jokers[card]:
                # A table joker declared this card may change only if the real card ends on
                # the table (RULES-REFERENCE's reading of joker locking).
                model.add(jokers + real >= self.table_jokers[card])
            reserved = sum(keep * count for keep, count in real_holders.get(card, ()))
            self.free[card] = real + jokers - reserved - self.kept_jokers.get(card, 0)
        if joker_total:
            model.add(sum(self.jokers_at.values()) == self.table_jokers.total() + self.hand_jokers)

    # --- groups ----------------------------------------------------------------------------------

    def _build_groups(self) -> None:
        """One count per group shape (rank and set of suits): at most 5 shapes a rank.

        Counting shapes rather than groups avoids symmetric copies, and its LP relaxation is
        tighter than counting groups per rank.
        """
        rules = self.rules
        model = self.model
        self.group_pieces: dict[Card, Expr] = {}
        self.group_shapes: dict[tuple[int, tuple[int, ...]], Expr] = {}
        shapes = [
            suits
            for size in range(rules.group_min, min(rules.group_max, 4) + 1)
            for suits in itertools.combinations(range(4), size)
        ]
        for rank in range(1, 14):
            row = [card_of(rank, suit) for suit in range(4)]
            most = [self.most[card] for card in row]
            parts: list[list[Expr]] = [[], [], [], []]
            for suits in shapes:
                bound = min([most[suit] for suit in suits])
                if not bound:
                    continue
                count = model.new_int_var(0, bound, "")
                self.group_shapes[rank, suits] = count
                for suit in suits:
                    parts[suit].append(count)
            for suit, card in enumerate(row):
                self.group_pieces[card] = sum(parts[suit])

    # --- sequences -------------------------------------------------------------------------------

    def _build_sequences(self) -> None:
        model = self.model
        length = self.rules.run_min
        self.starts: dict[tuple[int, int], Expr] = {}
        self.continues: dict[tuple[int, int], Expr] = {}
        self.in_runs: dict[tuple[int, int], Expr] = {}
        for suit in range(4):
            positions = range(self._first, self._last + 1)
            most = {p: self.most[card_of(card_at(p), suit)] for p in positions}
            for p in positions:
                span = range(p, p + length)
                if span[-1] <= self._last:
                    bound = min(most[q] for q in span)
                    self.starts[suit, p] = (
                        model.new_int_var(0, bound, f"s_{suit}_{p}") if bound else 0
                    )
                else:
                    self.starts[suit, p] = 0
            for p in positions:
                # Runs started in the last run_min - 1 positions are still incomplete at p.
                incomplete = sum(self.starts.get((suit, p - back), 0) for back in range(length - 1))
                complete_before = self._complete(suit, p - 1)
                if p - length >= self._first - 1 and most[p] and not _is_zero(complete_before):
                    going_on = model.new_int_var(0, most[p], f"c_{suit}_{p}")
                    model.add(going_on <= complete_before)
                    self.continues[suit, p] = going_on
                else:
                    self.continues[suit, p] = 0
                self.in_runs[suit, p] = incomplete + self._complete(suit, p)

    def _complete(self, suit: int, p: int) -> Expr:
        """Complete runs (at least run_min long) that reach position ``p``."""
        if p < self._first:
            return 0
        started = self.starts.get((suit, p - self.rules.run_min + 1), 0)
        return started + self.continues.get((suit, p), 0)

    # --- linking pieces to melds, objective ------------------------------------------------------

    def _link_pieces(self) -> None:
        for card, free in self.free.items():
            used = self.group_pieces[card] + self.in_runs.get((card.suit, card.rank), 0)
            if card.rank == 1:
                used = used + self.in_runs.get((card.suit, 14), 0)
            self.model.add(free == used)
        if self.initial_points:
            rules = self.rules
            meld_value = sum(rules.card_value(card) * free for card, free in self.free.items())
            # (no melds are kept in the flow here, so free pieces are exactly the new melds)
            self.model.add(meld_value >= self.initial_points)

    def _build_objective(self) -> None:
        rules = self.rules
        if self.objective is Objective.POINTS:
            self.value: Expr = (
                sum(rules.card_value(card) * var for card, var in self.hand_played.items())
                + rules.joker_value * self.hand_jokers
            )
        else:
            self.value = self.played_count
        # Lexicographic: the value, then the original melds kept intact, then (a tie-break that
        # makes a freed joker's real card take its place) those of them that held a joker.
        joker_weight = len(self.kept_with_joker) + 1
        self.weight = (len(self.kept) + 1) * joker_weight
        self.model.maximize(
            self.value * self.weight + sum(self.kept) * joker_weight + sum(self.kept_with_joker)
        )

    # --- solving ---------------------------------------------------------------------------------

    def solve(self, time_limit: float | None = None) -> ModelOutcome:
        """Solve (deterministically: one worker, fixed seed) and return plain numbers."""
        solver = cp_model.CpSolver()
        params = solver.parameters
        params.num_workers = 1
        params.random_seed = 0
        # Measured on full-table positions (benchmarks/): these models are small and their LP is
        # tight, so CP-SAT's presolve, probing, symmetry detection, cuts and inprocessing cost more
        # time than they save, and putting every constraint in the LP at once beats adding them
        # lazily (median solve 2 ms instead of 5 on the dev positions).
        params.cp_model_presolve = False
        params.cp_model_probing_level = 0
        params.symmetry_level = 0
        params.linearization_level = 2
        params.add_cg_cuts = False
        params.add_mir_cuts = False
        params.add_zero_half_cuts = False
        params.add_clique_cuts = False
        params.use_sat_inprocessing = False
        params.add_lp_constraints_lazily = False
        # CP-SAT's own Ctrl-C handler would swallow the interrupt (a false "time limit" answer)
        # and leave SIGINT at its default after the solve; Python's handler stops it promptly.
        params.catch_sigint_signal = False
        if time_limit is not None:
            params.max_time_in_seconds = time_limit
        code = solver.solve(self.model)
        status = solver.status_name(code)
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            bound = None if code == cp_model.INFEASIBLE else self._bound(solver)
            return ModelOutcome(status, None, bound)
        return ModelOutcome(status, self._extract(solver), self._bound(solver))

    def _bound(self, solver: cp_model.CpSolver) -> int | None:
        bound = solver.best_objective_bound
        return None if math.isnan(bound) else int(bound) // self.weight

    def _extract(self, solver: cp_model.CpSolver) -> FlowSolution:
        def value(expr: Expr) -> int:
            return expr if isinstance(expr, int) else int(solver.value(expr))

        return FlowSolution(
            kept_melds=tuple(index for index, keep in enumerate(self.kept) if value(keep)),
            hand_played=Counter({card: value(v) for card, v in self.hand_played.items()}),
            hand_jokers_played=value(self.hand_jokers),
            jokers_at=Counter({card: value(v) for card, v in self.jokers_at.items()}),
            hand_jokers_at=self._extract_hand_jokers(value),
            melds=self._extract_melds(value),
            value=value(self.value),
            tracks_origin=self.tracks_origin,
        )

    def _extract_hand_jokers(self, value: Callable[[Expr], int]) -> Counter[Card]:
        """Jokers from the hand by declared card; this model does not tell them apart."""
        return Counter()

    def _extract_melds(self, value: Callable[[Expr], int]) -> tuple[tuple[Slot, ...], ...]:
        """The new melds as slots; any piece showing the slot's card may fill it."""
        shapes = {key: value(count) for key, count in self.group_shapes.items()}
        starts = {key: value(count) for key, count in self.starts.items()}
        going_on = {key: value(count) for key, count in self.continues.items()}
        cards = trace_groups(shapes) + trace_runs(starts, going_on, self.rules)
        return tuple(tuple((card, Origin.ANY) for card in meld) for meld in cards)


def _is_zero(expr: Expr) -> bool:
    return isinstance(expr, int) and expr == 0
