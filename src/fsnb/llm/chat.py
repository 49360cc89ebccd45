"""The policy of every chat backend, written once over any `ChatModel`: ask for the next
Action (or any JSON value) held to its schema, read the reply, and re-ask with the error fed
back while it is not valid. A chat backend implements only `ChatModel.complete`."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, SecretStr

from fsnb.protocol import Conversation, JsonReply, Message, Notify, Reply
from fsnb.protocol.model import ChatModel, Completion
from fsnb.protocol.structured import (
    ACTION_SCHEMA,
    Ask,
    ask_for_action,
    ask_for_json,
    json_reader,
)


class ChatOptions(BaseModel):
    """The options every chat backend takes (`get_llm(name, **options)`); a backend's
    `Options` adds its own or changes a default. An option not declared is refused."""

    # the key must not show in an error message or a repr
    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)

    model: str | None = None
    base_url: str | None = None
    api_key: SecretStr | None = None
    temperature: float | None = 0.0
    #: Retries of a failed call (429/5xx, connection errors), with exponential backoff.
    max_retries: int = 4
    backoff_s: float = 1.0
    max_delay_s: float = 30.0
    timeout_s: float = 60.0
    #: Re-asks of a reply that is not valid, with the error fed back.
    max_invalid: int = 2

    def key(self) -> str | None:
        """The API key given (None: the backend looks in the environment)."""
        return self.api_key.get_secret_value() if self.api_key else None


class ChatPolicy:
    """An LLM (and a StructuredLLM) over a `ChatModel`: `next_action` asks for an Action,
    `complete_json` for a JSON value matching a schema, each re-asked at most `max_invalid`
    times; the tokens of every call are summed into the reply, or the `LLMError`."""

    def __init__(self, chat: ChatModel, *, max_invalid: int = 2) -> None:
        self.chat = chat
        self.max_invalid = max_invalid

    @property
    def backend(self) -> str:
        return self.chat.backend

    @property
    def model(self) -> str:
        return self.chat.model

    @property
    def base_url(self) -> str | None:
        """The server the model talks to (None: its backend's default)."""
        return getattr(self.chat, "base_url", None)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.chat.backend}:{self.chat.model})"

    def next_action(self, conversation: Conversation, notify: Notify) -> Reply:
        """One Action, re-asking (with the error fed back) while the reply is not valid."""
        ask = self._asker(conversation.system, ACTION_SCHEMA, notify)
        return ask_for_action(
            ask, conversation.messages(), notify, backend=self.backend, max_invalid=self.max_invalid
        )

    def complete_json(
        self, system: str, prompt: str, schema: dict[str, Any], notify: Notify
    ) -> JsonReply:
        """One JSON value matching `schema`, re-asked while it does not."""
        return ask_for_json(
            self._asker(system, schema, notify),
            [Message("user", prompt)],
            notify,
            read=json_reader(schema),
            backend=self.backend,
            max_invalid=self.max_invalid,
            what="JSON reply",
        )

    def _asker(self, system: str, schema: dict[str, Any], notify: Notify) -> Ask:
        """`ask(messages)` for the re-asking loop: one call of the model."""

        def ask(messages: list[Message]) -> Completion:
            return self.chat.complete(system, messages, schema, notify)

        return ask


__all__ = ["ChatOptions", "ChatPolicy"]
