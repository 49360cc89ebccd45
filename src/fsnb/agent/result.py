"""ExplorationResult: the answer, its checked citations, usage and the event trace."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from fsnb.agent import events as ev
from fsnb.agent.answer_html import answer_html
from fsnb.agent.citations import Citation
from fsnb.agent.trace import COLUMNS as TRACE_COLUMNS
from fsnb.agent.trace import TraceRow, trace_rows
from fsnb.agent.usage import Usage

if TYPE_CHECKING:
    import pandas as pd

Status = Literal["done", "error", "cancelled"]
#: The run's error when it was stopped from outside (`Explorer.cancel()`, or `stop()` that
#: got no answer).
CANCELLED = "cancelled"
BACKEND_NOTES = {
    "offline": "offline extractive backend: passages selected from the documents, no LLM",
    "replay": "replay backend: scripted actions, no LLM",
}


@dataclass
class ExplorationResult:
    """What a run found. A cancelled or failed run keeps its trace and `documents_read`;
    a `stopped` one (`Explorer.stop()`) answered from the documents read by then."""

    task: str
    folder: str
    answer: str
    citations: list[Citation]
    usage: Usage
    events: list[ev.Event] = field(default_factory=list)
    backend: str = ""
    model: str = ""
    error: str | None = None
    #: Files the agent read (parsed, or read in part), in the order of their first read.
    documents_read: list[str] = field(default_factory=list)
    #: Stopped from outside, then answered from what was read.
    stopped: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def status(self) -> Status:
        """How the run ended: done (an answer), cancelled (stopped from outside), or error."""
        if self.error is None:
            return "done"
        return "cancelled" if self.error == CANCELLED else "error"

    @property
    def backend_note(self) -> str:
        return BACKEND_NOTES.get(self.backend, f"{self.backend} ({self.model})")

    def answer_with_sources(self) -> str:
        """The answer followed by its sources (unless it already lists them)."""
        if not self.citations or "\nSources:" in self.answer:
            return self.answer
        lines = [self.answer.rstrip(), "", "Sources:"]
        for c in self.citations:
            where = f"{c.path}, page {c.page}" if c.page else c.path or "(no source)"
            flag = "" if c.verified else f" [unverified: {c.problem}]"
            quote = " ".join(c.quote.split())
            lines.append(f'- [{c.id}] {where}: "{quote}"{flag}')
        return "\n".join(lines)

    def trace(self) -> list[TraceRow]:
        """One row per step: tool calls with their results, navigation, questions, the end."""
        return trace_rows(self.events)

    def steps(self) -> list[dict[str, Any]]:
        """The trace as dicts (see `fsnb.agent.trace.TraceRow`)."""
        return [row.to_dict() for row in self.trace()]

    def to_dict(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "folder": self.folder,
            "answer": self.answer_with_sources(),
            "citations": [c.to_dict() for c in self.citations],
            "usage": self.usage.to_dict(),
            # without the tool outputs (`result_chars` gives their size): the JSON stays small
            "steps": [{k: v for k, v in s.items() if k != "result"} for s in self.steps()],
            "llm": {"backend": self.backend, "model": self.model, "note": self.backend_note},
            "error": self.error,
            "documents_read": list(self.documents_read),
            "stopped": self.stopped,
        }

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), default=str, **kwargs)

    def citations_df(self) -> pd.DataFrame:
        import pandas as pd

        columns = ["id", "path", "page", "quote", "verified", "problem"]
        return pd.DataFrame([c.to_dict() for c in self.citations], columns=columns)

    def trace_df(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(self.steps(), columns=list(TRACE_COLUMNS))

    def summary(self) -> str:
        u = self.usage
        return (
            f"{u.llm_calls} LLM calls, {u.total_tokens:,} tokens (${u.cost_usd:.4f}); "
            f"{u.documents_scanned} documents scanned, {u.documents_parsed} parsed; "
            f"{len(self.steps())} steps; {self.backend_note}"
        )

    def _repr_markdown_(self) -> str:
        head = f"**{self.task}**\n\n"
        if self.error:
            return f"{head}Error: {self.error}\n\n_{self.summary()}_"
        return f"{head}{self.answer_with_sources()}\n\n_{self.summary()}_"

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>[{c.id}]</td><td>{html.escape(c.path)}</td><td>{c.page or ''}</td>"
            f"<td>{html.escape(c.quote)}</td><td>{_verdict(c)}</td></tr>"
            for c in self.citations
        )
        body = answer_html(self.answer) if not self.error else _error_html(self.error)
        table = (
            "<table><tr><th></th><th>file</th><th>page</th><th>quote</th><th>verified</th></tr>"
            f"{rows}</table>"
            if rows
            else ""
        )
        return (
            f"<div class='fsnb-result'><p><b>{html.escape(self.task)}</b></p>"
            f"<div class='fsnb-answer'>{body}</div>{table}"
            f"<p><i>{html.escape(self.summary())}</i></p></div>"
        )


def _error_html(error: str) -> str:
    return f"<p style='white-space:pre-wrap'>Error: {html.escape(error)}</p>"


def _verdict(citation: Citation) -> str:
    return "yes" if citation.verified else html.escape(f"no: {citation.problem}")
