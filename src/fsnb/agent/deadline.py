"""Wait for a blocking call no longer than a deadline, and no longer than a cancel.

The loop runs each LLM call and each tool through `call_before`, so the run's timeout and
`Explorer.cancel()` hold while a call is in flight. A call given up on goes on in its daemon
thread until it returns by itself; its result is discarded.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Literal, TypeVar

T = TypeVar("T")
#: How often a wait looks at the cancel flag.
POLL_S = 0.05


class Interrupted(Exception):
    """The wait ended before the call did; `reason` says why."""

    def __init__(self, reason: Literal["timeout", "cancelled"]) -> None:
        super().__init__(reason)
        self.reason = reason


def _check(deadline: float, cancelled: threading.Event) -> None:
    if cancelled.is_set():
        raise Interrupted("cancelled")  # noqa: EM101
    if time.monotonic() >= deadline:
        raise Interrupted("timeout")  # noqa: EM101


def call_before(
    func: Callable[[], T], deadline: float, cancelled: threading.Event, *, name: str = "fsnb-call"
) -> T:
    """`func()` in a daemon thread named `name`, waited for until the monotonic `deadline`
    or until `cancelled` is set (then `Interrupted`); what `func` raises is raised here."""
    _check(deadline, cancelled)
    results: list[T] = []
    errors: list[BaseException] = []
    done = threading.Event()

    def work() -> None:
        try:
            results.append(func())
        except BaseException as exc:  # handed to the waiting thread
            errors.append(exc)
        finally:
            done.set()

    threading.Thread(target=work, name=name, daemon=True).start()
    while not done.wait(max(0.0, min(POLL_S, deadline - time.monotonic()))):
        _check(deadline, cancelled)
    if errors:
        raise errors[0]
    return results[0]
