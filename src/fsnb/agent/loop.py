"""The exploration loop: ask the LLM for an Action, run it, emit Events, until Stop.

`Explorer.events(task)` is a generator of events whose return value is the
`ExplorationResult`; `run` drains it, `start` runs it in a background thread. Each LLM
call and each tool runs in a worker thread (`deadline.call_before`), so the run's timeout
and `cancel()` hold while a call is in flight. `stop()` ends a run gently: the step under
way finishes, then one last step asks the LLM for its answer from what was read.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Generator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from fsnb.agent import events as ev
from fsnb.agent.citations import verify_citations
from fsnb.agent.deadline import Interrupted, call_before
from fsnb.agent.limits import CONTEXT_CHARS, check_question, cut_question, cut_result
from fsnb.agent.prompts import opening_message, system_prompt
from fsnb.agent.result import CANCELLED, ExplorationResult, new_id
from fsnb.agent.usage import Usage
from fsnb.documents import FolderDocuments, parse
from fsnb.errors import AccessDenied, FsnbError
from fsnb.errors import Cancelled as Cancelled  # raised by `ToolContext.check`; was defined here
from fsnb.index import Index
from fsnb.llm.masked import mask_outcome, masked
from fsnb.llm.prices import price_for
from fsnb.protocol import LLM, Action, Conversation, LLMError, ToolOutcome, Turn
from fsnb.security import Sandbox
from fsnb.text.redact import withheld_note
from fsnb.tools import Registry, ToolContext, agent_registry
from fsnb.tools.payloads import ReadsDocuments, Scanned
from fsnb.tools.registry import describe

if TYPE_CHECKING:
    from fsnb.agent.spec import RunObserver

AskCallback = Callable[[str], str | None]
T = TypeVar("T")
log = logging.getLogger(__name__)


class _Stop(Exception):
    """Ends the run; the message is the run's error."""


class Explorer:
    """Runs explorations of one folder with one LLM backend."""

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
        run = _Run(self, task, after).drive()
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


def _seconds(value: float) -> str:
    return f"{value:g}"


