"""What the games with a shared table have in common: hands, stock, table, melding by the checker.

Manipulation and the 500 family deal from one stock onto one shared table and judge every meld
with :func:`meldsat.moves.check_move`; their turn structure and scoring live in their own modules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, TypeVar

from meldsat.cards import Piece, count_pieces
from meldsat.games.agents import MeldingAgent, TurnView
from meldsat.games.deck import deal_hands
from meldsat.games.engine import Game, IllegalTurnError, Record
from meldsat.games.records import canonical_table, pieces_json, table_json
from meldsat.moves import check_move
from meldsat.notation import Meld, Table, sort_pieces
from meldsat.rules import RuleSet

TurnT = TypeVar("TurnT")


class TableGame(Game[MeldingAgent, TurnT]):
    """A game with a stock, a hand per seat and one shared table of melds (``TurnT``: its turn
    decision)."""

    def __init__(self, rules: RuleSet, options: dict[str, Any] | None = None) -> None:
        super().__init__(rules, options)
        self.hands: list[Meld] = [() for _ in range(rules.players)]
        self.table: Table = ()
        self.stock: list[Piece] = []
        self.seat = 0
        self.round_number = 0
        self.totals = [0] * rules.players
        self.went_out: int | None = None
        self.round_ended = False
        self.game_ended = False

    @property
    def round_over(self) -> bool:
        """True once the current round (deal) has ended."""
        return self.round_ended

    @property
    def game_over(self) -> bool:
        """True once someone reached the target (or the game's safety stop was hit)."""
        return self.game_ended

    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        return self.seat

    def deal(self, number: int, dealer: int, deck: list[Piece]) -> Record:
        """Deal ``hand_size`` cards to each seat, one at a time from the left of the dealer."""
        self.round_number = number
        self.stock = deck
        dealt = deal_hands(self.stock, self.players, self.rules.hand_size, dealer)
        self.hands = [sort_pieces(hand) for hand in dealt]
        self.table = ()
        self.seat = (dealer + 1) % self.players
        return {"hands": [pieces_json(hand, self.rules) for hand in self.hands]}

    def view(
        self,
        hand: Meld,
        draws: int,
        *,
        stock_left: int,
        last_chance: bool,
        table: Table | None = None,
    ) -> TurnView:
        """What the player to move sees, holding ``hand`` (with ``table`` if not the current)."""
        sizes = tuple(
            len(hand) if seat == self.seat else len(held) for seat, held in enumerate(self.hands)
        )
        return TurnView(
            self.rules,
            self.seat,
            self.table if table is None else table,
            sort_pieces(hand),
            draws,
            stock_left,
            last_chance,
            sizes,
        )

    def points(self, hand: Sequence[Piece]) -> int:
        """What a hand counts."""
        return sum(self.rules.value(piece) for piece in hand)

    def meld(self, hand: Meld, after: Table, draws: int | None) -> tuple[Table, Meld]:
        """Check the turn from the current table to ``after`` with ``hand``.

        Returns the new table (canonical) and the pieces played; raises
        :class:`IllegalTurnError` naming every broken rule.
        """
        new_table = canonical_table(after, self.rules)
        verdict = check_move(self.table, hand, new_table, self.rules, draws=draws)
        if not verdict.legal:
            reasons = "; ".join(f"{reason.code}: {reason.message}" for reason in verdict.reasons)
            raise IllegalTurnError(f"illegal play: {reasons}")
        return tuple(meld.pieces for meld in verdict.table.melds), verdict.played

    def hand_json(self, hand: Sequence[Piece]) -> list[str]:
        """A hand as canonical text, sorted."""
        return pieces_json(sort_pieces(hand), self.rules)

    def table_json(self, table: Table | None = None) -> list[list[str]]:
        """The table (the current one by default) as JSON."""
        return table_json(self.table if table is None else table, self.rules)


def remove_pieces(hand: Sequence[Piece], played: Sequence[Piece]) -> Meld:
    """The hand without the ``played`` pieces (each removed once)."""
    left = Counter(hand)
    left.subtract(played)
    if any(count < 0 for count in left.values()):
        raise IllegalTurnError("a played card is not in the hand")
    return sort_pieces(left.elements())


def played_pieces(before: Table, after: Table) -> Meld:
    """The pieces the table gains from ``before`` to ``after`` (jokers as they are in a hand)."""
    gained = count_pieces(piece for meld in after for piece in meld)
    gained.subtract(count_pieces(piece for meld in before for piece in meld))
    return sort_pieces(piece for piece, count in gained.items() for _ in range(max(count, 0)))


def ask_meld(agent: MeldingAgent, view: TurnView) -> Table | None:
    """The agent's table after melding, ``None`` for no meld (an unchanged table counts as none)."""
    after = agent.choose_meld(view)
    if after is None or sorted(map(sorted_meld, after)) == sorted(map(sorted_meld, view.table)):
        return None
    return after


def sorted_meld(meld: Sequence[Piece]) -> list[str]:
    """A meld's pieces as sorted text (to compare melds whatever their order)."""
    return sorted(piece.text() for piece in meld)
