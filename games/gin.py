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

Bots (the ``--bots`` names of ``meldsat simulate``) play the exact analysis:

- ``knocker``, ``greedy-points``: exact draw advice (take the upcard when its deadwood after the
  best discard is lower than the stock's expected least deadwood over every unseen card), the best
  discard, knock as soon as allowed.
- ``greedy-cards``: takes the upcard whenever it lowers the deadwood at all, best discard, knocks
  as soon as allowed.
- ``hoarder``: as ``knocker``, but knocks only with gin, or when five cards or fewer are left in
  the stock.
- ``random``: a random draw, a random discard, knocks with probability 1/2 when allowed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

from meldsat.cards import Card, Piece
from meldsat.errors import MeldsatError
from meldsat.games.deck import deal_hands
from meldsat.games.engine import Game, IllegalTurnError, Record, leading_seats
from meldsat.games.records import pieces_json, table_json
from meldsat.gin.bits import rank_order
from meldsat.gin.deadwood import HandAnalysis, analyse_hand, best_arrangement, knock_limit
from meldsat.gin.draw import draw_advice
from meldsat.gin.layoff import settle_knock
from meldsat.gin.scoring import HandKind, HandResult, ScoreSheet, score_sheet
from meldsat.notation import parse_pieces
from meldsat.rules import RuleSet

# A game that never ends (it has not happened in any simulation) still stops here.
DEFAULT_MAX_ROUNDS = 200
# The hand is dead when a discard without a knock leaves this many cards or fewer in the stock.
DEAD_STOCK = 2
HOARDER_STOCK = 5
_SEAT_NAMES = ("0", "1")
GIN_BOTS = ("knocker", "greedy-points", "greedy-cards", "hoarder", "random")


@dataclass
class GinBot:
    """A gin bot: its name says how it plays (see the module's list); ``rng`` for ``random``."""

    name: str
    rng: random.Random


def make_gin_bot(name: str, rng: random.Random, time_limit: float = 0.0) -> GinBot:
    """The gin bot called ``name``; ``time_limit`` is unused (the gin analysis is immediate)."""
    del time_limit
    bot = name.strip().lower()
    if bot not in GIN_BOTS:
        raise MeldsatError(f"unknown gin bot '{name}' (choose from {', '.join(GIN_BOTS)})")
    return GinBot(bot, rng)


@dataclass(frozen=True)
class GinView:
    """What the player to move sees: its hand, the upcard, the stock left and the knock limit.

    ``seen`` is the discard pile below the upcard (both players have seen those cards).
    """

    rules: RuleSet
    seat: int
    hand: tuple[Card, ...]
    upcard: Card
    stock_left: int
    knock_limit: int
    first_upcard: Card | None
    seen: tuple[Card, ...]


class GinPlayer(Protocol):
    """A player that decides its own gin turns (a person at the terminal); bots are GinBot."""

    name: str

    def take_upcard(self, view: GinView) -> bool:
        """Take the upcard (True) or draw from the stock (False)?"""

    def finish_turn(
        self, view: GinView, drawn: Card, took_upcard: bool
    ) -> tuple[Card | None, bool]:
        """After drawing ``drawn``: the card to discard (``None`` for big gin) and whether to knock.

        The answer must be legal (see :func:`gin_turn_problem`).
        """


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


class GinGame(Game[GinBot | GinPlayer]):
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

    def choose_turn(self, agent: GinBot | GinPlayer) -> Record:
        """The agent's draw, discard and knock (bots: see the module's list of bots)."""
        if not isinstance(agent, GinBot):
            return self._asked_turn(agent)
        name = agent.name
        hand = self.hands[self.seat]
        upcard = self.discards[-1]
        if name == "random":
            return self._random_turn(agent.rng, hand, upcard)
        if name == "greedy-cards":
            now = analyse_hand(hand, self.rules, first_upcard=self.first_upcard)
            taken = analyse_hand(
                [*hand, upcard], self.rules, first_upcard=self.first_upcard, keep=upcard
            )
            take = taken.arrangement.deadwood < now.arrangement.deadwood
        else:
            # Every card of the discard pile below the upcard has been seen by both players.
            advice = draw_advice(
                hand, upcard, self.rules, seen=self.discards[:-1], first_upcard=self.first_upcard
            )
            take = advice.take_upcard
        drawn = upcard if take else self.stock[-1]
        after = analyse_hand(
            [*hand, drawn],
            self.rules,
            first_upcard=self.first_upcard,
            keep=upcard if take else None,
        )
        source = "upcard" if take else "stock"
        if after.big_gin:
            return {"source": source, "discard": None, "knock": True}
        knock = after.can_knock
        if name == "hoarder":
            knock = after.gin or (knock and len(self.stock) - (not take) <= HOARDER_STOCK)
        return {"source": source, "discard": str(after.discard), "knock": knock}

    def _asked_turn(self, player: GinPlayer) -> Record:
        """Ask a person: the draw first, then (having seen the card drawn) discard and knock."""
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
        take = player.take_upcard(view)
        drawn = view.upcard if take else self.stock[-1]
        discard, knock = player.finish_turn(view, drawn, take)
        return {
            "source": "upcard" if take else "stock",
            "discard": None if discard is None else str(discard),
            "knock": knock,
        }

    def _random_turn(self, rng: random.Random, hand: list[Card], upcard: Card) -> Record:
        take = rng.random() < 0.5
        drawn = upcard if take else self.stock[-1]
        choices = hand if take else [*hand, drawn]
        discard = rng.choice(choices)
        kept = [card for card in [*hand, drawn] if card != discard]
        allowed = analyse_hand(kept, self.rules, first_upcard=self.first_upcard).can_knock
        knock = allowed and rng.random() < 0.5
        return {"source": "upcard" if take else "stock", "discard": str(discard), "knock": knock}

    def apply_turn(self, decision: Record) -> Record:
        """Draw from ``source``, then discard (and knock), or end with big gin (no discard)."""
        source, knock = decision.get("source"), decision.get("knock")
        if source not in ("stock", "upcard") or not isinstance(knock, bool):
            raise IllegalTurnError("a gin turn needs 'source' (stock or upcard) and 'knock'")
        seat = self.seat
        drawn = self.discards.pop() if source == "upcard" else self.stock.pop()
        held = sorted([*self.hands[seat], drawn], key=rank_order)
        record: Record = {"seat": seat, "source": source, "drawn": str(drawn)}
        raw = decision.get("discard")
        discard = None if raw is None else _card(raw, "discard")
        problem, analysis = gin_turn_problem(
            held,
            drawn,
            source == "upcard",
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
