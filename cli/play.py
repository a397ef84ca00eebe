"""``meldsat play``: a person against bots in the terminal, the table and hand drawn with suits.

The person sits at seat 0. At each chance to meld they type a play (see ``help``), ``hint`` for
the engine's best play, or ``draw`` (or an empty line) to meld nothing; an illegal play is refused
with every reason the rule checker gives. Every turn goes through the same game engine and rule
checks as a simulation, and ``--log`` keeps the game log for ``meldsat replay``. The gin games
have their own turn (draw, discard, knock): ``meldsat.cli.play_gin``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from meldsat.answers.fields import house_options
from meldsat.cards import Piece, parse_piece
from meldsat.cli.inputs import RuleOption
from meldsat.cli.play_gin import GinNarrator, TerminalGinPlayer
from meldsat.cli.play_scores import print_scores, signed
from meldsat.cli.render import console, print_table, render_meld, render_table
from meldsat.cli.simulate import GameRulesOption, HintTimeOption, SeedOption
from meldsat.cli.terminal import HUMAN, Narrator, QuitGameError, read_line
from meldsat.errors import AmbiguousJokerError, MeldsatError
from meldsat.games.agents import Agent, TurnView
from meldsat.games.bots import DEFAULT_TIME_LIMIT
from meldsat.games.deck import seeded_rng
from meldsat.games.engine import play_game
from meldsat.games.log import Event, GameLog, JsonlLog, NullLog
from meldsat.games.play_input import PLAY_HELP, Word, read_word, table_after_play
from meldsat.games.records import read_pieces, read_table
from meldsat.games.registry import bot_names, family_of, new_agent, new_game
from meldsat.games.table_game import played_pieces, sorted_meld
from meldsat.melds import judge_meld
from meldsat.moves import MoveVerdict, check_move
from meldsat.notation import Meld, Table, sort_pieces
from meldsat.play import Objective, Play
from meldsat.rules import RuleSet
from meldsat.rulesets import get_rules
from meldsat.wording import counted

DEFAULT_PLAYERS = 3


class TerminalPlayer:
    """The person at the terminal, asked through ``ask`` (a prompt in, a line out).

    At each chance to meld the person changes a working copy of the table meld by meld
    (``meldsat.games.play_input``), sees it numbered after every change, and plays it with an
    empty line; ``t`` plays the engine's best play at once.
    """

    name = HUMAN

    def __init__(self, ask: Callable[[str], str], out: Console, time_limit: float) -> None:
        self.ask = ask
        self.out = out
        self.time_limit = time_limit
        # The hand as the narrator last saw it (dealt, or left after a turn) or as last shown,
        # to name the cards drawn since.
        self.held: Counter[Piece] | None = None

    def holds(self, hand: Meld) -> None:
        """The person holds ``hand`` now (a deal, or the end of their turn)."""
        self.held = Counter(hand)

    def _drawn(self, view: TurnView) -> Meld:
        if self.held is None or not view.draws:
            return ()
        fresh = Counter(view.hand)
        fresh.subtract(self.held)
        return tuple(piece for piece, count in fresh.items() for _ in range(max(count, 0)))

    def show(self, view: TurnView, table: Table | None = None) -> None:
        """The table, numbered (``table``: the working copy, its melds marked), and the hand."""
        notation = view.rules.notation
        if table is None:
            print_table(view.table, notation, title="table:", out=self.out)
            hand: Meld = view.hand
        else:
            print_table(
                table, notation, title="your table:", notes=self._notes(view, table), out=self.out
            )
            hand = self._hand_left(view, table)
        line = Text("your hand: ")
        line.append_text(render_meld(hand, notation) if hand else Text("(empty)"))
        points = sum(view.rules.value(piece) for piece in hand)
        line.append(f"  ({counted(points, 'point')}, {counted(len(hand), 'card')})")
        self.out.print(line)

    def _notes(self, view: TurnView, table: Table) -> list[str | None]:
        before = Counter(tuple(sorted_meld(meld)) for meld in view.table)
        notes: list[str | None] = []
        for index, meld in enumerate(table):
            key = tuple(sorted_meld(meld))
            if before[key] > 0:
                before[key] -= 1
                notes.append(None)
            else:
                what = "new" if index >= len(view.table) else "changed"
                legal = _meld_is_legal(meld, view.rules)
                notes.append(what if legal else f"{what}: not a legal meld")
        return notes

    @staticmethod
    def _hand_left(view: TurnView, table: Table) -> Meld:
        left = Counter(view.hand)
        left.subtract(played_pieces(view.table, table))
        return sort_pieces(left.elements())

    def choose_meld(self, view: TurnView) -> Table | None:
        """Ask for changes until the play is legal, ``t`` (the hint), or a draw."""
        drawn = self._drawn(view)
        self.held = Counter(view.hand)
        self.show(view)
        if drawn:
            nth = f" (draw {view.draws} this turn)" if view.draws > 1 else ""
            self.out.print(
                Text("you drew ").append_text(render_meld(drawn, view.rules.notation)).append(nth)
            )
        history: list[Table] = []
        hint: Play | None = None
        while True:
            changed = bool(history)
            prompt = (
                "Enter plays it, u undo, r reset, d draw, t take the hint, ? help: "
                if changed
                else "your play (3+ 8D, n QH KH AH; t take the hint, h hint, d draw, ? help): "
            )
            answer = self.ask(prompt)
            word = read_word(answer)
            table = history[-1] if history else view.table
            if word is Word.QUIT:
                raise QuitGameError
            if word is Word.HELP:
                self.out.print(PLAY_HELP)
            elif word in (Word.HINT, Word.TAKE):
                hint = hint or self._best(view)
                if word is Word.HINT or not hint.found:
                    self._say_hint(view, hint)
                if word is Word.TAKE:
                    return hint.table if hint.found else None
            elif word is Word.DRAW or (word is Word.PLAY and not changed):
                return None
            elif word is Word.PLAY:
                if self._legal(view, table):
                    return table
            elif word in (Word.UNDO, Word.RESET):
                if not history:
                    self.out.print("no changes to undo")
                    continue
                del history[-1 if word is Word.UNDO else 0 :]
                self.show(view, history[-1] if history else None)
                if history:
                    self._status(view, history[-1])
            else:
                try:
                    after = table_after_play(answer, table, view.rules)
                except MeldsatError as error:
                    self.out.print(f"not understood: {error}")
                    continue
                history.append(after)
                self.show(view, after)
                self._status(view, after)

    def _verdict(self, view: TurnView, table: Table) -> MoveVerdict:
        return check_move(view.table, view.hand, table, view.rules, draws=view.draws or None)

    def _status(self, view: TurnView, table: Table) -> None:
        """After a change: whether the play is legal yet, and every reason it is not."""
        verdict = self._verdict(view, table)
        if verdict.legal:
            points = sum(view.rules.value(piece) for piece in played_pieces(view.table, table))
            self.out.print(f"legal: plays {counted(points, 'point')}; Enter plays it")
            return
        self._reasons(verdict, "not legal yet")

    def _legal(self, view: TurnView, table: Table) -> bool:
        """True when the play is legal; otherwise say why."""
        verdict = self._verdict(view, table)
        if not verdict.legal:
            self._reasons(verdict, "illegal")
        return verdict.legal

    def _reasons(self, verdict: MoveVerdict, title: str) -> None:
        self.out.print(f"{title} ({counted(len(verdict.reasons), 'reason')}):")
        for reason in verdict.reasons:
            self.out.print(f"  x {reason.code}: {reason.message}")

    def _best(self, view: TurnView) -> Play:
        from meldsat import best_play

        return best_play(view.position, Objective.POINTS, time_limit=self.time_limit)

    def _say_hint(self, view: TurnView, play: Play) -> None:
        """The engine's best play, the table it leaves (numbered), and how to take it."""
        if not play.found:
            self.out.print(f"hint: no play ({play.status.value.replace('_', ' ')}): meld nothing")
            return
        line = Text("hint: play ")
        line.append_text(render_meld(play.played, view.rules.notation))
        line.append(
            f" ({counted(play.points_played, 'point')},"
            f" {counted(play.hand_points_left, 'point')} left in hand); t plays it."
            " The table after:"
        )
        self.out.print(line)
        print_table(play.table, view.rules.notation, out=self.out)

    def wants_knock(self, view: TurnView) -> bool:
        """Ask whether to knock."""
        answer = self.ask(f"you hold {counted(view.hand_points, 'point')}: knock? (y/n) ")
        if answer.lower() in ("quit", "q"):
            raise QuitGameError
        return answer.lower() in ("y", "yes", "k", "knock")

    def choose_discard(self, view: TurnView) -> Piece:
        """Ask for a card of the hand to discard."""
        self.show(view)
        while True:
            answer = self.ask("discard which card? ")
            if answer.lower() in ("quit", "q"):
                raise QuitGameError
            if answer.lower() in ("help", "?"):
                self.out.print("type a card of your hand, as 9C (or 9♣); q quits")
                continue
            try:
                piece = parse_piece(answer, view.rules.notation)
            except MeldsatError as error:
                self.out.print(f"not understood: {error}")
                continue
            if piece in view.hand:
                return piece
            self.out.print(f"{answer} is not in your hand")


