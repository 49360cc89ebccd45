"""ExplorePanel: the anywidget that shows an exploration live.

State that a saved notebook keeps (trace rows, the answer as HTML, citations, usage) lives
in synced traitlets; the front end's requests are anywidget commands it calls with
`experimental.invoke(name, msg)`: `_answer`, `_stop`, `_show_citation` and `_page`. Each
replies `{"ok": true, ...}`, or `{"ok": false, "error": "..."}` when it failed.
"""

from __future__ import annotations

import functools
import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anywidget
import traitlets as t
from anywidget.experimental import command

from fsnb.agent import events as ev
from fsnb.agent.answer_html import answer_html
from fsnb.agent.trace import Trace, TraceRow
from fsnb.errors import one_line
from fsnb.notebook.display import PAGE_SIZE, Rendering, folder_label, quote_context, tab_page

if TYPE_CHECKING:
    from fsnb.agent.loop import Explorer
    from fsnb.agent.result import ExplorationResult

log = logging.getLogger(__name__)

#: Tool results longer than this are cut in the synced trace (the LLM saw the whole text).
MAX_SYNCED_RESULT = 4000
#: At most one trace update per this many seconds while events stream in.
FLUSH_S = 0.15
#: The front end: a plain ES module and its CSS, shipped in the package (no build step).
STATIC = Path(__file__).resolve().parent.parent / "static"

Reply = dict[str, Any]


def _jsonable(data: Any) -> Any:
    return json.loads(json.dumps(data, default=str))


def _row_dict(row: TraceRow) -> dict[str, Any]:
    data = row.to_dict()
    result = row.result or ""
    if len(result) > MAX_SYNCED_RESULT:
        rest = len(result) - MAX_SYNCED_RESULT
        data["result"] = result[:MAX_SYNCED_RESULT] + f"\n… ({rest:,} more characters)"
    return _jsonable(data)


def _request(handler: Callable[[ExplorePanel, dict[str, Any]], Reply | None]) -> Any:
    """An anywidget command for a front-end request; a failure is logged and becomes an
    `{"ok": false, "error": ...}` reply, so the front end can show it."""

    @functools.wraps(handler)
    def run(panel: ExplorePanel, msg: Any, buffers: list[bytes]) -> tuple[Reply, list[bytes]]:
        try:
            reply = handler(panel, msg if isinstance(msg, dict) else {})
        except Exception as exc:
            log.exception("fsnb panel: the %s request failed", handler.__name__)
            return {"ok": False, "error": one_line(exc) or type(exc).__name__}, []
        return {"ok": True, **(reply or {})}, []

    return command(run)


