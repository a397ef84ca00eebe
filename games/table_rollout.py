"""``rollout``: ``patient`` with its end-of-round melds chosen by playing the round forward.

In Manipulation between bots that hold their cards, the round is settled in its last few turns:
who lays down first, on what table, and who then goes out or knocks. ``patient`` decides those
turns by fixed rules (hold unless the play wins; a small meld to draw fewer when the stock's
arithmetic says so). ``rollout`` keeps those rules for the rest of the round, but near the end
(the stock at :data:`NEAR_END` cards per player or fewer, or an opponent has melded) it weighs
each option it has on a draw (hold, lay the most points, lay a small meld) by play-outs: it deals
the unseen cards (the deck less its hand and the table) at random into the opponents' hands
(their sizes are public) and the stock, plays the round out with the opponents following the
``hoarder`` rule and itself ``patient``'s, and takes the option that won the most play-outs
(the same deals for every option; ``patient``'s own choice on a tie). The deals come from the
bot's seeded generator, so a game plays the same way twice.

Measured (200 games of seed 12 against three hoarders, ``python -m benchmarks bots table
--rules manipulation --bot rollout --against hoarder --games 200 --seed 12``), it is not
stronger than ``patient`` on the same games: 43.0 % with 8 deals and no margin, 44.5 % with 12
deals and a margin of 2, against 45.5 %; after ``patient``'s seat-cost change, 45.5 % against
47.5 %; at 2.2-3.2 s of CPU a game against 0.14. Most of its decisions were lost in every
play-out whatever it did (the player after it lays down last, on the richest table).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from meldsat.cards import Card, Piece, count_pieces, piece_identity
from meldsat.games.agents import TurnView
from meldsat.games.deck import full_deck
from meldsat.games.manipulation_score import score_round
from meldsat.games.table_game import played_pieces, remove_pieces
from meldsat.games.table_patient import PatientBot
from meldsat.games.table_timing import only_mine, small_meld
from meldsat.notation import Meld, Table
from meldsat.play import Objective, Play
from meldsat.position import Position
from meldsat.rules import RuleSet

# Play-outs begin once the stock is down to this many cards a player (or an opponent melded).
NEAR_END = 3
# Deals played out for each option of a decision.
SAMPLES = 12
# Play-outs an option must win beyond patient's choice (the first) to replace it.
MARGIN = 2.0


@dataclass
class RoundState:
    """A round being played out: every seat's hand, the table, the stock (drawn from the end),
    the turns left after the stock ran out (``None`` before), and who ended it."""

    rules: RuleSet
    me: int
    hands: list[list[Piece]]
    table: Table
    stock: list[Piece]
    final_turns: int | None = None
    knocker: int | None = None
    went_out: int | None = None

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.hands)

    def points(self, hand: Sequence[Piece]) -> int:
        """What a hand counts."""
        return sum(self.rules.value(piece) for piece in hand)

    def lay(self, seat: int, table: Table) -> None:
        """Seat ``seat`` melds from its hand to ``table``."""
        played = played_pieces(self.table, table)
        self.hands[seat] = list(remove_pieces(self.hands[seat], played))
        self.table = table

    def end_turn(self, seat: int) -> bool:
        """Knock if the hand allows it (both rules knock at once), advance the final turns;
        whether the round is over."""
        hand = self.hands[seat]
        if not hand:
            self.went_out = seat
            return True
        if self.points(hand) <= (self.rules.knock_limit or 0):
            self.knocker = seat
            return True
        if self.final_turns is not None:
            self.final_turns -= 1
            return self.final_turns == 0
        if not self.stock:
            self.final_turns = self.players
        return False

    def share(self) -> float:
        """This seat's share of the round's win (ties split it)."""
        hands = [self.points(hand) for hand in self.hands]
        sizes = [len(hand) for hand in self.hands]
        winners = score_round(hands, sizes, self.knocker, self.rules.scoring).winners
        return 1.0 / len(winners) if self.me in winners else 0.0


Policy = Callable[[RoundState, int, int, bool], Table | None]


@dataclass
class RolloutBot(PatientBot):
    """``patient``, with the options of its turns near the end weighed by play-outs."""

    samples: int = SAMPLES
    near_end: int = NEAR_END
    # Whether the small meld is an option even when patient's timing would not lay it.
    small_option: bool = True
    # Play-outs an option must win beyond patient's own choice to be taken instead.
    margin: float = MARGIN
    decisions: int = field(default=0)

    def choose_meld(self, view: TurnView) -> Table | None:
        """``patient``'s choice, or near the end the option that wins the most play-outs."""
        if not view.table:
            self.laid = []  # a new round
        laid_before = list(self.laid)
        base = super().choose_meld(view)
        limit = view.rules.knock_limit
        if limit is None or view.last_chance or len(view.hand_sizes) < 3:
            return base
        players = len(view.hand_sizes)
        near = view.stock_left <= self.near_end * players
        if not (near or not only_mine(view.table, laid_before)):
            return base
        play = self.hint(view.position, Objective.POINTS)
        if play.found and (play.hand_points_left <= limit or not play.hand_left):
            return base  # it wins now
        options: list[Table | None] = [base]
        for option in self.options(view, play):
            if not any(same_table(option, known) for known in options):
                options.append(option)
        if len(options) == 1:
            return base
        self.laid = laid_before
        choice = self.weigh(view, options)
        if choice is not None:
            self.laid += [
                piece for piece in played_pieces(view.table, choice) if isinstance(piece, Card)
            ]
        return choice

    def options(self, view: TurnView, play: Play) -> list[Table | None]:
        """What it may do on this draw: hold, lay the most points, lay a small meld."""
        found: list[Table | None] = [None]
        if play.found:
            found.append(play.table)
        if self.small_option:
            meld = small_meld(view)
            if meld is not None:
                found.append((*view.table, meld))
        return found

    def weigh(self, view: TurnView, options: Sequence[Table | None]) -> Table | None:
        """The option with the most play-out wins over the same deals, if it wins :data:`MARGIN`
        more than the first (patient's choice); the first otherwise."""
        self.decisions += 1
        wins = [0.0] * len(options)
        for _ in range(self.samples):
            deal = self.deal(view)
            for index, option in enumerate(options):
                wins[index] += self.play_out(view, deal, option)
        best = max(range(len(options)), key=lambda index: (wins[index], -index))
        return options[best] if wins[best] - wins[0] >= self.margin else options[0]

    def deal(self, view: TurnView) -> tuple[list[list[Piece]], list[Piece]]:
        """The unseen cards dealt at random: the opponents' hands (seat order) and the stock."""
        unseen = count_pieces(full_deck(view.rules))
        unseen.subtract(count_pieces(view.hand))
        unseen.subtract(count_pieces(piece for meld in view.table for piece in meld))
        cards = sorted(
            (piece for piece, count in unseen.items() for _ in range(max(count, 0))),
            key=lambda piece: piece.text(),
        )
        self.rng.shuffle(cards)
        hands: list[list[Piece]] = []
        for seat, size in enumerate(view.hand_sizes):
            if seat == view.seat:
                hands.append([])
            else:
                hands.append(cards[:size])
                cards = cards[size:]
        return hands, cards[: view.stock_left]

    def play_out(
        self, view: TurnView, deal: tuple[list[list[Piece]], list[Piece]], option: Table | None
    ) -> float:
        """This seat's share of the round when it takes ``option`` on this draw and the round is
        played out on ``deal``."""
        hands = [list(hand) for hand in deal[0]]
        hands[view.seat] = list(view.hand)
        state = RoundState(view.rules, view.seat, hands, view.table, list(deal[1]))
        limit = view.rules.draws_before_meld_forbidden or 3
        if option is not None:
            state.lay(view.seat, option)
        else:
            # Hold: draw on, playing patient's rule on the later draws of this turn.
            for step in range(view.draws + 1, min(limit, view.draws + len(state.stock)) + 1):
                state.hands[view.seat].append(state.stock.pop())
                if step >= limit:
                    break
                table = self.my_rule(state, view.seat, step, False)
                if table is not None:
                    state.lay(view.seat, table)
                    break
        if state.end_turn(view.seat):
            return state.share()
        seat = view.seat
        while True:
            seat = (seat + 1) % state.players
            rule = self.my_rule if seat == view.seat else self.hoarder_rule
            self.turn(state, seat, rule)
            if state.end_turn(seat):
                return state.share()

    def turn(self, state: RoundState, seat: int, rule: Policy) -> None:
        """One turn of ``seat`` playing by ``rule``: draw by draw as the game asks."""
        limit = state.rules.draws_before_meld_forbidden or 3
        if state.final_turns is not None:
            table = rule(state, seat, 0, True)
            if table is not None:
                state.lay(seat, table)
            return
        for step in range(1, min(limit, len(state.stock)) + 1):
            state.hands[seat].append(state.stock.pop())
            if step >= limit:
                break
            table = rule(state, seat, step, False)
            if table is not None:
                state.lay(seat, table)
                return

    def best(self, state: RoundState, seat: int) -> Play:
        """The most points ``seat`` can lay on the table."""
        position = Position.build(state.rules, state.table, tuple(state.hands[seat]))
        return self.hint(position, Objective.POINTS)

    def hoarder_rule(self, state: RoundState, seat: int, step: int, last: bool) -> Table | None:
        """``hoarder``: the most points if that reaches the knock limit or goes out, or the
        stock is down to a card a player (or this is its last turn)."""
        play = self.best(state, seat)
        if not play.found:
            return None
        enough = play.hand_points_left <= (state.rules.knock_limit or 0)
        ending = last or len(state.stock) <= state.players
        return play.table if enough or ending else None

    def my_rule(self, state: RoundState, seat: int, step: int, last: bool) -> Table | None:
        """``patient`` near the end: the most points if that wins or on its last turn."""
        play = self.best(state, seat)
        if not play.found:
            return None
        wins = play.hand_points_left <= (state.rules.knock_limit or 0) or not play.hand_left
        return play.table if wins or last else None


def same_table(one: Table | None, other: Table | None) -> bool:
    """Whether two options are the same table (``None``: no meld)."""
    if one is None or other is None:
        return one is other
    return sorted(map(_meld_key, one)) == sorted(map(_meld_key, other))


def _meld_key(meld: Meld) -> list[str]:
    return sorted(piece_identity(piece).text() for piece in meld)
