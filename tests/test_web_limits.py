"""The server's limits (docs/WEB.md, "Limits"): bad parameters, sizes, lanes, disconnects, slow
clients, and the headers of every answer.

The connection limits (a slow sender, an answer never read, too many connections) live below the
app, in ``meldsat.web.server``: those tests run a real uvicorn server on loopback with short
limits and talk to it through raw sockets.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
import urllib.parse
import warnings
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Message

from meldsat.engine.solving import SolveStop, SolveStoppedError, new_solver, run_solver
from meldsat.errors import MeldsatError
from meldsat.web import answers
from meldsat.web.app import create_app
from meldsat.web.limits import MESSAGE_CHARS, Limits
from tests.conftest import CliRunner
from tests.test_engine_solving import SAT_ONLY, pigeonhole
from tests.test_web_api import assert_error
from tests.test_web_browser import running_server

WAIT = 20.0  # seconds a test waits for something that should happen at once (never a limit)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(), raise_server_exceptions=False) as test_client:
        yield test_client


# --- bad parameters: a 400 naming them, never a 500 ---------------------------------------------

GETS = ["/api/rules", "/api/rules/manipulation", "/api/cards?rules=gin"]
POSTS = ["/api/validate", "/api/check", "/api/deadwood"]


def ask(client: TestClient, url: str) -> httpx.Response:
    """A GET, or for the POST endpoints a POST with a small position."""
    if httpx.URL(url).path in POSTS:
        response: httpx.Response = client.post(url, json={"table": "QH KH AH", "hand": "2C"})
    else:
        response = client.get(url)
    return response


@pytest.mark.parametrize(
    ("path", "fragments"),
    [
        ("/api/rules/manipulation?players=\u00b2", ["players", "\u00b2"]),
        ("/api/rules/manipulation?players=-2", ["players", "-2"]),
        ("/api/rules/manipulation?players=99999999999999999999", ["players"]),
        ("/api/rules/manipulation?players=2&players=3", ["players", "twice"]),
        ("/api/rules/manipulation?player=2", ["player", "players"]),
        ("/api/rules?x=1", ["'x'"]),
        ("/api/cards?rules=gin&draw=1", ["draw"]),
        ("/api/validate?draw=yes", ["draw", "yes"]),
    ],
)
def test_a_bad_query_parameter_is_400_naming_it(
    client: TestClient, path: str, fragments: list[str]
) -> None:
    assert_error(ask(client, path), 400, "bad_parameter", *fragments)


@settings(max_examples=60, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    path=st.sampled_from(GETS + POSTS),
    name=st.sampled_from(["players", "rules", "draw", "x"]) | st.text(max_size=8),
    # Any text, and numbers in other scripts (Python calls "²" and "٣" digits; int() takes "٣").
    value=st.text(max_size=12) | st.text(st.characters(categories=["Nd", "No"]), max_size=3),
    segment=st.text(max_size=12),
)
def test_no_parameter_is_a_500(path: str, name: str, value: str, segment: str) -> None:
    """Any query parameter on any endpoint, and any rule-set name in the path: an answer or an
    error object (4xx), never a 500."""
    with TestClient(create_app(), raise_server_exceptions=False) as fuzz:
        base = path.replace("manipulation", urllib.parse.quote(segment, safe="") or "x")
        url = httpx.URL(base).copy_merge_params({name: value})
        response = ask(fuzz, str(url))
    assert response.status_code < 500, response.text
    assert response.headers["x-content-type-options"] == "nosniff"


def test_validate_refuses_a_bad_initial(client: TestClient) -> None:
    for initial in ["yes", 1, [True]]:
        body = {"table": "QH KH AH", "initial": initial}
        assert_error(client.post("/api/validate", json=body), 422, "bad_input", "initial")


def test_a_long_unknown_name_is_cut_in_the_message(client: TestClient) -> None:
    name = "x" * 15_000
    for response in [
        client.get(f"/api/cards?rules={name}"),
        client.get(f"/api/rules/{name}"),
        client.post("/api/validate", json={"rules": name}),
    ]:
        assert_error(response, 422, "bad_input")
        assert len(response.json()["error"]["message"]) <= MESSAGE_CHARS


def test_every_answer_says_nosniff(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    responses = [
        client.get("/"),
        client.get("/static/app.js"),
        client.get("/cards.css"),
        client.get("/api/rules"),
        client.get("/api/openapi.json"),
        client.get("/api/nothing"),
        client.get("/api/hint"),
        client.post("/api/validate", content=b"[1"),
        client.post("/api/hint", json={"hand": "QX"}),
    ]

    def broken(data: dict[str, Any], *, draw: bool) -> dict[str, Any]:
        raise RuntimeError("a bug")

    monkeypatch.setattr(answers, "validate_answer", broken)
    with TestClient(create_app(), raise_server_exceptions=False) as fresh:
        responses.append(fresh.post("/api/validate", json={}))
    assert responses[-1].status_code == 500
    for response in responses:
        assert response.headers["x-content-type-options"] == "nosniff", response.url


# --- the work one request may cause --------------------------------------------------------------


def test_a_request_with_too_many_cards_is_413_before_any_work(client: TestClient) -> None:
    table = " | ".join(["4S 5S 6S"] * 160)  # 639 tokens with the bars, in 2.7 KB
    for path in ["/api/validate?draw=1", "/api/check", "/api/hint", "/api/deadwood"]:
        response = client.post(path, json={"table": table, "after": table, "hand": "QH"})
        assert_error(response, 413, "too_large", "600")
    as_lists = {"table": [["4S", "5S", "6S"]] * 201}
    assert_error(client.post("/api/validate", json=as_lists), 413, "too_large")


def test_an_answer_over_the_limit_is_413() -> None:
    with TestClient(create_app(Limits(max_answer_bytes=1000))) as small:
        assert small.post("/api/validate", json={"table": "QH KH AH"}).status_code == 200
        drawn = small.post("/api/validate?draw=1", json={"table": "QH KH AH"})
        assert_error(drawn, 413, "too_large", "1000 bytes")


@pytest.mark.parametrize("value", ["inf", "nan", "-1", "0", "-inf"])
def test_serve_refuses_a_time_limit_that_is_not_a_positive_number(
    run_cli: CliRunner, value: str
) -> None:
    result = run_cli("serve", "--time-limit", value)
    assert result.code == 2
    assert result.err.count("\n") == 1
    assert "--time-limit" in result.err


@pytest.mark.parametrize(
    "option", ["--workers", "--queue", "--max-body", "--body-seconds", "--send-seconds"]
)
def test_serve_refuses_a_limit_below_its_least(run_cli: CliRunner, option: str) -> None:
    result = run_cli("serve", option, "-1")
    assert result.code == 2
    assert result.err.count("\n") == 1
    assert option in result.err


# --- lanes and disconnects -----------------------------------------------------------------------


def test_a_stop_ends_a_running_solve_and_refuses_the_next() -> None:
    stop = SolveStop()
    raised: list[BaseException] = []

    def solve() -> None:
        with stop.solves():
            try:
                run_solver(new_solver(search=SAT_ONLY), pigeonhole(12))  # minutes without a stop
            except SolveStoppedError as error:
                raised.append(error)

    worker = threading.Thread(target=solve)
    worker.start()
    time.sleep(0.2)  # let the search begin (a stop before it is repeated until it is seen anyway)
    stop.stop()
    worker.join(WAIT)
    assert not worker.is_alive()
    assert raised
    with stop.solves(), pytest.raises(SolveStoppedError):
        run_solver(new_solver(search=SAT_ONLY), pigeonhole(3))


class Call:
    """One request sent to the app by hand, whose client goes away when told to."""

    def __init__(self, path: str, body: bytes) -> None:
        self.scope: dict[str, Any] = {
            "type": "http",
            "method": "POST",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "headers": [(b"content-type", b"application/json")],
            "http_version": "1.1",
            "scheme": "http",
            "server": ("test", 80),
            "client": ("test", 1),
            "root_path": "",
        }
        self.body = body
        self.gone = anyio.Event()
        self.sent: list[Message] = []

    async def receive(self) -> Message:
        if self.body is not None:
            body, self.body = self.body, None  # type: ignore[assignment]
            return {"type": "http.request", "body": body, "more_body": False}
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: Message) -> None:
        self.sent.append(message)


def test_a_client_gone_stops_its_running_solve_and_drops_its_queued_one(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    started: list[str] = []
    stopped: list[str] = []

    def hard_hint(data: dict[str, Any], time_cap: float, *, draw: bool) -> dict[str, Any]:
        started.append(data["name"])
        try:
            run_solver(new_solver(search=SAT_ONLY), pigeonhole(12))
        except SolveStoppedError:
            stopped.append(data["name"])
            raise
        return {"schema_version": 1}

    monkeypatch.setattr(answers, "hint_answer", hard_hint)
    app = create_app(Limits(workers=1))
    running, queued = Call("/api/hint", b'{"name": "running"}'), Call("/api/hint", b'{"name": "q"}')

    async def scenario() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(app, running.scope, running.receive, running.send)
            with anyio.fail_after(WAIT):
                while not started:
                    await anyio.sleep(0.01)
            group.start_soon(app, queued.scope, queued.receive, queued.send)
            with anyio.fail_after(WAIT):
                while app.state.api.solve_lane.admitted < 2:
                    await anyio.sleep(0.01)
            queued.gone.set()  # leaves the queue without running
            with anyio.fail_after(WAIT):
                while app.state.api.solve_lane.admitted > 1:
                    await anyio.sleep(0.01)
            running.gone.set()  # its solve is stopped mid-search

    with caplog.at_level(logging.WARNING, logger="meldsat.web"):
        anyio.run(scenario)
    assert started == ["running"]
    assert stopped == ["running"]
    assert app.state.api.solve_lane.dropped == 2
    gone = [record for record in caplog.records if "client gone" in record.getMessage()]
    assert len(gone) == 2
    assert all(record.exc_info is None for record in caplog.records)


def test_a_client_gone_while_sending_its_body_is_one_quiet_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = create_app()
    call = Call("/api/validate", b"")

    async def receive() -> Message:
        if call.body is not None:
            call.body = None  # type: ignore[assignment]
            return {"type": "http.request", "body": b'{"table": ', "more_body": True}
        return {"type": "http.disconnect"}

    with caplog.at_level(logging.INFO):
        anyio.run(app, call.scope, receive, call.send)
    assert [record.levelname for record in caplog.records] == ["WARNING"]
    assert caplog.records[0].exc_info is None
    assert "client gone" in caplog.records[0].getMessage()


# --- slow and greedy connections (a real server) -------------------------------------------------


def connect(port: int, receive_buffer: int | None = None) -> socket.socket:
    connection = socket.socket()
    if receive_buffer is not None:  # set before connecting, so the window stays small
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    connection.settimeout(WAIT)
    connection.connect(("127.0.0.1", port))
    return connection


def read_all(connection: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (or resets it)."""
    data = bytearray()
    with contextlib.suppress(ConnectionResetError):
        while chunk := connection.recv(65536):
            data.extend(chunk)
    return bytes(data)


