"""One exploration, step by step (`Run.drive`): ask the LLM for an action, carry it out
(a tool, a move into a folder, a question to the user), emit its events, until the LLM
stops or a limit is reached; then build the `ExplorationResult`. Each LLM call and tool
runs in a worker thread, waited for until the run's deadline or a cancel.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from fsnb.agent import events as ev
from fsnb.agent.citations import verify_citations
from fsnb.agent.deadline import Interrupted, call_before
from fsnb.agent.limits import cut_question, cut_result
from fsnb.agent.prompts import opening_message, system_prompt
from fsnb.agent.reading import Reading
from fsnb.agent.result import CANCELLED, ExplorationResult, new_id
from fsnb.agent.start import START_HITS, Start, choose_start
from fsnb.agent.usage import Usage
from fsnb.errors import AccessDenied, FsnbError
from fsnb.llm.masked import mask_outcome
from fsnb.llm.prices import price_for
from fsnb.protocol import Action, Conversation, LLMError, ToolOutcome, Turn
from fsnb.text.redact import withheld_note
from fsnb.tools import ToolContext
from fsnb.tools.registry import describe

if TYPE_CHECKING:
    from fsnb.agent.loop import Explorer

T = TypeVar("T")


class _Stop(Exception):
    """Ends the run; the message is the run's error."""


def _seconds(value: float) -> str:
    return f"{value:g}"


def _now() -> str:
    """The time now, in UTC, as ISO 8601."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Run:
    """The state of one exploration."""

    def __init__(self, explorer: Explorer, task: str, after: ExplorationResult | None) -> None:
        self.x = explorer
        self.task = cut_question(task, explorer.max_question_chars)
        self.after = after
        self.usage = Usage()
        self.events: list[ev.Event] = []
        self.reading = Reading(explorer.sandbox, explorer.registry, self.usage, after)
        self.cwd = "."
        self.started = time.monotonic()
        self.started_at = _now()
        self.deadline = explorer.deadline = self.started + explorer.timeout_s
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
        try:
            start = self._wait(lambda: choose_start(self.task, self.ctx, x.use_index), "starting")
        except _Stop as stop:  # the loop's first check then ends the run
            start = Start("scan", f"no start was chosen: {stop}")
        yield self.emit(
            ev.Started(
                task=self.task,
                folder=x.root,
                backend=x.llm.backend,
                model=x.llm.model,
                max_steps=x.max_steps,
                start=start.how,
                start_reason=start.why,
            )
        )
        if start.search is not None:
            start = yield from self._index_start(start)
        convo = Conversation(
            task=self.task,
            root=x.root,
            system=system_prompt(x.registry.schemas()),
            opening=opening_message(self.task, self.ctx, start.opening()),
            tools=x.registry.schemas(),
            budget_chars=x.context_chars,
            # the index start ranks only what the search found (and what it reads later)
            documents=x.documents if start.how == "scan" else x.documents.only(start.paths),
            earlier=self.after.thread if self.after else [],
            start_hits=start.paths,
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
                        answer, action.citations, x.sandbox, self.reading.read_paths
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
            documents_read=list(self.reading.read_order),
            stopped=stopping and not error,
            turns=list(convo.turns),
            earlier=list(convo.earlier),
            read_paths=sorted(self.reading.read_paths),
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
        reply = self._reply(question)
        defaulted = not reply
        text = reply or self.x.default_answer
        yield self.emit(ev.HumanReply(question=question, answer=text, defaulted=defaulted))
        note = " (no one was there to answer; this is the default reply)" if defaulted else ""
        return Turn(action, f"The user answered{note}: {text}")

    def _reply(self, question: str) -> str | None:
        """The user's answer, waited for no longer than the run's time left or a cancel;
        then None: the default reply, after which the run's limit ends it."""
        if not self.x.ask:
            return None
        ask = self.x.ask
        try:
            return call_before(
                lambda: ask(question), self.deadline, self.x._cancel, name="fsnb-ask"
            )
        except Interrupted:
            return None

    def _tool(self, action: Action) -> Generator[ev.Event, None, Turn]:
        name = action.tool or ""
        args: dict[str, Any] = action.arguments()
        doing = f"while running tool {name}"
        # the phase may parse the file (a backtrack is a read that earlier reads mention)
        phase = self._wait(lambda: self.reading.phase(name, args, action.reason), doing)
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
            self.reading.record(name, args, outcome)
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

    def _index_start(self, start: Start) -> Generator[ev.Event, None, Start]:
        """The index start's search as the run's step 0 in the trace, masked as every tool
        result is; the start with what the backend may see of it."""
        assert start.search is not None
        args: dict[str, Any] = {"query": self.task, "k": START_HITS}
        reason = f"Start: {start.why}; the index's best passages for the question."
        yield self.emit(
            ev.ToolCall(tool="semantic_search", args=args, reason=reason, phase="search")
        )
        seen, withheld = self._seen(start.search)
        self.usage.tool_calls += 1
        self.usage.tool_chars += len(seen.text)
        result = ev.ToolResult(
            tool="semantic_search", args=args, result=seen.text, duration_ms=0.0,
            chars=len(start.search.text), phase="search", ok=True, withheld=withheld,
            data=seen.data,
        )  # fmt: skip
        yield self.emit(result)
        return replace(start, search=seen)

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
