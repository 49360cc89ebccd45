"""A fake Gemini REST server on 127.0.0.1 for the real google-genai client to talk to.

Replies are scripted in a queue (`enqueue`, `enqueue_action`, `enqueue_error`), each
optionally sent `delay_s` seconds late (cut short when the server stops); what the client
sent is kept in `requests`. With the queue empty the server answers 500 and says so, so a
test never hangs on it.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass
class Sent:
    """One request the client made."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any

    def texts(self) -> list[tuple[str, str]]:
        """(role, text) of each content in a generateContent body."""
        return [
            (c.get("role", ""), "".join(p.get("text", "") for p in c.get("parts", [])))
            for c in self.body.get("contents", [])
        ]


@dataclass
class Scripted:
    status: int
    body: dict[str, Any] | str
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


def generate_response(
    text: str,
    *,
    prompt: int = 100,
    completion: int = 20,
    thoughts: int | None = None,
    finish: str = "STOP",
) -> dict[str, Any]:
    """A generateContent response with one candidate whose text is `text`."""
    usage = {"promptTokenCount": prompt, "candidatesTokenCount": completion}
    if thoughts is not None:
        usage["thoughtsTokenCount"] = thoughts
    usage["totalTokenCount"] = prompt + completion + (thoughts or 0)
    return {
        "candidates": [
            {
                "content": {"parts": [{"text": text}], "role": "model"},
                "finishReason": finish,
                "index": 0,
            }
        ],
        "usageMetadata": usage,
        "modelVersion": "fake-gemini",
        "responseId": "fake",
    }


def error_body(code: int, message: str, status: str, retry_delay: str | None = None) -> dict:
    """A Google API error body, optionally with a google.rpc.RetryInfo detail."""
    error: dict[str, Any] = {"code": code, "message": message, "status": status}
    if retry_delay is not None:
        error["details"] = [
            {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": retry_delay}
        ]
    return {"error": error}


class FakeGemini:
    """The server: `url`, `enqueue*` to script replies, `requests` to see what was sent."""

    def __init__(self) -> None:
        self.replies: deque[Scripted] = deque()
        self.requests: list[Sent] = []
        self._lock = threading.Lock()
        self.stopping = threading.Event()  # ends every delayed reply's wait
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        host, port = self._server.server_address[:2]
        self.url = f"http://{host}:{port}"

    def __enter__(self) -> FakeGemini:
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

    def enqueue_action(self, action: dict[str, Any], *, delay_s: float = 0.0, **usage: Any) -> None:
        """A valid reply carrying `action` as its JSON text (usage: prompt, completion, ...)."""
        self.enqueue(generate_response(json.dumps(action), **usage), delay_s=delay_s)

    def enqueue_text(self, text: str, *, delay_s: float = 0.0, **usage: Any) -> None:
        self.enqueue(generate_response(text, **usage), delay_s=delay_s)

    def enqueue_error(
        self,
        code: int,
        message: str,
        status: str,
        *,
        retry_delay: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.enqueue(error_body(code, message, status, retry_delay), code, headers)

    def _answer(self, sent: Sent) -> Scripted:
        with self._lock:
            self.requests.append(sent)
            if self.replies:
                return self.replies.popleft()
        why = f"fake Gemini: no scripted reply left for {sent.method} {sent.path}"
        return Scripted(500, error_body(500, why, "INTERNAL"))


def _handler(fake: FakeGemini) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                body: Any = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                body = raw.decode("utf-8", "replace")
            self._reply(fake._answer(Sent("POST", self.path, dict(self.headers), body)))

        def do_GET(self) -> None:
            self._reply(fake._answer(Sent("GET", self.path, dict(self.headers), None)))

        def _reply(self, scripted: Scripted) -> None:
            if scripted.delay_s:
                fake.stopping.wait(scripted.delay_s)
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


@pytest.fixture
def fake_gemini() -> Iterator[FakeGemini]:
    """A running fake Gemini server, stopped at teardown."""
    with FakeGemini() as server:
        yield server
