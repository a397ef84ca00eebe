"""A game played one step at a time: a person at seat 0 answers across calls, bots move between.

The terminal game (``meldsat play``) runs :func:`meldsat.games.engine.play_game`, whose loop asks
each agent its questions and waits for the answers. A front end that answers over several
requests (the web page) cannot wait inside that loop, so a :class:`GameSession` drives the same
game step by step instead: it replays the person's answers so far this turn to the game's own
``choose_turn`` (which never changes the game), and the first question with no answer yet is the
person's :class:`Step`. Each answer is checked when it is given (the move checker for a table,
the gin rules for a discard), so an illegal one is refused with every reason and changes nothing;
once the turn is whole, it is played through ``play_turn`` and logged, and the bots move until
the person is asked again. The log is the one ``meldsat replay`` reads.

A step and how its answer is checked are in :mod:`meldsat.games.session_steps`, the hints in
:mod:`meldsat.games.session_hints`. The session knows nothing of the web:
:class:`~meldsat.games.session_store.SessionStore` keeps sessions bounded in number and forgets
the idle ones; :mod:`meldsat.web.games_api` serves them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meldsat.cards import Card, Piece
from meldsat.errors import MeldsatError
from meldsat.games.agents import Agent, GinView, TurnView
from meldsat.games.deck import seeded_rng
from meldsat.games.engine import (
    Game,
    Record,
    first_dealer,
    game_header,
    round_deck,
)
from meldsat.games.log import Event, dump_event
from meldsat.games.records import pieces_json, table_json
from meldsat.games.registry import family_of, new_agent, new_game
from meldsat.games.session_hints import Hint, advise
from meldsat.games.session_steps import Step, StepKind, read_decision
from meldsat.gin.bits import rank_order

PERSON = "you"


class _Waiting(Exception):  # noqa: N818 (not an error: the turn waits for the person)
    """Raised by the scripted person at the first question it has no answer for."""

    def __init__(self, step: Step) -> None:
        super().__init__(step.kind.value)
        self.step = step


class _ScriptedPerson:
    """The person as an agent: this turn's answers so far, then :class:`_Waiting`."""

    name = PERSON

    def __init__(self, answers: Sequence[object]) -> None:
        self.answers = answers
        self.asked = 0

    def _answer(self, step: Step) -> Any:
        if self.asked == len(self.answers):
            raise _Waiting(step)
        self.asked += 1
        return self.answers[self.asked - 1]

    def choose_meld(self, view: TurnView) -> Any:
        return self._answer(Step(StepKind.MELD, view))

    def wants_knock(self, view: TurnView) -> Any:
        return self._answer(Step(StepKind.KNOCK, view))

    def choose_discard(self, view: TurnView) -> Any:
        return self._answer(Step(StepKind.DISCARD, view))

    def take_upcard(self, view: GinView) -> Any:
        return self._answer(Step(StepKind.DRAW, view))

    def finish_turn(self, view: GinView, drawn: Card, took_upcard: bool) -> Any:
        return self._answer(Step(StepKind.FINISH, view, drawn, took_upcard))


