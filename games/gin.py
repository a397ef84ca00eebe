"""The gin family as a playable game: draw, discard, knock, layoffs, and scoring to the end.

A hand (a round of the engine): 10 cards each, dealt one at a time from the left of the dealer,
then the first upcard is turned onto the discard pile. The player left of the dealer starts. A
turn takes the top card of the stock or the upcard (the top of the discard pile), then either
discards a card (not the upcard just taken) and may knock when the 10 cards kept have no more
deadwood than the knock limit, or, with all 11 cards melded, ends the hand with big gin. When a
discard without a knock leaves two cards or fewer in the stock, the hand is dead (no score).

A knock is settled exactly: the knocker's melds are its best arrangement
(:func:`meldsat.gin.analyse_hand`), the defender melds and lays off for its least deadwood
(:func:`meldsat.gin.layoff.settle_knock`, nothing after gin), and the hand is scored by
:mod:`meldsat.gin.scoring`, which also keeps the game columns (three for Hollywood). The game ends
when every column has a winner, or after ``max_rounds`` hands.

Not modelled: the first-turn offer of the upcard (taking it or passing, in turn): the first
player simply takes the upcard or draws, like any turn. The deal alternates between the players.

The bots are agents like a person's (:mod:`meldsat.games.gin_bots`); both answer the questions of
:class:`~meldsat.games.agents.GinAgent`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from meldsat.cards import Card, Piece
from meldsat.errors import MeldsatError
from meldsat.games.agents import GinAgent, GinView
from meldsat.games.deck import deal_hands
from meldsat.games.engine import Game, IllegalTurnError, Record, leading_seats
from meldsat.games.records import pieces_json, table_json
from meldsat.gin.bits import rank_order
from meldsat.gin.deadwood import HandAnalysis, analyse_hand, best_arrangement, knock_limit
from meldsat.gin.layoff import settle_knock
from meldsat.gin.scoring import HandKind, HandResult, ScoreSheet, score_sheet
from meldsat.notation import parse_pieces
from meldsat.rules import RuleSet

# A game that never ends (it has not happened in any simulation) still stops here.
DEFAULT_MAX_ROUNDS = 200
# The hand is dead when a discard without a knock leaves this many cards or fewer in the stock.
DEAD_STOCK = 2
_SEAT_NAMES = ("0", "1")


class DrawSource(enum.StrEnum):
    """Where a gin turn draws from."""

    STOCK = "stock"
    UPCARD = "upcard"


@dataclass(frozen=True)
class GinTurn:
    """A turn's decisions: where it draws, the card discarded (``None``: big gin), a knock."""

    source: DrawSource
    discard: Card | None
    knock: bool


def gin_turn_problem(
    held: list[Card],
    drawn: Card,
    took_upcard: bool,
    discard: Card | None,
    knock: bool,
    *,
    rules: RuleSet,
    first_upcard: Card | None,
) -> tuple[str | None, HandAnalysis | None]:
    """Why a turn that drew ``drawn`` into ``held`` (11 cards) may not end so (``None`` if it may),
    and, for a legal discard, the analysis of the 10 cards kept (the game records their deadwood,
    so it is worked out once)."""
    if discard is None:
        if knock and analyse_hand(held, rules, first_upcard=first_upcard).big_gin:
            return None, None
        return "only big gin (all 11 cards melded, knocking) skips the discard", None
    if discard not in held:
        return f"discard {discard} is not in the hand", None
    if took_upcard and discard == drawn:
        return f"the upcard {discard} just taken may not be discarded", None
    kept = list(held)
    kept.remove(discard)
    analysis = analyse_hand(kept, rules, first_upcard=first_upcard)
    if knock and not analysis.can_knock:
        limit = knock_limit(rules, first_upcard)
        return f"knocked with {analysis.arrangement.deadwood} deadwood: the limit is {limit}", None
    return None, analysis