def _now() -> str:
    """The time now, in UTC, as ISO 8601."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


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


class _Run:
    """The state of one exploration."""

    def __init__(self, explorer: Explorer, task: str, after: ExplorationResult | None) -> None:
        self.x = explorer
        self.task = cut_question(task, explorer.max_question_chars)
        self.after = after
        self.usage = Usage()
        self.events: list[ev.Event] = []
        # what the thread read so far counts for this run's citations
        self.read_paths: set[str] = set(after.read_paths) if after else set()
        self.read_order: list[str] = []  # the same paths, in the order of their first read
        self.parsed_text: list[str] = []
        self.cwd = "."
        self.started = time.monotonic()
        self.started_at = _now()
        self.deadline = self.started + explorer.timeout_s
        self.step = 0
        self.price = price_for(explorer.llm.model)
        # what every tool call works in; tools that ask the LLM (extract_rows) use its backend
        self.ctx = ToolContext(
            explorer.sandbox, explorer.db, llm=explorer.llm, reveal_secrets=explorer.reveal_secrets
        )
        # a long tool stops between documents once the run is over (`ToolContext.check`)
        self.ctx.deadline, self.ctx.cancelled = self.deadline, explorer._cancel

    def clock(self) -> float:
        """Seconds since the run started."""
        return round(time.monotonic() - self.started, 3)

    def emit(self, event: ev.Event, at: float | None = None) -> ev.Event:
        event.step = event.step or self.step
        event.at = self.clock() if at is None else at
        self.events.append(event)
        return event

    def _wait(self, func: Callable[[], T], doing: str) -> T:
        """`func()` in a worker thread, waited for until the run's deadline or a cancel;
        then `_Stop` (the worker finishes in the background, its result unused)."""
        try:
            return call_before(func, self.deadline, self.x._cancel, name=f"fsnb-step-{self.step}")
        except Interrupted as stop:
            timeout = f"timed out after {_seconds(self.x.timeout_s)} s ({doing})"
            raise _Stop("cancelled" if stop.reason == "cancelled" else timeout) from None

    def drive(self) -> Generator[ev.Event, None, ExplorationResult]:
        x = self.x
        yield self.emit(
            ev.Started(
                task=self.task,
                folder=x.root,
                backend=x.llm.backend,
                model=x.llm.model,
                max_steps=x.max_steps,
            )
        )
        convo = Conversation(
            task=self.task,
            root=x.root,
            system=system_prompt(x.registry.schemas()),
            opening=opening_message(self.task, self.ctx),
            tools=x.registry.schemas(),
            budget_chars=x.context_chars,
            documents=x.documents,
            earlier=self.after.thread if self.after else [],
        )
        answer, reason, citations, error = "", "", [], None
        stopping = False
        while not (error := self._limit_reached()):
            self.step += 1
            stopping = x._finish.is_set()
            convo.last_step = stopping or self.step == x.max_steps
            try:
                action = yield from self._next_action(convo)
                if action.kind == "stop":
                    answer, reason = action.answer or "", action.reason
                    if stopping:
                        reason = f"Stopped: answered from what was read. {reason}".strip()
                    citations = verify_citations(
                        answer, action.citations, x.sandbox, self.read_paths
                    )
                    break
                if stopping:  # asked for its answer, the LLM went on exploring
                    error = CANCELLED
                    break
                turn = yield from self._act(action)
            except _Stop as stop:
                error = str(stop)
                break
            except Exception as exc:  # a bug in a step ends the run with its error, not a crash
                error = f"step {self.step} failed: {describe(exc)}"
                break
            convo.turns.append(turn)
        self.usage.wall_s = round(time.monotonic() - self.started, 3)
        if error:
            yield self.emit(ev.Error(message=error))
        result = ExplorationResult(
            task=self.task,
            folder=x.root,
            answer=answer,
            citations=citations,
            usage=self.usage,
            events=self.events,
            backend=x.llm.backend,
            model=x.llm.model,
            base_url=getattr(x.llm, "base_url", None),
            reveal_secrets=x.reveal_secrets,
            error=error,
            documents_read=list(self.read_order),
            stopped=stopping and not error,
            turns=list(convo.turns),
            earlier=list(convo.earlier),
            read_paths=sorted(self.read_paths),
            id=new_id(),
            thread_id=self.after.thread_id if self.after else "",
            parent_id=self.after.id if self.after else None,
            started_at=self.started_at,
            finished_at=_now(),
            explorer=x,
        )
        if not error:
            answer_event = ev.Answer(
                answer=result.answer_with_sources(),
                reason=reason,
                citations=[c.to_dict() for c in citations],
            )
            yield self.emit(answer_event)
        return result

    def _limit_reached(self) -> str | None:
        """The run's error when it must stop before the next step."""
        x = self.x
        if x._cancel.is_set():
            return "cancelled"
        if time.monotonic() - self.started > x.timeout_s:
            return f"timed out after {_seconds(x.timeout_s)} s without an answer"
        if self.step >= x.max_steps:
            return f"step limit ({x.max_steps}) reached without an answer"
        return None

    def _next_action(self, convo: Conversation) -> Generator[ev.Event, None, Action]:
        """Ask the LLM for the next action; its retries come out as recoverable errors.
        `_Stop` ends the run (LLM error, backend bug, timeout, cancel)."""
        x = self.x
        pending: list[tuple[str, float]] = []

        def notify(message: str) -> None:  # called in the worker thread
            pending.append((message, self.clock()))

        reply, stop = None, None
        try:
            reply = self._wait(
                lambda: x.llm.next_action(convo, notify), "while waiting for the LLM"
            )
        except _Stop as exc:
            stop = exc
        except LLMError as exc:
            self.usage.add(exc.tokens, self.price)
            stop = _Stop(str(exc))
        except Exception as exc:  # a backend bug must end the run, not crash the caller
            stop = _Stop(f"the {x.llm.backend} backend failed: {describe(exc)}")
        for message, at in list(pending):
            self.usage.retries += 1
            yield self.emit(ev.Error(message=message, recoverable=True), at)
        if stop is not None or reply is None:
            raise stop or _Stop(f"the {x.llm.backend} backend returned nothing")
        self.usage.add(reply.tokens, self.price)
        u = self.usage
        yield self.emit(
            ev.UsageUpdate(
                llm_calls=u.llm_calls,
                prompt_tokens=u.prompt_tokens,
                completion_tokens=u.completion_tokens + u.thinking_tokens,
                total_tokens=u.total_tokens,
                cost_usd=round(u.cost_usd, 6),
                cached_tokens=u.cached_tokens,
            )
        )
        return reply.action

    def _act(self, action: Action) -> Generator[ev.Event, None, Turn]:
        """Carry out a non-stop action; return the step with the text sent back to the LLM."""
        if action.kind == "go_deeper":
            return (yield from self._go_deeper(action))
        if action.kind == "ask_human":
            return (yield from self._ask_human(action))
        return (yield from self._tool(action))

    def _go_deeper(self, action: Action) -> Generator[ev.Event, None, Turn]:
        directory = action.directory or "."
        yield self.emit(ev.Navigate(directory=directory, reason=action.reason))
        try:
            target = self.x.sandbox.existing(directory, "folder", reading=False)
        except AccessDenied as exc:
            outcome = ToolOutcome.failure(str(exc))
        except FsnbError as exc:  # NotFound: not there (with the closest names), or a file
            outcome = ToolOutcome.failure(f"error: {exc}")
        else:
            self.cwd = self.x.sandbox.relative(target)
            pattern = {"pattern": f"{self.cwd}/*"}
            outcome = self._wait(
                lambda: self.x.registry.call("glob", pattern, ctx=self.ctx),
                "while running tool glob",
            )
            outcome = self._seen(outcome)[0]
        return Turn(action, outcome.text, outcome)

    def _ask_human(self, action: Action) -> Generator[ev.Event, None, Turn]:
        question = action.question or ""
        yield self.emit(ev.AskHuman(question=question, reason=action.reason))
        reply = self.x.ask(question) if self.x.ask else None
        defaulted = not reply
        text = reply or self.x.default_answer
        yield self.emit(ev.HumanReply(question=question, answer=text, defaulted=defaulted))
        note = " (no one was there to answer; this is the default reply)" if defaulted else ""
        return Turn(action, f"The user answered{note}: {text}")

    def _tool(self, action: Action) -> Generator[ev.Event, None, Turn]:
        name = action.tool or ""
        args: dict[str, Any] = action.arguments()
        doing = f"while running tool {name}"
        phase = self._wait(lambda: self._phase(name, args, action.reason), doing)  # may parse
        target = str(args.get("path") or args.get("folder") or args.get("pattern") or "")
        yield self.emit(
            ev.ToolCall(tool=name, args=args, reason=action.reason, phase=phase, target=target)
        )
        began = time.perf_counter()
        try:
            # masked in the worker too: the run's deadline holds for the masking as well
            outcome, withheld, chars = self._wait(lambda: self._run_tool(name, args), doing)
        except _Stop as stop:  # the trace shows the call ending, then the run's error
            self._tool_tokens()
            duration = round((time.perf_counter() - began) * 1000, 1)
            unfinished = ev.ToolResult(
                tool=name, args=args, result=f"error: {stop}", duration_ms=duration, chars=0,
                phase=phase, target=target, ok=False,
            )  # fmt: skip
            yield self.emit(unfinished)
            raise
        duration = (time.perf_counter() - began) * 1000
        self._tool_tokens()
        if outcome.ok:
            self._record(name, args, outcome)
        sent, cut = cut_result(outcome.text, self.x.max_result_chars)
        if withheld:
            sent += "\n" + withheld_note(withheld)
        self.usage.tool_calls += 1
        self.usage.tool_chars += len(sent)
        yield self.emit(
            ev.ToolResult(
                tool=name,
                args=args,
                result=sent,
                duration_ms=round(duration, 1),
                chars=chars,
                phase=phase,
                target=target,
                truncated=cut > 0,
                ok=outcome.ok,
                withheld=withheld,
                data=outcome.data,
            )
        )
        return Turn(action, sent, outcome, cut)

    def _run_tool(self, name: str, args: dict[str, Any]) -> tuple[ToolOutcome, int, int]:
        """The tool's outcome as the backend sees it, the values withheld, and the length
        of the text the tool gave."""
        outcome = self.x.registry.call(name, args, ctx=self.ctx)
        return (*self._seen(outcome), len(outcome.text))

    def _seen(self, outcome: ToolOutcome) -> tuple[ToolOutcome, int]:
        """The outcome as the backend sees it (masked unless secrets are revealed), which
        is what the turn, the trace and saved runs keep; and how many values it withheld."""
        return (outcome, 0) if self.x.reveal_secrets else mask_outcome(outcome)

    def _tool_tokens(self) -> None:
        """Bill the LLM calls a tool made (extract_rows) to the run's usage."""
        for tokens in self.ctx.take_spent():
            self.usage.add(tokens, self.price)

    def _record(self, tool: str, args: dict[str, Any], outcome: ToolOutcome[Any]) -> None:
        """Count what the step read, by its payload and its tool's declared traits: a
        preview (a scan-phase read) makes the file citable, a read puts it in the run's
        reading order, a parse counts among the documents parsed."""
        payload = outcome.payload
        if isinstance(payload, Scanned):
            self.usage.documents_scanned += payload.previewed
        if outcome.ok and isinstance(payload, ReadsDocuments):
            # a tool that read whole documents for their tables or rows says which
            for rel in map(str, payload.read):
                if rel not in self.read_paths:
                    self.usage.documents_parsed += 1
                    self.read_order.append(rel)
                self.read_paths.add(rel)
        traits = self.x.registry.tools.get(tool)
        if traits is None or traits.reads is None or traits.reads not in args:
            return
        try:
            rel = self.x.sandbox.relative(self.x.sandbox.resolve(str(args[traits.reads])))
        except AccessDenied:
            return
        if traits.parses and rel not in self.read_paths:
            self.usage.documents_parsed += 1
        previewed = traits.phase == "scan"
        if not previewed and rel not in self.read_order:
            self.read_order.append(rel)
        self.read_paths.add(rel)
        if not previewed:
            self.parsed_text.append(outcome.text.lower())

    def _phase(self, tool: str, args: dict[str, Any], reason: str = "") -> str:
        """The tool's declared phase (scan, search, read), or backtrack: a read of a file
        that something read earlier refers to (or that the LLM says it goes back for, with
        a reason starting "Backtrack")."""
        traits = self.x.registry.tools.get(tool)
        if traits is None:
            return "read"
        if traits.phase != "read" or traits.reads is None:
            return traits.phase
        if reason.lower().startswith("backtrack"):
            return "backtrack"
        path = str(args.get(traits.reads, ""))
        if path and self.parsed_text and self._mentioned(path):
            return "backtrack"
        return "read"

    def _mentioned(self, path: str) -> bool:
        """Whether earlier reads name this file (by file name, stem or title)."""
        names = {Path(path).name.lower(), Path(path).stem.lower()}
        try:
            box = self.x.sandbox
            title = parse(box.resolve(path), root=box.root).title.lower()
        except Exception:  # an unreadable file has no title to look for
            title = ""
        if len(title.split()) >= 2:
            names.add(title)
        return any(name in text for name in names for text in self.parsed_text)
