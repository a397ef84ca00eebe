"""The ASGI application: the JSON API, its OpenAPI description, and the page.

Safety, by default (``meldsat.web.limits``, docs/WEB.md "Limits"): a request body larger than
``Limits.max_body_bytes``, or holding over ``Limits.max_tokens`` words of card text, is refused
(413) before any work; the answers run in two lanes of worker threads (``meldsat.web.lanes``),
one for the solving endpoints and one for the quick ones, so the event loop keeps answering and a
quick answer never waits behind a solve; a full lane answers 503; a request whose client goes
away is dropped (its solve stopped); an answer over ``Limits.max_answer_bytes`` is refused (413);
every failure is the error object with a 4xx or 5xx status, never a traceback (an unexpected
error is logged on the server's stderr), and every response says ``nosniff``. What a connection
may cost in time (slow senders, unread answers) is bounded below the app, in
``meldsat.web.server``.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from importlib.resources import files
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Scope, Send
from starlette.types import Receive as ASGIReceive

from meldsat.answers.jsonform import error_json, to_json
from meldsat.cardart import CARD_CSS
from meldsat.errors import MeldsatError, NotationError, quote
from meldsat.games.session_store import SessionStore
from meldsat.jsonload import load_object
from meldsat.web import answers
from meldsat.web.games_api import GamesApi
from meldsat.web.lanes import BusyError, ClientGoneError, Lane
from meldsat.web.limits import MESSAGE_CHARS, Limits
from meldsat.web.openapi import openapi_document

_LOG = logging.getLogger("meldsat.web")
_STATIC = files("meldsat.web") / "static"
# The page loads nothing from elsewhere; its drawings are inline SVG from this server's answers.
_PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
_NOSNIFF = {"X-Content-Type-Options": "nosniff"}
_STATIC_TYPES = {
    "app.js": "text/javascript; charset=utf-8",
    "gin.js": "text/javascript; charset=utf-8",
    "puzzle.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "game.js": "text/javascript; charset=utf-8",
    "game.css": "text/css; charset=utf-8",
}


class RequestError(Exception):
    """A request refused before it reaches the library: its HTTP status and error object."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


def create_app(limits: Limits | None = None) -> Starlette:
    """The application with ``limits`` (the documented defaults when not given)."""
    api = Api(limits or Limits())
    # A new part of the server adds its list here: ``*its_routes(api)``, built with ``api``'s
    # helpers (``api.solving``, ``api.quick``, ``api.body``, ``api.respond``), bound by the same
    # limits and lanes.
    games = GamesApi(
        SessionStore(), api.limits.time_limit, api.in_solve_lane, api.body, RequestError
    )
    routes = [*_page_routes(), *_api_routes(api), *games.routes()]
    # A client gone in a route that does not catch it is still one quiet line (these handlers
    # run inside the app; only the one for Exception runs where Starlette re-raises).
    handlers = {
        HTTPException: _http_error,
        ClientGoneError: _client_gone,
        ClientDisconnect: _client_gone,
        Exception: _unexpected_error,
    }
    app = Starlette(
        routes=routes,
        exception_handlers=handlers,
        middleware=[Middleware(SafeHeaders)],
        lifespan=_warm_up,
    )
    app.state.api = api  # its lanes' ``admitted`` counts tell how many requests hold or wait
    return app


def _page_routes() -> list[Route]:
    return [
        Route("/", _page, methods=["GET"]),
        Route("/static/{name}", _static, methods=["GET"]),
        Route("/cards.css", _card_css, methods=["GET"]),
        Route("/api/openapi.json", _openapi, methods=["GET"]),
    ]


def _api_routes(api: Api) -> list[Route]:
    return [
        Route("/api/validate", api.quick(answers.validate_answer), methods=["POST"]),
        Route("/api/check", api.quick(answers.check_answer), methods=["POST"]),
        Route("/api/hint", api.solving(api.hint), methods=["POST"]),
        Route("/api/deadwood", api.quick(answers.deadwood_answer), methods=["POST"]),
        Route("/api/layoff", api.quick(answers.layoff_answer), methods=["POST"]),
        Route("/api/puzzle/generate", api.capped(answers.puzzle_generate_answer), methods=["POST"]),
        Route("/api/puzzle/solve", api.capped(answers.puzzle_solve_answer), methods=["POST"]),
        Route("/api/puzzle/grade", api.capped(answers.puzzle_grade_answer), methods=["POST"]),
        Route("/api/puzzle/check", api.capped(answers.puzzle_check_answer), methods=["POST"]),
        Route("/api/rules", guarded(api.rules), methods=["GET"]),
        Route("/api/rules/{name}", guarded(api.rule_set), methods=["GET"]),
        Route("/api/cards", guarded(api.cards), methods=["GET"]),
    ]


@contextlib.asynccontextmanager
async def _warm_up(app: Starlette) -> AsyncIterator[None]:
    """Load the engine (OR-Tools, a second or so) at start-up, not in the first player's request."""
    await anyio.to_thread.run_sync(importlib.import_module, "meldsat.engine.search")
    yield


