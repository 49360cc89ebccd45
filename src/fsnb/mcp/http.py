"""Streamable HTTP: the server at `http://HOST:PORT/mcp`, behind a bearer token when one is
set (every request without `Authorization: Bearer <token>` is refused with 401). On a
loopback address the SDK also refuses other hosts and origins (DNS rebinding); any other
address is the command's to allow (`--allow-remote`, with a token)."""

from __future__ import annotations

import hmac
import socket
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import uvicorn

from fsnb.mcp.server import build
from fsnb.mcp.service import Service

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Any]]
Send = Callable[[Any], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]
_REFUSED = b'{"error": "unauthorized: send the header Authorization: Bearer <token>"}'


class BearerToken:
    """An ASGI app that passes on only HTTP requests carrying the token."""

    def __init__(self, app: App, token: str) -> None:
        self.app, self.expected = app, f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                headers = [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(_REFUSED)).encode()),
                    (b"www-authenticate", b'Bearer realm="fsnb"'),
                ]
                await send({"type": "http.response.start", "status": 401, "headers": headers})
                await send({"type": "http.response.body", "body": _REFUSED})
                return
        await self.app(scope, receive, send)


def url(host: str, port: int) -> str:
    """The server's URL (an IPv6 address in brackets)."""
    return f"http://[{host}]:{port}/mcp" if ":" in host else f"http://{host}:{port}/mcp"


async def serve_http(service: Service, host: str, port: int, token: str | None) -> None:
    """Serve on `host`:`port` (0: a free port) until interrupted; the URL goes to stderr."""
    server = build(service)
    app: App = server.streamable_http_app(host=host)
    if token:
        app = BearerToken(app, token)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.create_server((host, port), family=family)  # OSError: in use, no such address
    where = url(host, sock.getsockname()[1])
    names = ", ".join(service.folders.names())
    guard = "bearer token required" if token else "no token"
    print(f"fsnb mcp: serving {names} at {where} ({guard})", file=sys.stderr, flush=True)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    try:
        if service.settings.index:
            service.start_indexing()
        await uvicorn.Server(config).serve(sockets=[sock])
    finally:
        service.close()
        sock.close()


__all__ = ["BearerToken", "serve_http", "url"]
