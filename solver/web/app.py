"""The ASGI application: the JSON API, its OpenAPI description, and the page.

Safety, by default: a request body larger than ``Limits.max_body_bytes`` is refused (413) before it
is read whole; solving runs in worker threads (``Limits.workers`` at a time, CP-SAT releases the
interpreter lock while it searches) so the event loop keeps answering; at most ``Limits.queue``
requests wait for a worker, beyond that the answer is 503; every failure is the error object with a
4xx or 5xx status, never a traceback (an unexpected error is logged on the server's stderr).
"""

from __future__ import annotations

import contextlib
import importlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from importlib.resources import files
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from meldsat.answers.jsonform import error_json, to_json
from meldsat.cardart import CARD_CSS
from meldsat.errors import MeldsatError, NotationError
from meldsat.jsonload import load_object
from meldsat.web import answers
from meldsat.web.limits import Limits
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
_STATIC_TYPES = {
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}


class RequestError(Exception):
    """A request refused before it reaches the library: its HTTP status and error object."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


def create_app(limits: Limits | None = None) -> Starlette:
    """The application with ``limits`` (the documented defaults when not given)."""
    api = _Api(limits or Limits())
    routes = [
        Route("/", _page, methods=["GET"]),
        Route("/static/{name}", _static, methods=["GET"]),
        Route("/cards.css", _card_css, methods=["GET"]),
        Route("/api/validate", api.endpoint(answers.validate_answer), methods=["POST"]),
        Route("/api/check", api.endpoint(answers.check_answer), methods=["POST"]),
        Route("/api/hint", api.endpoint(api.hint), methods=["POST"]),
        Route("/api/deadwood", api.endpoint(answers.deadwood_answer), methods=["POST"]),
        Route("/api/layoff", api.endpoint(answers.layoff_answer), methods=["POST"]),
        Route("/api/puzzle/solve", api.capped(answers.puzzle_solve_answer), methods=["POST"]),
        Route("/api/puzzle/grade", api.capped(answers.puzzle_grade_answer), methods=["POST"]),
        Route("/api/puzzle/check", api.capped(answers.puzzle_check_answer), methods=["POST"]),
        Route("/api/rules", api.rules, methods=["GET"]),
        Route("/api/rules/{name}", api.rule_set, methods=["GET"]),
        Route("/api/cards", api.cards, methods=["GET"]),
        Route("/api/openapi.json", _openapi, methods=["GET"]),
    ]
    handlers = {HTTPException: _http_error, Exception: _unexpected_error}
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=_warm_up)
    app.state.api = api  # its ``admitted`` count tells how many requests hold or wait for a worker
    return app


@contextlib.asynccontextmanager
async def _warm_up(app: Starlette) -> AsyncIterator[None]:
    """Load the engine (OR-Tools, a second or so) at start-up, not in the first player's request."""
    await anyio.to_thread.run_sync(importlib.import_module, "meldsat.engine.search")
    yield


Answer = Callable[..., dict[str, Any]]


class _Api:
    """The API endpoints, sharing the limits and the bounded pool of solving threads."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.workers = anyio.CapacityLimiter(limits.workers)
        self.admitted = 0

    def hint(self, data: dict[str, Any], *, draw: bool) -> dict[str, Any]:
        return answers.hint_answer(data, self.limits.time_limit, draw=draw)

    def capped(self, answer: Answer) -> Callable[[Request], Awaitable[Response]]:
        """A POST endpoint whose answer solves, its time capped by the server's limit."""
        return self.endpoint(partial(answer, time_cap=self.limits.time_limit))

    def endpoint(self, answer: Answer) -> Callable[[Request], Awaitable[Response]]:
        """A POST endpoint: read the JSON body, answer it in a worker thread."""

        async def handle(request: Request) -> Response:
            try:
                data = await _read_json(request, self.limits.max_body_bytes)
                draw = request.query_params.get("draw") in {"1", "true"}
                return _json(200, await self._in_pool(partial(answer, data, draw=draw)))
            except RequestError as error:
                return _json(error.status, error_json(error.code, str(error)))
            except MeldsatError as error:
                return _bad_input(error)

        return handle

    async def _in_pool(self, work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        if self.admitted >= self.limits.workers + self.limits.queue:
            raise RequestError(503, "busy", "the server is busy: try again in a moment")
        self.admitted += 1
        try:
            return await anyio.to_thread.run_sync(work, limiter=self.workers)
        finally:
            self.admitted -= 1

    async def rules(self, request: Request) -> Response:
        return _json(200, answers.rules_answer())

    async def rule_set(self, request: Request) -> Response:
        name, players = request.path_params["name"], request.query_params.get("players")
        return _answer_now(lambda: answers.rule_set_answer(name, players))

    async def cards(self, request: Request) -> Response:
        rules_name = request.query_params.get("rules", "")
        return _answer_now(lambda: answers.cards_answer(rules_name))


def _answer_now(answer: Callable[[], dict[str, Any]]) -> Response:
    """A quick answer computed on the event loop (no solving), or the error object."""
    try:
        return _json(200, answer())
    except MeldsatError as error:
        return _bad_input(error)


def _bad_input(error: MeldsatError) -> Response:
    # Each library error class carries its own stable code; "bad_input" is the general one.
    return _json(422, error_json(error.code, _one_line(error)))


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


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


def _json(status: int, content: dict[str, Any]) -> Response:
    # The commands' strict writer: plain ASCII whatever the suit symbols or the input hold.
    return Response(to_json(content), status_code=status, media_type="application/json")


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
