"""The openai backend: the official openai SDK against OpenAI or any server that speaks its
Chat Completions API (Ollama, vLLM, llama.cpp's server, LM Studio); `ollama` is a preset.

The server comes from `base_url=` (`--base-url`) or the SDK's own `OPENAI_BASE_URL`, the key
from `OPENAI_API_KEY` (a local server needs none). The schema (the Action's, or any other
for `complete_json`) is asked for as structured output (`response_format`); a server that
rejects that is asked in JSON mode with the schema in the system prompt, and the trace says
so. Retries are ours and visible, as for gemini: the SDK's own are off. `OpenAILLM` is
`ChatPolicy` over `OpenAIModel`.
"""

from __future__ import annotations

from typing import Any

import openai
from openai.types.chat import ChatCompletion

from fsnb import config
from fsnb.errors import one_line
from fsnb.llm.chat import ChatOptions, ChatPolicy
from fsnb.llm.prices import PRICES
from fsnb.llm.retry import RETRY_CODES, Backoff, refused, retry_after, unreachable
from fsnb.protocol import LLMError, Message, MissingKey, Notify
from fsnb.protocol.model import Completion
from fsnb.protocol.structured import schema_instruction
from fsnb.protocol.usage import Tokens

KEY_VARIABLE = "OPENAI_API_KEY"
BASE_URL_VARIABLE = "OPENAI_BASE_URL"
DEFAULT_MODEL = "gpt-4.1-mini"
OLLAMA_URL = "http://localhost:11434/v1"
#: Sent to a server that checks no key: the SDK will not go without one.
NO_KEY = "unused"


_JSON_FORMAT = {"type": "json_object"}
_BAD_FINISH = frozenset({"length", "content_filter"})


class OpenAIOptions(ChatOptions):
    """What the openai backend takes (a local model may answer slowly)."""

    timeout_s: float = 120.0


class OpenAIModel:
    """One chat.completions call (a `ChatModel`); tokens from the response's `usage`."""

    def __init__(self, options: OpenAIOptions, *, backend: str = "openai") -> None:
        self.backend = backend
        self.base_url = options.base_url or config.setting((BASE_URL_VARIABLE,))
        key = options.key() or config.setting((KEY_VARIABLE,))
        if not key and self.base_url is None:
            msg = (
                f"no OpenAI API key: set {KEY_VARIABLE} (or put it in .env); for a local "
                f"server (Ollama, vLLM, llama.cpp, LM Studio) give --base-url or "
                f"{BASE_URL_VARIABLE} instead; or use --llm offline"
            )
            raise MissingKey(msg)
        self.model = options.model or config.model_from_env() or DEFAULT_MODEL
        self.retries = Backoff(options.max_retries, options.backoff_s, options.max_delay_s)
        self.temperature = options.temperature
        #: JSON mode with the schema in the prompt, once the server rejected the schema.
        self.json_mode = False
        self.client = openai.OpenAI(
            api_key=key or NO_KEY, base_url=self.base_url, timeout=options.timeout_s, max_retries=0
        )

    def complete(
        self, system: str, messages: list[Message], schema: dict[str, Any], notify: Notify
    ) -> Completion:
        """One reply, after dropping what the server rejects (the schema, the temperature)."""
        while True:
            try:
                return _completion(self._send(self._request(system, messages, schema), notify))
            except openai.BadRequestError as exc:
                if not self._degrade(exc, notify):
                    raise LLMError(self._failure(exc, 1)) from None

    def _request(
        self, system: str, messages: list[Message], schema: dict[str, Any]
    ) -> dict[str, Any]:
        if self.json_mode:
            system = f"{system}\n\n{schema_instruction(schema)}"
        chat = [{"role": "system", "content": system}]
        chat += [{"role": m.role, "content": m.text} for m in messages]
        request = {
            "model": self.model,
            "messages": chat,
            "response_format": _JSON_FORMAT if self.json_mode else _schema_format(schema),
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
        """One chat.completions call, retried on 429/5xx and connection errors (not a refused
        connection); a 400 is raised as it is, for `_degrade`."""
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
                if attempt == last or refused(exc):  # nothing listens there: no retry
                    where = self.base_url or "the OpenAI API"
                    raise LLMError(unreachable(self.backend, where, attempt + 1, exc)) from None
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


class OpenAILLM(ChatPolicy):
    """The openai backend: asks a Chat Completions server for the next Action (`ChatPolicy`
    over `OpenAIModel`); `backend` names a preset of it (ollama)."""

    Options = OpenAIOptions
    key_variables = (KEY_VARIABLE,)
    base_url_variables = (BASE_URL_VARIABLE,)
    #: OpenAI's models fsnb knows the price of (a server of another kind lists its own).
    models = tuple(name for name in PRICES if name.startswith("gpt-"))
    default_model = DEFAULT_MODEL

    def __init__(
        self, model: str | None = None, *, backend: str = "openai", **options: Any
    ) -> None:
        given = self.Options(model=model, **options)
        super().__init__(OpenAIModel(given, backend=backend), max_invalid=given.max_invalid)


def ollama(model: str | None = None, *, base_url: str | None = None, **options: Any) -> OpenAILLM:
    """The openai backend preset for Ollama: `http://localhost:11434/v1`, no key; the model
    from `model` or FSNB_MODEL (one that `ollama list` shows)."""
    model = model or config.model_from_env()
    if not model:
        msg = "--llm ollama needs a model: --model NAME (as `ollama list` shows it) or FSNB_MODEL"
        raise LLMError(msg)
    options.setdefault("api_key", NO_KEY)
    return OpenAILLM(model, base_url=base_url or OLLAMA_URL, backend="ollama", **options)


# what fsnb.llm.catalog and the registry ask
ollama.server = OLLAMA_URL  # type: ignore[attr-defined]
ollama.Options = OpenAIOptions  # type: ignore[attr-defined]


def _schema_format(schema: dict[str, Any]) -> dict[str, Any]:
    """`response_format` for structured output held to `schema` (named by its title)."""
    name = str(schema.get("title", "Reply"))
    return {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": False}}


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
    tokens = Tokens(
        prompt=(usage.prompt_tokens if usage else 0) or 0,
        completion=max(0, ((usage.completion_tokens if usage else 0) or 0) - thinking),
        thinking=thinking,
        cached=getattr(getattr(usage, "prompt_tokens_details", None), "cached_tokens", None) or 0,
    )
    if not response.choices:
        return Completion("", tokens, "empty reply (no choices)")
    choice = response.choices[0]
    text, finish = choice.message.content or "", choice.finish_reason
    if choice.message.refusal:
        return Completion(text, tokens, f"refused: {one_line(choice.message.refusal, 200)}")
    if finish in _BAD_FINISH:
        return Completion(text, tokens, f"the reply stopped early (finish_reason {finish})")
    if not text.strip():
        return Completion(text, tokens, f"empty reply (finish_reason {finish})")
    return Completion(text, tokens)
