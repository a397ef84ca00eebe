"""The HTTP side of ``meldsat serve``: uvicorn with a connection that bounds what a client costs.

The app bounds a request's work; what a connection holds is bounded here, below the app, where a
client that trickles or never reads is seen:

- a connection must send its whole request (head and body) within ``Limits.body_seconds`` of its
  first byte, or of opening (for the first request): a slow sender is answered 408 and closed,
  one that sent nothing at all (a browser's spare connection) is closed without a word;
- an answer the client does not read is held at most ``Limits.send_seconds`` (asyncio stops
  taking writes when the buffer is full, and says so): then the connection is dropped, the answer
  with it;
- at most ``Limits.max_connections`` connections are served at once; one more is answered 503.

Each of these (but the idle connection) is one line in the log (the ``meldsat.web`` logger),
never a traceback.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from meldsat.answers.jsonform import error_json, to_json
from meldsat.web.app import create_app
from meldsat.web.limits import Limits

_LOG = logging.getLogger("meldsat.web")


def closing_answer(status: int, reason: str, code: str, message: str) -> bytes:
    """A whole HTTP answer with the error object, for a connection about to be closed."""
    body = to_json(error_json(code, message)).encode("ascii")
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nx-content-type-options: nosniff\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


class BoundedH11(H11Protocol):
    """uvicorn's HTTP/1.1 connection, with the time and count limits of :class:`Limits`."""

    limits = Limits()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._read_timer: asyncio.TimerHandle | None = None
        self._send_timer: asyncio.TimerHandle | None = None
        self._bytes_read = 0  # of the request under way: none means an idle connection

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.limits.max_connections:
            _LOG.warning("refused a connection: %d open", len(self.connections) - 1)
            self.transport.write(
                closing_answer(
                    503, "Service Unavailable", "busy", "too many connections: try again"
                )
            )
            self.transport.close()
            return
        self._arm_read()

    def data_received(self, data: bytes) -> None:
        if self._read_timer is None and (self.cycle is None or self.cycle.response_complete):
            self._arm_read()  # a new request begins on a kept-alive connection
        self._bytes_read += len(data)
        super().data_received(data)
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete and not cycle.more_body:
            self._disarm_read()  # the whole request is in: the app takes it from here

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_read()
        self._disarm_send()
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._send_timer is None:
            self._send_timer = self.loop.call_later(self.limits.send_seconds, self._send_too_slow)

    def resume_writing(self) -> None:
        super().resume_writing()
        self._disarm_send()

    def _arm_read(self) -> None:
        self._disarm_read()
        self._bytes_read = 0
        self._read_timer = self.loop.call_later(self.limits.body_seconds, self._read_too_slow)

    def _disarm_read(self) -> None:
        if self._read_timer is not None:
            self._read_timer.cancel()
            self._read_timer = None

    def _disarm_send(self) -> None:
        if self._send_timer is not None:
            self._send_timer.cancel()
            self._send_timer = None

    def _read_too_slow(self) -> None:
        self._read_timer = None
        if self.transport.is_closing():
            return
        if not self._bytes_read:  # opened and never used (a browser's spare connection)
            self.transport.close()
            return
        _LOG.warning("closed a connection: its request took over %g s", self.limits.body_seconds)
        if self.cycle is None or not self.cycle.response_started:
            message = f"the request took over {self.limits.body_seconds:g} s to arrive"
            self.transport.write(closing_answer(408, "Request Timeout", "timeout", message))
        self.transport.close()

    def _send_too_slow(self) -> None:
        self._send_timer = None
        _LOG.warning(
            "dropped a connection: its answer was not read within %g s", self.limits.send_seconds
        )
        self.transport.abort()  # close() would keep the unread answer until it is read


def bounded_protocol(limits: Limits) -> type[BoundedH11]:
    """The connection class for a server with ``limits``."""
    return type("BoundedH11", (BoundedH11,), {"limits": limits})


def server_config(limits: Limits, host: str, port: int) -> uvicorn.Config:
    """uvicorn's configuration for the app with ``limits`` on ``host``:``port``."""
    return uvicorn.Config(
        create_app(limits),
        host=host,
        port=port,
        http=bounded_protocol(limits),
        log_level="warning",
        ws="none",
    )


def serve(limits: Limits, host: str, port: int) -> None:
    """Serve the app until interrupted."""
    uvicorn.Server(server_config(limits, host, port)).run()