def _meld_is_legal(meld: Meld, rules: RuleSet) -> bool:
    """True when ``meld`` is a legal group or sequence (an ambiguous joker has several ways)."""
    try:
        return judge_meld(meld, rules).legal
    except AmbiguousJokerError:
        return True


class TableNarrator(Narrator):
    """The shared-table games told to the person: who drew and played what, and every hand and
    score at the end of a round. ``person`` (the person's agent) hears of each deal, to name the
    cards it draws."""

    person: TerminalPlayer | None = None

    def _tell(self, hand: list[str]) -> None:
        if self.person is not None:
            self.person.holds(read_pieces(hand, self.rules, "hand"))

    def deal(self, event: Event) -> None:
        """A round begins: the person's agent hears of its dealt hand."""
        super().deal(event)
        if HUMAN in self.seats:
            self._tell(event["hands"][self.seats.index(HUMAN)])

    def turn(self, event: Event) -> None:
        """One line for a turn: what was drawn (the cards, for the person) and played, knocks
        and discards."""
        mine = self.seats[event["seat"]] == HUMAN
        if mine:
            self._tell(event["hand_left"])
        line = Text(f"{self.who(event['seat'])}: ")
        drawn = len(event["drawn"])
        if drawn and mine:
            line.append("drew ").append_text(
                render_meld(read_pieces(event["drawn"], self.rules, "drawn"), self.rules.notation)
            )
        else:
            line.append(f"drew {counted(drawn, 'card')}" if drawn else "no draw")
        if event["played"]:
            line.append(", played ")
            line.append_text(
                render_meld(read_pieces(event["played"], self.rules, "played"), self.rules.notation)
            )
        if event.get("discard"):
            line.append(", discarded ").append_text(self._card(event["discard"]))
        if event.get("knock"):
            line.append(f", knocked with {counted(event['hand_points'], 'point')}")
        if event.get("ends") == "out":
            line.append(", went out")
        self.out.print(line)
        if event["played"]:
            table = read_table(event["table_after"], self.rules, "table_after")
            self.out.print(Text("  table: ").append_text(render_table(table, self.rules.notation)))

    def _card(self, text: str) -> Text:
        return render_meld(read_pieces([text], self.rules, "card"), self.rules.notation)

    def round_end(self, event: Event) -> None:
        """Every hand, the round's scores and the totals, as a table."""
        self.out.print(Text(f"round {event['round']} over", style="bold"))
        hands = [read_pieces(hand, self.rules, "hands") for hand in event["hands"]]
        rows = [
            [
                self.who(seat),
                event["hand_points"][seat],
                signed(event["scores"][seat]),
                event["totals"][seat],
            ]
            for seat in range(len(hands))
        ]
        left = [render_meld(hand, self.rules.notation) if hand else Text("(out)") for hand in hands]
        print_scores(self.out, ["player", "in hand", "round", "total"], rows, left, "cards left")


