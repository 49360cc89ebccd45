"""Typed events of an exploration. Imports nothing from fsnb.

One stream of these feeds every view; `fsnb.agent.trace` folds it into the rows that the
widget, the CLI's live panels, the static renderings and `ExplorationResult.trace_df()` show.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar


@dataclass(kw_only=True)
class Event:
    """Base: `step` is the step number (0 before the first), `at` seconds since start."""

    kind: ClassVar[str] = "event"
    step: int = 0
    at: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **asdict(self)}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Event:
        cls = EVENT_TYPES[data["kind"]]
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclass(kw_only=True)
class Started(Event):
    kind: ClassVar[str] = "started"
    task: str
    folder: str
    backend: str
    model: str
    max_steps: int
    #: How the run starts ("scan": every document previewed; "index": the index's best
    #: passages for the question) and why (`fsnb.agent.start`).
    start: str = "scan"
    start_reason: str = ""


@dataclass(kw_only=True)
class ToolCall(Event):
    """Emitted before the tool runs."""

    kind: ClassVar[str] = "tool_call"
    tool: str
    args: dict[str, Any]
    reason: str
    phase: str
    target: str = ""


@dataclass(kw_only=True)
class ToolResult(Event):
    kind: ClassVar[str] = "tool_result"
    tool: str
    args: dict[str, Any]
    result: str
    duration_ms: float
    chars: int
    phase: str = ""
    target: str = ""
    truncated: bool = False
    ok: bool = True
    withheld: int = 0  # secret values masked out of `result`
    data: dict[str, Any] = field(default_factory=dict)  # the outcome's data (not for the LLM)


@dataclass(kw_only=True)
class Navigate(Event):
    kind: ClassVar[str] = "navigate"
    directory: str
    reason: str


@dataclass(kw_only=True)
class AskHuman(Event):
    kind: ClassVar[str] = "ask_human"
    question: str
    reason: str = ""


@dataclass(kw_only=True)
class HumanReply(Event):
    kind: ClassVar[str] = "human_reply"
    question: str
    answer: str
    defaulted: bool = False


@dataclass(kw_only=True)
class Answer(Event):
    kind: ClassVar[str] = "answer"
    answer: str
    reason: str = ""
    citations: list[dict[str, Any]] = field(default_factory=list)


@dataclass(kw_only=True)
class Error(Event):
    """A problem; `recoverable` ones (retries, rejected replies) do not end the run."""

    kind: ClassVar[str] = "error"
    message: str
    recoverable: bool = False


@dataclass(kw_only=True)
class UsageUpdate(Event):
    """Cumulative usage after each LLM call."""

    kind: ClassVar[str] = "usage"
    llm_calls: int
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int
    cost_usd: float
    cached_tokens: int = 0  # of prompt_tokens, served from the provider's prompt cache


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        Started,
        ToolCall,
        ToolResult,
        Navigate,
        AskHuman,
        HumanReply,
        Answer,
        Error,
        UsageUpdate,
    )
}
