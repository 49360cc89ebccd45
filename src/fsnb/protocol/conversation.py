"""What every LLM backend implements: the conversation it is given and the reply it returns."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from fsnb.errors import FsnbError
from fsnb.protocol.action import Action
from fsnb.protocol.outcome import ToolOutcome
from fsnb.protocol.receipts import SHORT, exchange_receipt, receipt
from fsnb.protocol.usage import NO_TOKENS, Tokens

if TYPE_CHECKING:
    from fsnb.documents.model import Document


class LLMError(FsnbError):
    """The LLM could not give a usable reply (after retries).

    The tokens of the calls that were made before giving up are kept, so they are billed.
    """

    def __init__(self, message: str, *, tokens: Tokens = NO_TOKENS) -> None:
        super().__init__(message)
        self.tokens = tokens


class MissingKey(LLMError):
    """A backend needs an API key that is not set."""


@dataclass
class Message:
    role: Literal["user", "assistant"]
    text: str


@dataclass
class Turn:
    """One step: the action taken and what the loop sent back.

    `result` is the text the LLM reads; `outcome` is the tool's typed outcome (None for
    steps that ran no tool), with `cut` characters of its text left out at the size budget.
    """

    action: Action
    result: str
    outcome: ToolOutcome | None = None
    cut: int = 0

    @property
    def ok(self) -> bool:
        """Whether the step succeeded (a step without a tool always does)."""
        return self.outcome is None or self.outcome.ok


@dataclass
class Exchange:
    """An earlier question of the same thread (a follow-up continues it): the question,
    the answer given, and the steps taken to reach it."""

    question: str
    answer: str
    turns: list[Turn] = field(default_factory=list)


class Documents(Protocol):
    """The folder's documents as the explorer sees them through its sandbox (relative
    paths, parsed through the parse cache). Handed to backends that work from the text
    itself (the offline strategy); a chat model sees only what the tools returned."""

    def paths(self) -> list[str]: ...

    def document(self, path: str) -> Document: ...


@dataclass
class Conversation:
    """Everything a backend may look at to choose the next action."""

    task: str
    root: str
    system: str
    opening: str
    tools: list[dict[str, Any]]
    turns: list[Turn] = field(default_factory=list)
    last_step: bool = False
    documents: Documents | None = None
    #: The thread's earlier questions, oldest first: empty unless this is a follow-up.
    earlier: list[Exchange] = field(default_factory=list)
    #: The documents the run's index start found for the question, best first (empty: the
    #: run starts with a scan of every document; `fsnb.agent.start`).
    start_hits: list[str] = field(default_factory=list)

    #: Characters one call may send (system prompt + messages); None: no budget. Over it,
    #: the oldest tool results become receipts, never the latest one.
    budget_chars: int | None = None
    #: Tool results of the last `keep_turns` turns are always shown whole.
    keep_turns: int = 2

    def messages(self) -> list[Message]:
        """The chat transcript: opening (after receipts of the thread's earlier questions),
        then each action (assistant) and its result (user). Results the model has moved on
        from (older than `keep_turns`, or the oldest ones while over `budget_chars`) are
        replaced by receipts that say what was left out and how to see it again."""
        results = [turn.result for turn in self.turns]
        last = len(results) - 1
        for i in range(last + 1 - self.keep_turns):
            results[i] = self._receipt(i)
        actions = [t.action.model_dump_json(exclude_defaults=True) for t in self.turns]
        opening = self._opening()
        size = len(self.system) + len(opening) + sum(map(len, actions)) + sum(map(len, results))
        for i in range(last):  # over the budget: the oldest results first, never the last
            if self.budget_chars is None or size <= self.budget_chars:
                break
            short = self._receipt(i)
            size -= len(results[i]) - len(short)
            results[i] = short
        out = [Message("user", opening)]
        for action, result in zip(actions, results, strict=True):
            out.append(Message("assistant", action))
            out.append(Message("user", result))
        if self.last_step:
            out.append(
                Message("user", "This is your last step: reply with kind=stop and your answer.")
            )
        return out

    def _receipt(self, index: int) -> str:
        turn = self.turns[index]
        if len(turn.result) <= SHORT or not turn.action.tool:
            return turn.result
        short = receipt(turn, self.task)
        return short if len(short) < len(turn.result) else turn.result

    def _opening(self) -> str:
        if not self.earlier:
            return self.opening
        thread = "\n\n".join(exchange_receipt(n, x) for n, x in enumerate(self.earlier, 1))
        return (
            f"This question follows earlier ones of the same thread.\n\n{thread}\n\n{self.opening}"
        )


@dataclass
class Reply:
    """A backend's reply: the next action and what the calls for it cost."""

    action: Action
    tokens: Tokens = NO_TOKENS


@dataclass
class JsonReply:
    """A structured-output reply: the JSON value and what the calls for it cost."""

    value: Any
    tokens: Tokens = NO_TOKENS


Notify = Callable[[str], None]


@runtime_checkable
class LLM(Protocol):
    """An LLM backend. `notify` reports recoverable trouble (a retry) to the trace."""

    backend: str
    model: str

    def next_action(self, conversation: Conversation, notify: Notify) -> Reply: ...


@runtime_checkable
class StructuredLLM(Protocol):
    """A backend that can also return one JSON value matching a JSON schema (re-asked,
    with the error fed back, while the reply does not match; `LLMError` when none does)."""

    backend: str
    model: str

    def complete_json(
        self, system: str, prompt: str, schema: dict[str, Any], notify: Notify
    ) -> JsonReply: ...
