"""Structured output, for every chat backend: the JSON schema sent to the model, the reading
of a reply (into an `Action`, or any JSON value checked against a schema), and the loop that
re-asks with the error fed back.

`ask_for_json` (and `ask_for_action` on it) runs over one function, `ask(messages) ->
Completion`; `fsnb.llm.chat.ChatPolicy`, its one caller, makes that of a `ChatModel`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import ValidationError

from fsnb.errors import one_line
from fsnb.protocol.action import Action
from fsnb.protocol.conversation import JsonReply, LLMError, Message, Notify, Reply
from fsnb.protocol.model import Completion
from fsnb.protocol.usage import NO_TOKENS

T = TypeVar("T")

#: How many characters of a problem are fed back and shown.
PROBLEM_CHARS = 300
_FENCE = re.compile(r"^```[A-Za-z]*\s*\n(.*)\n\s*```$", re.DOTALL)


def _without_defaults(schema: Any) -> Any:
    """The schema minus `default` keywords, which Gemini's JSON Schema subset does not list."""
    if isinstance(schema, dict):
        return {k: _without_defaults(v) for k, v in schema.items() if k != "default"}
    if isinstance(schema, list):
        return [_without_defaults(v) for v in schema]
    return schema


#: What is sent as the structured-output schema: pydantic's JSON schema of `Action`.
ACTION_SCHEMA: dict[str, Any] = _without_defaults(Action.model_json_schema())


def schema_instruction(schema: dict[str, Any] = ACTION_SCHEMA) -> str:
    """The schema as words, for a model that can be held to JSON but not to a schema."""
    value = "object" if schema.get("type") == "object" else "value"
    return (
        f"Reply with exactly one JSON {value}, and nothing else, that matches this JSON "
        f"schema:\n{json.dumps(schema, separators=(',', ':'))}"
    )


class InvalidReply(ValueError):
    """A reply that is not a valid Action; the message is one short line saying why."""


def _unfenced(text: str) -> str:
    """The reply's text, stripped, without a ```json fence around it; `InvalidReply` if empty."""
    stripped = text.strip()
    if not stripped:
        msg = "empty reply"
        raise InvalidReply(msg)
    if fenced := _FENCE.match(stripped):
        stripped = fenced.group(1)
    return stripped


def read_action(text: str) -> Action:
    """The Action in a reply's text (a ```json fence around it is tolerated)."""
    try:
        return Action.model_validate_json(_unfenced(text))
    except ValidationError as exc:
        raise InvalidReply(summarize(exc)) from None


def json_reader(schema: dict[str, Any]) -> Callable[[str], Any]:
    """A `read` for `ask_for_json`: the reply's JSON value, checked against `schema`."""
    import jsonschema  # ~1.5 s to import (its format checkers): only when asked for rows

    kind = jsonschema.Draft202012Validator
    validator = kind(schema, format_checker=kind.FORMAT_CHECKER)  # "date" is YYYY-MM-DD

    def read(text: str) -> Any:
        try:
            value = json.loads(_unfenced(text))
        except json.JSONDecodeError as exc:
            msg = f"not JSON: {exc}"
            raise InvalidReply(msg) from None
        if error := jsonschema.exceptions.best_match(validator.iter_errors(value)):
            where = "/".join(str(p) for p in error.absolute_path)
            problem = f"{where}: {error.message}" if where else error.message
            raise InvalidReply(one_line(problem, PROBLEM_CHARS)) from None
        return value

    return read


def summarize(exc: ValidationError, limit: int = PROBLEM_CHARS) -> str:
    """A pydantic error as one short line: `loc: message; ...`."""
    parts = []
    for error in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in error["loc"])
        parts.append(f"{loc}: {error['msg']}" if loc else error["msg"])
    return one_line("; ".join(parts), limit)


def feedback(problem: str, what: str = "Action") -> str:
    """The user message that tells the model what was wrong with its reply."""
    return f"Your reply was not a valid {what}: {problem}. Reply with one JSON {what}."


Ask = Callable[[list[Message]], Completion]


def ask_for_json(
    ask: Ask,
    messages: list[Message],
    notify: Notify,
    *,
    read: Callable[[str], T],
    backend: str,
    max_invalid: int = 2,
    what: str = "Action",
) -> JsonReply:
    """Ask until `read` accepts a reply (it raises `InvalidReply` otherwise), at most
    `max_invalid` more times; `what` names the value in messages.

    An invalid reply is said through `notify`, then kept in the transcript (as the
    assistant's) with the error fed back (as the user's). The tokens of every call are
    summed into the JsonReply, or into the LLMError raised when no valid reply came.
    """
    messages = list(messages)
    tokens = NO_TOKENS
    for attempt in range(max_invalid + 1):
        try:
            completion = ask(messages)
        except LLMError as exc:  # keep the tokens of the replies that came before
            raise LLMError(str(exc), tokens=tokens + exc.tokens) from None
        tokens += completion.tokens
        problem = completion.problem
        if problem is None:
            try:
                return JsonReply(read(completion.text), tokens)
            except InvalidReply as exc:
                problem = str(exc)
        if attempt == max_invalid:
            msg = f"{backend}: no valid {what} after {attempt + 1} replies; last: {problem}"
            raise LLMError(msg, tokens=tokens)
        notify(f"{backend}: invalid reply ({problem}), asking again {attempt + 1}/{max_invalid}")
        if completion.text.strip():
            messages.append(Message("assistant", completion.text))
        messages.append(Message("user", feedback(problem, what)))
    raise AssertionError  # unreachable: the loop returns or raises


def ask_for_action(
    ask: Ask, messages: list[Message], notify: Notify, *, backend: str, max_invalid: int = 2
) -> Reply:
    """Ask until a reply is a valid Action (`ask_for_json` with `read_action`)."""
    reply = ask_for_json(
        ask, messages, notify, read=read_action, backend=backend, max_invalid=max_invalid
    )
    return Reply(reply.value, reply.tokens)
