"""ExplorationResult: the answer, its checked citations, usage and the event trace."""

from __future__ import annotations

import html
import json
import os
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol
from urllib.parse import urlsplit, urlunsplit

from fsnb.agent import events as ev
from fsnb.agent.answer_html import answer_html, inert_markdown
from fsnb.agent.citations import Citation
from fsnb.agent.thread import exchange_from_dict, exchange_to_dict, turn_from_dict, turn_to_dict
from fsnb.agent.trace import COLUMNS as TRACE_COLUMNS
from fsnb.agent.trace import TraceRow, trace_rows
from fsnb.agent.usage import Usage
from fsnb.errors import FsnbError
from fsnb.protocol import Exchange, Turn
from fsnb.text.markup import html_root

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
#: The format of `ExplorationResult.save` files.
SAVED_VERSION = 1
#: Said wherever a run is shown that ran with `reveal_secrets=True`.
SECRETS_NOTE = "secrets revealed to the model: secret values in files were sent unmasked"


class Continues(Protocol):
    """What continues a thread (an `Explorer`)."""

    def run(
        self,
        task: str,
        on_event: Callable[[ev.Event], None] | None = None,
        *,
        after: ExplorationResult | None = None,
    ) -> ExplorationResult: ...


def new_id() -> str:
    """A run's or thread's id."""
    return uuid.uuid4().hex[:12]


def server(url: str | None) -> str | None:
    """A backend's server as recorded and compared: without a user name or password (never
    written to the index or a saved file) and without a trailing slash."""
    if not url:
        return None
    try:
        parts = urlsplit(url.strip())
    except ValueError:  # e.g. an unclosed IPv6 bracket: the backend will say what is wrong
        return url.strip().rstrip("/") or None
    netloc = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=netloc)).rstrip("/") or None


def check_follow_up(
    run: ExplorationResult, backend: str | None, base_url: str | None, *, exact: bool = False
) -> None:
    """Refuse (`FsnbError`, one line) a follow-up of `run` that names another backend or
    server than its thread's: the thread's questions, answers and passages go only where
    they went before. `exact`: `base_url` is the server an LLM object will use (None: its
    default), not an option left out."""
    if backend and backend != "auto" and run.backend and backend.lower() != run.backend.lower():
        msg = (
            f"this thread runs on the {run.backend} backend, not {backend}: a follow-up keeps"
            f" its thread's backend (leave the backend out, or start a new exploration)"
        )
        raise FsnbError(msg)
    if (exact or base_url) and server(base_url) != server(run.base_url):
        msg = (
            f"this thread's server is {server(run.base_url) or 'its backend default'}, not"
            f" {server(base_url) or 'the default'}: a follow-up keeps its thread's server"
            " (leave the server out, or start a new exploration)"
        )
        raise FsnbError(msg)


