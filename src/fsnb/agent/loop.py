"""The exploration loop: ask the LLM for an Action, run it, emit Events, until Stop.

`Explorer.events(task)` is a generator of events whose return value is the
`ExplorationResult`; `run` drains it, `start` runs it in a background thread. Each LLM
call and each tool runs in a worker thread (`deadline.call_before`), so the run's timeout
and `cancel()` hold while a call is in flight. `stop()` ends a run gently: the step under
way finishes, then one last step asks the LLM for its answer from what was read. The
steps of one run are `fsnb.agent.steps.Run`.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Generator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from fsnb.agent import events as ev
from fsnb.agent.limits import CONTEXT_CHARS, check_question
from fsnb.agent.result import ExplorationResult
from fsnb.agent.steps import Run
from fsnb.documents import FolderDocuments
from fsnb.errors import FsnbError
from fsnb.index import Index
from fsnb.llm.masked import masked
from fsnb.protocol import LLM
from fsnb.security import Sandbox
from fsnb.tools import Registry, agent_registry

if TYPE_CHECKING:
    from fsnb.agent.spec import RunObserver

AskCallback = Callable[[str], str | None]
log = logging.getLogger(__name__)


class Explorer:
    """Runs explorations of one folder with one LLM backend."""

    #: The latest run's deadline (`time.monotonic()`), set when it starts.
    deadline: float = math.inf

    def __init__(
        self,
        folder: str | Path,
        llm: LLM,
        *,
        max_steps: int = 25,
        timeout_s: float = 300.0,
        max_result_chars: int = 15_000,
        context_chars: int | None = CONTEXT_CHARS,
        max_question_chars: int | None = 4_000,
        ask: AskCallback | None = None,
        default_answer: str = "No answer was given; continue with your best judgement.",
        registry: Registry | None = None,
        db: str | Path | None = None,
        use_index: bool | Literal["auto"] = "auto",
        reveal_secrets: bool = False,
        observers: Sequence[RunObserver] = (),
    ) -> None:
        self.sandbox = Sandbox(folder)
        self.db = str(db) if db else None
        if use_index == "auto":
            use_index = _index_is_current(self.db, self.sandbox.root)
        self.use_index = use_index
        #: False: every text bound for the backend is masked (`fsnb.llm.masked`), and what
        #: the run keeps (turns, trace, saved runs) is what the backend saw
        self.reveal_secrets = reveal_secrets
        self.llm = masked(llm, reveal=reveal_secrets)
        self.max_steps = max_steps
        self.timeout_s = timeout_s
        self.max_result_chars = max_result_chars
        # characters one LLM call may send; over it, older tool results become receipts
        self.context_chars = context_chars
        self.max_question_chars = max_question_chars  # longer: the middle is cut, with a note
        self.ask = ask
        self.default_answer = default_answer
        self.registry = registry or agent_registry(use_index=use_index)
        #: what watches each run (`fsnb.agent.spec.RecordRun` records it); none: the run is
        #: kept nowhere but in its result
        self.observers = list(observers)
        self._cancel = threading.Event()
        self._finish = threading.Event()
        self._documents: FolderDocuments | None = None

    @property
    def documents(self) -> FolderDocuments:
        """The folder's documents, parsed once and shared by the runs of a thread."""
        if self._documents is None:
            self._documents = FolderDocuments(self.sandbox)
        return self._documents

    @property
    def root(self) -> str:
        return str(self.sandbox.root)

    def cancel(self) -> None:
        """Stop a running exploration now; an LLM call or tool in flight is not waited for.
        The result is "cancelled", with the trace and the documents read so far."""
        self._cancel.set()

    def stop(self) -> None:
        """Stop exploring and answer with what was found: the step under way finishes, then
        one last step asks the LLM for its answer (`ExplorationResult.stopped`). Without an
        answer from that step the result is "cancelled"."""
        self._finish.set()

    def time_left(self, most: float) -> float:
        """Seconds until the latest run's deadline (`deadline`), at most `most`."""
        return max(0.0, min(most, self.deadline - time.monotonic()))

    @property
    def stopping(self) -> bool:
        """Whether `stop()` or `cancel()` was asked for (a question then goes unanswered)."""
        return self._finish.is_set() or self._cancel.is_set()

    def run(
        self,
        task: str,
        on_event: Callable[[ev.Event], None] | None = None,
        *,
        after: ExplorationResult | None = None,
    ) -> ExplorationResult:
        """Run to the end and return the result; `on_event` sees each event as it happens.
        `after`: the run this one follows up (its thread, reads and citations go on)."""
        stream = self.events(task, after=after)
        while True:
            try:
                event = next(stream)
            except StopIteration as done:
                return done.value
            if on_event:
                on_event(event)

    def start(
        self,
        task: str,
        on_event: Callable[[ev.Event], None] | None = None,
        *,
        after: ExplorationResult | None = None,
    ) -> ExplorationThread:
        """Run in a background thread; the handle waits for or cancels it."""
        check_question(task)
        handle = ExplorationThread(self, task, on_event, after)
        handle.start()
        return handle

    def events(
        self, task: str, *, after: ExplorationResult | None = None
    ) -> Generator[ev.Event, None, ExplorationResult]:
        """Yield events as the exploration proceeds; return the result.

        An empty question raises `EmptyQuestion` here, before any event.
        """
        check_question(task)
        return self._events(task, after)

    def _events(
        self, task: str, after: ExplorationResult | None
    ) -> Generator[ev.Event, None, ExplorationResult]:
        self._cancel.clear()
        self._finish.clear()
        run = Run(self, task, after).drive()
        while True:
            try:
                event = next(run)
            except StopIteration as done:
                result: ExplorationResult = done.value
                break
            self._tell("on_event", event)
            yield event
        self._tell("on_result", result)
        return result

    def _tell(self, method: str, value: Any) -> None:
        """Hand `value` to each observer's `method`; a failing observer costs its own work
        (logged), never the run."""
        for observer in self.observers:
            try:
                getattr(observer, method)(value)
            except Exception as exc:  # the answer matters more than what watches it
                log.warning("%r failed in %s: %s", observer, method, exc)


def _index_is_current(db: str | None, root: Path) -> bool:
    """Whether the folder has an up-to-date index in `db` (the default index if None)."""
    index = Index(db)
    try:
        return index.path.exists() and index.is_current(root)
    except FsnbError:
        return False


class ExplorationThread(threading.Thread):
    """A background exploration: `result()` waits, `cancel()` stops it cleanly."""

    def __init__(
        self,
        explorer: Explorer,
        task: str,
        on_event: Callable[[ev.Event], None] | None,
        after: ExplorationResult | None = None,
    ):
        super().__init__(daemon=True, name="fsnb-explore")
        self.explorer, self.task, self.on_event, self.after = explorer, task, on_event, after
        self._result: ExplorationResult | None = None

    def run(self) -> None:
        self._result = self.explorer.run(self.task, self.on_event, after=self.after)

    def cancel(self) -> None:
        self.explorer.cancel()

    def stop(self) -> None:
        self.explorer.stop()

    def result(self, timeout: float | None = None) -> ExplorationResult | None:
        self.join(timeout)
        return self._result