class ExplorePanel(anywidget.AnyWidget):
    """Live view of one exploration: `panel.attach(explorer, task)`, then `panel.result`."""

    _esm = STATIC / "widget.js"
    _css = STATIC / "widget.css"

    task = t.Unicode("").tag(sync=True)
    folder = t.Unicode("").tag(sync=True)
    backend = t.Unicode("").tag(sync=True)
    model = t.Unicode("").tag(sync=True)
    status = t.Unicode("idle").tag(sync=True)  # idle|running|waiting|done|error|cancelled
    trace = t.List(t.Dict()).tag(sync=True)  # TraceRow dicts, one per step
    answer = t.Unicode("")  # the markdown, for Python; the front end gets answer_html
    answer_html = t.Unicode("").tag(sync=True)
    citations = t.List(t.Dict()).tag(sync=True)
    usage = t.Dict().tag(sync=True)
    error = t.Unicode("").tag(sync=True)
    question = t.Unicode("").tag(sync=True)
    documents = t.Dict().tag(sync=True)  # the first page of the index's documents
    tables = t.Dict().tag(sync=True)  # the first page of the scratchpad's tables

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._lock = threading.RLock()
        self._pending: list[ev.Event] = []
        self._trace = Trace()
        self._timer: threading.Timer | None = None
        self._last_flush = 0.0
        self._answers: queue.Queue[str | None] = queue.Queue()
        self._explorer: Explorer | None = None
        self._thread: threading.Thread | None = None
        self._result: ExplorationResult | None = None
        self._root: str | None = None
        self._db: str | None = None
        self._ask_timeout_s = 600.0

    # -- running -----------------------------------------------------------------------

    @property
    def result(self) -> ExplorationResult | None:
        """The result once the run has finished (None before)."""
        return self._result

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def attach(
        self,
        explorer: Explorer,
        task: str,
        *,
        answer_questions: bool = True,
        ask_timeout_s: float = 600.0,
        on_done: Callable[[ExplorationResult], None] | None = None,
    ) -> ExplorePanel:
        """Run `explorer` on `task` in a background thread, showing its events here.

        With `answer_questions`, the agent's questions wait (up to `ask_timeout_s`) for an
        answer typed in the panel; `on_done` gets the result before the status turns final.
        """
        if self.running:
            msg = "this panel is already showing a running exploration"
            raise RuntimeError(msg)
        self._explorer, self._root, self._db = explorer, explorer.root, explorer.db
        self._result, self._ask_timeout_s, self._trace = None, ask_timeout_s, Trace()
        if answer_questions and explorer.ask is None:
            explorer.ask = self._ask
        with self.hold_sync():
            self.task, self.folder = task, self.folder or folder_label(explorer.root)
            self.backend, self.model = explorer.llm.backend, explorer.llm.model
            self.trace, self.answer, self.answer_html, self.citations = [], "", "", []
            self.usage = {}
            self.error, self.question, self.status = "", "", "running"
        self._thread = threading.Thread(
            target=self._drive, args=(explorer, task, on_done), daemon=True, name="fsnb-panel"
        )
        self._thread.start()
        return self

    def wait(self, timeout: float | None = None) -> ExplorationResult | None:
        """Block until the run ends (or `timeout` seconds); return the result."""
        if self._thread is not None:
            self._thread.join(timeout)
        return self._result

    def stop(self) -> None:
        """Cancel the run after its current step (a pending question gets no answer)."""
        if self._explorer is not None and self.running:
            self._explorer.cancel()
            self._answers.put(None)

    def answer_question(self, answer: str) -> None:
        """Answer the question the agent is waiting on."""
        if not self.question:
            msg = "no question is waiting for an answer"
            raise ValueError(msg)
        self._answers.put(answer)

    def _drive(
        self,
        explorer: Explorer,
        task: str,
        on_done: Callable[[ExplorationResult], None] | None,
    ) -> None:
        try:
            result = explorer.run(task, on_event=self._on_event)
        except Exception as exc:  # a bug must show in the panel, not vanish in a thread
            log.exception("fsnb: the exploration failed")
            self._flush()
            with self.hold_sync():
                self.error, self.question, self.status = f"{type(exc).__name__}: {exc}", "", "error"
            return
        self._result = result
        self._flush()
        if on_done is not None:
            try:
                on_done(result)
            except Exception:
                log.exception("fsnb: the on_done callback failed")
        with self.hold_sync():
            self.answer, self.answer_html = result.answer, answer_html(result.answer)
            self.citations = _jsonable([c.to_dict() for c in result.citations])
            self.usage = _jsonable(result.usage.to_dict())
            self.error, self.question, self.status = result.error or "", "", result.status
        self.refresh_tabs()  # after the status: a locked index must not delay "done"

    def _on_event(self, event: ev.Event) -> None:
        with self._lock:
            self._pending.append(event)
            due = time.monotonic() - self._last_flush >= FLUSH_S
            if not due and self._timer is None:
                self._timer = threading.Timer(FLUSH_S, self._flush)
                self._timer.daemon = True
                self._timer.start()
        if due:
            self._flush()

    def _flush(self) -> None:
        """Fold the buffered events into the trace; send it (and `usage`) as one update."""
        with self._lock:
            pending, self._pending = self._pending, []
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self._last_flush = time.monotonic()
            if not pending:
                return
            usage = {**self.usage, "wall_s": pending[-1].at}
            for e in pending:
                self._trace.add(e)
                if isinstance(e, ev.UsageUpdate):
                    usage.update({k: v for k, v in e.to_dict().items() if k not in ("kind", "at")})
            with self.hold_sync():
                self.trace = [_row_dict(row) for row in self._trace.rows]
                self.usage = usage

    def _ask(self, question: str) -> str | None:
        """The agent's `ask` callback: show the question, wait for the panel's answer."""
        self._flush()
        while not self._answers.empty():
            self._answers.get_nowait()
        with self.hold_sync():
            self.question, self.status = question, "waiting"
        try:
            answer = self._answers.get(timeout=self._ask_timeout_s)
        except queue.Empty:
            answer = None
        with self.hold_sync():
            self.question = ""
            if self.status == "waiting":
                self.status = "running"
        return answer or None

    # -- requests from the front end (anywidget commands) -------------------------------

    @_request
    def _answer(self, msg: dict[str, Any]) -> None:
        self.answer_question(str(msg.get("answer", "")))

    @_request
    def _stop(self, msg: dict[str, Any]) -> None:
        self.stop()

    @_request
    def _show_citation(self, msg: dict[str, Any]) -> Reply:
        return self.citation_context(int(msg["id"]))

    @_request
    def _page(self, msg: dict[str, Any]) -> Reply:
        tab, table = str(msg.get("tab", "documents")), str(msg.get("table") or "")
        page, size = int(msg.get("page", 0)), int(msg.get("size", PAGE_SIZE))
        return {"tab": tab, "table": table, **self.page(tab, table, page, size)}

    def citation_context(self, number: int) -> Reply:
        """Citation `[number]` with the text around its quote in the document."""
        cite = next((c for c in self.citations if c.get("id") == number), None)
        if cite is None:
            msg = f"no citation [{number}]"
            raise LookupError(msg)
        return {**cite, **quote_context(self._root, cite)}

    def page(self, tab: str, table: str = "", page: int = 0, size: int = PAGE_SIZE) -> Reply:
        """A page of the documents tab, the scratchpad's tables, or one scratch table."""
        return tab_page(self._db, self._root or self.folder, tab, table, page, size)

    def refresh_tabs(self) -> None:
        """Load the first page of the index's documents and the scratchpad's tables."""
        for tab in ("documents", "scratchpad"):
            try:
                first = self.page(tab)
            except Exception:
                log.debug("fsnb: could not load the %s tab", tab, exc_info=True)
                continue
            if tab == "documents":
                self.documents = first
            else:
                self.tables = first

    # -- output without a widget front end ---------------------------------------------

    def rendering(self) -> Rendering:
        return Rendering(self.task, self.folder, self.status, self._result, self.error)

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """The widget view, plus deterministic text/markdown/HTML; timings in metadata."""
        bundle = super()._repr_mimebundle_(**kwargs)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle or {}, {})
        usage = self._result.usage.to_dict() if self._result else self.usage
        keys = ("wall_s", "llm_calls", "total_tokens", "cost_usd")
        timings = {k: usage[k] for k in keys if k in usage}
        return {**data, **self.rendering().bundle()}, {**(metadata or {}), "fsnb": timings}
