"""ExplorePanel: the anywidget that shows an exploration live.

State that a saved notebook keeps (trace rows, the answer as HTML, citations, usage) lives
in synced traitlets; the front end's requests are anywidget commands it calls with
`experimental.invoke(name, msg)`: `_answer`, `_stop`, `_cancel`, `_show_citation` and
`_page`. Each replies `{"ok": true, ...}`, or `{"ok": false, "error": "..."}` when it failed.

The run goes on in a worker thread; every change it makes to the panel is sent from the
kernel's own thread (`fsnb.notebook.kernel_thread`). Displayed, the panel comes with a
static record of the run (the answer, its citations and a trace summary as HTML, markdown
and text) that is updated when the run ends: what a saved or exported notebook shows
where no widget front end runs.
"""

from __future__ import annotations

import functools
import json
import logging
import queue
import threading
import time
import uuid
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
from fsnb.notebook import kernel_thread
from fsnb.notebook.display import PAGE_SIZE, Rendering, folder_label, quote_context, tab_page

if TYPE_CHECKING:
    from fsnb.agent.loop import Explorer
    from fsnb.agent.result import ExplorationResult

log = logging.getLogger(__name__)

#: Tool results longer than this are cut in the synced trace (the LLM saw the whole text).
MAX_SYNCED_RESULT = 4000
#: At most one trace update per this many seconds while events stream in.
FLUSH_S = 0.15
#: How often a cell waiting on a run sends the panel's updates.
POLL_S = 0.05
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
    #: The run sends secret values in files to the LLM unmasked (shown as a badge).
    reveal_secrets = t.Bool(False).tag(sync=True)
    status = t.Unicode("idle").tag(sync=True)  # idle|running|waiting|stopping|done|error|cancelled
    trace = t.List(t.Dict()).tag(sync=True)  # TraceRow dicts, one per step
    answer = t.Unicode("")  # the markdown, for Python; the front end gets answer_html
    answer_html = t.Unicode("").tag(sync=True)
    citations = t.List(t.Dict()).tag(sync=True)
    usage = t.Dict().tag(sync=True)
    error = t.Unicode("").tag(sync=True)
    question = t.Unicode("").tag(sync=True)
    #: A follow-up's earlier questions and answers, oldest first: {question, answer_html}.
    thread = t.List(t.Dict()).tag(sync=True)
    documents = t.Dict().tag(sync=True)  # the first page of the index's documents
    tables = t.Dict().tag(sync=True)  # the first page of the scratchpad's tables

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._lock = threading.RLock()
        self._pending: list[ev.Event] = []
        self._trace = Trace()
        self._flush_posted = False
        self._last_flush = 0.0
        self._answers: queue.Queue[str | None] = queue.Queue()
        self._explorer: Explorer | None = None
        self._thread: threading.Thread | None = None
        self._ended = threading.Event()  # set once the run's last update is posted
        self._ended.set()
        self._result: ExplorationResult | None = None
        self._root: str | None = None
        self._db: str | None = None
        self._ask_timeout_s = 600.0
        self._record_id = f"fsnb-record-{uuid.uuid4().hex}"
        self._record_shown = False
        self._views: dict[int, str] = {}  # step -> the HTML view of its tree/disk_usage result

    # -- running -----------------------------------------------------------------------

    @property
    def result(self) -> ExplorationResult | None:
        """The result once the run has finished (None before)."""
        return self._result

    @property
    def running(self) -> bool:
        return not self._ended.is_set()

    def attach(
        self,
        explorer: Explorer,
        task: str,
        *,
        answer_questions: bool = True,
        ask_timeout_s: float = 600.0,
        on_done: Callable[[ExplorationResult], None] | None = None,
        after: ExplorationResult | None = None,
    ) -> ExplorePanel:
        """Run `explorer` on `task` in a background thread, showing its events here.

        With `answer_questions`, the agent's questions wait (up to `ask_timeout_s`) for an
        answer typed in the panel; `on_done` gets the result on the kernel's thread, before
        the status turns final. `after`: the run this one follows up (its thread is shown
        above the question).
        """
        if self.running:
            msg = "this panel is already showing a running exploration"
            raise RuntimeError(msg)
        self._explorer, self._root, self._db = explorer, explorer.root, explorer.db
        self._result, self._ask_timeout_s, self._trace = None, ask_timeout_s, Trace()
        self._views = {}
        if answer_questions and explorer.ask is None:
            explorer.ask = self._ask
        self._ended.clear()
        earlier = after.thread if after else []
        thread = [{"question": x.question, "answer_html": answer_html(x.answer)} for x in earlier]

        def start() -> None:
            with self.hold_sync():
                self.task, self.folder = task, self.folder or folder_label(explorer.root)
                self.backend, self.model = explorer.llm.backend, explorer.llm.model
                self.reveal_secrets = bool(getattr(explorer, "reveal_secrets", False))
                self.trace, self.answer, self.answer_html, self.citations = [], "", "", []
                self.usage = {}
                self.error, self.question, self.status = "", "", "running"
                self.thread = thread

        kernel_thread.post(start)
        self._thread = threading.Thread(
            target=self._drive,
            args=(explorer, task, on_done, after),
            daemon=True,
            name="fsnb-panel",
        )
        self._thread.start()
        return self

    def wait(
        self, timeout: float | None = None, *, until: threading.Event | None = None
    ) -> ExplorationResult | None:
        """Block until the run ends (or `timeout` seconds pass, or `until` is set); return
        the result. On the kernel's thread the panel's updates are sent meanwhile, and the
        final record again once it has ended, so that this cell carries it: a notebook
        runner that keeps only the messages of the cell it runs (nbconvert) saves it."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._ended.is_set() and not (until is not None and until.is_set()):
            left = POLL_S if deadline is None else min(POLL_S, deadline - time.monotonic())
            if left <= 0:
                break
            self._ended.wait(left)
            kernel_thread.drain()
            self._hear_the_front_end()
        if self._ended.is_set() and self._thread is not None:
            self._thread.join()  # it has nothing left to do
        kernel_thread.drain()
        if self._ended.is_set() and kernel_thread.on_kernel_thread():
            self._update_record()
        return self._result

    def _hear_the_front_end(self) -> None:
        """Let the front end's requests (an answer, Stop) in while a cell waits on the run.

        ipykernel 7 hands what a front end sends on a comm to the subshell that last sent
        on it, here the main shell, which this waiting cell holds. Forgetting that route
        lets the front end's own choice stand: JupyterLab sends a widget's messages to a
        subshell of their own, which takes them while the cell blocks."""
        if self.comm is not None:
            vars(self.comm).pop("_reply_subshell_id", None)

    def stop(self) -> None:
        """Stop exploring and answer with what was found: the step under way finishes (a
        pending question gets no answer), then the agent answers from what it read."""
        if self._explorer is not None and self.running:
            self._explorer.stop()
            self._answers.put(None)
            kernel_thread.post(self._stopping)

    def cancel(self) -> None:
        """Cancel now: an LLM call or tool in flight is abandoned; the result is "cancelled",
        with the trace and the documents read so far."""
        if self._explorer is not None and self.running:
            self._explorer.cancel()
            self._answers.put(None)

    def _stopping(self) -> None:
        if self.status in ("running", "waiting"):
            self.status = "stopping"

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
        after: ExplorationResult | None = None,
    ) -> None:
        """The worker thread: run, then post the end (and the tabs' first pages)."""
        try:
            try:
                result = explorer.run(task, on_event=self._on_event, after=after)
            except Exception as exc:  # a bug must show in the panel, not vanish in a thread
                log.exception("fsnb: the exploration failed")
                error = f"{type(exc).__name__}: {exc}"
                kernel_thread.post(lambda: self._end(None, error, None))
                return
            self._result = result
            kernel_thread.post(lambda: self._end(result, result.error or "", on_done))
            pages = self._first_pages()  # after the end: a locked index must not delay "done"
            kernel_thread.post(lambda: self._show_pages(pages))
        finally:
            self._ended.set()

    def _end(
        self,
        result: ExplorationResult | None,
        error: str,
        on_done: Callable[[ExplorationResult], None] | None,
    ) -> None:
        """On the kernel's thread: the last events, `on_done`, the final state, the record."""
        self._flush()
        if result is not None and on_done is not None:
            try:
                on_done(result)
            except Exception:
                log.exception("fsnb: the on_done callback failed")
        with self.hold_sync():
            if result is not None:
                self.answer, self.answer_html = result.answer, answer_html(result.answer)
                self.citations = _jsonable([c.to_dict() for c in result.citations])
                self.usage = _jsonable(result.usage.to_dict())
            self.status = result.status if result is not None else "error"
            self.error = "" if self.status == "cancelled" else error  # the status says it
            self.question = ""
        self._update_record()

    def _on_event(self, event: ev.Event) -> None:
        """The worker's events: buffered, then sent at most every FLUSH_S seconds."""
        with self._lock:
            self._pending.append(event)
            if self._flush_posted:
                return
            self._flush_posted = True
            delay = FLUSH_S - (time.monotonic() - self._last_flush)
        if delay <= 0:
            kernel_thread.post(self._flush)
        else:
            timer = threading.Timer(delay, kernel_thread.post, args=(self._flush,))
            timer.daemon = True
            timer.start()

    def _flush(self) -> None:
        """Fold the buffered events into the trace; send it (and `usage`) as one update."""
        with self._lock:
            pending, self._pending = self._pending, []
            self._flush_posted = False
            self._last_flush = time.monotonic()
            if not pending:
                return
            usage = {**self.usage, "wall_s": pending[-1].at}
            for e in pending:
                self._trace.add(e)
                if isinstance(e, ev.UsageUpdate):
                    usage.update({k: v for k, v in e.to_dict().items() if k not in ("kind", "at")})
            with self.hold_sync():
                self.trace = [self._with_view(_row_dict(row), row) for row in self._trace.rows]
                self.usage = usage

    def _with_view(self, data: dict[str, Any], row: TraceRow) -> dict[str, Any]:
        """The row, with `view_html` (a tree or disk-usage view) for a `tree` or
        `disk_usage` step that worked, drawn once per step from the data it returned, and
        `query` (its SQL, columns, first rows and row count) for a `query_data` step."""
        from fsnb.notebook.fsviews import step_view_html

        if row.tool is None or row.ok is not True:
            return data
        if row.tool == "query_data" and "sql" in row.data:
            keys = ("sql", "columns", "rows", "row_count", "more_rows")
            data["query"] = _jsonable({k: row.data.get(k) for k in keys})
        if row.step not in self._views:
            self._views[row.step] = step_view_html(row.tool, row.data)
        if self._views[row.step]:
            data["view_html"] = self._views[row.step]
        return data

    def _ask(self, question: str) -> str | None:
        """The agent's `ask` callback (worker thread): show the question, wait for the
        panel's answer."""
        while not self._answers.empty():  # answers typed too late for an earlier question
            self._answers.get_nowait()
        if self._explorer is not None and self._explorer.stopping:
            return None
        kernel_thread.post(lambda: self._show_question(question))
        try:  # no longer than the run has left
            answer = self._answers.get(timeout=self._explorer.time_left(self._ask_timeout_s))
        except queue.Empty:
            answer = None
        kernel_thread.post(lambda: self._show_question(""))
        return answer or None

    def _show_question(self, question: str) -> None:
        self._flush()
        with self.hold_sync():
            self.question = question
            if question and self.status == "running":
                self.status = "waiting"
            elif not question and self.status == "waiting":
                self.status = "running"

    # -- requests from the front end (anywidget commands) -------------------------------

    @_request
    def _answer(self, msg: dict[str, Any]) -> None:
        self.answer_question(str(msg.get("answer", "")))

    @_request
    def _stop(self, msg: dict[str, Any]) -> None:
        self.stop()

    @_request
    def _cancel(self, msg: dict[str, Any]) -> None:
        self.cancel()

    @_request
    def _show_citation(self, msg: dict[str, Any]) -> Reply:
        return self.citation_context(int(msg["id"]))

    @_request
    def _page(self, msg: dict[str, Any]) -> Reply:
        tab, table = str(msg.get("tab", "documents")), str(msg.get("table") or "")
        page, size = int(msg.get("page", 0)), int(msg.get("size", PAGE_SIZE))
        sort, descending = msg.get("sort") or "", msg.get("descending", False)
        if not isinstance(sort, str) or not isinstance(descending, bool):
            problem = "sort must be a column name and descending true or false"
            raise ValueError(problem)
        reply = self.page(tab, table, page, size, sort=sort, descending=descending)
        return {"tab": tab, "table": table, **reply}

    def citation_context(self, number: int) -> Reply:
        """Citation `[number]` with the text around its quote in the document, and `file`:
        the document's absolute path, which the front end opens in JupyterLab (when under
        its root folder) or offers to copy. It is in this reply only, not in saved state."""
        cite = next((c for c in self.citations if c.get("id") == number), None)
        if cite is None:
            msg = f"no citation [{number}]"
            raise LookupError(msg)
        context = quote_context(self._root, cite)
        file = str(Path(self._root, cite["path"])) if self._root and cite.get("path") else ""
        return {**cite, **context, "file": file}

    def page(
        self,
        tab: str,
        table: str = "",
        page: int = 0,
        size: int = PAGE_SIZE,
        *,
        sort: str = "",
        descending: bool = False,
    ) -> Reply:
        """A page of the documents tab, the scratchpad's tables, or one scratch table
        (sorted by its column `sort`, in SQL, so that paging keeps the order)."""
        folder = self._root or self.folder
        return tab_page(self._db, folder, tab, table, page, size, sort=sort, descending=descending)

    def refresh_tabs(self) -> None:
        """Load the first page of the index's documents and the scratchpad's tables."""
        self._show_pages(self._first_pages())

    def _first_pages(self) -> dict[str, Reply]:
        pages = {}
        for tab in ("documents", "scratchpad"):
            try:
                pages[tab] = self.page(tab)
            except Exception:
                log.debug("fsnb: could not load the %s tab", tab, exc_info=True)
        return pages

    def _show_pages(self, pages: dict[str, Reply]) -> None:
        with self.hold_sync():
            if "documents" in pages:
                self.documents = pages["documents"]
            if "scratchpad" in pages:
                self.tables = pages["scratchpad"]

    # -- display: the live view and the static record ----------------------------------

    def rendering(self) -> Rendering:
        return Rendering(
            self.task,
            self.folder,
            self.status,
            self._result,
            self.error,
            reveal_secrets=self.reveal_secrets,
        )

    def record(self) -> tuple[dict[str, str], dict[str, Any]]:
        """The static record of the run: deterministic text/html, text/markdown and
        text/plain of the answer, its citations and a trace summary; timings in metadata."""
        bundle = self.rendering().bundle()
        bundle["text/html"] = f"<div class='fsnb-record'>{bundle['text/html']}</div>"
        usage = self._result.usage.to_dict() if self._result else self.usage
        keys = ("wall_s", "llm_calls", "total_tokens", "cost_usd")
        return bundle, {"fsnb": {k: usage[k] for k in keys if k in usage}}

    def display_view(self) -> None:
        """Display the live panel alone."""
        from IPython.display import display

        data, metadata = self._repr_mimebundle_()
        display(data, metadata=metadata, raw=True)

    def display_record(self) -> None:
        """Display the static record; the panel updates it (wherever shown) when the run ends.
        In a live front end the panel hides the record shown right under it."""
        from IPython.display import display

        data, metadata = self.record()
        display(data, metadata=metadata, raw=True, display_id=self._record_id)
        self._record_shown = True

    def _update_record(self) -> None:
        if self._record_shown:
            from IPython.display import update_display

            data, metadata = self.record()
            update_display(data, metadata=metadata, raw=True, display_id=self._record_id)

    def _ipython_display_(self) -> None:
        """The live panel, then the static record for saved and exported notebooks."""
        self.display_view()
        self.display_record()

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """The widget view, and one line of text for where widgets do not render."""
        bundle = super()._repr_mimebundle_(**kwargs)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle or {}, {})
        text = f"ExplorePanel: {self.task} ({self.folder})" if self.task else "ExplorePanel"
        return {**data, "text/plain": text}, metadata or {}
