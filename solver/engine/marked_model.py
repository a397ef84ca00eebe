"""The model for 500 rummy, where every meld that is not an original one kept as it was must hold a
card from the hand ("each meld laid must contain at least one card not played before").

Pieces are told apart by origin: *marked* pieces come from the hand, unmarked ones from the table.
Groups: ``y`` groups of one shape need at least ``y`` marked pieces among them (deal the marked
pieces of each suit to consecutive groups and every group gets one). Sequences: the run flow of the
base model, with each run's state also saying whether it holds a marked piece yet; a run may end
only once it does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from meldsat.cards import Card, card_of
from meldsat.engine.model import Expr, RearrangementModel
from meldsat.engine.trace import Origin, Slot, card_at, trace_groups

UNMARKED, MARKED = 0, 1
FLAGS = (UNMARKED, MARKED)


class MarkedRearrangementModel(RearrangementModel):
    """:class:`RearrangementModel` with the 500-rummy rule that each new meld needs a hand card."""

    tracks_origin = True

    # --- pieces by origin ------------------------------------------------------------------------

    def _build_pieces(self, play_all: bool) -> None:
        super()._build_pieces(play_all)
        model = self.model
        hand_jokers = self.inventory.hand_jokers
        self.hand_jokers_at: dict[Card, Expr] = {}
        for card in self.jokers_at:
            self.hand_jokers_at[card] = (
                model.new_int_var(0, hand_jokers, f"jh_{card}") if hand_jokers else 0
            )
            # The hand jokers standing for a card are some of all the jokers standing for it.
            if hand_jokers:
                model.add(self.hand_jokers_at[card] <= self.jokers_at[card])
        if hand_jokers:
            model.add(sum(self.hand_jokers_at.values()) == self.hand_jokers)
        self.marked_free = {
            card: self.hand_played.get(card, 0) + self.hand_jokers_at[card] for card in self.free
        }
        # Here a kept meld is one left exactly as it was: its jokers are table jokers still
        # standing for their cards (a swapped joker would make it a changed meld).
        for card, kept in self.kept_jokers.items():
            model.add(self.jokers_at[card] - self.hand_jokers_at[card] >= kept)

    # --- groups ----------------------------------------------------------------------------------

    def _build_groups(self) -> None:
        super()._build_groups()
        model = self.model
        self.group_marks: dict[tuple[int, tuple[int, ...], int], Expr] = {}
        marked_parts: dict[Card, list[Expr]] = {card: [] for card in self.group_pieces}
        for (rank, suits), count in self.group_shapes.items():
            bound = min(self.most[card_of(rank, suit)] for suit in suits)
            marks = []
            for suit in suits:
                mark = model.new_int_var(0, bound, f"m_{rank}_{suit}_{''.join(map(str, suits))}")
                model.add(mark <= count)
                self.group_marks[rank, suits, suit] = mark
                marked_parts[card_of(rank, suit)].append(mark)
                marks.append(mark)
            model.add(sum(marks) >= count)
        self.group_marked: dict[Card, Expr] = {
            card: sum(parts) for card, parts in marked_parts.items()
        }

    # --- sequences -------------------------------------------------------------------------------

    def _build_sequences(self) -> None:
        """The run flow with a mark flag in each state.

        ``extend[k, f, g]`` at ``p``: runs of length ``k`` (incomplete) and flag ``f`` at ``p - 1``
        that take a piece of mark ``g`` at ``p``; ``go_on[f, g]``: complete runs doing the same.
        """
        self.flow: dict[tuple[object, ...], Expr] = {}
        self.runs_by_mark: dict[tuple[int, int, int], Expr] = {}
        for suit in range(4):
            self._build_suit_flow(suit)

    def _build_suit_flow(self, suit: int) -> None:
        model = self.model
        length = self.rules.run_min
        incomplete: dict[tuple[int, int], Expr] = {}
        complete: dict[int, Expr] = {UNMARKED: 0, MARKED: 0}
        for p in self._positions:
            most = self.most[card_of(card_at(p), suit)]

            def var(*key: object, bound: int = most, p: int = p) -> Expr:
                if not bound:
                    return 0
                variable = model.new_int_var(0, bound, "_".join(map(str, ("f", suit, p, *key))))
                self.flow[(suit, p, *key)] = variable
                return variable

            fits = p + length - 1 <= self._last
            start = {mark: var("start", mark) if fits else 0 for mark in FLAGS}
            pieces: dict[int, list[Expr]] = {mark: [start[mark]] for mark in FLAGS}
            new_incomplete: dict[tuple[int, int], list[Expr]] = {
                (k, flag): [] for k in range(1, length) for flag in FLAGS
            }
            new_complete: dict[int, list[Expr]] = {flag: [] for flag in FLAGS}
            for mark in FLAGS:
                new_incomplete[1, mark].append(start[mark])
            for (k, flag), count in incomplete.items():
                # An incomplete run must go on: through a marked or an unmarked piece.
                moves = {mark: var("extend", k, flag, mark) for mark in FLAGS}
                model.add(sum(moves.values()) == count)
                for mark, move in moves.items():
                    pieces[mark].append(move)
                    target = new_complete if k + 1 >= length else None
                    new_flag = flag | mark
                    if target is None:
                        new_incomplete[k + 1, new_flag].append(move)
                    else:
                        target[new_flag].append(move)
            for flag, count in complete.items():
                moves = {mark: var("go_on", flag, mark) for mark in FLAGS}
                if flag == UNMARKED:
                    model.add(sum(moves.values()) == count)  # no hand card yet: may not end
                else:
                    model.add(sum(moves.values()) <= count)
                for mark, move in moves.items():
                    pieces[mark].append(move)
                    new_complete[flag | mark].append(move)
            for mark in FLAGS:
                self.runs_by_mark[suit, p, mark] = sum(pieces[mark])
            incomplete = {key: sum(parts) for key, parts in new_incomplete.items()}
            complete = {flag: sum(parts) for flag, parts in new_complete.items()}
        # Nothing may be left unfinished past the last position, nor a run without a hand card.
        for count in [*incomplete.values(), complete[UNMARKED]]:
            model.add(count == 0)

    # --- linking ---------------------------------------------------------------------------------

    def _link_pieces(self) -> None:
        for card, free in self.free.items():
            marked = self.group_marked[card] + self._runs_at(card, MARKED)
            unmarked = self.group_pieces[card] - self.group_marked[card]
            unmarked = unmarked + self._runs_at(card, UNMARKED)
            self.model.add(self.marked_free[card] == marked)
            self.model.add(free - self.marked_free[card] == unmarked)

    def _runs_at(self, card: Card, mark: int) -> Expr:
        used = self.runs_by_mark.get((card.suit, card.rank, mark), 0)
        if card.rank == 1:
            used = used + self.runs_by_mark.get((card.suit, 14, mark), 0)
        return used

    # --- extraction ------------------------------------------------------------------------------

    def _extract_hand_jokers(self, value: Callable[[Expr], int]) -> Counter[Card]:
        return Counter({card: value(v) for card, v in self.hand_jokers_at.items()})

    def _extract_melds(self, value: Callable[[Expr], int]) -> tuple[tuple[Slot, ...], ...]:
        groups = self._marked_groups(value)
        runs = [run for suit in range(4) for run in self._marked_runs(suit, value)]
        return tuple(tuple(meld) for meld in [*groups, *runs])

    def _marked_groups(self, value: Callable[[Expr], int]) -> list[list[Slot]]:
        """Each shape's groups, with each suit's marked pieces dealt to consecutive groups."""
        melds: list[list[Slot]] = []
        for (rank, suits), count in sorted(self.group_shapes.items()):
            total = value(count)
            if not total:
                continue
            groups = trace_groups({(rank, suits): total})
            marked = [[False] * len(suits) for _ in range(total)]
            pointer = 0
            for position, suit in enumerate(suits):
                for _ in range(value(self.group_marks[rank, suits, suit])):
                    marked[pointer % total][position] = True
                    pointer += 1
            melds.extend(
                [
                    (card, Origin.HAND if mark else Origin.TABLE)
                    for card, mark in zip(group, flags, strict=True)
                ]
                for group, flags in zip(groups, marked, strict=True)
            )
        return melds

    def _marked_runs(self, suit: int, value: Callable[[Expr], int]) -> list[list[Slot]]:
        """Trace one suit's runs, each a list of (card, origin), following the flow's moves."""
        length = self.rules.run_min
        finished: list[list[Slot]] = []
        active: list[list[Slot]] = []

        def flow(*key: object) -> int:
            expr = self.flow.get((suit, *key))
            return 0 if expr is None else value(expr)

        def flag(run: list[Slot]) -> int:
            return MARKED if any(origin is Origin.HAND for _, origin in run) else UNMARKED

        for p in self._positions:
            card = card_of(card_at(p), suit)
            going: list[list[Slot]] = []
            # How many runs of each state have gone on through ``p`` so far.
            taken: Counter[tuple[object, ...]] = Counter()
            for run in sorted(active, key=lambda run: (-len(run), run[0][0].rank)):
                k = min(len(run), length)
                state = (*(("extend", k) if k < length else ("go_on",)), flag(run))
                marked = flow(p, *state, MARKED)
                plain = flow(p, *state, UNMARKED)
                if taken[state] < marked:
                    going.append([*run, (card, Origin.HAND)])
                elif taken[state] < marked + plain:
                    going.append([*run, (card, Origin.TABLE)])
                else:
                    finished.append(run)
                    continue
                taken[state] += 1
            for mark in FLAGS:
                origin = Origin.HAND if mark == MARKED else Origin.TABLE
                going.extend([(card, origin)] for _ in range(flow(p, "start", mark)))
            active = going
        return finished + active
