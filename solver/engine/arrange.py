"""Fill the model's melds with pieces, so every joker ends up declared as the card of its slot.

Kept original melds keep their own pieces where they can; every other slot takes a real card if
one is left and a joker otherwise, from the hand or the table as the slot demands.
"""

from __future__ import annotations

from collections import Counter

from meldsat.cards import Card, Joker, Piece, represented_card
from meldsat.engine.inventory import Inventory
from meldsat.engine.model import FlowSolution
from meldsat.engine.trace import Origin
from meldsat.notation import Meld


class _Pools:
    """The pieces still to place, by card, kind (real or joker) and origin (table or hand)."""

    def __init__(self, solution: FlowSolution, table_real: Counter[Card]) -> None:
        self.real = {Origin.TABLE: Counter(table_real), Origin.HAND: Counter(solution.hand_played)}
        table_jokers = Counter(solution.jokers_at)
        table_jokers.subtract(solution.hand_jokers_at)
        self.jokers = {Origin.TABLE: table_jokers, Origin.HAND: Counter(solution.hand_jokers_at)}

    def take(self, card: Card, origin: Origin) -> Piece:
        """A piece showing ``card`` from ``origin`` (``ANY``: either): real first, then joker."""
        origins = (Origin.TABLE, Origin.HAND) if origin is Origin.ANY else (origin,)
        for pools, make in ((self.real, _real), (self.jokers, Joker)):
            for source in origins:
                if pools[source][card] > 0:
                    pools[source][card] -= 1
                    return make(card)
        raise AssertionError(f"the model's counts leave no piece for {card}")

    def take_own(self, piece: Piece) -> Piece | None:
        """The kept meld's own piece back from the table, if it is still there."""
        card = represented_card(piece)
        pool = (self.jokers if isinstance(piece, Joker) else self.real)[Origin.TABLE]
        if card is None or pool[card] <= 0:
            return None
        pool[card] -= 1
        return piece


def _real(card: Card) -> Piece:
    return card


def arrange(
    solution: FlowSolution,
    inventory: Inventory,
    table: tuple[Meld, ...],
    *,
    table_used: bool = True,
) -> tuple[list[Meld], list[Meld]]:
    """The final table as (kept original melds, new melds), every meld in canonical order.

    ``table_used`` is false when the play may not touch the table (Rummikub's initial meld): then
    the table's pieces are not in the pools and the kept melds are the table as it is.
    """
    pools = _Pools(solution, inventory.table_real if table_used else Counter())
    kept_melds = [table[index] for index in solution.kept_melds]
    # First every kept piece that can stay, stays; a kept slot whose own piece had to go elsewhere
    # (a joker freed by its real card) then takes whatever shows its card.
    staying = [[pools.take_own(piece) for piece in meld] for meld in kept_melds]
    table_origin = Origin.TABLE if solution.tracks_origin else Origin.ANY
    new = [[pools.take(card, origin) for card, origin in meld] for meld in solution.melds]
    kept = [
        [
            piece if piece is not None else pools.take(_slot_card(own), table_origin)
            for piece, own in zip(placed, meld, strict=True)
        ]
        for placed, meld in zip(staying, kept_melds, strict=True)
    ]
    # Slots come in table order (groups by suit, sequences low to high), so the melds are
    # canonical as they are; the tests re-check every one with the rule checker.
    new_melds = [tuple(meld) for meld in new]
    if not table_used:
        # A frozen table (initial meld, gin) stays as it was; the new melds come after it.
        return list(table), new_melds
    return [tuple(meld) for meld in kept], new_melds


def _slot_card(piece: Piece) -> Card:
    card = represented_card(piece)
    if card is None:
        raise AssertionError("table jokers are declared")
    return card


def played_pieces(solution: FlowSolution) -> list[Piece]:
    """The hand pieces the solution plays (jokers undeclared, as they were in hand)."""
    pieces: list[Piece] = list(solution.hand_played.elements())
    pieces.extend(Joker() for _ in range(solution.hand_jokers_played))
    return pieces
