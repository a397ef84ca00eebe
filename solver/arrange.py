"""Turn the model's counts back into explicit melds with every joker declared.

Groups are dealt round robin (the model's group condition guarantees that works); sequences are
traced along the ranks. Real cards fill the slots first, jokers the rest, so every joker ends up
declared as the card of its slot.
"""

from __future__ import annotations

from collections import Counter

from solver.cards import Card, Joker, Piece, represented_card
from solver.inventory import Inventory
from solver.melds import judge_meld
from solver.model import FlowSolution, card_at
from solver.notation import Meld
from solver.rules import RuleSet


def group_slots(solution: FlowSolution) -> list[list[Card]]:
    """The groups as lists of cards, one per counted group shape."""
    return [
        [Card(rank, suit) for suit in suits]
        for (rank, suits), count in sorted(solution.group_shapes.items())
        for _ in range(count)
    ]


def run_slots(solution: FlowSolution, rules: RuleSet) -> list[list[Card]]:
    """The sequences as lists of cards, traced along each suit.

    Where some complete runs go on and others end, the longest go on: a deterministic choice.
    """
    first = 1 if rules.ace_low else 2
    last = 14 if rules.ace_high else 13
    runs: list[list[Card]] = []
    for suit in range(4):
        active: list[list[int]] = []
        for p in range(first, last + 1):
            incomplete = [run for run in active if len(run) < rules.run_min]
            complete = [run for run in active if len(run) >= rules.run_min]
            going_on = solution.run_continues.get((suit, p), 0)
            finished = complete[going_on:]
            runs.extend([Card(card_at(q), suit) for q in run] for run in finished)
            active = incomplete + complete[:going_on]
            for run in active:
                run.append(p)
            active.extend([p] for _ in range(solution.run_starts.get((suit, p), 0)))
            active.sort(key=lambda run: (-len(run), run[0]))
        runs.extend([Card(card_at(q), suit) for q in run] for run in active)
    return runs


def arrange(
    solution: FlowSolution, inventory: Inventory, table: tuple[Meld, ...], rules: RuleSet
) -> tuple[list[Meld], list[Meld]]:
    """The final table as (kept original melds, new melds), every meld in canonical order.

    A kept meld keeps its pieces where it can; only a joker whose real card must take its place
    (because the joker is needed elsewhere) is swapped for that card.
    """
    real_left = inventory.table_real + solution.hand_played
    jokers_left = Counter(solution.jokers_at)
    kept_slots = [list(table[index]) for index in solution.kept_melds]
    # First pass: every kept piece that can stay, stays.
    kept: list[list[Piece | None]] = []
    for meld in kept_slots:
        placed: list[Piece | None] = []
        for piece in meld:
            pool = jokers_left if isinstance(piece, Joker) else real_left
            card = represented_card(piece)
            if card is not None and pool[card] > 0:
                pool[card] -= 1
                placed.append(piece)
            else:
                placed.append(None)
        kept.append(placed)
    flow_slots = group_slots(solution) + run_slots(solution, rules)
    new = [[_take(card, real_left, jokers_left) for card in meld] for meld in flow_slots]
    # Second pass: a kept slot whose own piece went elsewhere takes the other kind of piece.
    finished_kept = [
        [
            piece if piece is not None else _take(_slot_card(original), real_left, jokers_left)
            for piece, original in zip(placed, meld, strict=True)
        ]
        for placed, meld in zip(kept, kept_slots, strict=True)
    ]
    return (
        [_canonical(meld, rules) for meld in finished_kept],
        [_canonical(meld, rules) for meld in new],
    )


def _slot_card(piece: Piece) -> Card:
    card = represented_card(piece)
    if card is None:
        raise AssertionError("table jokers are declared")
    return card


def _take(card: Card, real_left: Counter[Card], jokers_left: Counter[Card]) -> Piece:
    """A piece for a slot showing ``card``: the real card if one is left, else a joker."""
    if real_left[card] > 0:
        real_left[card] -= 1
        return card
    if jokers_left[card] > 0:
        jokers_left[card] -= 1
        return Joker(card)
    raise AssertionError(f"the model's counts leave no piece for {card}")


def _canonical(pieces: list[Piece], rules: RuleSet) -> Meld:
    verdict = judge_meld(pieces, rules)
    if not verdict.legal:
        raise AssertionError(f"the engine built an illegal meld: {verdict.reason}")
    return verdict.pieces


def played_pieces(solution: FlowSolution) -> list[Piece]:
    """The hand pieces the solution plays (jokers undeclared, as they were in hand)."""
    pieces: list[Piece] = list(solution.hand_played.elements())
    pieces.extend(Joker() for _ in range(solution.hand_jokers_played))
    return pieces
