"""The Dutch 500 rummy and its variants 300 and killer ("500-moordend"), the whole game.

A turn: draw one card from the stock (the discard pile is never drawn from), meld if you like
(table cards may be reused, but every new or changed meld needs a card from your hand: the rule
checker's ``meld_without_hand_card``), then discard one card unless the hand is empty. A player
whose hand is empty at the end of a turn goes out. A deal ends when a player goes out, when the
stock runs out, or after ``rounds_per_deal`` (10) turns each. Deals are scored by
:mod:`meldsat.games.rummy500_score`; the game ends once someone reaches 500 (300).
Knocking ("kloppen") is not modelled: see docs/RULES.md.
"""

from __future__ import annotations

from typing import Any

from meldsat.cards import Piece, parse_piece
from meldsat.errors import MeldsatError
from meldsat.games.agents import MeldingAgent
from meldsat.games.engine import IllegalTurnError, Record, leading_seats
from meldsat.games.rummy500_score import game_winners, laid_points, score_deal
from meldsat.games.table_game import TableGame, ask_meld, played_pieces, remove_pieces
from meldsat.notation import Meld
from meldsat.rules import RuleSet

# A game that never reaches the target (it has not happened in any simulation) still stops here.
DEFAULT_MAX_DEALS = 100


class Rummy500Game(TableGame):
    """One game of 500 (``rummy500``), 300 (``rummy300``) or killer 500 (``rummy500-killer``)."""

    def __init__(self, rules: RuleSet, options: dict[str, Any] | None = None) -> None:
        super().__init__(rules, {"max_deals": DEFAULT_MAX_DEALS, **(options or {})})
        self.laid = [0] * rules.players
        self.pool = 0
        self.discards: list[Piece] = []
        self.turns_taken = 0

    @property
    def turn_limit(self) -> int:
        """Turns in a deal at most: ``rounds_per_deal`` for every player."""
        return self.rules.scoring.rounds_per_deal * self.players

    def start_round(self, number: int, dealer: int, deck: list[Piece]) -> Record:
        """Put this deal's points in the pool and deal 13 cards each."""
        self.pool += self.rules.scoring.deal_pool
        self.laid = [0] * self.players
        self.discards = []
        self.turns_taken = 0
        self.went_out = None
        self.round_ended = False
        return {"pool": self.pool, **self.deal(number, dealer, deck)}

    def choose_turn(self, agent: MeldingAgent) -> Record:
        """Draw, ask for a meld, then for a discard unless the hand is empty."""
        hand: Meld = (*self.hands[self.seat], self.stock[-1])
        last = len(self.stock) == 1 or self.turns_taken + self.players >= self.turn_limit
        view = self.view(hand, 1, stock_left=len(self.stock) - 1, last_chance=last)
        after = ask_meld(agent, view)
        discard = None
        if after is not None:
            hand = remove_pieces(hand, played_pieces(self.table, after))
        if hand:
            table = self.table if after is None else after
            discard_view = self.view(
                hand, 1, stock_left=len(self.stock) - 1, last_chance=last, table=table
            )
            discard = agent.choose_discard(discard_view).text(self.rules.notation)
        table_after = None if after is None else self.table_json(after)
        return {"table_after": table_after, "discard": discard}

    def apply_turn(self, decision: Record) -> Record:
        """Draw the top card, meld to ``table_after`` if given, discard ``discard``."""
        after, discard = decision.get("table_after"), decision.get("discard")
        seat, before = self.seat, self.table
        drawn = self.stock.pop()
        hand: Meld = (*self.hands[seat], drawn)
        played: Meld = ()
        if after is not None:
            self.table, played = self.meld(hand, after, None)
        left = remove_pieces(hand, played)
        laid = laid_points(played, before, self.table, self.rules)
        left = self.discard(left, discard)
        self.hands[seat] = left
        self.laid[seat] += laid
        self.turns_taken += 1
        ends = None
        if not left:
            self.went_out, ends = seat, "out"
        elif not self.stock:
            ends = "stock"
        elif self.turns_taken >= self.turn_limit:
            ends = "rounds"
        self.round_ended = ends is not None
        self.seat = (seat + 1) % self.players
        return {
            "seat": seat,
            "drawn": self.hand_json([drawn]),
            "hand": self.hand_json(hand),
            "table_before": self.table_json(before),
            "table_after": None if after is None else self.table_json(),
            "played": self.hand_json(played),
            "laid_points": laid,
            "discard": discard,
            "hand_left": self.hand_json(left),
            "hand_points": self.points(left),
            "ends": ends,
        }

    def discard(self, hand: Meld, discard: Any) -> Meld:
        """The hand without the discarded card; an empty hand discards nothing."""
        if not hand:
            if discard is not None:
                raise IllegalTurnError(f"discarded '{discard}' from an empty hand")
            return hand
        if not isinstance(discard, str):
            raise IllegalTurnError("a turn that leaves cards in the hand must discard one")
        try:
            piece = parse_piece(discard, self.rules.notation)
        except MeldsatError as error:
            raise IllegalTurnError(f"bad discard: {error}") from None
        if piece not in hand:
            raise IllegalTurnError(f"discarded {discard}, which is not in the hand")
        self.discards.append(piece)
        return remove_pieces(hand, (piece,))

    def end_round(self) -> Record:
        """Score the deal, carry the pool over if nobody took it, and end the game at the target."""
        hand_points = [self.points(hand) for hand in self.hands]
        result = score_deal(self.laid, hand_points, self.went_out, self.pool, self.rules.scoring)
        self.pool = result.pool_carried
        for seat, score in enumerate(result.scores):
            self.totals[seat] += score
        self.game_ended = (
            bool(game_winners(self.totals, self.rules.scoring))
            or self.round_number >= self.options["max_deals"]
        )
        return {
            "hands": [self.hand_json(hand) for hand in self.hands],
            "hand_points": hand_points,
            "laid": list(self.laid),
            "went_out": self.went_out,
            "pool_won": result.pool_won,
            "pool_carried": result.pool_carried,
            "scores": list(result.scores),
            "winners": list(result.winners),
            "totals": list(self.totals),
        }

    def end_game(self) -> Record:
        """The final totals and the winners (the most points; a tie shares the win)."""
        return {
            "deals": self.round_number,
            "totals": list(self.totals),
            "winners": list(leading_seats(self.totals)),
        }
