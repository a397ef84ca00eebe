"""The CP-SAT model of a puzzle: every final table that reaches the goal, counted.

The counting follows the engine's formulation (docs/ENGINE.md): for every card, the pieces that
show it (real cards, and jokers standing for it) are split between groups, counted per shape (a
rank and a set of suits), and sequences, a flow along the ranks of each suit. A puzzle needs two
things the engine's best-play model does not give:

* **uniqueness**: the canonical counts of a solution (group shapes, sequence cards per place,
  jokers per card; see ``canonical``) can be forbidden and the model solved again;
* **restricted solvers** for grading: an original meld may be *kept* (it stays whole, showing the
  same cards, and may only grow at its ends, or a group by its missing suit, with any piece); the
  solver may change at most ``max_changed`` original melds, or find the fewest it must change.
  With ``max_changed=0`` this is the lay-and-extend solver: table melds are only extended and
  new melds come from the hand alone.

Nothing downstream sees the solver: a solve returns a plain ``ModelResult``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from meldsat.cards import ALL_CARDS, Card, Joker, Piece, card_of
from meldsat.engine.cpsat import CpModel, cp_model
from meldsat.melds import MeldKind, judge_meld
from meldsat.notation import Meld, Table
from meldsat.puzzles.canonical import Canonical, GroupShape, RunPlace, sequence_places
from meldsat.puzzles.goal import Goal
from meldsat.rules import RuleSet

Expr = cp_model.LinearExpr | int

ACE_HIGH_PLACE = 14


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


def card_at(place: int) -> int:
    """The rank at a sequence place: 1-13 as they are, 14 is the ace above the king."""
    return place if place <= 13 else 1


def sequence_range(rules: RuleSet) -> range:
    """The places a sequence may use under ``rules``."""
    return range(1 if rules.ace_low else 2, (ACE_HIGH_PLACE if rules.ace_high else 13) + 1)


@dataclass(frozen=True)
class _Kept:
    """An original meld the restricted solver may keep: its shown cards and how it may grow."""

    index: int
    shown: Counter[Card]
    jokers: Counter[Card]  # the declarations of its jokers, which stay in it
    growth: tuple[tuple[Card, ...], ...]  # chains of cards it may take, nearest first
    room: int | None = None  # a group: how many of the missing suits it may take


class PuzzleModel:
    """The model of one puzzle. ``restricted`` adds the keep/extend choices of the grader."""

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
        self.model = CpModel()
        self._places = sequence_range(rules)
        self._table_real: Counter[Card] = Counter()
        self._table_jokers: Counter[Card] = Counter()
        for meld in table:
            for piece in meld:
                if isinstance(piece, Joker):
                    if piece.declared is None:
                        raise ValueError("a table joker must be declared")
                    self._table_jokers[piece.declared] += 1
                else:
                    self._table_real[piece] += 1
        self._build_hand(hand, goal)
        self._build_jokers()
        self._build_groups()
        self._build_runs()
        self._restricted = restricted
        self._kept: list[_Kept] = []
        self._keep: list[cp_model.IntVar] = []
        self._growth: list[list[cp_model.IntVar]] = []
        reserved: dict[Card, list[Expr]] = {}
        if restricted:
            reserved = self._build_kept(table)
        self._link(reserved)
        self.changed: Expr = sum(1 - keep for keep in self._keep)
        if restricted and max_changed is not None:
            self.model.add(self.changed <= max_changed)

    # --- pieces ----------------------------------------------------------------------------------

    def _build_hand(self, hand: Sequence[Piece], goal: Goal) -> None:
        real = Counter(piece for piece in hand if isinstance(piece, Card))
        jokers = sum(1 for piece in hand if isinstance(piece, Joker))
        self._hand_real = real
        self._hand_jokers_held = jokers
        if goal.play_all:
            self.hand_played: dict[Card, Expr] = dict(real)
            self.hand_jokers: Expr = jokers
            return
        self.hand_played = {
            card: self.model.new_int_var(0, count, f"h_{card}") for card, count in real.items()
        }
        self.hand_jokers = self.model.new_int_var(0, jokers, "hj") if jokers else 0
        value = sum(self.rules.card_value(c) * v for c, v in self.hand_played.items())
        self.model.add(value + self.rules.joker_value * self.hand_jokers >= (goal.points or 0))

    def _build_jokers(self) -> None:
        total = self._table_jokers.total() + self._hand_jokers_held
        self._joker_total = total
        self.jokers_at: dict[Card, Expr] = {}
        self._most: dict[Card, int] = {}
        self.shown: dict[Card, Expr] = {}
        for card in ALL_CARDS:
            jokers: Expr = self.model.new_int_var(0, total, f"j_{card}") if total else 0
            self.jokers_at[card] = jokers
            real = self._table_real[card] + self.hand_played.get(card, 0)
            self._most[card] = self._table_real[card] + self._hand_real[card] + total
            self.shown[card] = real + jokers
            if self._table_jokers[card]:
                # Joker locking: a table joker declared this card may stand for another card only
                # if the real card is on the table at the end.
                self.model.add(jokers + real >= self._table_jokers[card])
        if total:
            used = self._table_jokers.total() + self.hand_jokers
            self.model.add(sum(self.jokers_at.values()) == used)

    # --- groups and sequences --------------------------------------------------------------------

    def _build_groups(self) -> None:
        rules = self.rules
        self.group_shapes: dict[GroupShape, Expr] = {}
        self._group_pieces: dict[Card, list[Expr]] = {card: [] for card in ALL_CARDS}
        for rank in range(1, 14):
            for size in range(rules.group_min, min(rules.group_max, 4) + 1):
                for suits in itertools.combinations(range(4), size):
                    bound = min(self._most[card_of(rank, suit)] for suit in suits)
                    if not bound:
                        continue
                    count = self.model.new_int_var(0, bound, f"g_{rank}_{suits}")
                    self.group_shapes[rank, suits] = count
                    for suit in suits:
                        self._group_pieces[card_of(rank, suit)].append(count)

    def _build_runs(self) -> None:
        """Sequences of each suit as a flow: a run starts, reaches ``run_min``, goes on or ends."""
        length = self.rules.run_min
        first, last = self._places.start, self._places.stop - 1
        self.starts: dict[RunPlace, Expr] = {}
        self.going_on: dict[RunPlace, Expr] = {}
        self.coverage: dict[RunPlace, Expr] = {}
        for suit in range(4):
            most = {p: self._most[card_of(card_at(p), suit)] for p in self._places}
            for p in self._places:
                end = p + length - 1
                bound = min(most[q] for q in range(p, end + 1)) if end <= last else 0
                self.starts[suit, p] = (
                    self.model.new_int_var(0, bound, f"s_{suit}_{p}") if bound else 0
                )
            for p in self._places:
                complete_before = self._complete(suit, p - 1, first)
                if most[p] and not (isinstance(complete_before, int) and complete_before == 0):
                    going = self.model.new_int_var(0, most[p], f"c_{suit}_{p}")
                    self.model.add(going <= complete_before)
                    self.going_on[suit, p] = going
                else:
                    self.going_on[suit, p] = 0
                young = sum(self.starts.get((suit, p - back), 0) for back in range(length - 1))
                self.coverage[suit, p] = young + self._complete(suit, p, first)

    def _complete(self, suit: int, p: int, first: int) -> Expr:
        """Runs of at least ``run_min`` cards that reach place ``p``."""
        if p < first:
            return 0
        return self.starts.get((suit, p - self.rules.run_min + 1), 0) + self.going_on.get(
            (suit, p), 0
        )

    # --- kept melds (restricted solvers) ---------------------------------------------------------

    def _build_kept(self, table: Sequence[Meld]) -> dict[Card, list[Expr]]:
        reserved: dict[Card, list[Expr]] = {}
        kept_jokers: dict[Card, list[Expr]] = {}
        for index, meld in enumerate(table):
            kept = _kept_meld(index, meld, self.rules)
            keep = self.model.new_bool_var(f"keep_{index}")
            self._kept.append(kept)
            self._keep.append(keep)
            for card, count in kept.shown.items():
                reserved.setdefault(card, []).append(keep * count)
            for card, count in kept.jokers.items():
                kept_jokers.setdefault(card, []).append(keep * count)
            grown: list[cp_model.IntVar] = []
            for chain in kept.growth:
                previous: cp_model.IntVar = keep
                for card in chain:
                    step = self.model.new_bool_var("")
                    # A meld grows only outward from its ends: each card needs the one before it.
                    self.model.add_implication(step, previous)
                    reserved.setdefault(card, []).append(step)
                    grown.append(step)
                    previous = step
            if kept.room is not None and len(grown) > kept.room:
                # A group takes at most the suits it lacks up to the largest group.
                self.model.add(sum(grown) <= kept.room)
            self._growth.append(grown)
        for card, holders in kept_jokers.items():
            # A kept meld keeps its jokers: swapping one out for its real card is a change (it
            # frees the joker), so the jokers standing for this card cover the kept ones.
            self.model.add(self.jokers_at[card] >= sum(holders))
        return reserved

    def _link(self, reserved: dict[Card, list[Expr]]) -> None:
        for card in ALL_CARDS:
            used = sum(self._group_pieces[card]) + self.coverage.get((card.suit, card.rank), 0)
            if card.rank == 1:
                used = used + self.coverage.get((card.suit, ACE_HIGH_PLACE), 0)
            self.model.add(self.shown[card] - sum(reserved.get(card, [])) == used)

    # --- uniqueness ------------------------------------------------------------------------------

    def forbid(self, canonical: Canonical) -> None:
        """Exclude every final table with these canonical counts (a different one must be found)."""
        groups = dict(canonical.groups)
        runs = dict(canonical.runs)
        jokers = dict(canonical.jokers)
        terms: list[tuple[Expr, int]] = [
            *((expr, groups.get(key, 0)) for key, expr in self.group_shapes.items()),
            *((expr, runs.get(key, 0)) for key, expr in self.coverage.items()),
            *((expr, jokers.get(card, 0)) for card, expr in self.jokers_at.items()),
        ]
        differs: list[cp_model.IntVar] = []
        for expr, value in terms:
            if isinstance(expr, int):
                continue
            above = self.model.new_bool_var("")
            self.model.add(expr >= value + 1).only_enforce_if(above)
            differs.append(above)
            if value > 0:
                below = self.model.new_bool_var("")
                self.model.add(expr <= value - 1).only_enforce_if(below)
                differs.append(below)
        self.model.add_bool_or(differs)

    # --- solving ---------------------------------------------------------------------------------

    def solve(self, *, minimize_changed: bool = False, time_limit: float = 30.0) -> ModelResult:
        """Solve deterministically (one worker, seed 0); optionally change the fewest melds."""
        if minimize_changed and not isinstance(self.changed, int):
            self.model.minimize(self.changed)
        solver = cp_model.CpSolver()
        params = solver.parameters
        params.num_workers = 1
        params.random_seed = 0
        params.max_time_in_seconds = time_limit
        code = solver.solve(self.model)
        status = solver.status_name(code)
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return ModelResult(status)
        if minimize_changed and code != cp_model.OPTIMAL:
            return ModelResult("UNKNOWN")
        return self._extract(solver, status)

    def _extract(self, solver: cp_model.CpSolver, status: str) -> ModelResult:
        def value(expr: Expr) -> int:
            return expr if isinstance(expr, int) else int(solver.value(expr))

        melds: list[list[Card]] = []
        own_jokers: list[Counter[Card]] = []
        for kept, keep, grown in zip(self._kept, self._keep, self._growth, strict=True):
            if value(keep):
                melds.append(_grown_meld(kept, [value(step) for step in grown]))
                own_jokers.append(kept.jokers)
        free_melds = len(melds)
        for (rank, suits), count in sorted(self.group_shapes.items()):
            melds.extend([card_of(rank, suit) for suit in suits] for _ in range(value(count)))
        melds.extend(self._trace_runs(value))
        hand_played = Counter({card: value(v) for card, v in self.hand_played.items()})
        jokers = Counter({card: value(v) for card, v in self.jokers_at.items()})
        table = _fill(melds, own_jokers, self._table_real + hand_played, jokers)
        groups = Counter({key: value(v) for key, v in self.group_shapes.items()})
        runs = Counter({key: value(v) for key, v in self.coverage.items()})
        canonical = Canonical.from_counts(groups, runs, jokers) if not self._restricted else None
        changed = len(self._kept) - free_melds if self._restricted else None
        return ModelResult(status, table, canonical, changed)

    def _trace_runs(self, value: Callable[[Expr], int]) -> list[list[Card]]:
        """The sequences from the counts of runs started and going on at each place.

        Where some complete runs go on and others end, the longest go on (a fixed choice).
        """
        runs: list[list[Card]] = []
        length = self.rules.run_min
        for suit in range(4):
            active: list[list[int]] = []
            for p in self._places:
                young = [run for run in active if len(run) < length]
                grown = [run for run in active if len(run) >= length]
                going = value(self.going_on[suit, p])
                runs.extend([card_of(card_at(q), suit) for q in run] for run in grown[going:])
                active = young + grown[:going]
                for run in active:
                    run.append(p)
                active.extend([p] for _ in range(value(self.starts[suit, p])))
                active.sort(key=lambda run: (-len(run), run[0]))
            runs.extend([card_of(card_at(q), suit) for q in run] for run in active)
        return runs


def _kept_meld(index: int, meld: Meld, rules: RuleSet) -> _Kept:
    """What keeping meld ``index`` means: the cards it shows and the ways it may grow."""
    verdict = judge_meld(meld, rules)
    jokers = Counter(
        piece.declared for piece in verdict.pieces if isinstance(piece, Joker) and piece.declared
    )
    shown: list[Card] = []
    for piece in verdict.pieces:
        card = piece.declared if isinstance(piece, Joker) else piece
        assert card is not None
        shown.append(card)
    if verdict.kind is MeldKind.GROUP:
        suits = {card.suit for card in shown}
        missing = tuple((card_of(shown[0].rank, suit),) for suit in range(4) if suit not in suits)
        room = max(0, rules.group_max - len(shown))
        return _Kept(index, Counter(shown), jokers, missing if room else (), room)
    places = sequence_places(verdict.pieces)
    suit = shown[0].suit
    span = sequence_range(rules)
    below = tuple(card_of(card_at(p), suit) for p in range(places[0] - 1, span.start - 1, -1))
    above = tuple(card_of(card_at(p), suit) for p in range(places[-1] + 1, span.stop))
    growth = tuple(chain for chain in (below, above) if chain)
    return _Kept(index, Counter(shown), jokers, growth)


def _grown_meld(kept: _Kept, steps: list[int]) -> list[Card]:
    """A kept meld with the cards it grew by, in no particular order (the checker sorts)."""
    cards = list(kept.shown.elements())
    flat = [card for chain in kept.growth for card in chain]
    cards.extend(card for card, taken in zip(flat, steps, strict=True) if taken)
    return cards


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
