"""``meldsat serve``: the JSON API and the page for players (the ``web`` extra)."""

from __future__ import annotations

import importlib.util
import socket
from typing import Annotated

import typer

from meldsat.errors import MeldsatError

HostOption = Annotated[
    str, typer.Option("--host", help="Address to listen on (other machines: 0.0.0.0).")
]
PortOption = Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on.")]
# The limits are checked by ``meldsat.web.limits.Limits`` (one line naming the option, exit 2),
# not by click's ``min=``, which lets "inf" and "nan" through and words its refusal in three lines.
ServeTimeOption = Annotated[
    float, typer.Option("--time-limit", help="Most solver seconds one request may use.")
]
WorkersOption = Annotated[
    int, typer.Option("--workers", help="Requests solved at the same time (threads).")
]
QueueOption = Annotated[
    int, typer.Option("--queue", help="Requests that may wait for a solving worker; then 503.")
]
QuickWorkersOption = Annotated[
    int, typer.Option("--quick-workers", help="Threads for the answers that do not solve.")
]
MaxBodyOption = Annotated[
    int, typer.Option("--max-body", help="Largest request body, in bytes; then 413.")
]
MaxTokensOption = Annotated[
    int, typer.Option("--max-tokens", help="Most cards and other words in one body; then 413.")
]
MaxAnswerOption = Annotated[
    int, typer.Option("--max-answer", help="Largest answer, in bytes; then 413.")
]
MaxConnectionsOption = Annotated[
    int, typer.Option("--max-connections", help="Connections served at once; then 503.")
]
BodySecondsOption = Annotated[
    float,
    typer.Option("--body-seconds", help="Seconds a client has to send its request; then closed."),
]
SendSecondsOption = Annotated[
    float,
    typer.Option("--send-seconds", help="Seconds a client has to read its answer; then closed."),
]


def serve_command(
    *,
    host: HostOption = "127.0.0.1",
    port: PortOption = 8000,
    time_limit: ServeTimeOption = 5.0,
    workers: WorkersOption = 2,
    queue: QueueOption = 256,
    quick_workers: QuickWorkersOption = 2,
    max_body: MaxBodyOption = 64 * 1024,
    max_tokens: MaxTokensOption = 600,
    max_answer: MaxAnswerOption = 1024 * 1024,
    max_connections: MaxConnectionsOption = 100,
    body_seconds: BodySecondsOption = 10.0,
    send_seconds: SendSecondsOption = 30.0,
) -> int:
    """Serve the JSON API and the page until interrupted (Ctrl-C)."""
    missing = [name for name in ("starlette", "uvicorn") if importlib.util.find_spec(name) is None]
    if missing:
        raise MeldsatError(
            f"meldsat serve needs the web extra ({', '.join(missing)} missing): "
            "pip install 'meldsat[web]'"
        )
    from meldsat.web.limits import Limits

    limits = Limits(
        max_body_bytes=max_body,
        max_tokens=max_tokens,
        max_answer_bytes=max_answer,
        time_limit=time_limit,
        workers=workers,
        queue=queue,
        quick_workers=quick_workers,
        quick_queue=queue,
        max_connections=max_connections,
        body_seconds=body_seconds,
        send_seconds=send_seconds,
    )
    _check_address(host, port)
    from meldsat.web.server import serve

    print(f"meldsat: serving on http://{host}:{port}/ (Ctrl-C stops)", flush=True)
    serve(limits, host, port)
    return 0


def _check_address(host: str, port: int) -> None:
    """Refuse an address that cannot be listened on with one line (uvicorn would log and exit 1)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, protocol, _, address = infos[0]
        with socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except (OSError, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise MeldsatError(f"cannot listen on '{host}' port {port}: {reason}") from None