SLOW = Limits(body_seconds=0.3, send_seconds=0.3, max_connections=4)
HEAD = b"POST /api/validate HTTP/1.1\r\nHost: test\r\n"


@pytest.mark.parametrize(
    "sent",
    [
        HEAD,  # a head that never ends
        HEAD + b"Content-Length: 40\r\n\r\n{",  # a body that never ends
    ],
)
def test_a_slow_sender_is_answered_408_and_closed(sent: bytes) -> None:
    with running_server(SLOW) as (port, _), connect(port) as connection:
        connection.sendall(sent)
        answer = read_all(connection)
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert b"x-content-type-options: nosniff" in answer


def test_a_connection_that_sends_nothing_is_closed() -> None:
    with running_server(SLOW) as (port, serving), connect(port) as connection:
        assert read_all(connection) == b""
        deadline = time.monotonic() + WAIT
        while serving.server_state.connections and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not serving.server_state.connections


def test_a_trickled_head_is_cut_at_the_limit_not_reset_by_each_byte() -> None:
    with running_server(SLOW) as (port, _), connect(port) as connection:
        connection.sendall(HEAD)
        with contextlib.suppress(OSError):
            for _ in range(50):  # a header line every 0.1 s: never a whole request
                connection.sendall(b"X-Slow: 1\r\n")
                time.sleep(0.1)
        answer = read_all(connection)
    assert answer.startswith(b"HTTP/1.1 408 ")


