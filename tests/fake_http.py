"""A scripted JSON HTTP server on 127.0.0.1: the base of the fake model servers.

Replies are scripted in a queue (`enqueue`), each optionally sent `delay_s` seconds late
(cut short when the server stops); what the client sent is kept in `requests`, and
`replied` counts the replies sent (a late one once its delay is over), so a test can tell
that a client stopped waiting for one. With the queue empty the server answers 500 and says
so, so a test never hangs on it.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar, TypeVar

Server = TypeVar("Server", bound="FakeServer")


@dataclass
class Sent:
    """One request the client made."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class Scripted:
    status: int
    body: dict[str, Any] | str
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


class FakeServer:
    """The server: `url`, `enqueue` to script replies, `requests` to see what was sent."""

    name: ClassVar[str] = "fake server"
    sent_type: ClassVar[type[Sent]] = Sent

    def __init__(self) -> None:
        self.replies: deque[Scripted] = deque()
        self.requests: list[Any] = []
        self.replied = 0  # replies sent: a late one counts once its delay is over
        self._lock = threading.Lock()
        self.stopping = threading.Event()  # ends every delayed reply's wait
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        host, port = self._server.server_address[:2]
        self.url = f"http://{host}:{port}"

    def __enter__(self: Server) -> Server:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def enqueue(
        self,
        body: dict[str, Any] | str,
        status: int = 200,
        headers: dict[str, str] | None = None,
        *,
        delay_s: float = 0.0,
    ) -> None:
        self.replies.append(Scripted(status, body, headers or {}, delay_s))

    def error_body(self, status: int, message: str) -> dict[str, Any]:
        """The server's error body (overridden by each fake)."""
        return {"error": {"code": status, "message": message}}

    def _answer(self, sent: Sent) -> Scripted:
        with self._lock:
            self.requests.append(sent)
            if self.replies:
                return self.replies.popleft()
        why = f"{self.name}: no scripted reply left for {sent.method} {sent.path}"
        return Scripted(500, self.error_body(500, why))


def _handler(fake: FakeServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                body: Any = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                body = raw.decode("utf-8", "replace")
            self._reply(fake._answer(self._sent("POST", body)))

        def do_GET(self) -> None:
            self._reply(fake._answer(self._sent("GET", None)))

        def _sent(self, method: str, body: Any) -> Sent:
            headers = {k.lower(): v for k, v in self.headers.items()}  # names are case-blind
            return fake.sent_type(method, self.path, headers, body)

        def _reply(self, scripted: Scripted) -> None:
            if scripted.delay_s:
                fake.stopping.wait(scripted.delay_s)
            with fake._lock:
                fake.replied += 1
            body = scripted.body
            data = (body if isinstance(body, str) else json.dumps(body)).encode()
            self.send_response(scripted.status)
            self.send_header("Content-Type", "application/json; charset=UTF-8")
            self.send_header("Content-Length", str(len(data)))
            for name, value in scripted.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep test output quiet

    return Handler