@dataclass(frozen=True)
class NotContinued:
    """In place of a run's explorer: why it cannot be followed up (`follow_up` raises it).
    A saved run loaded without `folder=` gets one, so that nothing reads files from the
    folder its file names (which anyone may have edited)."""

    why: str

    def run(
        self,
        task: str,
        on_event: Callable[[ev.Event], None] | None = None,
        *,
        after: ExplorationResult | None = None,
    ) -> ExplorationResult:
        raise FsnbError(self.why)


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
    #: The backend's server (None: its default); a follow-up goes to the same one.
    base_url: str | None = None
    #: Whether secret values in files were sent to the LLM unmasked.
    reveal_secrets: bool = False
    error: str | None = None
    #: Files the agent read (parsed, or read in part), in the order of their first read.
    documents_read: list[str] = field(default_factory=list)
    #: Stopped from outside, then answered from what was read.
    stopped: bool = False
    #: This run's steps, as the LLM saw them.
    turns: list[Turn] = field(default_factory=list)
    #: The thread's earlier questions, oldest first (empty unless this run is a follow-up).
    earlier: list[Exchange] = field(default_factory=list)
    #: Every file read in the thread (citations are verified against these).
    read_paths: list[str] = field(default_factory=list)
    id: str = field(default_factory=new_id)
    thread_id: str = ""
    parent_id: str | None = None
    started_at: str = ""
    finished_at: str = ""
    #: What `follow_up` continues with (the run's explorer; set by `fsnb.load` for a
    #: saved run).
    explorer: Continues | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.thread_id = self.thread_id or self.id
        self.base_url = server(self.base_url)  # never a user name or password

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
    def thread(self) -> list[Exchange]:
        """The thread up to this run: the earlier exchanges, then this one."""
        return [*self.earlier, Exchange(self.task, self.answer, list(self.turns))]

    def follow_up(
        self, question: str, on_event: Callable[[ev.Event], None] | None = None
    ) -> ExplorationResult:
        """Ask a follow-up question: the same backend, server and folder, this thread's
        questions, answers and reads carried over (what was read is not scanned or parsed
        again)."""
        if self.explorer is None:
            msg = (
                "this result has no explorer to continue with: reopen it with"
                " fsnb.load(path, folder=FOLDER)"
            )
            raise FsnbError(msg)
        return self.explorer.run(question, on_event, after=self)

    @property
    def backend_note(self) -> str:
        return BACKEND_NOTES.get(self.backend, f"{self.backend} ({self.model})")

    def answer_with_sources(self) -> str:
        """The answer followed by its sources (unless it already lists them)."""
        if not self.citations or "\nSources:" in self.answer:
            return self.answer
        lines = [self.answer.rstrip(), "", "Sources:"]
        for c in self.citations:
            flag = "" if c.verified else f" [unverified: {c.problem}]"
            quote = " ".join(c.quote.split())
            lines.append(f'- [{c.id}] {c.where}: "{quote}"{flag}')
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
            "reveal_secrets": self.reveal_secrets,
            "error": self.error,
            "documents_read": list(self.documents_read),
            "stopped": self.stopped,
        }

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), default=str, **kwargs)

    def to_record(self) -> dict[str, Any]:
        """Everything `from_record` needs to rebuild the run (JSON-ready)."""
        return {
            "fsnb_exploration": SAVED_VERSION,
            **{f: getattr(self, f) for f in _PLAIN},
            "citations": [c.to_dict() for c in self.citations],
            "usage": self.usage.to_dict(),
            "events": [e.to_dict() for e in self.events],
            "turns": [turn_to_dict(t) for t in self.turns],
            "earlier": [exchange_to_dict(x) for x in self.earlier],
        }

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> ExplorationResult:
        """The run `to_record` described; `FsnbError` for anything else."""
        if not isinstance(data, dict) or data.get("fsnb_exploration") != SAVED_VERSION:
            msg = f"not a saved exploration (version {SAVED_VERSION} of fsnb's format)"
            raise FsnbError(msg)
        try:
            usage_names = {f.name for f in fields(Usage)}
            return cls(
                **{f: data[f] for f in _PLAIN if f in data},
                citations=[Citation(**c) for c in data.get("citations", [])],
                usage=Usage(**{k: v for k, v in data["usage"].items() if k in usage_names}),
                events=[ev.Event.from_dict(e) for e in data.get("events", [])],
                turns=[turn_from_dict(t) for t in data.get("turns", [])],
                earlier=[exchange_from_dict(x) for x in data.get("earlier", [])],
            )
        except (KeyError, TypeError, ValueError) as exc:
            msg = f"a damaged saved exploration: {type(exc).__name__}: {exc}"
            raise FsnbError(msg) from None

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the run as JSON (`fsnb.load` reopens it); return the path."""
        target = Path(path).expanduser()
        target.write_text(json.dumps(self.to_record(), default=str, indent=1), encoding="utf-8")
        return target

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> ExplorationResult:
        """The run saved at `path`; `FsnbError` with one line for a missing or odd file."""
        source = Path(path).expanduser()
        try:
            data = json.loads(source.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            msg = f"cannot read saved exploration {source}: {exc}"
            raise FsnbError(msg) from None
        return cls.from_record(data)

    def citations_df(self) -> pd.DataFrame:
        import pandas as pd

        columns = ["id", "path", "page", "quote", "verified", "problem", "ocr"]
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
        if self.reveal_secrets:
            head += f"**{SECRETS_NOTE}**\n\n"
        if self.error:
            return inert_markdown(f"{head}Error: {self.error}\n\n_{self.summary()}_")
        return inert_markdown(f"{head}{self.answer_with_sources()}\n\n_{self.summary()}_")

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>[{c.id}]</td><td>{html.escape(c.path)}</td><td>{c.page_label}</td>"
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
        secrets = (
            f"<p class='fsnb-secrets'><b>{html.escape(SECRETS_NOTE)}</b></p>"
            if self.reveal_secrets
            else ""
        )
        return html_root(
            f"<p><b>{html.escape(self.task)}</b></p>{secrets}"
            f"<div class='fsnb-answer'>{body}</div>{table}"
            f"<p><i>{html.escape(self.summary())}</i></p>",
            "fsnb-result",
        )


#: The fields saved as they are.
_PLAIN = (
    "task", "folder", "answer", "backend", "model", "base_url", "reveal_secrets", "error",
    "documents_read", "stopped", "read_paths", "id", "thread_id", "parent_id", "started_at",
    "finished_at",
)  # fmt: skip


def _error_html(error: str) -> str:
    return f"<p style='white-space:pre-wrap'>Error: {html.escape(error)}</p>"


def _verdict(citation: Citation) -> str:
    return "yes" if citation.verified else html.escape(f"no: {citation.problem}")