def test_an_answer_never_read_is_dropped() -> None:
    """A client that asks for a large answer and does not read it: the server drops the
    connection and the answer it holds, instead of keeping it until the client reads."""
    limits = Limits(
        max_body_bytes=1 << 20, max_tokens=1 << 20, max_answer_bytes=1 << 30, send_seconds=0.3
    )
    body = b'{"table": "' + b" ".join([b"4S"] * 25_000) + b'"}'  # a 12 MB answer, drawn
    request = b"POST /api/validate?draw=1 HTTP/1.1\r\nHost: test\r\n"
    request += b"Content-Length: %d\r\n\r\n" % len(body) + body
    with (
        running_server(limits) as (port, serving),
        connect(port, receive_buffer=4096) as connection,
    ):
        connection.sendall(request)
        deadline = time.monotonic() + WAIT
        while not serving.server_state.total_requests and time.monotonic() < deadline:
            time.sleep(0.05)  # the answer is written
        while serving.server_state.connections and time.monotonic() < deadline:
            time.sleep(0.05)  # the server gives up on this client after send_seconds
        answer = read_all(connection)
    head, _, rest = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 ")
    declared = int(
        next(line for line in head.split(b"\r\n") if line.startswith(b"content-length")).split(
            b":"
        )[1]
    )
    assert len(rest) < declared


