"""One call at a time per worker: run in a thread under the call's time limit, given up on
when the client cancels it, and kept in a short log that `status` shows.

A call runs through `fsnb.agent.deadline.call_before`, as the agent runs its tools: the
tool works in a daemon thread, waited for until the call's deadline (its time limit plus
`GRACE_S`, so a tool that checks `ToolContext.check` ends first with its own message) or
until the call is cancelled. Either way the tool stops at its next `ctx.check()` (the
context shares the call's deadline and cancel flag) or, if it never checks, runs on
unheard in its daemon thread.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import TypeVar

from fsnb.agent.deadline import call_before
from fsnb.llm.masked import mask_text

T = TypeVar("T")
#: Seconds a call is waited for past its time limit, for the tool to end it itself.
GRACE_S = 5.0
#: Seconds a worker waits for a progress notification to be sent.
REPORT_WAIT_S = 5.0
#: Calls that ended, kept for `status`.
KEPT = 20
#: Reports a call's progress (done, total, message) to the client that asked for it.
Report = Callable[[float, "float | None", "str | None"], None]
_ids = itertools.count(1)


def no_report(progress: float, total: float | None = None, message: str | None = None) -> None:
    """A `Report` for a call whose client asked for no progress."""


@dataclass(eq=False)
class Call:
    """One call: what it runs, in which folder, how long it may take, and how it ended."""

    tool: str
    folder: str
    limit_s: float
    id: int = field(default_factory=lambda: next(_ids))
    started: float = field(default_factory=time.monotonic)
    cancelled: threading.Event = field(default_factory=threading.Event)
    #: running, done, failed, timed out or cancelled
    state: str = "running"
    seconds: float | None = None

    @property
    def deadline(self) -> float:
        """When the call's time is up (`time.monotonic()`)."""
        return self.started + self.limit_s

    def line(self) -> str:
        took = f", {self.seconds:.1f} s" if self.seconds is not None else ""
        return f"#{self.id} {self.tool} ({self.folder}): {self.state}{took}"


class Calls:
    """The calls in flight and the last `KEPT` that ended."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.running: dict[int, Call] = {}
        self.ended: deque[Call] = deque(maxlen=KEPT)

    def begin(self, tool: str, folder: str, limit_s: float) -> Call:
        call = Call(tool, folder, limit_s)
        with self._lock:
            self.running[call.id] = call
        return call

    def end(self, call: Call, state: str) -> None:
        with self._lock:
            if self.running.pop(call.id, None) is None:
                return  # ended already
            call.state, call.seconds = state, time.monotonic() - call.started
            self.ended.append(call)

    def cancel_all(self) -> None:
        """Cancel every call in flight (the server is closing)."""
        with self._lock:
            calls = list(self.running.values())
        for call in calls:
            call.cancelled.set()

    def snapshot(self) -> tuple[list[Call], list[Call]]:
        """(the calls in flight, those that ended, newest last)."""
        with self._lock:
            return list(self.running.values()), list(self.ended)


async def in_worker(func: Callable[[], T], call: Call) -> T:
    """`func()` in a worker, waited for until the call's deadline (plus `GRACE_S`) or until
    it is cancelled (`Interrupted`); cancelled from the client (this coroutine is), the call
    is flagged so that the tool stops too."""
    deadline = call.deadline + GRACE_S
    name = f"fsnb-mcp-{call.tool}-{call.id}"
    try:
        return await asyncio.to_thread(call_before, func, deadline, call.cancelled, name=name)
    except asyncio.CancelledError:
        call.cancelled.set()
        raise


def reporter(send: Callable[[float, float | None, str | None], Awaitable[None]]) -> Report:
    """A `Report` that workers call: each report is masked and sent on the running event
    loop, and waited for (briefly), so that the last one goes out before the call's result."""
    loop = asyncio.get_running_loop()

    def report(progress: float, total: float | None = None, message: str | None = None) -> None:
        text = mask_text(message)[0] if message else None
        future = asyncio.run_coroutine_threadsafe(send(progress, total, text), loop)
        with suppress(Exception):  # the call ended, or the client went away: not the tool's
            future.result(REPORT_WAIT_S)

    return report


__all__ = ["GRACE_S", "Call", "Calls", "Report", "in_worker", "no_report", "reporter"]
