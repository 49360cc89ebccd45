"""The Gemini backend: google-genai with the Action JSON schema as structured output.

Every retry is ours and visible: HTTP 429/5xx and connection errors are retried with
exponential backoff (the SDK's own retries are switched off), and a reply that is not a
valid Action is re-asked with the validation error fed back. Each retry calls `notify`.
"""

from __future__ import annotations

import os
import re
import time
from typing import Any

import httpx
from google import genai
from google.genai import errors, types
from pydantic import ValidationError

from fsnb import config
from fsnb.errors import one_line
from fsnb.protocol import Action, Conversation, LLMError, MissingKey, Notify, Reply

BASE_URL_VARIABLE = "FSNB_GEMINI_BASE_URL"
#: responseJsonSchema is documented for v1beta; google-genai 3.x would otherwise use v1.
API_VERSION = "v1beta"
RETRY_CODES = frozenset({429, 500, 502, 503, 504})
_BAD_FINISH = frozenset({"MAX_TOKENS", "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT"})
_ROLES = {"user": "user", "assistant": "model"}  # Gemini calls the assistant 'model'
_SECONDS = re.compile(r"^\s*(\d+(?:\.\d+)?)s?\s*$")


def _transient_errors() -> tuple[type[Exception], ...]:
    """Connection-level failures of either HTTP library the SDK may use."""
    found: list[type[Exception]] = [httpx.TransportError]
    try:
        import httpx2

        found.append(httpx2.TransportError)
    except (ImportError, AttributeError):
        pass
    return tuple(found)


_TRANSIENT = _transient_errors()


def _without_defaults(schema: Any) -> Any:
    """The schema minus `default` keywords, which Gemini's JSON Schema subset does not list."""
    if isinstance(schema, dict):
        return {k: _without_defaults(v) for k, v in schema.items() if k != "default"}
    if isinstance(schema, list):
        return [_without_defaults(v) for v in schema]
    return schema


#: What is sent as `response_json_schema`: pydantic's JSON schema of `Action`.
ACTION_SCHEMA: dict[str, Any] = _without_defaults(Action.model_json_schema())


class GeminiLLM:
    """Asks Gemini for the next Action; usage comes from the response's usage metadata."""

    backend = "gemini"

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
        self.base_url = base_url or os.environ.get(BASE_URL_VARIABLE) or None
        self.max_retries, self.max_invalid = max_retries, max_invalid
        self.backoff_s, self.max_delay_s = backoff_s, max_delay_s
        self.temperature = temperature
        http = types.HttpOptions(
            base_url=self.base_url,
            api_version=API_VERSION,
            timeout=int(timeout_s * 1000),
            retry_options=types.HttpRetryOptions(attempts=1),  # retries are ours, see _generate
        )
        self.client = genai.Client(api_key=key, vertexai=False, http_options=http)

    def next_action(self, conversation: Conversation, notify: Notify) -> Reply:
        """One Action, re-asking (with the error fed back) while the reply is not valid."""
        contents = [_content(_ROLES[m.role], m.text) for m in conversation.messages()]
        settings = types.GenerateContentConfig(
            system_instruction=conversation.system,
            response_mime_type="application/json",
            response_json_schema=ACTION_SCHEMA,
            temperature=self.temperature,
        )
        tokens = [0, 0, 0]
        for attempt in range(self.max_invalid + 1):
            try:
                response = self._generate(contents, settings, notify)
            except LLMError as exc:  # keep the tokens of the replies that came before
                raise LLMError(
                    str(exc),
                    prompt_tokens=tokens[0],
                    completion_tokens=tokens[1],
                    thinking_tokens=tokens[2],
                ) from None
            usage = response.usage_metadata
            if usage is not None:
                tokens[0] += usage.prompt_token_count or 0
                tokens[1] += usage.candidates_token_count or 0
                tokens[2] += usage.thoughts_token_count or 0
            text, problem = _reply_text(response)
            if problem is None:
                try:
                    return Reply(Action.model_validate_json(text), *tokens)
                except ValidationError as exc:
                    problem = _summarize(exc)
            if attempt == self.max_invalid:
                msg = f"gemini: no valid Action after {attempt + 1} replies; last: {problem}"
                raise LLMError(
                    msg,
                    prompt_tokens=tokens[0],
                    completion_tokens=tokens[1],
                    thinking_tokens=tokens[2],
                )
            again = f"asking again {attempt + 1}/{self.max_invalid}"
            notify(f"gemini: invalid reply ({problem}), {again}")
            if text.strip():
                contents.append(_content("model", text))
            feedback = f"Your reply was not a valid Action: {problem}. Reply with one JSON Action."
            contents.append(_content("user", feedback))
        raise AssertionError  # unreachable: the loop returns or raises

    def _generate(
        self, contents: list[types.Content], settings: types.GenerateContentConfig, notify: Notify
    ) -> types.GenerateContentResponse:
        """One generate_content call, retried on 429/5xx and connection errors."""
        for attempt in range(self.max_retries + 1):
            hint: float | None = None
            try:
                return self.client.models.generate_content(
                    model=self.model, contents=contents, config=settings
                )
            except errors.APIError as exc:
                if exc.code not in RETRY_CODES or attempt == self.max_retries:
                    raise LLMError(self._failure(exc, attempt + 1)) from None
                what, hint = f"{exc.code} {exc.status or 'error'}", _server_delay(exc)
            except _TRANSIENT as exc:
                if attempt == self.max_retries:
                    where = self.base_url or "the Gemini API"
                    tries = f"{attempt + 1} attempts"
                    msg = f"gemini: cannot reach {where} after {tries}: {one_line(exc)}"
                    raise LLMError(msg) from None
                what = f"connection error ({type(exc).__name__})"
            except ValueError as exc:  # a body the SDK cannot read (not JSON, wrong shape)
                msg = f"gemini: unreadable response from the API: {one_line(exc, 300)}"
                raise LLMError(msg) from None
            delay = min(self.max_delay_s, self.backoff_s * 2**attempt if hint is None else hint)
            notify(f"gemini: {what}, retry {attempt + 1}/{self.max_retries} in {delay:.1f} s")
            time.sleep(delay)
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


def _summarize(exc: ValidationError, limit: int = 300) -> str:
    """A pydantic error as one short line: `loc: message; ...`."""
    parts = []
    for error in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in error["loc"])
        parts.append(f"{loc}: {error['msg']}" if loc else error["msg"])
    return one_line("; ".join(parts), limit)


def _server_delay(exc: errors.APIError) -> float | None:
    """Seconds the server asked us to wait: Retry-After, or google.rpc.RetryInfo."""
    headers = getattr(exc.response, "headers", None) or {}
    if (value := headers.get("retry-after")) and (found := _SECONDS.match(str(value))):
        return float(found.group(1))
    details = exc.details.get("error", exc.details) if isinstance(exc.details, dict) else {}
    for detail in details.get("details") or []:
        if not isinstance(detail, dict) or "RetryInfo" not in str(detail.get("@type", "")):
            continue
        if found := _SECONDS.match(str(detail.get("retryDelay", ""))):
            return float(found.group(1))
    return None
