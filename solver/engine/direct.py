"""The plain rearrangement model written straight into its CP-SAT proto, from arrays.

``meldsat.engine.model.RearrangementModel`` composes the model from the parts of
``meldsat.engine.parts``, one Python call per variable, term and constraint through OR-Tools'
expression classes; on the small tables most positions have, that build costs more than the solve.
This module writes the *same* model (the same variables in the same order, the same constraints,
each in the canonical form OR-Tools gives it: terms by variable, constants in the domain) directly
into the proto's repeated fields (the variables all at once, as text), and reads the solution back
from the response's array. The same proto solved with the same parameters gives the same answer,
so ``best_play`` uses this build where it applies (every rule set without 500 rummy's hand origin)
and the parts stay the readable definition: ``tests/test_direct_model.py`` checks, on generated
positions of every such rule set, that both builds give the same proto.

The bounds and the shapes come from the parts' own functions (``joker_candidates_at``,
``PieceBounds``, ``_shapes``, the run windows), kept per rule set with their card indexes; only
the writing of variables and constraints is done here. Where a position would make a constraint
without variables (an empty hand), the parts' build is used instead (:class:`NotDirectError`):
OR-Tools writes those in another form.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Sequence

from meldsat.cards import ALL_CARDS, Card, card_of
from meldsat.engine.cpsat import CpModel, cp_model
from meldsat.engine.inventory import take_inventory
from meldsat.engine.model import FlowSolution, ModelOutcome, table_is_frozen
from meldsat.engine.parts.groups import GroupShape, _shapes
from meldsat.engine.parts.runs import _run_cards
from meldsat.engine.parts.supply import (
    CARD_INDEX,
    Picker,
    PieceBounds,
    joker_candidates_at,
    picker,
)
from meldsat.engine.solving import EngineSearch, new_solver, run_solver
from meldsat.engine.trace import Origin, Slot, trace_runs
from meldsat.play import Objective
from meldsat.position import Position
from meldsat.rules import rank_at

INT_MIN = -(2**63)
INT_MAX = 2**63 - 1
CARDS = len(ALL_CARDS)
# A linear expression: coefficient by variable index, and a constant.
Terms = dict[int, int]


class NotDirectError(Exception):
    """The position makes a model this module does not write: build it from the parts."""


def applies(position: Position) -> bool:
    """True when this build makes the model ``best_play`` needs: no wrap-around (which the engine
    refuses) and no hand origin (500 rummy's parts, built by ``RearrangementModel``)."""
    rules = position.rules
    if rules.wrap_around:
        return False
    return not (rules.new_meld_needs_hand_card and not table_is_frozen(position))


class _Writer:
    """Appends variables and linear constraints to a proto, in OR-Tools' canonical form.

    The variables are written together by :meth:`flush`, as text: one parse of the proto's text
    format costs about 0.6 of the three calls a variable through its fields (measured on the
    models of simulated games). Constraints only name variables by index, so they may come first.
    """

    def __init__(self, model: CpModel) -> None:
        self.proto = model.proto
        # The proto's own method, looked up once: a model makes hundreds of calls to it.
        self._add_constraint = self.proto.constraints.add
        self._domains: list[tuple[int, int]] = []
        self.count = 0
        self._true = -1

    def var(self, low: int, high: int) -> int:
        """A new integer variable in ``[low, high]``: its index (written by :meth:`flush`)."""
        self._domains.append((low, high))
        self.count += 1
        return self.count - 1

    def flush(self) -> None:
        """Write the variables made since the last flush into the proto."""
        if self._domains:
            if not self.proto.merge_text_format(" ".join(map(_variable_text, self._domains))):
                raise RuntimeError("OR-Tools refused the variables' text")
            self._domains.clear()

    def linear(self, terms: Terms, low: int, high: int) -> None:
        """``low <= Σ coefficient × variable <= high`` (the constant already moved across)."""
        if 0 in terms.values():
            terms = {var: coeff for var, coeff in terms.items() if coeff}
        if not terms:
            raise NotDirectError("a constraint without variables")
        ordered = sorted(terms)
        linear = self._add_constraint().linear
        linear.vars.extend(ordered)
        linear.coeffs.extend(map(terms.__getitem__, ordered))
        linear.domain.extend((low, high))

    def holds(self) -> None:
        """``CpModel.add(True)``, what a comparison of two plain zeros gives: a ``bool_or`` of a
        constant-true variable, made at the first such constraint and reused after."""
        if self._true < 0:
            self._true = self.var(1, 1)
        self._add_constraint().bool_or.literals.append(self._true)

    def maximize(self, terms: Terms) -> None:
        """The objective, as ``CpModel.maximize`` writes it: negated, scaling factor -1."""
        kept = sorted((var, coeff) for var, coeff in terms.items() if coeff)
        if not kept:
            raise NotDirectError("an objective without variables")
        objective = self.proto.objective
        objective.vars.extend([var for var, _ in kept])
        objective.coeffs.extend([-coeff for _, coeff in kept])
        objective.scaling_factor = -1


@functools.cache
def _variable_text(domain: tuple[int, int]) -> str:
    """A variable of ``domain`` in the proto's text format."""
    low, high = domain
    return f"variables{{domain:{low} domain:{high}}}"


# A sequence position of a suit: its number, its card's index, and the picker of the cards of a
# run starting there (``None`` where too few positions are left).
FlowStep = tuple[int, int, Picker | None]


@functools.cache
def _flow_layout(positions: range, length: int) -> tuple[tuple[FlowStep, ...], ...]:
    """Every sequence position of every suit (:data:`FlowStep`): the static part of the flow."""
    return tuple(
        tuple(
            (
                p,
                CARD_INDEX[card_of(rank_at(p), suit)],
                picker(_run_cards(suit, p, length)) if index + length <= len(positions) else None,
            )
            for index, p in enumerate(positions)
        )
        for suit in range(4)
    )


@functools.cache
def group_layout(
    group_min: int, group_max: int
) -> tuple[tuple[GroupShape, list[Card], tuple[int, ...], Picker], ...]:
    """``parts.groups._shapes`` with the picker of each shape's cards."""
    return tuple(
        (shape, cards, indexes, picker(indexes))
        for shape, cards, indexes in _shapes(group_min, group_max)
    )


class DirectModel:
    """The plain model of one position and objective, written from arrays. Build it, then call
    :meth:`solve`; ``inventory`` and ``table_frozen`` are those of ``RearrangementModel``.

    Cards are handled by their place in ``ALL_CARDS`` (lists, not dictionaries keyed by cards),
    variables by their index in the proto (-1: no variable). Each step writes what one part of
    ``meldsat.engine.parts`` adds, in the order ``RearrangementModel`` adds them.
    """

    def __init__(
        self, position: Position, objective: Objective = Objective.POINTS, *, play_all: bool = False
    ) -> None:
        self.inventory = take_inventory(position)
        self.table_frozen = table_is_frozen(position)
        self.tracks_origin = False
        self.search = EngineSearch(linearization_level=2)
        self.model = CpModel()
        self._out = _Writer(self.model)
        self._rules = position.rules
        self._build(position, objective, play_all)
        self._out.flush()

    def _build(self, position: Position, objective: Objective, play_all: bool) -> None:
        """Write the model, part after part in ``RearrangementModel``'s order."""
        if not applies(position):
            raise NotDirectError("500 rummy's hand origin: ``direct_origin.OriginModel``")
        self._supply(play_all)
        self._kept()
        self._locking()
        self._groups()
        self._starts: list[tuple[int, int, int]] = []
        self._going_on: list[tuple[int, int, int]] = []
        self._low_aces: list[int] = []
        layout = _flow_layout(self._rules.sequence_positions, self._rules.run_min)
        for suit, steps in enumerate(layout):
            self._suit_flow(suit, steps)
        self._link(position)
        self._objective(objective)

    def _supply(self, play_all: bool) -> None:
        """Hand cards and jokers played, jokers by card (``parts.supply.PieceSupply``)."""
        out, inventory = self._out, self.inventory
        table_real: Counter[Card] = Counter() if self.table_frozen else inventory.table_real
        table_jokers = self._table_jokers = (
            Counter() if self.table_frozen else inventory.table_jokers
        )
        real_at = self._real_at = [0] * CARDS
        for card, count in table_real.items():
            real_at[CARD_INDEX[card]] = count
        here = [count > 0 for count in real_at]  # the cards with a real copy in the supply
        hand: list[tuple[Card, int]] = []
        self._hand = hand
        hand_var = self._hand_var = [-1] * CARDS
        for card, count in inventory.hand_real.items():
            var = out.var(count if play_all else 0, count)
            hand.append((card, var))
            index = CARD_INDEX[card]
            hand_var[index] = var
            here[index] = here[index] or count > 0
        in_hand = inventory.hand_jokers
        hj = self._hj = out.var(in_hand if play_all else 0, in_hand) if in_hand else -1
        self._played = [var for _, var in hand] + ([hj] if hj >= 0 else [])
        out.linear(dict.fromkeys(self._played, 1), 1, INT_MAX)
        on_table = table_jokers.total()
        joker_total = on_table + in_hand
        real = table_real + inventory.hand_real  # (a Counter sum keeps positive counts only)
        declared = [False] * CARDS
        for card in table_jokers:
            declared[CARD_INDEX[card]] = True
        chosen = joker_candidates_at(here, declared, joker_total, self._rules)
        candidates = frozenset(card for card, yes in zip(ALL_CARDS, chosen, strict=True) if yes)
        self._bounds = PieceBounds(real, joker_total, candidates, True)
        joker_var = self._joker_var = [-1] * CARDS
        self._jokers: list[tuple[Card, int]] = []
        for index, yes in enumerate(chosen):
            if yes:
                joker_var[index] = out.var(0, joker_total)
                self._jokers.append((ALL_CARDS[index], joker_var[index]))
        if joker_total and self._jokers:
            terms = {var: 1 for _, var in self._jokers}
            if hj >= 0:
                terms[hj] = -1
            out.linear(terms, on_table, on_table)
        elif joker_total:
            # No card for a joker: ``0 == table jokers + hj``, which Python turns around.
            if hj < 0:
                raise NotDirectError("table jokers without a card to stand for")
            out.linear({hj: 1}, -on_table, -on_table)

    def _kept(self) -> None:
        """A boolean for each original meld kept, and what kept melds hold by card
        (``parts.kept.KeptMelds``)."""
        melds = () if self.table_frozen else self.inventory.melds
        keep = self._keep = [self._out.var(0, 1) for _ in melds]
        self._with_joker = [var for var, meld in zip(keep, melds, strict=True) if meld.jokers]
        held: list[Terms] = [{} for _ in range(CARDS)]
        for var, meld in zip(keep, melds, strict=True):
            for counts in (meld.real, meld.jokers):
                for card, count in counts.items():
                    terms = held[CARD_INDEX[card]]
                    terms[var] = terms.get(var, 0) + count
        self._held = held

    def _locking(self) -> None:
        """Joker locking, with the pairs of jokers either missing card frees where the rules
        say so (``parts.jokers.JokerLocking``)."""
        out, real_at, hand_var = self._out, self._real_at, self._hand_var
        pairs = self.inventory.group_jokers
        if self.table_frozen or not self._rules.group_joker_either_missing:
            pairs = Counter()
        won: dict[int, list[int]] = {}
        taken: dict[int, list[int]] = {}
        for (card, other), count in sorted(pairs.items()):
            freed = out.var(0, count)
            won.setdefault(CARD_INDEX[card], []).append(freed)
            taken.setdefault(CARD_INDEX[other], []).append(freed)
        for card, count in self._table_jokers.items():
            index = CARD_INDEX[card]
            terms = {self._joker_var[index]: 1}
            if hand_var[index] >= 0:
                terms[hand_var[index]] = 1
            for var in won.get(index, ()):
                terms[var] = terms.get(var, 0) + 1
            for var in taken.get(index, ()):
                terms[var] = terms.get(var, 0) - 1
            out.linear(terms, count - real_at[index], INT_MAX)
        for index, used in taken.items():
            terms = dict.fromkeys(used, 1)
            if hand_var[index] >= 0:
                terms[hand_var[index]] = -1
            out.linear(terms, INT_MIN, real_at[index])

    def _groups(self) -> None:
        """Groups counted by shape (``parts.groups.GroupShapes``)."""
        self._shapes: list[tuple[GroupShape, list[Card], int]] = []
        in_melds: list[list[int]] = [[] for _ in range(CARDS)]
        self._in_melds = in_melds
        melds = self._bounds.melds_picked
        for shape, cards, indexes, pick in group_layout(
            self._rules.group_min, self._rules.group_max
        ):
            bound = melds(pick)
            if bound:
                var = self._out.var(0, bound)
                self._shapes.append((shape, cards, var))
                for index in indexes:
                    in_melds[index].append(var)

    def _suit_flow(self, suit: int, steps: Sequence[FlowStep]) -> None:
        """The run flow of one suit (``parts.runs.RunFlow``)."""
        out, bounds, in_melds = self._out, self._bounds, self._in_melds
        length = self._rules.run_min
        starts: dict[int, int] = {}
        for p, _, window in steps:
            if window is not None:
                first = bounds.melds_picked(window)
                if first:
                    starts[p] = out.var(0, first)
                    self._starts.append((suit, p, starts[p]))
        if 1 in starts:
            self._low_aces.append(starts[1])
        complete_before: list[int] = []
        most_at = bounds.most_at
        going = self._going_on
        for p, index, _ in steps:
            if starts:
                started = [starts[q] for q in range(p, p - length, -1) if q in starts]
                complete = [starts[p - length + 1]] if p - length + 1 in starts else []
            else:
                started, complete = [], []
            if complete_before and most_at[index]:
                going_on = out.var(0, most_at[index])
                going.append((suit, p, going_on))
                terms = dict.fromkeys(complete_before, -1)  # going_on <= Σ complete_before
                terms[going_on] = 1
                out.linear(terms, INT_MIN, 0)
                started.append(going_on)
                complete.append(going_on)
            if started:
                in_melds[index].extend(started)
            complete_before = complete

    def _link(self, position: Position) -> None:
        """Every piece outside kept melds is in a group or a run (``model.RearrangementModel``),
        and the initial meld's points (``parts.initial.InitialMeld``)."""
        real_at, hand_var, joker_var = self._real_at, self._hand_var, self._joker_var
        held, linear, subtract = self._held, self._out.linear, self._subtract_in_melds
        free: list[tuple[int, Terms]] = []
        for index, most in enumerate(self._bounds.most_at):
            if not most:
                continue
            terms = {var: -coeff for var, coeff in held[index].items()} if held[index] else {}
            if hand_var[index] >= 0:
                terms[hand_var[index]] = 1
            if joker_var[index] >= 0:
                terms[joker_var[index]] = 1
            if position.initial:
                free.append((index, dict(terms)))
            subtract(terms, index)
            linear(terms, -real_at[index], -real_at[index])
        if position.initial and self._rules.initial_meld_points:
            self._initial_meld(free)

    def _subtract_in_melds(self, terms: Terms, index: int) -> None:
        """Take the pieces of card ``index`` in groups and runs away from ``terms``."""
        for var in self._in_melds[index]:
            terms[var] = terms.get(var, 0) - 1

    def _initial_meld(self, free: Sequence[tuple[int, Terms]]) -> None:
        """The new melds worth the initial meld's points (``parts.initial.InitialMeld``)."""
        rules = self._rules
        terms: Terms = {}
        constant = 0
        for index, counts in free:
            worth = rules.card_value(ALL_CARDS[index])
            constant += worth * self._real_at[index]
            for var, coeff in counts.items():
                terms[var] = terms.get(var, 0) + worth * coeff
        if rules.ace_low_meld_value is not None:
            discount = rules.card_value(card_of(1, 0)) - rules.ace_low_meld_value
            for var in self._low_aces:
                terms[var] = terms.get(var, 0) - discount
        self._out.linear(terms, rules.initial_meld_points - constant, INT_MAX)

    def _objective(self, objective: Objective) -> None:
        """The value, then the melds kept, then those with a joker
        (``parts.objective.LexicographicObjective``)."""
        rules = self._rules
        if objective is Objective.POINTS:
            value = {var: rules.card_value(card) for card, var in self._hand}
            if self._hj >= 0:
                value[self._hj] = rules.joker_value
        else:
            value = dict.fromkeys(self._played, 1)
        self._value = value
        joker_weight = len(self._with_joker) + 1
        self.weight = (len(self._keep) + 1) * joker_weight
        goal = {var: coeff * self.weight for var, coeff in value.items()}
        for var in self._keep:
            goal[var] = joker_weight
        for var in self._with_joker:
            goal[var] += 1
        self._out.maximize(goal)

    def solve(self, time_limit: float | None = None) -> ModelOutcome:
        """Solve as ``RearrangementModel.solve`` does (the engine's search, one worker, seed 0)."""
        solver = new_solver(time_limit, search=self.search)
        code = run_solver(solver, self.model)
        status = solver.status_name(code)
        bound: int | None = None
        if code != cp_model.INFEASIBLE:
            best = solver.best_objective_bound
            bound = None if math.isnan(best) else int(best) // self.weight
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return ModelOutcome(status, None, bound)
        return ModelOutcome(status, self.extract(list(solver.response_proto.solution)), bound)

    def extract(self, values: Sequence[int]) -> FlowSolution:
        """The solution in plain numbers, as ``RearrangementModel.extract`` reads it."""
        laid = [(shape, cards, int(values[var])) for shape, cards, var in self._shapes]
        groups: list[tuple[Slot, ...]] = []
        # In shape order, as ``GroupShapes.slots`` sorts them.
        for _, cards, count in sorted(entry for entry in laid if entry[2]):
            slots = tuple((card, Origin.ANY) for card in cards)
            groups.extend(slots for _ in range(count))
        starts = {(suit, p): int(values[var]) for suit, p, var in self._starts if values[var]}
        going_on = {(suit, p): int(values[var]) for suit, p, var in self._going_on if values[var]}
        suits = sorted({suit for suit, _ in starts})
        runs = [
            tuple((card, Origin.ANY) for card in run)
            for run in trace_runs(starts, going_on, self._rules, suits)
        ]
        return self._solution(values, Counter(), (*groups, *runs))

    def _solution(
        self,
        values: Sequence[int],
        hand_jokers_at: Counter[Card],
        melds: tuple[tuple[Slot, ...], ...],
    ) -> FlowSolution:
        """The solution of the supply, the kept melds and the objective, with ``melds``."""
        hj = self._hj
        jokers_at: Counter[Card] = Counter(dict.fromkeys(ALL_CARDS, 0))
        for card, var in self._jokers:
            jokers_at[card] = int(values[var])
        return FlowSolution(
            kept_melds=tuple(index for index, var in enumerate(self._keep) if values[var]),
            hand_played=Counter({card: int(values[var]) for card, var in self._hand}),
            hand_jokers_played=0 if hj < 0 else int(values[hj]),
            jokers_at=jokers_at,
            hand_jokers_at=hand_jokers_at,
            melds=melds,
            value=sum(coeff * int(values[var]) for var, coeff in self._value.items()),
            tracks_origin=self.tracks_origin,
        )


__all__ = ["DirectModel", "NotDirectError", "applies"]
