"""A fake Gemini REST server on 127.0.0.1 for the real google-genai client to talk to.

Replies are scripted (`enqueue`, `enqueue_action`, `enqueue_text`, `enqueue_error`); what
the client sent is kept in `requests` (see `fake_http.FakeServer`). As a plugin it gives
the `fake_gemini` fixture.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fake_http import FakeServer, Scripted, Sent

__all__ = [
    "FakeGemini",
    "GeminiSent",
    "Scripted",
    "Sent",
    "error_body",
    "generate_response",
]


class GeminiSent(Sent):
    def texts(self) -> list[tuple[str, str]]:
        """(role, text) of each content in a generateContent body."""
        return [
            (c.get("role", ""), "".join(p.get("text", "") for p in c.get("parts", [])))
            for c in self.body.get("contents", [])
        ]


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


class FakeGemini(FakeServer):
    """The server: `url`, `enqueue*` to script replies, `requests` to see what was sent."""

    name = "fake Gemini"
    sent_type = GeminiSent
    requests: list[GeminiSent]

    def error_body(self, status: int, message: str) -> dict[str, Any]:
        return error_body(status, message, "INTERNAL")

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


@pytest.fixture
def fake_gemini() -> Iterator[FakeGemini]:
    """A running fake Gemini server, stopped at teardown."""
    with FakeGemini() as server:
        yield server
