"""Widget updates on the kernel's own thread, and interrupts that a blocking cell handles.

An exploration runs in a worker thread. What it changes in a panel (a trait synced over a
comm, a display updated) is not sent from there: it is posted here and runs on the
kernel's main thread, on the kernel's IO loop when that is free, or in `drain()`, which a
cell blocked on a run calls while it waits (`ExplorePanel.wait`), so a `--wait` cell
shows its run live. Outside a kernel (a script, a test's shell) a posted call runs at
once, in the thread that posts it.

`noting_interrupts()` turns the kernel's interrupt (SIGINT) into an event while a cell
waits, so the cell cancels its run and ends cleanly instead of taking a KeyboardInterrupt
wherever its thread happens to be.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

log = logging.getLogger(__name__)

_calls: deque[Callable[[], None]] = deque()
_lock = threading.Lock()
_scheduled = False  # a drain is queued on the IO loop
_draining = threading.local()


def _io_loop() -> Any | None:
    """The IO loop of the IPython kernel this process runs, if it is one."""
    from IPython import get_ipython

    kernel = getattr(get_ipython(), "kernel", None)
    return getattr(kernel, "io_loop", None)


def on_kernel_thread() -> bool:
    """Whether this is the thread that runs the cells and the kernel's IO loop."""
    return threading.current_thread() is threading.main_thread()


def post(call: Callable[[], None]) -> None:
    """Run `call` on the kernel's thread: now when this is it (after what is queued) or when
    there is no kernel, else as soon as the IO loop or a waiting cell drains the queue."""
    global _scheduled
    loop = _io_loop()
    if loop is None or on_kernel_thread():
        drain()
        _run(call)
        return
    with _lock:
        _calls.append(call)
        if _scheduled:
            return
        _scheduled = True
    loop.add_callback(drain)


def drain() -> None:
    """Run the posted calls, in order; only on the kernel's thread (elsewhere: nothing)."""
    global _scheduled
    if not on_kernel_thread() or getattr(_draining, "active", False):
        return
    _draining.active = True
    try:
        while True:
            with _lock:
                if not _calls:
                    _scheduled = False
                    return
                call = _calls.popleft()
            _run(call)
    finally:
        _draining.active = False


def _run(call: Callable[[], None]) -> None:
    try:
        call()
    except Exception:  # one failed update must not stop the others, nor the IO loop
        log.exception("fsnb: a widget update failed")


@contextmanager
def noting_interrupts() -> Iterator[threading.Event]:
    """While the block runs on the main thread, an interrupt (SIGINT) sets the event instead
    of raising KeyboardInterrupt; elsewhere the event is never set."""
    noted = threading.Event()
    if not on_kernel_thread():
        yield noted
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: noted.set())
    try:
        yield noted
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler if previous is None else previous)
