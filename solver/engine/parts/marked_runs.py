"""500 rummy's run flow: the run flow with each run's state also saying whether it holds a piece
from the hand yet; a run may end only once it does.

A state is a run's length so far (capped at ``run_min``: every complete run behaves alike) and
whether it holds a hand piece. At each position the runs of every state go on through a piece from
the table or from the hand (``moves``), or, if complete and holding a hand piece, end.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

from meldsat.cards import Card, card_of
from meldsat.engine.cpsat import CpModel, Expr, Values
from meldsat.engine.parts.runs import at_rank, first_runs, is_zero
from meldsat.engine.parts.supply import PieceBounds
from meldsat.engine.trace import Origin, Slot
from meldsat.rules import RuleSet, rank_at

T = TypeVar("T")


class RunState(NamedTuple):
    """How long a run is so far (at most ``run_min``) and whether it holds a hand piece."""

    length: int
    has_hand_piece: bool


@dataclass(frozen=True)
class Split(Generic[T]):
    """Something about pieces (a count, a bound) split by where the pieces come from."""

    from_table: T
    from_hand: T

    def of(self, from_hand: bool) -> T:
        """The hand part or the table part."""
        return self.from_hand if from_hand else self.from_table


@dataclass(frozen=True)
class MarkedStep:
    """One position of one suit: runs starting there, runs of each earlier state going on, and
    the pieces at this position in runs, each split by the origin of the piece taken here."""

    start: Split[Expr]
    moves: dict[RunState, Split[Expr]]
    pieces: Expr
    hand_pieces: Expr


class MarkedRunFlow:
    """The marked run flow of every suit: ``steps[suit][position]``, sized by the pieces there
    are (``bounds``) and by those that can come from the hand and from the table."""

    def __init__(
        self,
        model: CpModel,
        rules: RuleSet,
        bounds: PieceBounds,
        hand_bounds: PieceBounds,
        table_bounds: PieceBounds,
    ) -> None:
        self.rules = rules
        origins = Split(table_bounds, hand_bounds)
        self.steps: list[dict[int, MarkedStep]] = [
            _suit_flow(model, rules, suit, bounds, origins) for suit in range(4)
        ]

    def pieces(self, card: Card) -> Expr:
        """The pieces of ``card`` in runs."""
        return at_rank(self.steps[card.suit], card.rank, lambda step: step.pieces)

    def hand_pieces(self, card: Card) -> Expr:
        """The pieces of ``card`` from the hand in runs."""
        return at_rank(self.steps[card.suit], card.rank, lambda step: step.hand_pieces)

    def low_aces(self) -> Expr:
        """Aces played low (first in a run that starts at the ace)."""
        return sum(
            steps[1].start.from_table + steps[1].start.from_hand
            for steps in self.steps
            if 1 in steps
        )

    def run_count(self) -> Expr:
        """How many runs the solution lays."""
        return sum(
            step.start.from_table + step.start.from_hand
            for steps in self.steps
            for step in steps.values()
        )

    def slots(self, values: Values) -> list[list[Slot]]:
        """The runs of the solution, each place saying whether its piece comes from the hand."""
        return [run for suit in range(4) for run in self._suit_runs(suit, values)]

    def _suit_runs(self, suit: int, values: Values) -> list[list[Slot]]:
        length = self.rules.run_min
        finished: list[list[Slot]] = []
        active: list[list[Slot]] = []
        for p, step in self.steps[suit].items():
            card = card_of(rank_at(p), suit)
            going: list[list[Slot]] = []
            # How many runs of each state have gone on through ``p`` so far.
            taken: Counter[RunState] = Counter()
            for run in sorted(active, key=lambda run: (-len(run), run[0][0].rank)):
                state = RunState(min(len(run), length), any(o is Origin.HAND for _, o in run))
                move = step.moves.get(state)
                from_hand = values(move.from_hand) if move else 0
                from_table = values(move.from_table) if move else 0
                if taken[state] < from_hand:
                    going.append([*run, (card, Origin.HAND)])
                elif taken[state] < from_hand + from_table:
                    going.append([*run, (card, Origin.TABLE)])
                else:
                    finished.append(run)
                    continue
                taken[state] += 1
            going.extend([(card, Origin.HAND)] for _ in range(values(step.start.from_hand)))
            going.extend([(card, Origin.TABLE)] for _ in range(values(step.start.from_table)))
            active = going
        return finished + active


def _suit_flow(
    model: CpModel,
    rules: RuleSet,
    suit: int,
    bounds: PieceBounds,
    origins: Split[PieceBounds],
) -> dict[int, MarkedStep]:
    positions = rules.sequence_positions
    length = rules.run_min

    def split(name: str, p: int, limit: int) -> Split[Expr]:
        """Two counts of pieces at ``p``, by origin; no variable where no piece can come from."""
        card = card_of(rank_at(p), suit)
        parts: list[Expr] = []
        for side, bound in (("t", origins.from_table), ("h", origins.from_hand)):
            most = min(limit, bound.most(card))
            parts.append(model.new_int_var(0, most, f"{name}_{side}_{suit}_{p}") if most else 0)
        return Split(parts[0], parts[1])

    steps: dict[int, MarkedStep] = {}
    runs: dict[RunState, Expr] = {}  # runs in each state reaching the previous position
    for index, p in enumerate(positions):
        card = card_of(rank_at(p), suit)
        start = split("s", p, first_runs(bounds, suit, positions[index : index + length], length))
        arriving: dict[RunState, list[Expr]] = {}
        for from_hand in (False, True):
            arriving.setdefault(RunState(1, from_hand), []).append(start.of(from_hand))
        moves: dict[RunState, Split[Expr]] = {}
        for state, count in runs.items():
            if is_zero(count):
                continue
            move = split(f"m{state.length}{int(state.has_hand_piece)}", p, bounds.most(card))
            going_on = move.from_table + move.from_hand
            if state.length < length or not state.has_hand_piece:
                # An incomplete run must go on, and so must one without a hand piece yet.
                model.add(going_on == count)
            else:
                model.add(going_on <= count)
            for from_hand in (False, True):
                after = RunState(min(state.length + 1, length), state.has_hand_piece or from_hand)
                arriving.setdefault(after, []).append(move.of(from_hand))
            moves[state] = move
        every = [start, *moves.values()]
        steps[p] = MarkedStep(
            start=start,
            moves=moves,
            pieces=sum(part.from_table + part.from_hand for part in every),
            hand_pieces=sum(part.from_hand for part in every),
        )
        runs = {state: sum(parts) for state, parts in arriving.items()}
    # Nothing may be left unfinished past the last position, nor a run without a hand card.
    for state, count in runs.items():
        if state.length < length or not state.has_hand_piece:
            model.add(count == 0)
    return steps
