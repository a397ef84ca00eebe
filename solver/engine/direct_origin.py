"""500 rummy's model (the hand origin of pieces) written straight into its proto, from arrays.

The same idea as ``meldsat.engine.direct``, for the model ``RearrangementModel`` builds when
every new or changed meld needs a hand piece: the piece supply, the kept melds and the joker
locking as the plain model writes them, then what the parts of the hand origin add, in their
order (``parts.origin.HandOrigin``, ``parts.marked_groups.MarkedGroups``,
``parts.marked_runs.MarkedRunFlow`` and the links ``RearrangementModel`` makes between them),
each constraint in the form OR-Tools gives it. ``tests/test_direct_model.py`` checks that both
builds give the same proto. The solution is read back through the parts' own functions
(``group_slots``, ``suit_runs``), given plain numbers.

Linear expressions are ``Terms`` (coefficient by variable index); an empty one is the parts'
plain 0, where no variable was made. Small hands get the decision strategies with which
``meldsat.engine.small_hands`` steers the parts' model, written by the same function.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence

from meldsat.cards import ALL_CARDS, Card
from meldsat.engine.cpsat import Expr
from meldsat.engine.direct import (
    INT_MAX,
    INT_MIN,
    DirectModel,
    NotDirectError,
    Terms,
    _flow_layout,
    group_layout,
)
from meldsat.engine.model import FlowSolution, table_is_frozen
from meldsat.engine.parts.groups import GroupShape
from meldsat.engine.parts.marked_groups import group_slots
from meldsat.engine.parts.marked_runs import MarkedStep, Split, _unmarked_cap, suit_runs
from meldsat.engine.parts.supply import CARD_INDEX, PieceBounds
from meldsat.engine.small_hands import SMALL_HAND, steer
from meldsat.engine.solving import EngineSearch
from meldsat.engine.trace import Slot
from meldsat.play import Objective
from meldsat.position import Position
from meldsat.rules import HIGH_ACE


def origin_applies(position: Position) -> bool:
    """True when ``best_play`` solves 500 rummy's hand-origin model of ``position``, which
    :class:`OriginModel` writes (steered as ``meldsat.engine.small_hands`` steers the parts'
    model for hands of up to ``small_hands.SMALL_HAND`` pieces)."""
    rules = position.rules
    return (
        rules.new_meld_needs_hand_card and not rules.wrap_around and not table_is_frozen(position)
    )


def _sum(parts: Iterable[Terms]) -> Terms:
    """The sum of linear expressions. Terms are never changed once made, so a sum of one
    expression (the common case) is that expression itself."""
    if isinstance(parts, list) and len(parts) == 1:
        only: Terms = parts[0]
        return only
    total: Terms | None = None
    shared = True
    for terms in parts:
        if not terms:
            continue
        if total is None:
            total = terms
            continue
        if shared:
            total, shared = dict(total), False
        for var, coeff in terms.items():
            total[var] = total.get(var, 0) + coeff
    return {} if total is None else total


def _minus(left: Terms, right: Terms) -> Terms:
    """``left - right``."""
    terms = dict(left)
    for var, coeff in right.items():
        terms[var] = terms.get(var, 0) - coeff
    return terms


def _value(terms: Terms, values: Sequence[int]) -> int:
    if not terms:
        return 0
    return sum([coeff * int(values[var]) for var, coeff in terms.items()])


class _Step:
    """One position of one suit's marked flow, as ``parts.marked_runs.MarkedStep`` holds it."""

    __slots__ = ("hand_pieces", "marked", "marked_hand", "pieces", "start", "unmarked")

    def __init__(
        self,
        start: tuple[Terms, Terms],
        unmarked: dict[int, tuple[Terms, Terms]],
        marked: dict[int, Terms],
        marked_hand: Terms,
    ) -> None:
        self.start = start
        self.unmarked = unmarked
        self.marked = marked
        self.marked_hand = marked_hand
        moves = unmarked.values()
        to_mark = _sum([hand for _, hand in moves]) if moves else {}
        self.pieces = _sum(
            [start[0], start[1], *[table for table, _ in moves], to_mark, *marked.values()]
        )
        self.hand_pieces = _sum([start[1], to_mark, marked_hand])

    def values(self, values: Sequence[int]) -> MarkedStep:
        """This step's counts in a solution."""

        def split(pair: tuple[Terms, Terms]) -> Split[Expr]:
            return Split(_value(pair[0], values), _value(pair[1], values))

        marked: dict[int, Expr] = {key: _value(terms, values) for key, terms in self.marked.items()}
        return MarkedStep(
            start=split(self.start),
            unmarked={key: split(move) for key, move in self.unmarked.items()},
            marked=marked,
            marked_hand=_value(self.marked_hand, values),
            pieces=0,
            hand_pieces=0,
        )


