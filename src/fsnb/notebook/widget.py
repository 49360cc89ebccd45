"""ExplorePanel: the anywidget that shows an exploration live.

State that a saved notebook keeps (trace rows, the answer as HTML, citations, usage) lives
in synced traitlets; the front end's requests are anywidget commands it calls with
`experimental.invoke(name, msg)`: `_answer`, `_stop`, `_cancel`, `_show_citation` and
`_page` (`fsnb.notebook.panel_state`: what is synced, and how requests reply).

The run goes on in a worker thread; every change it makes to the panel is sent from the
kernel's own thread (`fsnb.notebook.kernel_thread`). Displayed, the panel comes with a
static record of the run, updated when the run ends (`fsnb.notebook.record`): what a saved
or exported notebook shows where no widget front end runs.
"""

from __future__ import annotations

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

from fsnb.agent import events as ev
from fsnb.agent.answer_html import answer_html
from fsnb.agent.trace import Trace
from fsnb.notebook import kernel_thread
from fsnb.notebook.display import PAGE_SIZE, folder_label, tab_page
from fsnb.notebook.evidence import panel_evidence
from fsnb.notebook.front_end import STATIC, front_end
from fsnb.notebook.panel_state import Reply, jsonable, request, synced_row
from fsnb.notebook.record import Displays

if TYPE_CHECKING:
    from fsnb.agent.loop import Explorer
    from fsnb.agent.result import ExplorationResult

log = logging.getLogger(__name__)

#: At most one trace update per this many seconds while events stream in.
FLUSH_S = 0.15
#: How often a cell waiting on a run sends the panel's updates.
POLL_S = 0.05


class ExplorePanel(Displays, anywidget.AnyWidget):
    """Live view of one exploration: `panel.attach(explorer, task)`, then `panel.result`."""

    #: A loader; the front end (widget.js, widget.css) is the kernel's shared `_front`.
    _esm = STATIC / "loader.js"
    _front = anywidget.WidgetTrait().tag(sync=True)  # anywidget's composition: "anywidget:ID"

    task = t.Unicode("").tag(sync=True)
    folder = t.Unicode("").tag(sync=True)
    backend = t.Unicode("").tag(sync=True)
    model = t.Unicode("").tag(sync=True)
    #: The run sends secret values in files to the LLM unmasked (shown as a badge).
    reveal_secrets = t.Bool(False).tag(sync=True)
    status = t.Unicode("idle").tag(sync=True)  # idle|running|waiting|stopping|done|error|cancelled
    stopped = t.Bool(False).tag(sync=True)  # stopped early, then answered from what was read
    #: Evidence images in the record (None: unless FSNB_EVIDENCE_IMAGES=0; not synced).
    evidence_images = t.Bool(None, allow_none=True)
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
        super().__init__(_front=front_end(), **kwargs)
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
                self.usage, self.stopped = {}, False
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
                self.citations = jsonable(
                    [{**c.to_dict(), "page_label": c.page_label} for c in result.citations]
                )
                self.usage = jsonable(result.usage.to_dict())
                self.stopped = result.stopped
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
                self.trace = [synced_row(row, self._views) for row in self._trace.rows]
                self.usage = usage

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

    @request
    def _answer(self, msg: dict[str, Any]) -> None:
        self.answer_question(str(msg.get("answer", "")))

    @request
    def _stop(self, msg: dict[str, Any]) -> None:
        self.stop()

    @request
    def _cancel(self, msg: dict[str, Any]) -> None:
        self.cancel()

    @request
    def _show_citation(self, msg: dict[str, Any]) -> Reply:
        return self.citation_context(int(msg["id"]))

    @request
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
        """Citation `[number]` with its evidence (`fsnb.notebook.evidence.panel_evidence`:
        the text around its quote, a PDF's page with the quote highlighted, or a note), and
        `file`: the document's absolute path, which the front end opens in JupyterLab (when
        under its root folder) or offers to copy. In this reply only, not in saved state."""
        cite = next((c for c in self.citations if c.get("id") == number), None)
        if cite is None:
            msg = f"no citation [{number}]"
            raise LookupError(msg)
        file = str(Path(self._root, cite["path"])) if self._root and cite.get("path") else ""
        return {**cite, **panel_evidence(self._root, cite), "file": file}

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
