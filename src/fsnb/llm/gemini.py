"""The gemini backend: google-genai, the schema asked for (the Action's, or any other for
`complete_json`) sent as structured output; `GeminiLLM` is `ChatPolicy` over `GeminiModel`.

Every retry is ours and visible: HTTP 429/5xx and connection errors are retried with
exponential backoff (the SDK's own retries are switched off; a refused connection fails at
once: nothing listens there), and a reply that is not valid is re-asked (`ChatPolicy`). Each
retry calls `notify`.
"""

from __future__ import annotations

import contextlib
import importlib
from typing import Any

from google.genai import errors, types

from fsnb import config
from fsnb.errors import one_line
from fsnb.gemini_client import gemini_base_url, gemini_client
from fsnb.llm.chat import ChatOptions, ChatPolicy
from fsnb.llm.prices import PRICES
from fsnb.llm.retry import RETRY_CODES, Backoff, refused, retry_after, seconds, unreachable
from fsnb.protocol import LLMError, Message, MissingKey, Notify
from fsnb.protocol.model import Completion
from fsnb.protocol.usage import Tokens

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


class GeminiModel:
    """One generate_content call (a `ChatModel`): JSON held to the schema as structured
    output; tokens from the response's usage metadata."""

    backend = "gemini"

    def __init__(self, options: ChatOptions) -> None:
        key = options.key() or config.api_key()
        if not key:
            names = " or ".join(config.KEY_VARIABLES)
            msg = f"no Gemini API key: set {names} (or put it in .env), or use --llm offline"
            raise MissingKey(msg)
        self.model = options.model or config.default_model()
        self.base_url = gemini_base_url(options.base_url)
        self.retries = Backoff(options.max_retries, options.backoff_s, options.max_delay_s)
        self.temperature = options.temperature
        # attempts=1: retries are ours, see _generate
        self.client = gemini_client(key, base_url=self.base_url, timeout_s=options.timeout_s)

    def complete(
        self, system: str, messages: list[Message], schema: dict[str, Any], notify: Notify
    ) -> Completion:
        settings = types.GenerateContentConfig(
            system_instruction=system,
            response_mime_type="application/json",
            response_json_schema=schema,
            temperature=self.temperature,
        )
        contents = [_content(_ROLES[m.role], m.text) for m in messages]
        response = self._generate(contents, settings, notify)
        usage = response.usage_metadata
        text, problem = _reply_text(response)
        tokens = Tokens(
            prompt=(usage and usage.prompt_token_count) or 0,
            completion=(usage and usage.candidates_token_count) or 0,
            thinking=(usage and usage.thoughts_token_count) or 0,
            cached=(usage and usage.cached_content_token_count) or 0,
        )
        return Completion(text, tokens, problem)

    def _generate(
        self, contents: list[types.Content], settings: types.GenerateContentConfig, notify: Notify
    ) -> types.GenerateContentResponse:
        """One generate_content call, retried on 429/5xx and connection errors (not a refused
        connection)."""
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
                if attempt == last or refused(exc):  # nothing listens there: no retry
                    where = self.base_url or "the Gemini API"
                    raise LLMError(unreachable(self.backend, where, attempt + 1, exc)) from None
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


class GeminiLLM(ChatPolicy):
    """The gemini backend: asks Gemini for the next Action (`ChatPolicy` over `GeminiModel`)."""

    Options = ChatOptions
    key_variables = config.KEY_VARIABLES
    #: The Gemini models fsnb knows the price of (any other name works too).
    models = tuple(name for name in PRICES if name.startswith("gemini-"))
    default_model = config.DEFAULT_MODEL

    def __init__(self, model: str | None = None, **options: Any) -> None:
        given = self.Options(model=model, **options)
        super().__init__(GeminiModel(given), max_invalid=given.max_invalid)


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