def _card(value: Any, what: str) -> Card:
    if not isinstance(value, str):
        raise IllegalTurnError(f"'{what}' must be a card")
    pieces = parse_pieces(value)
    if len(pieces) != 1 or not isinstance(pieces[0], Card):
        raise IllegalTurnError(f"'{what}' must be one card, not '{value}'")
    return pieces[0]


class GinGame(Game[GinAgent, GinTurn]):
    """One game of Gin Rummy, Oklahoma Gin or Hollywood Gin (two players)."""

    def __init__(self, rules: RuleSet, options: dict[str, Any] | None = None) -> None:
        super().__init__(rules, {"max_rounds": DEFAULT_MAX_ROUNDS, **(options or {})})
        self.hands: list[list[Card]] = [[], []]
        self.stock: list[Card] = []
        self.discards: list[Card] = []
        self.first_upcard: Card | None = None
        self.seat = 0
        self.round_number = 0
        self.results: list[HandResult] = []
        self.sheet: ScoreSheet = score_sheet(rules, _SEAT_NAMES, [])
        self._ended: Record | None = None

    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        return self.seat

    @property
    def round_over(self) -> bool:
        """True once the hand was knocked, ended in big gin, or died with the stock."""
        return self._ended is not None

    @property
    def game_over(self) -> bool:
        """True when every game column has a winner (or after ``max_rounds`` hands)."""
        return self.sheet.finished or self.round_number >= self.options["max_rounds"]

    def start_round(self, number: int, dealer: int, deck: list[Piece]) -> Record:
        """Deal 10 cards each and turn the first upcard."""
        self.round_number = number
        self.stock = [piece for piece in deck if isinstance(piece, Card)]
        if len(self.stock) != len(deck):
            raise MeldsatError("gin is played without jokers")
        dealt = deal_hands(self.stock, 2, self.rules.hand_size, dealer)
        self.hands = [sorted(hand, key=rank_order) for hand in dealt]
        self.first_upcard = self.stock.pop()
        self.discards = [self.first_upcard]
        self.seat = (dealer + 1) % 2
        self._ended = None
        return {
            "hands": [pieces_json(hand, self.rules) for hand in self.hands],
            "upcard": str(self.first_upcard),
            "knock_limit": self.limit,
        }

    @property
    def limit(self) -> int:
        """This hand's knock limit (Oklahoma: from the first upcard)."""
        return knock_limit(self.rules, self.first_upcard)

    def choose_turn(self, agent: GinAgent) -> GinTurn:
        """Ask the agent where it draws, then (having seen the card drawn) how the turn ends."""
        view = GinView(
            self.rules,
            self.seat,
            tuple(self.hands[self.seat]),
            self.discards[-1],
            len(self.stock),
            self.limit,
            self.first_upcard,
            tuple(self.discards[:-1]),
        )
        take = agent.take_upcard(view)
        drawn = view.upcard if take else self.stock[-1]
        ending = agent.finish_turn(view, drawn, take)
        source = DrawSource.UPCARD if take else DrawSource.STOCK
        return GinTurn(source, ending.discard, ending.knock)

    def read_turn(self, record: Record) -> GinTurn:
        """``source`` (stock or upcard), ``discard`` (a card, or null for big gin) and ``knock``."""
        source, knock = record.get("source"), record.get("knock")
        if source not in ("stock", "upcard") or not isinstance(knock, bool):
            raise IllegalTurnError("a gin turn needs 'source' (stock or upcard) and 'knock'")
        raw = record.get("discard")
        discard = None if raw is None else _card(raw, "discard")
        return GinTurn(DrawSource(source), discard, knock)

    def play_turn(self, turn: GinTurn) -> Record:
        """Draw from ``source``, then discard (and knock), or end with big gin (no discard)."""
        source, discard, knock = turn.source, turn.discard, turn.knock
        seat = self.seat
        took_upcard = source is DrawSource.UPCARD
        drawn = self.discards.pop() if took_upcard else self.stock.pop()
        held = sorted([*self.hands[seat], drawn], key=rank_order)
        record: Record = {"seat": seat, "source": source.value, "drawn": str(drawn)}
        problem, analysis = gin_turn_problem(
            held,
            drawn,
            took_upcard,
            discard,
            knock,
            rules=self.rules,
            first_upcard=self.first_upcard,
        )
        if problem:
            raise IllegalTurnError(problem)
        if discard is None or analysis is None:
            self.hands[seat] = held
            record.update({"discard": None, "hand": pieces_json(held, self.rules), "knock": True})
            self._settle(seat, held, big_gin=True)
            return record
        kept = [card for card in held if card != discard]
        self.hands[seat] = kept
        self.discards.append(discard)
        record.update(
            {
                "discard": str(discard),
                "hand": pieces_json(kept, self.rules),
                "deadwood": analysis.arrangement.deadwood,
                "knock": knock,
            }
        )
        if knock:
            self._settle(seat, kept, big_gin=False)
        elif len(self.stock) <= DEAD_STOCK:
            self.results.append(HandResult(knocker=None))
            self._ended = {"ends": "dead"}
        self.seat = 1 - seat
        return record

    def _settle(self, seat: int, hand: list[Card], *, big_gin: bool) -> None:
        """Lay the knocker's melds, let the defender lay off, and score the hand."""
        # The best arrangement of the 10 cards kept (of all 11 for big gin, which melds them all).
        melds = best_arrangement(hand)
        result = settle_knock(
            self.rules,
            melds.melds,
            melds.deadwood_cards,
            self.hands[1 - seat],
            first_upcard=self.first_upcard,
        )
        self.results.append(
            HandResult(
                _SEAT_NAMES[seat],
                result.knocker_deadwood,
                result.defender.arrangement.deadwood,
                big_gin,
                self.first_upcard,
            )
        )
        self._ended = {
            "ends": result.score.kind.value,
            "knocker": seat,
            "knocker_melds": table_json(result.knocker_melds, self.rules),
            "knocker_deadwood": result.knocker_deadwood,
            "defender_melds": table_json(result.defender.arrangement.melds, self.rules),
            "laid_off": [str(item.card) for item in result.defender.laid_off],
            "defender_deadwood": result.defender.arrangement.deadwood,
            "doubled": result.score.doubled,
        }

    def end_round(self) -> Record:
        """Score the hand into the game columns; the record says who scored what, and where."""
        assert self._ended is not None
        self.sheet = score_sheet(self.rules, _SEAT_NAMES, self.results)
        hand = self.sheet.hands[-1]
        scores = [0, 0]
        winners: list[int] = []
        if hand.player is not None:
            winner = int(hand.player)
            scores[winner] = hand.score.points
            winners = [winner]
        undercut = winners if hand.score.kind is HandKind.UNDERCUT else []
        return {
            **self._ended,
            "knocker": self._ended.get("knocker"),
            "went_out": None,
            "scores": scores,
            "winners": winners,
            "undercut": undercut,
            "games": list(hand.games),
            "columns": [
                [column.points[name] for name in _SEAT_NAMES] for column in self.sheet.games
            ],
            "totals": self._points(),
        }

    def _points(self) -> list[int]:
        """Each seat's points summed over the game columns (bonuses not yet added)."""
        return [sum(column.points[name] for column in self.sheet.games) for name in _SEAT_NAMES]

    def end_game(self) -> Record:
        """Every column's bonuses and totals; the winner has the most over all columns."""
        totals = [0, 0]
        columns = []
        for column in self.sheet.games:
            final = column.total if column.finished else column.points
            for seat, name in enumerate(_SEAT_NAMES):
                totals[seat] += final[name]
            columns.append(
                {
                    "game": column.number,
                    "finished": column.finished,
                    "winner": None if column.winner is None else int(column.winner),
                    "shutout": column.shutout,
                    "totals": [final[name] for name in _SEAT_NAMES],
                }
            )
        return {
            "rounds": self.round_number,
            "columns": columns,
            "totals": totals,
            "winners": list(leading_seats(totals)),
        }