# A step of the flow where no run starts or goes on, and the counts that then arrive at the next
# (no runs of length 1, as the loop below makes them). Shared: terms are never changed once made.
_EMPTY_STEP = _Step(({}, {}), {}, {}, {})
_NOTHING_ON: dict[int, Terms] = {1: {}}


class OriginModel(DirectModel):
    """500 rummy's rearrangement model (hand origin tracked), written from arrays; built and
    solved as :class:`DirectModel` is, with the search of ``RearrangementModel`` for it."""

    def _build(self, position: Position, objective: Objective, play_all: bool) -> None:
        rules = self._rules
        if rules.wrap_around or self.table_frozen or not rules.new_meld_needs_hand_card:
            raise NotDirectError("no hand origin: the plain model")
        self.tracks_origin = True
        self.search = EngineSearch(linearization_level=1)
        self._supply(play_all)
        self._kept()
        self._locking()
        inventory = self.inventory
        joker_total = self._bounds.jokers
        on_table = self._table_jokers.total()
        self._hand_bounds = PieceBounds(
            inventory.hand_real, joker_total - on_table, self._bounds.joker_cards, True
        )
        self._table_bounds = PieceBounds(
            inventory.table_real, on_table, self._bounds.joker_cards, True
        )
        self._origin()
        self._marked_groups()
        self._steps = [self._suit_flow_marked(suit) for suit in range(4)]
        self._link_origin()
        self._link(position)
        self._objective(objective)
        if len(position.hand) <= SMALL_HAND:
            self._steer()

    def _steer(self) -> None:
        """The decision strategies of ``small_hands.steer_small_hand``, on this model's
        variables (the hand's in the supply's order, then the kept melds')."""
        self._out.flush()  # the variables, before OR-Tools looks them up
        hand = [var for _, var in self._hand] + ([self._hj] if self._hj >= 0 else [])
        of = self.model.get_int_var_from_proto_index
        self.search = steer(
            self.model, [of(v) for v in hand], [of(v) for v in self._keep], self.search
        )

    def _origin(self) -> None:
        """Hand jokers by the card they stand for (``parts.origin.HandOrigin``)."""
        out, hj, joker_var = self._out, self._hj, self._joker_var
        at = self._hand_joker_var = [-1] * len(ALL_CARDS)
        for index, var in enumerate(joker_var):
            if var < 0 or hj < 0:
                continue
            at[index] = out.var(0, self._bounds.jokers)
            out.linear({at[index]: 1, var: -1}, INT_MIN, 0)  # at <= jokers
        if hj >= 0:
            terms = {var: 1 for var in at if var >= 0}
            if terms:
                terms[hj] = -1
            else:  # ``0 == hj``, which Python turns around
                terms = {hj: 1}
            out.linear(terms, 0, 0)
        kept_jokers: dict[int, Terms] = {}
        for var, meld in zip(self._keep, self.inventory.melds, strict=True):
            for card, count in meld.jokers.items():
                terms = kept_jokers.setdefault(CARD_INDEX[card], {})
                terms[var] = terms.get(var, 0) + count
        for index, kept in kept_jokers.items():
            if joker_var[index] < 0:
                raise NotDirectError("a kept joker's card without a joker variable")
            left = {joker_var[index]: 1}
            if at[index] >= 0:
                left[at[index]] = -1
            self._out.linear(_minus(left, kept), 0, INT_MAX)

    def _marked_groups(self) -> None:
        """Groups counted by their own hand piece (``parts.marked_groups.MarkedGroups``)."""
        out, hand_most = self._out, self._hand_bounds.most_at
        self._own: list[tuple[GroupShape, list[int]]] = []
        parts: dict[int, list[Terms]] = {}
        owned: dict[int, list[int]] = {}
        self._group_count: list[Terms] = []
        melds = self._bounds.melds_picked
        for shape, _, indexes, pick in group_layout(self._rules.group_min, self._rules.group_max):
            bound = melds(pick)
            if not bound:
                continue
            own: list[int] = []
            for index in indexes:
                most = min(bound, hand_most[index])
                var = out.var(0, most) if most else -1
                own.append(var)
                if most:
                    owned.setdefault(index, []).append(var)
            count = {var: 1 for var in own if var >= 0}
            if not count:
                continue  # no hand piece can show a card of the shape
            self._own.append((shape, own))
            self._group_count.append(count)
            for index in indexes:
                parts.setdefault(index, []).append(count)
        self._group_pieces = {index: _sum(terms) for index, terms in parts.items()}
        self._extra: list[tuple[Card, int]] = []
        self._group_hand: dict[int, Terms] = {}
        for index, own_vars in owned.items():
            extra = out.var(0, hand_most[index])
            self._extra.append((ALL_CARDS[index], extra))
            hand = dict.fromkeys(own_vars, 1)
            hand[extra] = 1
            self._group_hand[index] = hand
            out.linear(_minus(hand, self._group_pieces[index]), INT_MIN, 0)

    def _count(self, most: int) -> Terms:
        """A count of runs (a new variable), or the plain 0 where there can be none."""
        return {self._out.var(0, most): 1} if most > 0 else {}

    def _suit_flow_marked(self, suit: int) -> dict[int, _Step]:
        """The marked run flow of one suit (``parts.marked_runs._suit_flow``)."""
        out, rules, count = self._out, self._rules, self._count
        positions = rules.sequence_positions
        length = rules.run_min
        most_at = self._bounds.most_at
        hand_at, table_at = self._hand_bounds.most_at, self._table_bounds.most_at
        layout = _flow_layout(positions, length)[suit]
        indexes = [index for _, index, _ in layout]
        can_meet: list[bool] = [False] * len(positions)
        later = False
        for place in range(len(positions) - 1, -1, -1):
            can_meet[place] = later
            index = indexes[place]
            later = bool(most_at[index]) and (hand_at[index] > 0 or later)
        steps: dict[int, _Step] = {}
        unmarked: dict[int, Terms] = {}
        marked: dict[int, Terms] = {}
        melds = self._bounds.melds_picked
        for place, (p, index, window) in enumerate(layout):
            most = most_at[index]
            hand_most = min(most, hand_at[index])
            table_most = min(most, table_at[index]) if can_meet[place] else 0
            first = melds(window) if window is not None else 0
            start = (count(min(first, table_most)), count(min(first, hand_most)))
            if not (start[0] or start[1] or any(unmarked.values()) or any(marked.values())):
                # No run starts, none arrives: nothing to write, and nothing goes on.
                steps[p] = _EMPTY_STEP
                unmarked, marked = _NOTHING_ON, _NOTHING_ON
                continue
            next_unmarked: dict[int, list[Terms]] = {1: [start[0]]}
            next_marked: dict[int, list[Terms]] = {1: [start[1]]}
            moves = self._unmarked_moves(
                unmarked, table_most, hand_most, next_unmarked, next_marked
            )
            going = self._marked_going(marked, most, next_marked)
            marked_on = _sum(going.values())
            marked_hand = count(hand_most) if marked_on else {}
            if marked_hand:
                out.linear(_minus(marked_hand, marked_on), INT_MIN, 0)
            steps[p] = _Step(start, moves, going, marked_hand)
            unmarked = {key: _sum(parts) for key, parts in next_unmarked.items()}
            marked = {key: _sum(parts) for key, parts in next_marked.items()}
        # Nothing may be left unfinished past the last position, nor a run without a hand piece.
        for runs in [*unmarked.values(), *(runs for key, runs in marked.items() if key < length)]:
            if runs:
                out.linear(runs, 0, 0)
        return steps

    def _unmarked_moves(
        self,
        unmarked: dict[int, Terms],
        table_most: int,
        hand_most: int,
        next_unmarked: dict[int, list[Terms]],
        next_marked: dict[int, list[Terms]],
    ) -> dict[int, tuple[Terms, Terms]]:
        """Unmarked runs going on, split by the origin of their next piece
        (``parts.marked_runs._going_on``); what they make is added to the next counts."""
        out, length = self._out, self._rules.run_min
        cap = _unmarked_cap(length)
        moves: dict[int, tuple[Terms, Terms]] = {}
        for run_length, runs in unmarked.items():
            if not runs:
                continue
            if not table_most or not hand_most:
                if not table_most and not hand_most:
                    out.linear(runs, 0, 0)
                    continue
                move: tuple[Terms, Terms] = (runs, {}) if not hand_most else ({}, runs)
            else:
                move = (self._count(table_most), self._count(hand_most))
                out.linear(_minus(_sum(move), runs), 0, 0)
            next_unmarked.setdefault(min(run_length + 1, cap), []).append(move[0])
            next_marked.setdefault(min(run_length + 1, length), []).append(move[1])
            moves[run_length] = move
        return moves

    def _marked_going(
        self, marked: dict[int, Terms], most: int, next_marked: dict[int, list[Terms]]
    ) -> dict[int, Terms]:
        """Marked runs going on by length; what they make is added to the next counts."""
        out, length = self._out, self._rules.run_min
        going: dict[int, Terms] = {}
        for run_length, runs in marked.items():
            if not runs:
                continue
            if run_length < length:
                # An incomplete run must go on: the runs arriving are those going on.
                if not most:
                    out.linear(runs, 0, 0)
                    continue
                on = runs
            else:
                on = self._count(most)
                if on:
                    out.linear(_minus(on, runs), INT_MIN, 0)
                else:  # ``0 <= runs``, turned around
                    out.linear(runs, 0, INT_MAX)
            going[run_length] = on
            next_marked.setdefault(min(run_length + 1, length), []).append(on)
        return going

    def _at_rank(self, index: int, hand: bool) -> Terms:
        """The pieces of card ``index`` in runs (``hand``: those from the hand), as
        ``parts.runs.at_rank`` sums them: the ace's at both of its positions."""
        suit, places = _rank_places(self._rules.sequence_positions)[index]
        steps = self._steps[suit]
        if len(places) == 1:
            step = steps[places[0]]
            return step.hand_pieces if hand else step.pieces
        return _sum([steps[p].hand_pieces if hand else steps[p].pieces for p in places])

    def _link_origin(self) -> None:
        """Hand pieces by card are those in groups and runs; no more new or changed melds than
        pieces played (``RearrangementModel``)."""
        out, hand_var, at = self._out, self._hand_var, self._hand_joker_var
        for index in range(len(ALL_CARDS)):
            from_hand = {var: 1 for var in (hand_var[index], at[index]) if var >= 0}
            in_melds = _sum([self._group_hand.get(index, {}), self._at_rank(index, True)])
            if not from_hand and not in_melds:
                out.holds()  # ``0 == 0``
            elif not from_hand:
                out.linear(in_melds, 0, 0)  # ``0 == in_melds``, turned around
            else:
                out.linear(_minus(from_hand, in_melds), 0, 0)
        melds = _sum(
            [
                *self._group_count,
                *(
                    terms
                    for steps in self._steps
                    for step in steps.values()
                    for terms in step.start
                ),
            ]
        )
        played = dict.fromkeys(self._played, 1)
        if melds:
            out.linear(_minus(melds, played), INT_MIN, 0)
        else:  # ``0 <= played``, turned around
            out.linear(played, 0, INT_MAX)

    def _subtract_in_melds(self, terms: Terms, index: int) -> None:
        for var, coeff in _sum(
            [self._group_pieces.get(index, {}), self._at_rank(index, False)]
        ).items():
            terms[var] = terms.get(var, 0) - coeff

    def extract(self, values: Sequence[int]) -> FlowSolution:
        """The solution in plain numbers, as ``RearrangementModel.extract`` reads it."""
        hand_jokers_at = Counter(
            {
                card: int(values[var]) if var >= 0 else 0
                for card, var in zip(ALL_CARDS, self._hand_joker_var, strict=True)
            }
        )
        owned = {
            shape: tuple(int(values[var]) if var >= 0 else 0 for var in own)
            for shape, own in self._own
        }
        groups = group_slots(
            {shape: own for shape, own in owned.items() if sum(own)},
            {card: int(values[var]) for card, var in self._extra},
        )
        length = self._rules.run_min
        runs: list[list[Slot]] = []
        for suit, steps in enumerate(self._steps):
            # Runs start from counts (coefficient 1, never negative): none set, no run of this suit.
            if not any(
                values[var] for step in steps.values() for terms in step.start for var in terms
            ):
                continue
            valued = {p: step.values(values) for p, step in steps.items()}
            runs.extend(suit_runs(valued, suit, length, _number))
        return self._solution(values, hand_jokers_at, tuple(tuple(meld) for meld in groups + runs))


@functools.cache
def _rank_places(positions: range) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For every card (by index), its suit and the sequence positions that show it: its rank,
    and for an ace also the high ace's place, where the rules have them."""
    places = []
    for card in ALL_CARDS:
        at = [card.rank] if card.rank in positions else []
        if card.rank == 1 and HIGH_ACE in positions:
            at.append(HIGH_ACE)
        places.append((card.suit, tuple(at)))
    return tuple(places)


def _number(count: object) -> int:
    assert isinstance(count, int)
    return count


__all__ = ["OriginModel", "origin_applies"]
