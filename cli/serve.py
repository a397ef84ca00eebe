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
ServeTimeOption = Annotated[
    float,
    typer.Option("--time-limit", min=0.001, help="Most solver seconds one request may use."),
]
WorkersOption = Annotated[
    int, typer.Option("--workers", min=1, help="Requests solved at the same time (threads).")
]
QueueOption = Annotated[
    int, typer.Option("--queue", min=0, help="Requests that may wait for a worker; then 503.")
]
MaxBodyOption = Annotated[
    int, typer.Option("--max-body", min=1, help="Largest request body, in bytes; then 413.")
]


def serve_command(
    *,
    host: HostOption = "127.0.0.1",
    port: PortOption = 8000,
    time_limit: ServeTimeOption = 5.0,
    workers: WorkersOption = 2,
    queue: QueueOption = 256,
    max_body: MaxBodyOption = 64 * 1024,
) -> int:
    """Serve the JSON API and the page until interrupted (Ctrl-C)."""
    missing = [name for name in ("starlette", "uvicorn") if importlib.util.find_spec(name) is None]
    if missing:
        raise MeldsatError(
            f"meldsat serve needs the web extra ({', '.join(missing)} missing): "
            "pip install 'meldsat[web]'"
        )
    _check_address(host, port)
    import uvicorn

    from meldsat.web.app import create_app
    from meldsat.web.limits import Limits

    limits = Limits(max_body_bytes=max_body, time_limit=time_limit, workers=workers, queue=queue)
    print(f"meldsat: serving on http://{host}:{port}/ (Ctrl-C stops)", flush=True)
    uvicorn.run(create_app(limits), host=host, port=port, log_level="warning")
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
