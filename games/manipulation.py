"""Manipulation Rummy (Carousel), the whole game: turns of up to three draws, knocking, scoring.

A turn: draw a card, then meld or not; without a meld draw a second card, meld or not; without a
meld draw a third and meld no more. After the turn a player with ``knock_limit`` (5) points or less
may knock, which ends the round; melding every card ends it too. When the stock runs out every
player, the one who drew the last card included, takes one more turn without drawing. Rounds are
scored by :mod:`meldsat.games.manipulation_score`; the game ends at 150.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meldsat.cards import Piece
from meldsat.games.agents import MeldingAgent
from meldsat.games.engine import IllegalTurnError, Record
from meldsat.games.manipulation_score import game_reached_target, score_game, score_round
from meldsat.games.records import read_melds
from meldsat.games.table_game import TableGame, ask_meld, played_pieces, remove_pieces
from meldsat.notation import Meld, Table
from meldsat.rules import RuleSet
from meldsat.wording import counted

# A game that never reaches the target (it has not happened in any simulation) still stops here.
DEFAULT_MAX_ROUNDS = 100


@dataclass(frozen=True)
class ManipulationTurn:
    """A turn's decisions: the cards drawn, the table after melding (``None``: no meld), a knock."""

    draws: int
    table_after: Table | None
    knock: bool


class ManipulationGame(TableGame[ManipulationTurn]):
    """One game of Manipulation Rummy. Option ``max_rounds`` (default 100) stops an endless game."""

    def __init__(self, rules: RuleSet, options: dict[str, Any] | None = None) -> None:
        super().__init__(rules, {"max_rounds": DEFAULT_MAX_ROUNDS, **(options or {})})
        self.rounds_won = [0] * rules.players
        self.knocker: int | None = None
        self.final_turns: int | None = None  # turns left after the stock ran out

    def start_round(self, number: int, dealer: int, deck: list[Piece]) -> Record:
        """Deal 10 cards each; the player left of the dealer starts."""
        self.knocker = None
        self.went_out = None
        self.final_turns = None
        self.round_ended = False
        return self.deal(number, dealer, deck)

    def choose_turn(self, agent: MeldingAgent) -> ManipulationTurn:
        """Draw card by card, asking the agent after each draw that still allows melding."""
        hand = list(self.hands[self.seat])
        last_turn = self.final_turns is not None
        draws, after = 0, None
        if last_turn:
            view = self.view(tuple(hand), 0, stock_left=0, last_chance=True)
            after = ask_meld(agent, view)
        else:
            for step in range(1, min(self.rules.draw_limit, len(self.stock)) + 1):
                hand.append(self.stock[-step])
                draws = step
                if step >= self.rules.draw_limit:
                    break
                view = self.view(
                    tuple(hand), step, stock_left=len(self.stock) - step, last_chance=False
                )
                after = ask_meld(agent, view)
                if after is not None:
                    break
        knock = False
        if after is not None:
            hand = list(remove_pieces(hand, played_pieces(self.table, after)))
        if hand and self.points(hand) <= (self.rules.knock_limit or 0):
            view = self.view(
                tuple(hand), draws, stock_left=len(self.stock) - draws, last_chance=last_turn
            )
            knock = agent.wants_knock(view)
        return ManipulationTurn(draws, after, knock)

    def read_turn(self, record: Record) -> ManipulationTurn:
        """``draws``, ``table_after`` (null: no meld) and ``knock`` of a logged turn."""
        draws, after, knock = record.get("draws"), record.get("table_after"), record.get("knock")
        if not isinstance(draws, int) or isinstance(draws, bool) or not isinstance(knock, bool):
            raise IllegalTurnError("a turn needs 'draws' (a number) and 'knock' (true or false)")
        # A wrong number of draws is reported before the table is read, as the turn is played.
        self.check_draws(draws, melded=after is not None)
        table = None if after is None else read_melds(after, self.rules, "table_after")
        return ManipulationTurn(draws, table, knock)

    def play_turn(self, turn: ManipulationTurn) -> Record:
        """Draw ``draws`` cards, meld to ``table_after`` if given, knock if asked."""
        draws, after, knock = turn.draws, turn.table_after, turn.knock
        self.check_draws(draws, melded=after is not None)
        seat, before = self.seat, self.table
        drawn = [self.stock.pop() for _ in range(draws)]
        hand = (*self.hands[seat], *drawn)
        played: Meld = ()
        if after is not None:
            self.table, played = self.meld(hand, after, draws or None)
        left = remove_pieces(hand, played)
        points = self.points(left)
        if knock and (not left or points > (self.rules.knock_limit or -1)):
            raise IllegalTurnError(
                f"knocked holding {points} points: knocking needs a hand of "
                f"{self.rules.knock_limit} points or less"
            )
        self.hands[seat] = left
        record: Record = {
            "seat": seat,
            "drawn": self.hand_json(drawn) if draws else [],
            "draws": draws,
            "hand": self.hand_json(hand),
            "table_before": self.table_json(before),
            "table_after": None if after is None else self.table_json(),
            "played": self.hand_json(played),
            "hand_left": self.hand_json(left),
            "hand_points": points,
            "knock": knock,
        }
        record["ends"] = self.after_turn(seat, left, knock)
        return record

    def check_draws(self, draws: int, *, melded: bool) -> None:
        """A turn draws until it melds, up to three cards; none after the stock ran out."""
        if self.final_turns is not None:
            allowed = {0}
        elif melded:
            allowed = set(range(1, min(self.rules.draw_limit, len(self.stock)) + 1))
        else:
            allowed = {min(self.rules.draw_limit, len(self.stock))}
        if draws not in allowed:
            choices = " or ".join(map(str, sorted(allowed)))
            raise IllegalTurnError(f"drew {counted(draws, 'card')}: this turn draws {choices}")

    def after_turn(self, seat: int, left: Meld, knock: bool) -> str | None:
        """Advance to the next seat, or end the round; returns why the round ended, if it did."""
        ends = None
        if not left:
            self.went_out, ends = seat, "out"
        elif knock:
            self.knocker, ends = seat, "knock"
        elif self.final_turns is not None:
            self.final_turns -= 1
            if self.final_turns == 0:
                ends = "stock"
        elif not self.stock:
            # Every player, the one who took the last card included, takes one more turn.
            self.final_turns = self.players
        self.round_ended = ends is not None
        self.seat = (seat + 1) % self.players
        return ends

    def end_round(self) -> Record:
        """Score the round, add it to the totals, and end the game at the target."""
        hand_points = [self.points(hand) for hand in self.hands]
        result = score_round(
            hand_points, [len(hand) for hand in self.hands], self.knocker, self.rules.scoring
        )
        for seat, score in enumerate(result.scores):
            self.totals[seat] += score
        for seat in result.winners:
            self.rounds_won[seat] += 1
        self.game_ended = (
            game_reached_target(self.totals, self.rules.scoring)
            or self.round_number >= self.options["max_rounds"]
        )
        return {
            "hands": [self.hand_json(hand) for hand in self.hands],
            "hand_points": hand_points,
            "knocker": self.knocker,
            "went_out": self.went_out,
            "scores": list(result.scores),
            "winners": list(result.winners),
            "undercut": list(result.undercut),
            "totals": list(self.totals),
        }

    def end_game(self) -> Record:
        """The end bonuses and the final totals."""
        result = score_game(self.totals, self.rounds_won, self.rules.scoring)
        return {
            "rounds": self.round_number,
            "rounds_won": list(self.rounds_won),
            "bonuses": list(result.bonuses),
            "totals": list(result.totals),
            "winners": list(result.winners),
        }