T = TypeVar("T")
Answer = Callable[..., dict[str, Any]]
Endpoint = Callable[[Request], Awaitable[Response]]


class Api:
    """The API endpoints and their helpers, sharing the limits and the two lanes of threads:
    ``solve`` for the answers that run CP-SAT, ``quick`` for the others, so that a quick answer
    never waits behind a solve."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.solve_lane = Lane("solve", limits.workers, limits.queue)
        self.quick_lane = Lane("quick", limits.quick_workers, limits.quick_queue)

    def hint(self, data: dict[str, Any], *, draw: bool) -> dict[str, Any]:
        return answers.hint_answer(data, self.limits.time_limit, draw=draw)

    def capped(self, answer: Answer) -> Endpoint:
        """A POST endpoint whose answer solves, its time capped by the server's limit."""
        return self.solving(partial(answer, time_cap=self.limits.time_limit))

    def solving(self, answer: Answer) -> Endpoint:
        """A POST endpoint whose answer runs the solver: the body, answered in the solve lane."""
        return self._post(answer, self.solve_lane)

    def quick(self, answer: Answer) -> Endpoint:
        """A POST endpoint answered without the solver: the body, answered in the quick lane."""
        return self._post(answer, self.quick_lane)

    def _post(self, answer: Answer, lane: Lane) -> Endpoint:
        async def handle(request: Request) -> Response:
            draw = query(request, {"draw": flag})["draw"] or False
            data = await self.body(request)
            return self.respond(await self.run(lane, request, partial(answer, data, draw=draw)))

        return guarded(handle)

    async def body(self, request: Request) -> dict[str, Any]:
        """The request's JSON object, read within the body limits (413, 408, 400)."""
        data = await _read_json(request, self.limits.max_body_bytes)
        check_tokens(data, self.limits.max_tokens)
        return data

    async def run(self, lane: Lane, request: Request, work: Callable[[], T]) -> T:
        """``work()`` in ``lane``, dropped if the client goes (:class:`ClientGoneError`)."""
        return await lane.run(work, request.receive)

    async def in_solve_lane(self, work: Callable[[], T]) -> T:
        """``work()`` in the solve lane, for a part of the server that passes work without its
        request (the game sessions): the request being answered is watched all the same; a full
        lane is a :class:`RequestError` (503, busy)."""
        try:
            return await self.solve_lane.run(work, _RECEIVE.get() or _never)
        except BusyError as error:
            raise RequestError(503, "busy", str(error)) from None

    def respond(self, content: dict[str, Any], status: int = 200) -> Response:
        """The JSON answer, refused (413) if it is over the answer limit."""
        body = to_json(content).encode("ascii")
        if len(body) > self.limits.max_answer_bytes:
            raise RequestError(
                413,
                "too_large",
                f"the answer would be over {self.limits.max_answer_bytes} bytes: "
                "ask about a smaller position",
            )
        return Response(body, status_code=status, media_type="application/json")

    async def rules(self, request: Request) -> Response:
        query(request, {})
        return self.respond(answers.rules_answer())

    async def rule_set(self, request: Request) -> Response:
        name = request.path_params["name"]
        players = query(request, {"players": whole_number})["players"]
        return self.respond(answers.rule_set_answer(name, players))

    async def cards(self, request: Request) -> Response:
        rules_name = query(request, {"rules": text})["rules"] or ""
        return self.respond(answers.cards_answer(rules_name))


def guarded(handle: Endpoint) -> Endpoint:
    """``handle`` with every refusal as its error object: a bad request, a library error, a full
    lane; a client gone is one quiet line in the log and no answer."""

    async def guarded_handle(request: Request) -> Response:
        try:
            return await handle(request)
        except RequestError as error:
            return _json(error.status, error_json(error.code, _message(error)))
        except MeldsatError as error:
            return _bad_input(error)
        except BusyError as error:
            return _json(503, error_json("busy", str(error)))
        except (ClientGoneError, ClientDisconnect) as error:
            return await _client_gone(request, error)

    return guarded_handle


async def _client_gone(request: Request, error: Exception) -> Response:
    _LOG.warning("client gone before its answer: %s %s", request.method, request.url.path)
    return Response(status_code=499)  # never sent: the connection is closed


def query(request: Request, parsers: dict[str, Callable[[str, str], Any]]) -> dict[str, Any]:
    """The query parameters this endpoint takes, each read by its parser (``None`` if absent);
    an unknown, repeated or malformed parameter is refused (400, naming it)."""
    for name in request.query_params:
        if name not in parsers:
            expected = ", ".join(parsers) or "none"
            raise RequestError(
                400, "bad_parameter", f"unknown query parameter {quote(name)} (expected {expected})"
            )
        if len(request.query_params.getlist(name)) > 1:
            raise RequestError(400, "bad_parameter", f"query parameter {quote(name)} given twice")
    return {
        name: None if name not in request.query_params else parse(name, request.query_params[name])
        for name, parse in parsers.items()
    }


