"""A fake Chat Completions server on 127.0.0.1 for the real openai client to talk to.

Replies are scripted (`enqueue_action`, `enqueue_text`, `enqueue_error`, `enqueue`); what
the client sent is kept in `requests` (see `fake_http.FakeServer`). As a plugin it gives
the `fake_openai` fixture.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fake_http import FakeServer, Sent

__all__ = ["ChatSent", "FakeOpenAI", "chat_response"]


class ChatSent(Sent):
    def messages(self) -> list[tuple[str, str]]:
        """(role, content) of each message in a chat.completions body."""
        return [(m["role"], m["content"]) for m in self.body.get("messages", [])]


def chat_response(
    text: str | None,
    *,
    prompt: int = 100,
    completion: int = 20,
    reasoning: int | None = None,
    cached: int | None = None,
    finish: str = "stop",
) -> dict[str, Any]:
    """A chat.completion with one choice whose content is `text`."""
    usage: dict[str, Any] = {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }
    if reasoning is not None:
        usage["completion_tokens_details"] = {"reasoning_tokens": reasoning}
    if cached is not None:
        usage["prompt_tokens_details"] = {"cached_tokens": cached}
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 1,
        "model": "fake-model",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": finish,
            }
        ],
        "usage": usage,
    }


class FakeOpenAI(FakeServer):
    """The server: `url` (with /v1, as base URLs are given), `enqueue*`, `requests`."""

    name = "fake OpenAI"
    sent_type = ChatSent
    requests: list[ChatSent]

    def __init__(self) -> None:
        super().__init__()
        self.url = f"{self.url}/v1"

    def error_body(self, status: int, message: str) -> dict[str, Any]:
        return {"error": {"message": message, "type": "server_error", "code": status}}

    def enqueue_action(self, action: dict[str, Any], **usage: Any) -> None:
        """A valid reply carrying `action` as its JSON text (usage: prompt, completion, ...)."""
        self.enqueue(chat_response(json.dumps(action), **usage))

    def enqueue_text(self, text: str | None, **usage: Any) -> None:
        self.enqueue(chat_response(text, **usage))

    def enqueue_error(
        self, status: int, message: str, headers: dict[str, str] | None = None
    ) -> None:
        self.enqueue(self.error_body(status, message), status, headers)


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A running fake Chat Completions server, stopped at teardown."""
    with FakeOpenAI() as server:
        yield server
