"""The openai backend: the official openai SDK against OpenAI or any server that speaks its
Chat Completions API (Ollama, vLLM, llama.cpp's server, LM Studio); `ollama` is a preset.

The server comes from `base_url=` (`--base-url`) or the SDK's own `OPENAI_BASE_URL`, the key
from `OPENAI_API_KEY` (a local server needs none). The Action is asked for as structured
output (`response_format` with its JSON schema); a server that rejects that is asked in
JSON mode with the schema in the system prompt, and the trace says so. Retries are ours
and visible, as for gemini: the SDK's own are off.
"""

from __future__ import annotations

import json
from typing import Any

import openai
from openai.types.chat import ChatCompletion

from fsnb import config
from fsnb.agent.usage import PRICES
from fsnb.errors import one_line
from fsnb.llm.retry import RETRY_CODES, Backoff, retry_after
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
    Completion,
    ask_for_action,
    ask_for_json,
    json_reader,
    schema_instruction,
)

KEY_VARIABLE = "OPENAI_API_KEY"
BASE_URL_VARIABLE = "OPENAI_BASE_URL"
DEFAULT_MODEL = "gpt-4.1-mini"
OLLAMA_URL = "http://localhost:11434/v1"
#: Sent to a server that checks no key: the SDK will not go without one.
NO_KEY = "unused"


def _schema_format(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": False}}


_SCHEMA_FORMAT = _schema_format("Action", ACTION_SCHEMA)
_JSON_FORMAT = {"type": "json_object"}
_BAD_FINISH = frozenset({"length", "content_filter"})


class OpenAILLM:
    """Asks a Chat Completions server for the next Action; usage comes from `usage`."""

    key_variables = (KEY_VARIABLE,)
    base_url_variables = (BASE_URL_VARIABLE,)
    #: OpenAI's models fsnb knows the price of (a server of another kind lists its own).
    models = tuple(name for name in PRICES if name.startswith("gpt-"))
    default_model = DEFAULT_MODEL

    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        backend: str = "openai",
        max_retries: int = 4,
        max_invalid: int = 2,
        backoff_s: float = 1.0,
        max_delay_s: float = 30.0,
        timeout_s: float = 120.0,
        temperature: float | None = 0.0,
    ) -> None:
        self.backend = backend
        self.base_url = base_url or config.setting((BASE_URL_VARIABLE,))
        key = api_key or config.setting((KEY_VARIABLE,))
        if not key and self.base_url is None:
            msg = (
                f"no OpenAI API key: set {KEY_VARIABLE} (or put it in .env); for a local "
                f"server (Ollama, vLLM, llama.cpp, LM Studio) give --base-url or "
                f"{BASE_URL_VARIABLE} instead; or use --llm offline"
            )
            raise MissingKey(msg)
        self.model = model or config.model_from_env() or DEFAULT_MODEL
        self.max_invalid = max_invalid
        self.retries = Backoff(max_retries, backoff_s, max_delay_s)
        self.temperature = temperature
        #: JSON mode with the schema in the prompt, once the server rejected the schema.
        self.json_mode = False
        self.client = openai.OpenAI(
            api_key=key or NO_KEY, base_url=self.base_url, timeout=timeout_s, max_retries=0
        )

    def next_action(self, conversation: Conversation, notify: Notify) -> Reply:
        """One Action, re-asking (with the error fed back) while the reply is not valid."""

        def ask(messages: list[Message]) -> Completion:
            return self._complete(conversation.system, messages, notify)

        return ask_for_action(
            ask, conversation.messages(), notify, backend=self.backend, max_invalid=self.max_invalid
        )

    def complete_json(
        self, system: str, prompt: str, schema: dict[str, Any], notify: Notify
    ) -> JsonReply:
        """One JSON value matching `schema` (as structured output), re-asked while it does not."""
        shape = _schema_format("Reply", schema)
        words = "Reply with exactly one JSON value, and nothing else, that matches this JSON "
        words += f"schema:\n{json.dumps(schema, separators=(',', ':'))}"

        def ask(messages: list[Message]) -> Completion:
            return self._complete(system, messages, notify, shape, words)

        return ask_for_json(
            ask,
            [Message("user", prompt)],
            notify,
            read=json_reader(schema),
            backend=self.backend,
            max_invalid=self.max_invalid,
            what="JSON reply",
        )

    def _complete(
        self,
        system: str,
        messages: list[Message],
        notify: Notify,
        shape: dict[str, Any] = _SCHEMA_FORMAT,
        words: str | None = None,
    ) -> Completion:
        """One reply, after dropping what the server rejects (the schema, the temperature).
        `shape` is the structured-output format; `words` the schema said in JSON mode."""
        while True:
            try:
                request = self._request(system, messages, shape, words or schema_instruction())
                return _completion(self._send(request, notify))
            except openai.BadRequestError as exc:
                if not self._degrade(exc, notify):
                    raise LLMError(self._failure(exc, 1)) from None

    def _request(
        self, system: str, messages: list[Message], shape: dict[str, Any], words: str
    ) -> dict[str, Any]:
        if self.json_mode:
            system = f"{system}\n\n{words}"
        chat = [{"role": "system", "content": system}]
        chat += [{"role": m.role, "content": m.text} for m in messages]
        request = {
            "model": self.model,
            "messages": chat,
            "response_format": _JSON_FORMAT if self.json_mode else shape,
        }
        if self.temperature is not None:
            request["temperature"] = self.temperature
        return request

    def _degrade(self, exc: openai.BadRequestError, notify: Notify) -> bool:
        """Stop sending what an HTTP 400 names, saying so; False when nothing is left."""
        said = _message(exc).lower()
        if not self.json_mode and ("response_format" in said or "json_schema" in said):
            self.json_mode = True
            notify(
                f"{self.backend}: the server rejected the JSON schema (HTTP 400), "
                "asking in JSON mode with the schema in the prompt"
            )
            return True
        if self.temperature is not None and "temperature" in said:
            self.temperature = None
            notify(f"{self.backend}: the model rejected temperature (HTTP 400), asking without")
            return True
        return False

    def _send(self, request: dict[str, Any], notify: Notify) -> ChatCompletion:
        """One chat.completions call, retried on 429/5xx and connection errors; a 400 is
        raised as it is, for `_degrade`."""
        last = self.retries.max_retries
        for attempt in range(last + 1):
            asked: float | None = None
            try:
                return self.client.chat.completions.create(**request)
            except openai.BadRequestError:
                raise
            except openai.APIStatusError as exc:
                if exc.status_code not in RETRY_CODES or attempt == last:
                    raise LLMError(self._failure(exc, attempt + 1)) from None
                reason = exc.response.reason_phrase or "error"
                what, asked = f"{exc.status_code} {reason}", retry_after(exc.response.headers)
            except openai.APIConnectionError as exc:
                if attempt == last:
                    where = self.base_url or "the OpenAI API"
                    cause = one_line(exc.__cause__ or exc, 300)
                    msg = f"{self.backend}: cannot reach {where} after {attempt + 1} attempts: "
                    raise LLMError(msg + cause) from None
                what = f"connection error ({type(exc.__cause__ or exc).__name__})"
            except (openai.OpenAIError, ValueError) as exc:  # a body that is not JSON
                msg = f"{self.backend}: unreadable response from the server: {one_line(exc, 300)}"
                raise LLMError(msg) from None
            self.retries.wait(self.backend, attempt, what, notify, asked)
        raise AssertionError  # unreachable: the loop returns or raises

    def _failure(self, exc: openai.APIStatusError, attempts: int) -> str:
        after = f" after {attempts} attempts" if attempts > 1 else ""
        text = f"{self.backend}: HTTP {exc.status_code}{after}: {_message(exc)}"
        if exc.status_code in (401, 403):
            text += f" (check {KEY_VARIABLE})"
        return text


