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

from dataclasses import dataclass
from typing import Any

from meldsat.cards import Piece, parse_piece
from meldsat.errors import MeldsatError
from meldsat.games.agents import MeldingAgent
from meldsat.games.engine import IllegalTurnError, Record, leading_seats
from meldsat.games.records import read_melds
from meldsat.games.rummy500_score import game_winners, laid_points, score_deal
from meldsat.games.table_game import TableGame, ask_meld, played_pieces, remove_pieces
from meldsat.notation import Meld, Table
from meldsat.rules import RuleSet

# A game that never reaches the target (it has not happened in any simulation) still stops here.
DEFAULT_MAX_DEALS = 100


@dataclass(frozen=True)
class Rummy500Turn:
    """A turn's decisions: the table after melding (``None``: no meld) and the card discarded
    (``None`` when the meld empties the hand)."""

    table_after: Table | None
    discard: Piece | None


class Rummy500Game(TableGame[Rummy500Turn]):
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

    def choose_turn(self, agent: MeldingAgent) -> Rummy500Turn:
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
            discard = agent.choose_discard(discard_view)
        return Rummy500Turn(after, discard)

    def read_turn(self, record: Record) -> Rummy500Turn:
        """``table_after`` (null: no meld) and ``discard`` (a card, or null) of a logged turn."""
        after, discard = record.get("table_after"), record.get("discard")
        table = None if after is None else read_melds(after, self.rules, "table_after")
        if not isinstance(discard, str):
            # Anything else reads as no discard, which the turn then refuses unless the hand is
            # empty (and then the rebuilt record's discard differs from the logged one).
            return Rummy500Turn(table, None)
        try:
            piece = parse_piece(discard, self.rules.notation)
        except MeldsatError as error:
            raise IllegalTurnError(f"bad discard: {error}") from None
        return Rummy500Turn(table, piece)

    def play_turn(self, turn: Rummy500Turn) -> Record:
        """Draw the top card, meld to ``table_after`` if given, discard ``discard``."""
        after, discard = turn.table_after, turn.discard
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
            "discard": None if discard is None else discard.text(self.rules.notation),
            "hand_left": self.hand_json(left),
            "hand_points": self.points(left),
            "ends": ends,
        }

    def discard(self, hand: Meld, discard: Piece | None) -> Meld:
        """The hand without the discarded card; an empty hand discards nothing."""
        if not hand:
            if discard is not None:
                text = discard.text(self.rules.notation)
                raise IllegalTurnError(f"discarded '{text}' from an empty hand")
            return hand
        if discard is None:
            raise IllegalTurnError("a turn that leaves cards in the hand must discard one")
        if discard not in hand:
            text = discard.text(self.rules.notation)
            raise IllegalTurnError(f"discarded {text}, which is not in the hand")
        self.discards.append(discard)
        return remove_pieces(hand, (discard,))

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
