"""The exploration loop: ask the LLM for an Action, run it, emit Events, until Stop.

`Explorer.events(task)` is a generator of events whose return value is the
`ExplorationResult`; `run` drains it, `start` runs it in a background thread.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any, Literal

from fsnb.agent import events as ev
from fsnb.agent.actions import Action
from fsnb.agent.citations import verify_citations
from fsnb.agent.prompts import opening_message, system_prompt
from fsnb.agent.result import ExplorationResult
from fsnb.agent.usage import Usage, price_for
from fsnb.documents import parse
from fsnb.errors import AccessDenied, FsnbError
from fsnb.llm.base import LLM, Conversation, LLMError, Turn
from fsnb.security import Sandbox
from fsnb.tools import Registry, agent_registry

AskCallback = Callable[[str], str | None]
#: Tools whose `path` argument means the file was read (citations must point to these).
READING_TOOLS = frozenset({"parse_file", "read", "preview_file", "get_document"})
_PHASES = {
    "scan_folder": "scan",
    "glob": "scan",
    "preview_file": "scan",
    "semantic_search": "search",
    "list_indexed_documents": "search",
}
_PREVIEWED = re.compile(r"^Scanned \d+ files under .*?: (\d+) documents previewed")


class Cancelled(FsnbError):
    """The run was stopped from outside."""


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
        ask: AskCallback | None = None,
        default_answer: str = "No answer was given; continue with your best judgement.",
        registry: Registry | None = None,
        db: str | Path | None = None,
        use_index: bool | Literal["auto"] = "auto",
    ) -> None:
        self.sandbox = Sandbox(folder)
        self.db = str(db) if db else None
        if use_index == "auto":
            use_index = _index_is_current(self.db, self.sandbox.root)
        self.use_index = use_index
        self.llm = llm
        self.max_steps = max_steps
        self.timeout_s = timeout_s
        self.max_result_chars = max_result_chars
        self.ask = ask
        self.default_answer = default_answer
        self.registry = registry or agent_registry(use_index=use_index)
        self._cancel = threading.Event()

    @property
    def root(self) -> str:
        return str(self.sandbox.root)

    def cancel(self) -> None:
        """Ask a running exploration to stop after its current step."""
        self._cancel.set()

    def run(
        self, task: str, on_event: Callable[[ev.Event], None] | None = None
    ) -> ExplorationResult:
        """Run to the end and return the result; `on_event` sees each event as it happens."""
        stream = self.events(task)
        while True:
            try:
                event = next(stream)
            except StopIteration as done:
                return done.value
            if on_event:
                on_event(event)

    def start(
        self, task: str, on_event: Callable[[ev.Event], None] | None = None
    ) -> ExplorationThread:
        """Run in a background thread; the handle waits for or cancels it."""
        handle = ExplorationThread(self, task, on_event)
        handle.start()
        return handle

    def events(self, task: str) -> Generator[ev.Event, None, ExplorationResult]:
        """Yield events as the exploration proceeds; return the result."""
        self._cancel.clear()
        run = _Run(self, task)
        return (yield from run.drive())


def _index_is_current(db: str | None, root: Path) -> bool:
    """Whether the folder has an up-to-date index in `db` (the default index if None)."""
    from fsnb.index.index import Index

    index = Index(db)
    try:
        return index.path.exists() and index.is_current(root)
    except FsnbError:
        return False


class ExplorationThread(threading.Thread):
    """A background exploration: `result()` waits, `cancel()` stops it cleanly."""

    def __init__(self, explorer: Explorer, task: str, on_event: Callable[[ev.Event], None] | None):
        super().__init__(daemon=True, name="fsnb-explore")
        self.explorer, self.task, self.on_event = explorer, task, on_event
        self._result: ExplorationResult | None = None

    def run(self) -> None:
        self._result = self.explorer.run(self.task, self.on_event)

    def cancel(self) -> None:
        self.explorer.cancel()

    def result(self, timeout: float | None = None) -> ExplorationResult | None:
        self.join(timeout)
        return self._result


class _Run:
    """The state of one exploration."""

    def __init__(self, explorer: Explorer, task: str) -> None:
        self.x = explorer
        self.task = task
        self.usage = Usage()
        self.events: list[ev.Event] = []
        self.read_paths: set[str] = set()
        self.parsed_text: list[str] = []
        self.cwd = "."
        self.started = time.monotonic()
        self.step = 0
        self.price = price_for(explorer.llm.model)

    def emit(self, event: ev.Event) -> ev.Event:
        event.step = event.step or self.step
        event.at = round(time.monotonic() - self.started, 3)
        self.events.append(event)
        return event

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
            opening=opening_message(self.task, x.sandbox),
            tools=x.registry.schemas(),
        )
        answer, reason, citations, error = "", "", [], None
        while True:
            if x._cancel.is_set():
                error = "cancelled"
                break
            if time.monotonic() - self.started > x.timeout_s:
                error = f"timed out after {x.timeout_s:.0f} s without an answer"
                break
            if self.step >= x.max_steps:
                error = f"step limit ({x.max_steps}) reached without an answer"
                break
            self.step += 1
            convo.last_step = self.step == x.max_steps
            notes: list[ev.Event] = []

            def notify(message: str, notes: list[ev.Event] = notes) -> None:
                self.usage.retries += 1
                notes.append(self.emit(ev.Error(message=message, recoverable=True)))

            try:
                reply = x.llm.next_action(convo, notify)
            except LLMError as exc:
                yield from notes
                self.usage.add_call(
                    exc.prompt_tokens, exc.completion_tokens, exc.thinking_tokens, self.price
                )
                error = str(exc)
                break
            except Exception as exc:  # a backend bug must end the run, not crash the caller
                yield from notes
                error = f"the {x.llm.backend} backend failed: {type(exc).__name__}: {exc}"
                break
            yield from notes
            self.usage.add_call(
                reply.prompt_tokens, reply.completion_tokens, reply.thinking_tokens, self.price
            )
            u = self.usage
            yield self.emit(
                ev.UsageUpdate(
                    llm_calls=u.llm_calls,
                    prompt_tokens=u.prompt_tokens,
                    completion_tokens=u.completion_tokens + u.thinking_tokens,
                    total_tokens=u.total_tokens,
                    cost_usd=round(u.cost_usd, 6),
                )
            )
            action = reply.action
            if action.kind == "stop":
                answer, reason = action.answer or "", action.reason
                citations = verify_citations(answer, action.citations, x.sandbox, self.read_paths)
                break
            result = yield from self._act(action)
            convo.turns.append(Turn(action, result))
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
            error=error,
        )
        if not error:
            answer_event = ev.Answer(
                answer=result.answer_with_sources(),
                reason=reason,
                citations=[c.to_dict() for c in citations],
            )
            yield self.emit(answer_event)
        return result

    def _act(self, action: Action) -> Generator[ev.Event, None, str]:
        """Carry out a non-stop action; return the text sent back to the LLM."""
        if action.kind == "go_deeper":
            return (yield from self._go_deeper(action))
        if action.kind == "ask_human":
            return (yield from self._ask_human(action))
        return (yield from self._tool(action))

    def _go_deeper(self, action: Action) -> Generator[ev.Event, None, str]:
        directory = action.directory or "."
        yield self.emit(ev.Navigate(directory=directory, reason=action.reason))
        try:
            target = self.x.sandbox.resolve(directory, reading=False)
        except AccessDenied as exc:
            return str(exc)
        if not target.is_dir():
            return f"error: {directory} is not a folder"
        self.cwd = self.x.sandbox.relative(target)
        return self.x.registry.call("glob", {"pattern": f"{self.cwd}/*"}, root=self.x.root)

    def _ask_human(self, action: Action) -> Generator[ev.Event, None, str]:
        question = action.question or ""
        yield self.emit(ev.AskHuman(question=question, reason=action.reason))
        reply = self.x.ask(question) if self.x.ask else None
        defaulted = not reply
        text = reply or self.x.default_answer
        yield self.emit(ev.HumanReply(question=question, answer=text, defaulted=defaulted))
        note = " (no one was there to answer; this is the default reply)" if defaulted else ""
        return f"The user answered{note}: {text}"

    def _tool(self, action: Action) -> Generator[ev.Event, None, str]:
        name = action.tool or ""
        args: dict[str, Any] = action.arguments()
        phase = self._phase(name, args, action.reason)
        target = str(args.get("path") or args.get("folder") or args.get("pattern") or "")
        yield self.emit(
            ev.ToolCall(tool=name, args=args, reason=action.reason, phase=phase, target=target)
        )
        began = time.perf_counter()
        text = self.x.registry.call(name, args, root=self.x.root, db=self.x.db)
        duration = (time.perf_counter() - began) * 1000
        ok = not text.startswith(("error:", "access denied:"))
        if ok:
            self._record(name, args, text)
        sent, truncated = self._budget(text)
        self.usage.tool_calls += 1
        self.usage.tool_chars += len(sent)
        yield self.emit(
            ev.ToolResult(
                tool=name,
                args=args,
                result=sent,
                duration_ms=round(duration, 1),
                chars=len(text),
                phase=phase,
                target=target,
                truncated=truncated,
                ok=ok,
            )
        )
        return sent

    def _record(self, tool: str, args: dict[str, Any], text: str) -> None:
        if tool == "scan_folder" and (found := _PREVIEWED.search(text)):
            self.usage.documents_scanned += int(found.group(1))
        if tool not in READING_TOOLS or "path" not in args:
            return
        try:
            rel = self.x.sandbox.relative(self.x.sandbox.resolve(str(args["path"])))
        except AccessDenied:
            return
        if tool in ("parse_file", "get_document") and rel not in self.read_paths:
            self.usage.documents_parsed += 1
        self.read_paths.add(rel)
        if tool != "preview_file":
            self.parsed_text.append(text.lower())

    def _phase(self, tool: str, args: dict[str, Any], reason: str = "") -> str:
        """scan, read, or backtrack: reading a file that something read earlier refers to
        (or that the LLM says it goes back for, with a reason starting "Backtrack")."""
        if tool in _PHASES:
            return _PHASES[tool]
        path = str(args.get("path", ""))
        if tool in ("parse_file", "read", "get_document") and reason.lower().startswith(
            "backtrack"
        ):
            return "backtrack"
        if tool in ("parse_file", "read") and path and self.parsed_text and self._mentioned(path):
            return "backtrack"
        return "read"

    def _mentioned(self, path: str) -> bool:
        """Whether earlier reads name this file (by file name, stem or title)."""
        names = {Path(path).name.lower(), Path(path).stem.lower()}
        try:
            title = parse(self.x.sandbox.resolve(path)).title.lower()
        except (FsnbError, OSError):
            title = ""
        if len(title.split()) >= 2:
            names.add(title)
        return any(name in text for name in names for text in self.parsed_text)

    def _budget(self, text: str) -> tuple[str, bool]:
        """Cut a result over the size budget, saying so and how to get the rest."""
        limit = self.x.max_result_chars
        if len(text) <= limit:
            return text, False
        cut = text.rfind("\n", 0, limit)
        cut = cut if cut > limit // 2 else limit
        rest = len(text) - cut
        note = (
            f"\n[result cut at the size budget: {rest:,} more characters not shown. "
            "Ask for less: parse_file with offset/limit, a subfolder, or a narrower pattern.]"
        )
        return text[:cut] + note, True
