"""A fake Gemini REST server on 127.0.0.1 for the real google-genai client to talk to.

Replies are scripted (`enqueue`, `enqueue_action`, `enqueue_text`, `enqueue_error`); what
the client sent is kept in `requests` (see `fake_http.FakeServer`). As a plugin it gives
the `fake_gemini` fixture.

With `respond` set, a request that finds no scripted reply is answered with
`respond(sent)`'s text and token counts taken from the request itself (`counted_usage`):
about four characters a token, as Gemini's own docs estimate for English, over the system
instruction and the contents; the cached tokens emulate implicit caching (the longest
prefix shared with an earlier request, when it reaches the model's minimum).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fake_http import FakeServer, Scripted, Sent

__all__ = [
    "FakeGemini",
    "GeminiSent",
    "Scripted",
    "Sent",
    "count_tokens",
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

    def prompt_text(self) -> str:
        """The system instruction and the contents, in the order the model reads them."""
        system = self.body.get("systemInstruction") or {}
        parts = ["".join(p.get("text", "") for p in system.get("parts", []))]
        parts += [f"{role}: {text}" for role, text in self.texts()]
        return "\n".join(parts)


def count_tokens(text: str) -> int:
    """About four characters a token (Gemini's estimate for English text)."""
    return (len(text) + 3) // 4


def counted_usage(sent: GeminiSent, earlier: list[GeminiSent], reply: str, cache_min: int):
    """Usage of a reply computed from its request: prompt, completion and the cached prefix
    (the longest prefix shared with an earlier request, counted when >= `cache_min` tokens)."""
    text = sent.prompt_text()
    shared = max((_common_prefix(text, e.prompt_text()) for e in earlier), default=0)
    cached = count_tokens(text[:shared])
    return {
        "prompt": count_tokens(text),
        "completion": count_tokens(reply),
        "cached": cached if cached >= cache_min else 0,
    }


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def generate_response(
    text: str,
    *,
    prompt: int = 100,
    completion: int = 20,
    thoughts: int | None = None,
    cached: int | None = None,
    finish: str = "STOP",
) -> dict[str, Any]:
    """A generateContent response with one candidate whose text is `text`."""
    usage = {"promptTokenCount": prompt, "candidatesTokenCount": completion}
    if thoughts is not None:
        usage["thoughtsTokenCount"] = thoughts
    if cached is not None:
        usage["cachedContentTokenCount"] = cached
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

    def __init__(
        self, respond: Callable[[GeminiSent], str] | None = None, *, cache_min: int = 1024
    ) -> None:
        super().__init__()
        self.respond = respond
        self.cache_min = cache_min  # Gemini 2.5 Flash / 3 Flash: 1,024 tokens

    def _answer(self, sent: Sent) -> Scripted:
        if self.respond is None or self.replies:
            return super()._answer(sent)
        with self._lock:
            earlier = list(self.requests)
            self.requests.append(sent)
        assert isinstance(sent, GeminiSent)
        text = self.respond(sent)
        usage = counted_usage(sent, earlier, text, self.cache_min)
        return Scripted(200, generate_response(text, **usage))

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