def ollama(model: str | None = None, *, base_url: str | None = None, **options: Any) -> OpenAILLM:
    """The openai backend preset for Ollama: `http://localhost:11434/v1`, no key; the model
    from `model` or FSNB_MODEL (one that `ollama list` shows)."""
    model = model or config.model_from_env()
    if not model:
        msg = "--llm ollama needs a model: --model NAME (as `ollama list` shows it) or FSNB_MODEL"
        raise LLMError(msg)
    options.setdefault("api_key", NO_KEY)
    return OpenAILLM(model, base_url=base_url or OLLAMA_URL, backend="ollama", **options)


ollama.server = OLLAMA_URL  # type: ignore[attr-defined]  # what fsnb.llm.catalog asks


def _message(exc: openai.APIStatusError) -> str:
    """The server's own error message, on one line."""
    body = exc.body
    said = body.get("message") if isinstance(body, dict) else body
    return one_line(said or exc.message, 500)


def _completion(response: ChatCompletion) -> Completion:
    """The reply's text and tokens, and what is wrong with it before reading (None: nothing).

    `completion_tokens` includes reasoning tokens; they are counted as thinking instead."""
    usage = response.usage
    details = getattr(usage, "completion_tokens_details", None)  # openai >= 1.47
    thinking = getattr(details, "reasoning_tokens", None) or 0
    cached = getattr(getattr(usage, "prompt_tokens_details", None), "cached_tokens", None) or 0
    tokens = {
        "prompt_tokens": (usage.prompt_tokens if usage else 0) or 0,
        "completion_tokens": max(0, ((usage.completion_tokens if usage else 0) or 0) - thinking),
        "thinking_tokens": thinking,
        "cached_tokens": cached,
    }
    if not response.choices:
        return Completion("", problem="empty reply (no choices)", **tokens)
    choice = response.choices[0]
    text, finish = choice.message.content or "", choice.finish_reason
    if choice.message.refusal:
        return Completion(
            text, problem=f"refused: {one_line(choice.message.refusal, 200)}", **tokens
        )
    if finish in _BAD_FINISH:
        return Completion(
            text, problem=f"the reply stopped early (finish_reason {finish})", **tokens
        )
    if not text.strip():
        return Completion(text, problem=f"empty reply (finish_reason {finish})", **tokens)
    return Completion(text, **tokens)