def test_connections_beyond_the_limit_are_503() -> None:
    with running_server(SLOW) as (port, _):
        held = [connect(port) for _ in range(SLOW.max_connections)]
        try:
            with connect(port) as extra:
                answer = read_all(extra)
        finally:
            for connection in held:
                connection.close()
    assert answer.startswith(b"HTTP/1.1 503 ")
    assert b'"busy"' in answer


def test_limits_refuse_what_cannot_bound_anything() -> None:
    bad_limits: list[dict[str, Any]] = [
        {"time_limit": float("inf")},
        {"send_seconds": float("nan")},
        {"workers": 0},
    ]
    for bad in bad_limits:
        with pytest.raises(MeldsatError):
            Limits(**bad)
    assert Limits().held_bytes() == 100 * 1024 * 1024


def test_work_passed_without_its_request_is_watched_all_the_same(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A route module that hands its work to ``Api.in_solve_lane`` (as the game sessions do)
    gets the same disconnect watch, and a client gone is one quiet line, not a 500."""
    app = create_app(Limits(workers=1))
    api = app.state.api
    stopped: list[bool] = []

    def hard() -> dict[str, Any]:
        try:
            run_solver(new_solver(search=SAT_ONLY), pigeonhole(12))
        except SolveStoppedError:
            stopped.append(True)
            raise
        return {}

    async def handler(request: Request) -> Response:
        await request.body()
        return Response(str(await api.in_solve_lane(hard)))

    app.router.routes.append(Route("/api/slow", handler, methods=["POST"]))
    call = Call("/api/slow", b"{}")

    async def scenario() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(app, call.scope, call.receive, call.send)
            with anyio.fail_after(WAIT):
                while not api.solve_lane.limiter.borrowed_tokens:
                    await anyio.sleep(0.01)
            await anyio.sleep(0.2)  # the search has begun
            call.gone.set()

    with caplog.at_level(logging.INFO):
        anyio.run(scenario)
    assert stopped == [True]
    assert [record.getMessage() for record in caplog.records] == [
        "client gone before its answer: POST /api/slow"
    ]
    assert caplog.records[0].exc_info is None
