"""500 rummy's run flow: the run flow with each run's state also saying whether it holds a piece
from the hand yet; a run may end only once it does.

A state is a run's length so far (capped at ``run_min``: every complete run behaves alike) and
whether it holds a hand piece. At each position the runs of every state go on through a piece from
the table or from the hand (``moves``), or, if complete and holding a hand piece, end.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

from meldsat.cards import Card, card_of
from meldsat.engine.cpsat import CpModel, Expr, Values
from meldsat.engine.parts.runs import at_rank
from meldsat.engine.trace import Origin, Slot
from meldsat.rules import RuleSet, rank_at


class RunState(NamedTuple):
    """How long a run is so far (at most ``run_min``) and whether it holds a hand piece."""

    length: int
    has_hand_piece: bool


@dataclass(frozen=True)
class Split:
    """A count of pieces split by where they come from."""

    from_table: Expr
    from_hand: Expr

    def of(self, from_hand: bool) -> Expr:
        """The hand part or the table part."""
        return self.from_hand if from_hand else self.from_table


@dataclass(frozen=True)
class MarkedStep:
    """One position of one suit: runs starting there, runs of each earlier state going on, and
    the pieces at this position in runs, each split by the origin of the piece taken here."""

    start: Split
    moves: dict[RunState, Split]
    pieces: Expr
    hand_pieces: Expr


class MarkedRunFlow:
    """The marked run flow of every suit: ``steps[suit][position]``, sized by ``most`` per card."""

    def __init__(self, model: CpModel, rules: RuleSet, most: dict[Card, int]) -> None:
        self.rules = rules
        self.steps: list[dict[int, MarkedStep]] = [
            _suit_flow(model, rules, suit, most) for suit in range(4)
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
    model: CpModel, rules: RuleSet, suit: int, most: dict[Card, int]
) -> dict[int, MarkedStep]:
    positions = rules.sequence_positions
    length = rules.run_min
    bound = {p: most[card_of(rank_at(p), suit)] for p in positions}

    def split(name: str, p: int, limit: int) -> Split:
        if not limit:
            return Split(0, 0)
        return Split(
            model.new_int_var(0, limit, f"{name}_t_{suit}_{p}"),
            model.new_int_var(0, limit, f"{name}_h_{suit}_{p}"),
        )

    steps: dict[int, MarkedStep] = {}
    runs: dict[RunState, Expr] = {}  # runs in each state reaching the previous position
    for index, p in enumerate(positions):
        span = positions[index : index + length]
        start = split("s", p, min(bound[q] for q in span) if len(span) == length else 0)
        arriving: dict[RunState, list[Expr]] = {}
        for from_hand in (False, True):
            arriving.setdefault(RunState(1, from_hand), []).append(start.of(from_hand))
        moves: dict[RunState, Split] = {}
        for state, count in runs.items():
            if isinstance(count, int) and count == 0:
                continue
            move = split(f"m{state.length}{int(state.has_hand_piece)}", p, bound[p])
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
