"""What a chat backend implements: one completion call (`ChatModel`). Asking for an Action or
a JSON value on top of it, reading the reply and re-asking, is written once
(`fsnb.llm.chat.ChatPolicy`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from fsnb.protocol.conversation import Message, Notify
from fsnb.protocol.usage import NO_TOKENS, Tokens


@dataclass(frozen=True)
class Completion:
    """One call's reply text and its tokens. `problem` is what the backend already knows
    is wrong with the reply (blocked, cut off); None lets the reader judge it."""

    text: str
    tokens: Tokens = NO_TOKENS
    problem: str | None = None


@runtime_checkable
class ChatModel(Protocol):
    """One chat completion: the system prompt and the transcript in, the reply's text out,
    held to the JSON `schema` as far as the server can (structured output, JSON mode).

    Transport, its retries (each said through `notify`) and degrading to what the server
    accepts are the backend's business; a call that gets no reply raises `LLMError`.
    A reply that does not match the schema is returned as it is: the caller re-asks."""

    backend: str
    model: str

    def complete(
        self, system: str, messages: list[Message], schema: dict[str, Any], notify: Notify
    ) -> Completion: ...


__all__ = ["ChatModel", "Completion"]
