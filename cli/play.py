"""``meldsat play``: a person against bots in the terminal, the table and hand drawn with suits.

The person sits at seat 0. At each chance to meld they type a play (see ``help``), ``hint`` for
the engine's best play, or ``draw`` (or an empty line) to meld nothing; an illegal play is refused
with every reason the rule checker gives. Every turn goes through the same game engine and rule
checks as a simulation, and ``--log`` keeps the game log for ``meldsat replay``. The gin games
have their own turn (draw, discard, knock): ``meldsat.cli.play_gin``.
"""

from __future__ import annotations

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
from meldsat.cli.render import console, print_table, render_meld, render_table
from meldsat.cli.simulate import GameRulesOption, HintTimeOption, SeedOption
from meldsat.cli.terminal import HUMAN, Narrator, QuitGameError, read_line
from meldsat.errors import MeldsatError
from meldsat.games.agents import Agent, TurnView
from meldsat.games.bots import DEFAULT_TIME_LIMIT
from meldsat.games.deck import seeded_rng
from meldsat.games.engine import play_game
from meldsat.games.log import Event, GameLog, JsonlLog, NullLog
from meldsat.games.play_input import PLAY_HELP, table_after_play
from meldsat.games.records import read_pieces, read_table
from meldsat.games.registry import bot_names, family_of, new_agent, new_game
from meldsat.moves import check_move
from meldsat.notation import Table, format_table
from meldsat.play import Objective
from meldsat.rulesets import get_rules
from meldsat.wording import counted

DEFAULT_PLAYERS = 3


class TerminalPlayer:
    """The person at the terminal, asked through ``ask`` (a prompt in, a line out)."""

    name = HUMAN

    def __init__(self, ask: Callable[[str], str], out: Console, time_limit: float) -> None:
        self.ask = ask
        self.out = out
        self.time_limit = time_limit

    def show(self, view: TurnView) -> None:
        """The table, numbered, and the hand."""
        notation = view.rules.notation
        print_table(view.table, notation, title="table:", out=self.out)
        line = Text("your hand: ")
        line.append_text(render_meld(view.hand, notation))
        line.append(f"  ({view.hand_points} points, {len(view.hand)} cards)")
        self.out.print(line)

    def choose_meld(self, view: TurnView) -> Table | None:
        """Ask for a play until it is legal, or ``draw``."""
        self.show(view)
        drew = f"drew {view.draws}, " if view.draws else ""
        while True:
            answer = self.ask(f"{drew}your play (draw, hint, help, quit): ")
            word = answer.lower()
            if word in ("", "draw", "d", "pass"):
                return None
            if word in ("quit", "q"):
                raise QuitGameError
            if word in ("help", "?"):
                self.out.print(PLAY_HELP)
                continue
            if word in ("hint", "h"):
                self.hint(view)
                continue
            table = self.legal_table(answer, view)
            if table is not None:
                return table

    def legal_table(self, answer: str, view: TurnView) -> Table | None:
        """The table the answer makes, if the play is legal; otherwise say why and return None."""
        try:
            after = table_after_play(answer, view.table, view.rules)
            verdict = check_move(view.table, view.hand, after, view.rules, draws=view.draws or None)
        except MeldsatError as error:
            self.out.print(f"not understood: {error}")
            return None
        if verdict.legal:
            return tuple(meld.pieces for meld in verdict.table.melds)
        self.out.print(f"illegal ({counted(len(verdict.reasons), 'reason')}):")
        for reason in verdict.reasons:
            self.out.print(f"  x {reason.code}: {reason.message}")
        return None

    def hint(self, view: TurnView) -> None:
        """The engine's best play and the line that plays it."""
        from meldsat import best_play

        play = best_play(view.position, Objective.POINTS, time_limit=self.time_limit)
        if not play.found:
            self.out.print(f"hint: no play ({play.status.value.replace('_', ' ')}): draw")
            return
        line = Text("hint: play ")
        line.append_text(render_meld(play.played, view.rules.notation))
        line.append(f" ({play.points_played} points, {play.hand_points_left} left in hand)")
        self.out.print(line)
        self.out.print(f"  type: table: {format_table(play.table, view.rules.notation)}")

    def wants_knock(self, view: TurnView) -> bool:
        """Ask whether to knock."""
        answer = self.ask(f"you hold {view.hand_points} points: knock? (y/n) ")
        if answer.lower() in ("quit", "q"):
            raise QuitGameError
        return answer.lower().startswith("y")

    def choose_discard(self, view: TurnView) -> Piece:
        """Ask for a card of the hand to discard."""
        self.show(view)
        while True:
            answer = self.ask("discard which card? ")
            if answer.lower() in ("quit", "q"):
                raise QuitGameError
            try:
                piece = parse_piece(answer, view.rules.notation)
            except MeldsatError as error:
                self.out.print(f"not understood: {error}")
                continue
            if piece in view.hand:
                return piece
            self.out.print(f"{answer} is not in your hand")


class TableNarrator(Narrator):
    """The shared-table games told to the person: who drew and played what, and every hand at
    the end of a round."""

    def turn(self, event: Event) -> None:
        """One line for a turn: what was drawn and played, knocks and discards."""
        line = Text(f"{self.who(event['seat'])}: ")
        drawn = len(event["drawn"])
        line.append(f"drew {drawn}" if drawn else "no draw")
        if event["played"]:
            line.append(", played ")
            line.append_text(
                render_meld(read_pieces(event["played"], self.rules, "played"), self.rules.notation)
            )
        if event.get("discard"):
            line.append(f", discarded {event['discard']}")
        if event.get("knock"):
            line.append(f", knocked with {event['hand_points']} points")
        if event.get("ends") == "out":
            line.append(", went out")
        self.out.print(line)
        if event["played"]:
            table = read_table(event["table_after"], self.rules, "table_after")
            self.out.print(Text("  table: ").append_text(render_table(table, self.rules.notation)))

    def round_end(self, event: Event) -> None:
        """Every hand, the round's scores and the totals."""
        self.out.print(Text("round over", style="bold"))
        for seat, hand in enumerate(event["hands"]):
            line = Text(f"  {self.who(seat)}: ")
            pieces = read_pieces(hand, self.rules, "hands")
            line.append_text(render_meld(pieces, self.rules.notation) if pieces else Text("(out)"))
            line.append(
                f"  {event['hand_points'][seat]} points in hand, scores {event['scores'][seat]},"
                f" total {event['totals'][seat]}"
            )
            self.out.print(line)


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
    sink: GameLog = JsonlLog(log) if log else NullLog()
    agents = [terminal.person(read_line, out, time_limit)]
    agents.extend(
        new_agent(rules, name, seeded_rng(seed, 1, "bot", seat), time_limit)
        for seat, name in enumerate(others, start=1)
    )
    narrator = terminal.narrator(sink, game.rules, seats, out)
    try:
        play_game(game, agents, seats, seed=seed, log=narrator)
    except QuitGameError:
        out.print("game abandoned")
    finally:
        if isinstance(sink, JsonlLog):
            sink.close()
    return 0
