"""ExplorationResult: the answer, its checked citations, usage and the event trace."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fsnb.agent import events as ev
from fsnb.agent.citations import Citation
from fsnb.agent.usage import Usage

if TYPE_CHECKING:
    import pandas as pd

BACKEND_NOTES = {
    "offline": "offline extractive backend: passages selected from the documents, no LLM",
    "replay": "replay backend: scripted actions, no LLM",
}


@dataclass
class ExplorationResult:
    task: str
    folder: str
    answer: str
    citations: list[Citation]
    usage: Usage
    events: list[ev.Event] = field(default_factory=list)
    backend: str = ""
    model: str = ""
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

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

    def steps(self) -> list[dict[str, Any]]:
        """One row per step: tool calls with their results, navigation, questions, the end."""
        reasons: dict[int, str] = {}
        rows: list[dict[str, Any]] = []
        for e in self.events:
            row: dict[str, Any] | None = None
            if isinstance(e, ev.ToolCall):
                reasons[e.step] = e.reason
            elif isinstance(e, ev.ToolResult):
                row = {
                    "kind": "tool_call",
                    "tool": e.tool,
                    "args": e.args,
                    "reason": reasons.get(e.step, ""),
                    "phase": e.phase,
                    "duration_ms": e.duration_ms,
                    "result_chars": e.chars,
                }
            elif isinstance(e, ev.Navigate):
                row = {
                    "kind": "go_deeper",
                    "args": {"directory": e.directory},
                    "reason": e.reason,
                    "phase": "navigate",
                }
            elif isinstance(e, ev.AskHuman):
                row = {
                    "kind": "ask_human",
                    "args": {"question": e.question},
                    "reason": e.reason,
                    "phase": "ask",
                }
            elif isinstance(e, ev.Answer):
                row = {
                    "kind": "stop",
                    "reason": e.reason,
                    "phase": "answer",
                    "result_chars": len(e.answer),
                }
            elif isinstance(e, ev.Error):
                row = {
                    "kind": "error",
                    "reason": e.message,
                    "phase": "retry" if e.recoverable else "error",
                }
            if row is not None:
                base = {
                    "step": e.step,
                    "kind": "",
                    "tool": None,
                    "args": {},
                    "reason": "",
                    "phase": "",
                    "duration_ms": None,
                    "result_chars": None,
                }
                rows.append({**base, **row})
        return rows

    def to_dict(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "folder": self.folder,
            "answer": self.answer_with_sources(),
            "citations": [c.to_dict() for c in self.citations],
            "usage": self.usage.to_dict(),
            "steps": self.steps(),
            "llm": {"backend": self.backend, "model": self.model, "note": self.backend_note},
            "error": self.error,
        }

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), default=str, **kwargs)

    def citations_df(self) -> pd.DataFrame:
        import pandas as pd

        columns = ["id", "path", "page", "quote", "verified", "problem"]
        return pd.DataFrame([c.to_dict() for c in self.citations], columns=columns)

    def trace_df(self) -> pd.DataFrame:
        import pandas as pd

        columns = ["step", "kind", "tool", "args", "reason", "phase", "duration_ms", "result_chars"]
        return pd.DataFrame(self.steps(), columns=columns)

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
        body = html.escape(self.answer if not self.error else f"Error: {self.error}")
        table = (
            "<table><tr><th></th><th>file</th><th>page</th><th>quote</th><th>verified</th></tr>"
            f"{rows}</table>"
            if rows
            else ""
        )
        return (
            f"<div class='fsnb-result'><p><b>{html.escape(self.task)}</b></p>"
            f"<p style='white-space:pre-wrap'>{body}</p>{table}"
            f"<p><i>{html.escape(self.summary())}</i></p></div>"
        )


def _verdict(citation: Citation) -> str:
    return "yes" if citation.verified else html.escape(f"no: {citation.problem}")
