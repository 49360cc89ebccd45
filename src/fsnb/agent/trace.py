"""The trace: an exploration's events folded into one row per step.

The one projection behind every view: `ExplorationResult.steps()` and `trace_df()`, the
static markdown and HTML renderings, the terminal's live panels and the widget's trace rows.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from fsnb.agent import events as ev

RowKind = Literal["tool_call", "go_deeper", "ask_human", "stop", "error"]

#: The columns of `trace_df()`, in order.
COLUMNS = (
    "step",
    "kind",
    "phase",
    "tool",
    "target",
    "args",
    "reason",
    "result",
    "ok",
    "duration_ms",
    "result_chars",
    "truncated",
    "at",
)


@dataclass
class TraceRow:
    """One step: what the agent did (`kind`, `tool`, `target`), why, and how it went.

    `result` is what came back: the tool's output as the LLM saw it, the human's answer,
    the final answer, or the error. `ok` is None while the step is still running. `data`
    is a tool's `ToolOutcome.data`, for views; it is not one of the columns.
    """

    step: int
    kind: RowKind
    phase: str
    tool: str | None = None
    target: str = ""
    args: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    result: str | None = None
    ok: bool | None = None
    duration_ms: float | None = None
    result_chars: int | None = None
    truncated: bool = False
    at: float = 0.0
    data: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def action(self) -> str:
        """The tool's name, or the kind of step for the others (stop, go_deeper, ...)."""
        return self.tool or self.kind

    @property
    def finished(self) -> bool:
        return self.ok is not None

    def to_dict(self) -> dict[str, Any]:
        """The columns (`COLUMNS`), without `data`."""
        row = asdict(replace(self, data={}))
        del row["data"]
        return row


class Trace:
    """Folds events into rows as they arrive; `add` returns the row an event made or changed."""

    def __init__(self) -> None:
        self.rows: list[TraceRow] = []
        self._calls: dict[int, TraceRow] = {}  # step -> its tool call, until the result
        self._asks: dict[int, TraceRow] = {}  # step -> its question, until the reply

    def add(self, event: ev.Event) -> TraceRow | None:
        """Fold one event in; None for events that make no row (start, usage)."""
        if isinstance(event, ev.ToolResult):
            return self._tool_result(event)
        if isinstance(event, ev.HumanReply):
            row = self._asks.pop(event.step, None)
            if row is not None:
                note = "(no answer; the default) " if event.defaulted else ""
                row.result, row.ok, row.at = f"{note}{event.answer}", True, event.at
            return row
        row = _new_row(event)
        if row is None:
            return None
        if row.kind == "tool_call":
            self._calls[row.step] = row
        elif row.kind == "ask_human":
            self._asks[row.step] = row
        self.rows.append(row)
        return row

    def extend(self, events: Iterable[ev.Event]) -> Trace:
        for event in events:
            self.add(event)
        return self

    def _tool_result(self, e: ev.ToolResult) -> TraceRow:
        row = self._calls.pop(e.step, None)
        if row is None:  # a result whose call was not seen
            row = TraceRow(e.step, "tool_call", e.phase, e.tool, e.target, dict(e.args))
            self.rows.append(row)
        row.result, row.ok, row.truncated, row.at = e.result, e.ok, e.truncated, e.at
        row.duration_ms, row.result_chars, row.data = e.duration_ms, e.chars, e.data
        return row


def _new_row(e: ev.Event) -> TraceRow | None:
    row = TraceRow(e.step, "error", "", at=e.at)
    if isinstance(e, ev.ToolCall):
        row.kind, row.phase, row.tool, row.target = "tool_call", e.phase, e.tool, e.target
        row.args, row.reason = dict(e.args), e.reason
    elif isinstance(e, ev.Navigate):
        row.kind, row.phase, row.target, row.ok = "go_deeper", "navigate", e.directory, True
        row.args, row.reason = {"directory": e.directory}, e.reason
    elif isinstance(e, ev.AskHuman):
        row.kind, row.phase, row.target = "ask_human", "ask", e.question
        row.args, row.reason = {"question": e.question}, e.reason
    elif isinstance(e, ev.Answer):
        row.kind, row.phase, row.reason, row.ok = "stop", "answer", e.reason, True
        row.result, row.result_chars = e.answer, len(e.answer)
    elif isinstance(e, ev.Error):
        row.phase = "retry" if e.recoverable else "error"
        row.target, row.result, row.ok = e.message, e.message, False
    else:
        return None
    return row


def trace_rows(events: Iterable[ev.Event]) -> list[TraceRow]:
    """One row per step of a run (or of the part of it seen so far)."""
    return Trace().extend(events).rows