@dataclass(frozen=True)
class TerminalSeat:
    """How the person plays one kind of game at the terminal, and how its events are told.

    ``person`` makes the person's agent from a line reader, the screen and the hint time limit.
    """

    person: Callable[[Callable[[str], str], Console, float], Agent]
    narrator: type[Narrator]


# A family's ``shared_table`` says which questions its game asks, and so which seat answers them.
TERMINAL_SEATS = {
    True: TerminalSeat(TerminalPlayer, TableNarrator),
    False: TerminalSeat(lambda ask, out, _: TerminalGinPlayer(ask, out), GinNarrator),
}


def play_command(  # noqa: PLR0917 (one argument per command-line option)
    bots: Annotated[
        str,
        typer.Option(
            "--bots", help=f"The other seats' bots, comma-separated ({', '.join(bot_names())})."
        ),
    ] = "greedy-points",
    players: Annotated[
        int | None,
        typer.Option(
            "--players", min=2, help="Players, you included (default 3, or 2 for gin games)."
        ),
    ] = None,
    rules: GameRulesOption = "manipulation",
    seed: SeedOption = 1,
    log: Annotated[str | None, typer.Option("--log", help="Keep the game log (JSONL).")] = None,
    time_limit: HintTimeOption = DEFAULT_TIME_LIMIT,
    house: RuleOption = None,
) -> int:
    """Play a game against bots in the terminal (you are seat 0)."""
    names = [name.strip().lower() for name in bots.split(",") if name.strip()] or ["greedy-points"]
    if players is None:
        preset = get_rules(rules)
        players = min(max(DEFAULT_PLAYERS, preset.min_players), preset.max_players)
    get_rules(rules, players)  # a count the rule set cannot seat fails before a list that size
    others = names * (players - 1) if len(names) == 1 else names
    if len(others) != players - 1:
        raise MeldsatError(
            f"--bots '{bots}' names {counted(len(names), 'bot')} for "
            f"{counted(players - 1, 'other seat')}"
        )
    game = new_game(rules, players, house=house_options(house))
    terminal = TERMINAL_SEATS[family_of(rules).shared_table]
    out = console()
    seats = [HUMAN, *others]
    sink: GameLog = NullLog() if log is None else JsonlLog(log)
    agents = [terminal.person(read_line, out, time_limit)]
    agents.extend(
        new_agent(rules, name, seeded_rng(seed, 1, "bot", seat), time_limit)
        for seat, name in enumerate(others, start=1)
    )
    narrator = terminal.narrator(sink, game.rules, seats, out)
    if isinstance(narrator, TableNarrator) and isinstance(agents[0], TerminalPlayer):
        narrator.person = agents[0]
    try:
        play_game(game, agents, seats, seed=seed, log=narrator)
    except QuitGameError:
        out.print("game abandoned")
    finally:
        if isinstance(sink, JsonlLog):
            sink.close()
    return 0
