"""The game sessions' endpoints: a person plays a whole game against bots, one request a step.

``POST /api/games`` starts a game (201), ``GET /api/games/{id}`` is the person's view,
``POST /api/games/{id}/turn`` plays the person's decision for this step (or ``{"hint": true}``)
and then the bots until the person is asked again, ``GET /api/games/{id}/hint`` is the advice for
this step, ``GET /api/games/{id}/log`` the finished game's log. The game itself is
:class:`meldsat.games.session.GameSession`; this module only reads requests and writes answers.

Limits (docs/WEB.md): at most ``max_games`` sessions, each forgotten after ``idle_seconds``
without a request; each solve of a bot gets half the server's time limit (a bot's turn solves
twice at most), a hint the whole of it; a session answers one request at a time (409 otherwise).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from meldsat.answers.jsonform import error_json, to_json
from meldsat.errors import MeldsatError
from meldsat.games.registry import game_rule_sets
from meldsat.games.session import GameSession
from meldsat.games.session_steps import IllegalStepError
from meldsat.games.session_store import (
    SessionStore,
    TooManyGamesError,
    default_players,
    game_catalogue,
    seeded,
)
from meldsat.rulesets import get_rules
from meldsat.schema import SCHEMA_VERSION

Work = Callable[[], dict[str, Any]]
DEFAULT_BOT = "greedy-points"


class GameRequestError(Exception):
    """A game request refused: its HTTP status, code and message (and every reason, if any)."""

    def __init__(self, status: int, code: str, message: str, reasons: list[Any] | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.reasons = reasons


class GamesApi:
    """The game endpoints over one :class:`SessionStore`.

    ``run`` answers a piece of work in the server's pool of solving threads, ``read_json`` reads
    a request's body; both are the server's own, so the games share its limits. ``refused`` is
    the exception class they raise (with ``status`` and ``code``).
    """

    def __init__(
        self,
        store: SessionStore,
        time_limit: float,
        run: Callable[[Work], Awaitable[dict[str, Any]]],
        read_json: Callable[[Request], Awaitable[dict[str, Any]]],
        refused: type[Exception],
    ) -> None:
        self.store = store
        self.time_limit = time_limit
        self.run = run
        self.read_json = read_json
        self.refused = refused

    def routes(self) -> list[Route]:
        """The routes to mount."""
        return [
            Route("/api/games", self.create, methods=["POST"]),
            Route("/api/games", self.catalogue, methods=["GET"]),
            Route("/api/games/{id}", self.show, methods=["GET"]),
            Route("/api/games/{id}/turn", self.turn, methods=["POST"]),
            Route("/api/games/{id}/hint", self.hint, methods=["GET"]),
            Route("/api/games/{id}/log", self.log, methods=["GET"]),
        ]

    async def _answer(self, status: int, work: Callable[[], Awaitable[dict[str, Any]]]) -> Response:
        try:
            return _json(status, await work())
        except GameRequestError as error:
            body = error_json(error.code, str(error))
            if error.reasons is not None:
                body["error"]["reasons"] = error.reasons
            return _json(error.status, body)
        except IllegalStepError as error:
            reasons = [{"code": r.code, "message": r.message} for r in error.reasons]
            body = error_json(error.code, " ".join(str(error).split()))
            body["error"]["reasons"] = reasons
            return _json(422, body)
        except TooManyGamesError as error:
            return _json(503, error_json(error.code, str(error)))
        except MeldsatError as error:
            return _json(422, error_json(error.code, " ".join(str(error).split())))
        except self.refused as error:
            status, code = getattr(error, "status", 400), getattr(error, "code", "bad_request")
            return _json(status, error_json(code, str(error)))

    async def catalogue(self, request: Request) -> Response:
        return _json(200, {"schema_version": SCHEMA_VERSION, "games": game_catalogue()})

    async def create(self, request: Request) -> Response:
        async def work() -> dict[str, Any]:
            data = await self.read_json(request)
            make = partial(self._new_session, data)

            def start() -> dict[str, Any]:
                session_id, session = self.store.add(make)
                return _game(session_id, session, session.events)

            return await self.run(start)

        return await self._answer(201, work)

    def _new_session(self, data: dict[str, Any]) -> GameSession:
        rules_name = data.get("rules", "manipulation")
        if not isinstance(rules_name, str):
            raise MeldsatError("'rules' must be a rule set's name")
        if get_rules(rules_name).name not in game_rule_sets():
            raise MeldsatError(
                f"no game is played under '{rules_name}' (games: {', '.join(game_rule_sets())})"
            )
        players = data.get("players")
        if players is None:
            players = default_players(rules_name)
        if not isinstance(players, int) or isinstance(players, bool):
            raise MeldsatError("'players' must be a number")
        get_rules(rules_name, players)  # a count the rule set cannot seat fails here
        bots = data.get("bots", DEFAULT_BOT)
        if isinstance(bots, str):
            bots = [bots] * (players - 1)
        if not isinstance(bots, list) or not all(isinstance(name, str) for name in bots):
            raise MeldsatError("'bots' must be a bot's name or a list of them")
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise MeldsatError("'seed' must be a whole number")
        house = data.get("house", {})
        if not isinstance(house, dict):
            raise MeldsatError("'house' must be an object of house rules (NAME: value)")
        return GameSession(
            rules_name,
            players,
            [name.strip().lower() for name in bots],
            seeded(seed),
            house=house,
            bot_time_limit=self.time_limit / 2,
            hint_time_limit=self.time_limit,
        )

    def _session(self, request: Request) -> Any:
        entry = self.store.entry(request.path_params["id"])
        if entry is None:
            raise GameRequestError(404, "not_found", "no such game (unknown, or idle too long)")
        return entry

    async def show(self, request: Request) -> Response:
        async def work() -> dict[str, Any]:
            entry = self._session(request)
            with _holding(entry.lock):  # never a view half-way through the bots' turns
                return _game(request.path_params["id"], entry.session)

        return await self._answer(200, work)

    async def turn(self, request: Request) -> Response:
        async def work() -> dict[str, Any]:
            entry = self._session(request)
            data = await self.read_json(request)
            if entry.session.over:
                raise GameRequestError(409, "game_over", "the game is over")

            def play() -> dict[str, Any]:
                with _holding(entry.lock):
                    events = entry.session.play(data)
                    return _game(request.path_params["id"], entry.session, events)

            return await self.run(play)

        return await self._answer(200, work)

    async def hint(self, request: Request) -> Response:
        async def work() -> dict[str, Any]:
            entry = self._session(request)
            if entry.session.over:
                raise GameRequestError(409, "game_over", "the game is over")

            def advise() -> dict[str, Any]:
                with _holding(entry.lock):
                    hint = entry.session.hint()
                return {
                    "schema_version": SCHEMA_VERSION,
                    "id": request.path_params["id"],
                    "hint": hint.to_json(),
                }

            return await self.run(advise)

        return await self._answer(200, work)

    async def log(self, request: Request) -> Response:
        try:
            entry = self._session(request)
        except GameRequestError as error:
            return _json(error.status, error_json(error.code, str(error)))
        if not entry.session.over:
            # The log holds every deal's deck: while the game goes on, it would show the stock.
            message = "the log is given once the game is over (it holds the decks)"
            return _json(409, error_json("game_not_over", message))
        name = f"meldsat-{entry.session.rules.name}-{entry.session.seed}.jsonl"
        return Response(
            entry.session.log_text(),
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )


class _holding:  # noqa: N801 (used as a with block)
    """Hold a session's lock for one request; a second request meanwhile is refused (409)."""

    def __init__(self, lock: Any) -> None:
        self.lock = lock

    def __enter__(self) -> None:
        if not self.lock.acquire(blocking=False):
            raise GameRequestError(409, "game_busy", "this game is answering another request")

    def __exit__(self, *exc: object) -> None:
        self.lock.release()


def _game(session_id: str, session: GameSession, events: list[Any] | None = None) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "id": session_id,
        "view": session.view_json(),
    }
    if events is not None:
        answer["events"] = events
    return answer


def _json(status: int, content: dict[str, Any]) -> Response:
    return Response(to_json(content), status_code=status, media_type="application/json")