class _LineLog:
    """The game log as compact JSON lines (a third of the memory of the parsed events)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.size = 0

    def write(self, event: Event) -> None:
        line = dump_event(event)
        self.lines.append(line)
        self.size += len(line) + 1


class GameSession:
    """One game between the person (seat 0, :data:`PERSON`) and ``bots`` at the other seats.

    ``bot_time_limit`` caps each solve of a bot (so a bot's turn is bounded), ``hint_time_limit``
    the person's hints. Bots are seeded from ``seed`` as in ``meldsat play``.
    """

    def __init__(
        self,
        rules_name: str,
        players: int,
        bots: Sequence[str],
        seed: int,
        *,
        house: Mapping[str, object] | None = None,
        bot_time_limit: float = 2.5,
        hint_time_limit: float = 5.0,
    ) -> None:
        if len(bots) != players - 1:
            raise MeldsatError(f"{players} players need {players - 1} bots, not {len(bots)}")
        self.game: Game[Any, Any] = new_game(rules_name, players, house=house)
        self.rules = self.game.rules
        self.shared_table = family_of(rules_name).shared_table
        self.seats = [PERSON, *bots]
        self.seed = seed
        self.hint_time_limit = hint_time_limit
        self.agents: list[Agent | None] = [None]
        self.agents.extend(
            new_agent(rules_name, name, seeded_rng(seed, 1, "bot", seat), bot_time_limit)
            for seat, name in enumerate(bots, start=1)
        )
        self.log = _LineLog()
        # What the person may see of the events since the last decision (the log keeps them all).
        self.events: list[Event] = []
        self.answers: list[object] = []
        self.step: Step | None = None
        self.rounds: list[Event] = []
        self.result: Record | None = None
        self.dealer = first_dealer(seed, 1, players)
        self.round_number = 0
        self.turn = 0
        self._hint: tuple[tuple[int, int], Hint] | None = None
        self._write(game_header(self.game, 1, self.seats, seed))
        self._advance()

    # --- the game loop, one step at a time -----------------------------------------------------

    def _write(self, event: Event) -> None:
        self.log.write(event)
        public = self._public(event)
        if public is not None:
            self.events.append(public)

    def _deal(self) -> None:
        self.round_number += 1
        self.turn = 0
        deck = round_deck(self.game, self.seed, 1, self.round_number)
        dealt = self.game.start_round(self.round_number, self.dealer, list(deck))
        self._write(
            {
                "event": "deal",
                "game": 1,
                "round": self.round_number,
                "dealer": self.dealer,
                "deck": pieces_json(deck, self.rules),
                **dealt,
            }
        )

    def _advance(self) -> None:
        """Play until the person is asked something, or the game ends."""
        game = self.game
        while True:
            if self.round_number == 0 or game.round_over:
                if self.round_number:
                    self._write(
                        {
                            "event": "round_end",
                            "game": 1,
                            "round": self.round_number,
                            **game.end_round(),
                        }
                    )
                    self.dealer = game.next_dealer(self.dealer)
                if game.game_over:
                    self.result = game.end_game()
                    self._write({"event": "game_end", "game": 1, **self.result})
                    self.step = None
                    return
                self._deal()
            seat = game.to_move
            agent = self.agents[seat]
            if agent is None:
                try:
                    turn = game.choose_turn(_ScriptedPerson(self.answers))
                except _Waiting as waiting:
                    self.step = waiting.step
                    return
            else:
                turn = game.choose_turn(agent)
            self.answers = []
            self.turn += 1
            record = game.play_turn(turn)
            self._write(
                {
                    "event": "turn",
                    "game": 1,
                    "round": self.round_number,
                    "turn": self.turn,
                    **record,
                }
            )

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.result is not None

    def play(self, body: Mapping[str, Any]) -> list[Event]:
        """The person's decision for this step (or ``{"hint": true}``); the events it led to.

        Raises :class:`IllegalStepError` (every reason) or :class:`MeldsatError` (a body of the
        wrong shape); either way nothing changed.
        """
        step = self.step
        if step is None:
            raise MeldsatError("the game is over")
        if body.get("hint") is True:
            body = self.hint().decision
        answer = read_decision(step, body, self.rules)
        self.events = []
        self.answers.append(answer)
        self._hint = None
        # Every step was checked as it was given, so the whole turn is legal: a game that still
        # refuses it (IllegalTurnError) is a bug, and the server answers 500.
        self._advance()
        new, self.events = self.events, []
        return new

    # --- reading and checking one decision -------------------------------------------------------

    # --- hints -------------------------------------------------------------------------------

    def hint(self) -> Hint:
        """The engine's advice for this step, worked out once (a second ask gives the same)."""
        if self.step is None:
            raise MeldsatError("the game is over")
        key = (len(self.log.lines), len(self.answers))
        if self._hint is None or self._hint[0] != key:
            self._hint = (key, advise(self.step, self.rules, self.hint_time_limit))
        return self._hint[1]

    # --- what the person sees --------------------------------------------------------------------

    def _public(self, event: Event) -> Event | None:
        """The event as the person may see it: no deck, no bot's hidden cards."""
        kind = event["event"]
        if kind == "game":
            return None
        if kind == "deal":
            shown: Event = {key: event[key] for key in ("event", "round", "dealer")}
            for key in ("upcard", "knock_limit", "pool"):
                if key in event:
                    shown[key] = event[key]
            return shown
        if kind != "turn":
            public = {key: value for key, value in event.items() if key != "game"}
            if kind == "round_end":
                self.rounds.append(public)
            return public
        mine = event["seat"] == 0
        shown = {"event": "turn", "round": event["round"], "turn": event["turn"]}
        shown["seat"] = event["seat"]
        shown["player"] = self.seats[event["seat"]]
        if "source" in event:  # gin: the stock card is the drawer's secret
            shown["source"] = event["source"]
            shown["drawn"] = event["drawn"] if mine or event["source"] == "upcard" else None
            shown.update({key: event[key] for key in ("discard", "knock")})
            return shown
        shown["draws"] = len(event["drawn"])
        if mine:
            shown["drawn"] = event["drawn"]
        for key in ("played", "table_after", "discard", "knock", "ends"):
            if key in event:
                shown[key] = event[key]
        return shown

    def view_json(self) -> dict[str, Any]:
        """The person's view: hand, table, the step asked, counts, scores (``over`` at the end)."""
        rules, game, step = self.rules, self.game, self.step
        view: dict[str, Any] = {
            "rules": rules.name,
            "players": rules.players,
            "seats": list(self.seats),
            "you": 0,
            "round": self.round_number,
            "to_move": None if step is None else game.to_move,
            "over": self.over,
            "step": None if step is None else step.kind.value,
        }
        if step is not None and isinstance(step.view, TurnView):
            seen = step.view
            view.update(
                {
                    "table": table_json(seen.table, rules),
                    "hand": pieces_json(seen.hand, rules),
                    "draws": seen.draws,
                    "drawn": self._drawn(seen),
                    "stock_left": seen.stock_left,
                    "hand_sizes": list(seen.hand_sizes),
                    "hand_points": seen.hand_points,
                }
            )
        elif step is not None:
            assert isinstance(step.view, GinView)
            gin, took = step.view, step.took_upcard
            held: list[Card] = [*gin.hand, step.drawn] if step.drawn else list(gin.hand)
            hand = sorted(held, key=rank_order)
            stock_left = gin.stock_left - (step.drawn is not None and not took)
            view.update(
                {
                    "hand": pieces_json(hand, rules),
                    "drawn": [] if step.drawn is None else [str(step.drawn)],
                    "draws": 0 if step.drawn is None else 1,
                    "upcard": None if step.drawn is not None else str(gin.upcard),
                    "took_upcard": took,
                    "stock_left": stock_left,
                    "knock_limit": gin.knock_limit,
                    "hand_sizes": [len(hand), 10],
                }
            )
        elif self.shared_table:  # the game is over: the last table and the hand left
            table_game: Any = game
            view.update(
                {
                    "table": table_json(table_game.table, rules),
                    "hand": pieces_json(table_game.hands[0], rules),
                    "hand_sizes": [len(hand) for hand in table_game.hands],
                }
            )
        else:
            hands: list[list[Card]] = getattr(game, "hands", [[], []])
            view.update(
                {"hand": pieces_json(hands[0], rules), "hand_sizes": [len(h) for h in hands]}
            )
        view["may"] = self._may(step)
        view["totals"] = list(getattr(game, "totals", None) or self._gin_totals())
        view["rounds"] = list(self.rounds)
        view["result"] = self.result
        return view

    def _gin_totals(self) -> list[int]:
        return list(self.rounds[-1]["totals"]) if self.rounds else [0, 0]

    def _drawn(self, view: TurnView) -> list[str]:
        """The cards drawn this turn (the last ``draws`` of the stock, drawn from the end)."""
        stock: list[Piece] = getattr(self.game, "stock", [])
        if not view.draws:
            return []
        drawn = [stock[-step] for step in range(1, view.draws + 1)]
        return pieces_json(drawn, self.rules)

    def _may(self, step: Step | None) -> list[str]:
        """What the person may send now (besides ``{"hint": true}``)."""
        if step is None:
            return []
        return {
            StepKind.MELD: ["table", "table: null"],
            StepKind.KNOCK: ["knock: true", "knock: false"],
            StepKind.DISCARD: ["discard"],
            StepKind.DRAW: ["source: stock", "source: upcard"],
            StepKind.FINISH: ["discard, knock", "discard: null, knock: true (big gin)"],
        }[step.kind]

    def log_text(self) -> str:
        """The game log, one JSON object a line (what ``meldsat replay`` reads)."""
        return "".join(line + "\n" for line in self.log.lines)