def flag(name: str, value: str) -> bool:
    """A yes/no query parameter: ``1``/``true`` or ``0``/``false``."""
    if value not in {"1", "true", "0", "false"}:
        raise RequestError(
            400, "bad_parameter", f"bad {name} {quote(value)} (expected 1, true, 0 or false)"
        )
    return value in {"1", "true"}


def whole_number(name: str, value: str) -> int:
    """A whole-number query parameter, in ASCII digits (``²`` is a digit to Python, not to us)."""
    if not (value.isascii() and value.isdigit()) or len(value) > 6:
        raise RequestError(
            400, "bad_parameter", f"bad {name} {quote(value)} (expected a whole number)"
        )
    return int(value)


def text(name: str, value: str) -> str:
    """A text query parameter, taken as it is (the library names it if it is no good)."""
    return value


def check_tokens(data: Any, limit: int) -> None:
    """Refuse a body whose card text holds over ``limit`` tokens (cards, ``|`` and other words):
    the work of the quick answers and the size of every answer grow with it."""
    count = 0
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            count += len(value.replace("|", " | ").split())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
        if count > limit:
            raise RequestError(
                413, "too_large", f"the request holds over {limit} cards and other words"
            )


def _bad_input(error: MeldsatError) -> Response:
    # Each library error class carries its own stable code; "bad_input" is the general one.
    return _json(422, error_json(error.code, _message(error)))


async def _read_json(request: Request, limit: int) -> dict[str, Any]:
    """The body as a JSON object, refused (413) as soon as it grows past ``limit`` bytes."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise RequestError(413, "too_large", f"the request body is over {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > limit:
            raise RequestError(413, "too_large", f"the request body is over {limit} bytes")
    # The same strict reader as the command line's: no NaN, no duplicate keys, bounded depth.
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RequestError(400, "bad_json", f"the body is not JSON: {_one_line(error)}") from None
    try:
        return load_object(text, "the body")
    except NotationError as error:
        raise RequestError(400, "bad_json", f"the body: {_one_line(error)}") from None


def _message(error: BaseException) -> str:
    """The error's one line, cut short: a message never repeats a request's whole text."""
    line = _one_line(error)
    return line if len(line) <= MESSAGE_CHARS else line[: MESSAGE_CHARS - 3] + "..."


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


def _json(status: int, content: dict[str, Any]) -> Response:
    # The commands' strict writer: plain ASCII whatever the suit symbols or the input hold. The
    # header is set here too for the 500 answer, which Starlette sends past the middleware.
    return Response(
        to_json(content), status_code=status, media_type="application/json", headers=_NOSNIFF
    )


class SafeHeaders:
    """ASGI middleware: every response says ``X-Content-Type-Options: nosniff`` (a browser must
    not read an answer as a page or a script whatever its content). It also notes the request's
    ``receive``, so that work run without the request at hand (:meth:`Api.in_solve_lane`) still
    has its client's disconnect watched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: ASGIReceive, send: Send) -> None:
        async def send_safe(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("x-content-type-options", "nosniff")
            await send(message)

        noted = _RECEIVE.set(receive)
        try:
            await self.app(scope, receive, send_safe)
        finally:
            _RECEIVE.reset(noted)


# The ASGI ``receive`` of the request being answered (set by SafeHeaders, per request task).
_RECEIVE: contextvars.ContextVar[ASGIReceive | None] = contextvars.ContextVar(
    "meldsat_web_receive", default=None
)


async def _never() -> Message:
    """A client that never says anything (no request at hand to watch)."""
    await anyio.sleep_forever()
    raise AssertionError("unreachable")


async def _http_error(request: Request, error: Exception) -> Response:
    status = error.status_code if isinstance(error, HTTPException) else 500
    code = {404: "not_found", 405: "method_not_allowed"}.get(status, "http_error")
    message = error.detail if isinstance(error, HTTPException) else "error"
    return _json(status, error_json(code, f"{request.url.path}: {message}"))


async def _unexpected_error(request: Request, error: Exception) -> Response:
    # The traceback goes to the server's log, never to the client.
    _LOG.error("unexpected error on %s", request.url.path, exc_info=error)
    return _json(500, error_json("internal", "internal error: see the server log"))


async def _page(request: Request) -> Response:
    page = (_STATIC / "index.html").read_text(encoding="utf-8")
    return Response(page, media_type="text/html; charset=utf-8", headers=_PAGE_HEADERS)


async def _static(request: Request) -> Response:
    name = request.path_params["name"]
    media_type = _STATIC_TYPES.get(name)
    if media_type is None:  # only the page's own files, never a path taken from the request
        raise HTTPException(404, "no such file")
    text = (_STATIC / name).read_text(encoding="utf-8")
    return Response(text, media_type=media_type, headers=_PAGE_HEADERS)


async def _card_css(request: Request) -> Response:
    return Response(CARD_CSS, media_type="text/css; charset=utf-8", headers=_PAGE_HEADERS)


async def _openapi(request: Request) -> Response:
    return _json(200, openapi_document())
