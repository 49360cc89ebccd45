"""The gemini backend: google-genai with the Action JSON schema as structured output (and
any other schema, for `complete_json`).

Every retry is ours and visible: HTTP 429/5xx and connection errors are retried with
exponential backoff (the SDK's own retries are switched off), and a reply that is not a
valid Action is re-asked with the validation error fed back. Each retry calls `notify`.
"""

from __future__ import annotations

import contextlib
import importlib
from typing import Any

from google.genai import errors, types

from fsnb import config
from fsnb.agent.usage import PRICES
from fsnb.errors import one_line
from fsnb.gemini_client import gemini_base_url, gemini_client
from fsnb.llm.retry import RETRY_CODES, Backoff, retry_after, seconds
from fsnb.protocol import (
    Conversation,
    JsonReply,
    LLMError,
    Message,
    MissingKey,
    Notify,
    Reply,
)
from fsnb.protocol.structured import (
    ACTION_SCHEMA,
    Ask,
    Completion,
    ask_for_action,
    ask_for_json,
    json_reader,
)

_BAD_FINISH = frozenset({"MAX_TOKENS", "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT"})
_ROLES = {"user": "user", "assistant": "model"}  # Gemini calls the assistant 'model'


def _transient_errors() -> tuple[type[Exception], ...]:
    """Connection-level failures of the HTTP libraries the SDK may use: google-genai 3
    depends on httpx2, earlier releases on httpx; whichever is installed counts."""
    found: list[type[Exception]] = []
    for name in ("httpx2", "httpx"):
        with contextlib.suppress(ImportError, AttributeError):
            found.append(importlib.import_module(name).TransportError)
    return tuple(found)


_TRANSIENT = _transient_errors()


class GeminiLLM:
    """Asks Gemini for the next Action; usage comes from the response's usage metadata."""

    backend = "gemini"
    key_variables = config.KEY_VARIABLES
    #: The Gemini models fsnb knows the price of (any other name works too).
    models = tuple(name for name in PRICES if name.startswith("gemini-"))
    default_model = config.DEFAULT_MODEL

    def __init__(
        self,
        model: str | None = None,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        max_retries: int = 4,
        max_invalid: int = 2,
        backoff_s: float = 1.0,
        max_delay_s: float = 30.0,
        timeout_s: float = 60.0,
        temperature: float = 0.0,
    ) -> None:
        key = api_key or config.api_key()
        if not key:
            names = " or ".join(config.KEY_VARIABLES)
            msg = f"no Gemini API key: set {names} (or put it in .env), or use --llm offline"
            raise MissingKey(msg)
        self.model = model or config.default_model()
        self.base_url = gemini_base_url(base_url)
        self.max_invalid = max_invalid
        self.retries = Backoff(max_retries, backoff_s, max_delay_s)
        self.temperature = temperature
        # attempts=1: retries are ours, see _generate
        self.client = gemini_client(key, base_url=self.base_url, timeout_s=timeout_s)

    def next_action(self, conversation: Conversation, notify: Notify) -> Reply:
        """One Action, re-asking (with the error fed back) while the reply is not valid."""
        ask = self._asker(conversation.system, ACTION_SCHEMA, notify)
        return ask_for_action(
            ask, conversation.messages(), notify, backend=self.backend, max_invalid=self.max_invalid
        )

    def complete_json(
        self, system: str, prompt: str, schema: dict[str, Any], notify: Notify
    ) -> JsonReply:
        """One JSON value matching `schema` (as structured output), re-asked while it does not."""
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
        """`ask(messages)` for the structured-output loop: JSON held to `schema`."""
        settings = types.GenerateContentConfig(
            system_instruction=system,
            response_mime_type="application/json",
            response_json_schema=schema,
            temperature=self.temperature,
        )

        def ask(messages: list[Message]) -> Completion:
            contents = [_content(_ROLES[m.role], m.text) for m in messages]
            response = self._generate(contents, settings, notify)
            usage = response.usage_metadata
            text, problem = _reply_text(response)
            return Completion(
                text,
                prompt_tokens=(usage and usage.prompt_token_count) or 0,
                completion_tokens=(usage and usage.candidates_token_count) or 0,
                thinking_tokens=(usage and usage.thoughts_token_count) or 0,
                cached_tokens=(usage and usage.cached_content_token_count) or 0,
                problem=problem,
            )

        return ask

    def _generate(
        self, contents: list[types.Content], settings: types.GenerateContentConfig, notify: Notify
    ) -> types.GenerateContentResponse:
        """One generate_content call, retried on 429/5xx and connection errors."""
        last = self.retries.max_retries
        for attempt in range(last + 1):
            asked: float | None = None
            try:
                return self.client.models.generate_content(
                    model=self.model, contents=contents, config=settings
                )
            except errors.APIError as exc:
                if exc.code not in RETRY_CODES or attempt == last:
                    raise LLMError(self._failure(exc, attempt + 1)) from None
                what, asked = f"{exc.code} {exc.status or 'error'}", _server_delay(exc)
            except _TRANSIENT as exc:
                if attempt == last:
                    where = self.base_url or "the Gemini API"
                    tries = f"{attempt + 1} attempts"
                    msg = f"gemini: cannot reach {where} after {tries}: {one_line(exc)}"
                    raise LLMError(msg) from None
                what = f"connection error ({type(exc).__name__})"
            except ValueError as exc:  # a body the SDK cannot read (not JSON, wrong shape)
                msg = f"gemini: unreadable response from the API: {one_line(exc, 300)}"
                raise LLMError(msg) from None
            self.retries.wait(self.backend, attempt, what, notify, asked)
        raise AssertionError  # unreachable: the loop returns or raises

    def _failure(self, exc: errors.APIError, attempts: int) -> str:
        message = one_line(exc.message or exc.details or exc, 500)
        after = f" after {attempts} attempts" if attempts > 1 else ""
        status = f" {exc.status}" if exc.status else ""
        text = f"gemini: HTTP {exc.code}{status}{after}: {message}"
        if exc.code in (401, 403) or "api key" in message.lower():
            text += f" (check {' / '.join(config.KEY_VARIABLES)})"
        return text


def _content(role: str, text: str) -> types.Content:
    return types.Content(role=role, parts=[types.Part(text=text)])


def _reply_text(response: types.GenerateContentResponse) -> tuple[str, str | None]:
    """The reply's text, and what is wrong with it before validation (None: nothing)."""
    if not response.candidates:
        feedback = response.prompt_feedback
        blocked = feedback.block_reason if feedback and feedback.block_reason else None
        return "", f"empty reply (no candidates{f', blocked: {_name(blocked)}' if blocked else ''})"
    finish = _name(response.candidates[0].finish_reason)
    text = response.text or ""
    if finish in _BAD_FINISH:
        return text, f"the reply stopped early (finish_reason {finish})"
    if not text.strip():
        return text, f"empty reply (finish_reason {finish or 'unknown'})"
    return text, None


def _name(value: Any) -> str:
    return str(getattr(value, "value", value) or "")


def _server_delay(exc: errors.APIError) -> float | None:
    """Seconds the server asked us to wait: Retry-After, or google.rpc.RetryInfo."""
    if (delay := retry_after(getattr(exc.response, "headers", None))) is not None:
        return delay
    details = exc.details.get("error", exc.details) if isinstance(exc.details, dict) else {}
    for detail in details.get("details") or []:
        if not isinstance(detail, dict) or "RetryInfo" not in str(detail.get("@type", "")):
            continue
        if (delay := seconds(detail.get("retryDelay", ""))) is not None:
            return delay
    return None
