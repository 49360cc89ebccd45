"""A pool's worker process (`fsnb.documents.pool`): its main loop, and what a job in it
may ask of the pool (`clock`: be killed when part of it runs too long).

A worker ignores Ctrl-C, which its owner answers (`Pool.stop`, `Pool.kill`), and exits as
soon as its owner is gone. Messages to the owner are (kind, value pickled on its own),
so that a value this process cannot pickle, or the owner cannot read, is that message's
error alone: "ready", "broken" (`preload` failed), "clock" (seconds or None, what to
do on overtime and why) and "done" ((True, result) or (False, (error, traceback))).
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import pickle
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Any

#: This process's pipe to the pool that runs it (None: not a pool worker).
_channel: Connection | None = None


def can_start() -> bool:
    """Whether this process may start workers (a daemonic one, a Dask worker's by
    default, may not)."""
    return not multiprocessing.current_process().daemon


def in_worker() -> bool:
    """Whether this process is a pool's worker."""
    return _channel is not None


@contextmanager
def clock(
    seconds: float, on_overtime: Callable[[], None] | None = None, why: str = ""
) -> Iterator[None]:
    """In a pool's worker: the pool kills this process, and fails its job with `Overtime`
    (saying `why`), when the block runs past `seconds`; before it does, it calls
    `on_overtime` (picklable), for what this process can then no longer do. In the job's
    thread; a clock inside another runs to the earlier of the two ends, and the outer one
    runs on when the inner one stops."""
    assert _channel is not None, "not in a pool's worker"
    outer = _clocks[-1] if _clocks else None
    end = time.monotonic() + seconds
    mine = outer if outer and outer[0] <= end else (end, on_overtime, why)
    _tell(_channel, mine)  # raises when `on_overtime` does not pickle
    _clocks.append(mine)
    try:
        yield
    finally:
        _clocks.pop()
        _tell(_channel, outer)


#: The clocks running in this worker's job, outermost first: (end, on_overtime, why).
_clocks: list[tuple[float, Callable[[], None] | None, str]] = []


def _tell(conn: Connection, clock: tuple[float, Callable[[], None] | None, str] | None) -> None:
    """Set the pool's clock for this worker's job (None: no limit)."""
    if clock is None:
        send(conn, "clock", (None, None, ""))
    else:
        end, on_overtime, why = clock
        send(conn, "clock", (max(end - time.monotonic(), 1e-3), on_overtime, why))


def settings() -> dict[str, str]:
    """This process's `FSNB_*` environment: what a job takes to the worker that runs it."""
    return {key: value for key, value in os.environ.items() if key.startswith("FSNB_")}


def run_with(given: dict[str, str], fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """`fn(*args, **kwargs)` under the `FSNB_*` environment `given` (the pool owner's as it
    was when the job was submitted, not as it was when this worker started)."""
    for key in [k for k in os.environ if k.startswith("FSNB_") and k not in given]:
        del os.environ[key]
    os.environ.update(given)
    return fn(*args, **kwargs)


def serve(conn: Connection, parent: int, preload: tuple[str, ...]) -> None:
    """A worker: import `preload`, then run the jobs that come until told to stop."""
    global _channel
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # an interrupt is its owner's to answer
    _watch_parent(parent)
    try:
        for name in preload:
            importlib.import_module(name)
    except BaseException as exc:
        send(conn, "broken", f"{type(exc).__name__}: {exc}")
        return
    _channel = conn
    send(conn, "ready", None)
    while True:
        try:
            call = conn.recv_bytes()
        except EOFError:
            return
        if not call:
            return
        try:
            fn, args, kwargs = pickle.loads(call)
            outcome: tuple[bool, Any] = (True, fn(*args, **kwargs))
        except BaseException as exc:  # SystemExit too: that job's error, not the worker's
            outcome = (False, (_portable(exc), traceback.format_exc()))
        try:
            send(conn, "done", outcome)
        except Exception as exc:  # a result that does not pickle
            error = RuntimeError(f"the job's result could not be sent back ({exc})")
            send(conn, "done", (False, (error, "")))


def send(conn: Connection, kind: str, value: object) -> None:
    """Send a message to the pool (`value` pickled on its own, so that one this process
    cannot pickle, or the pool cannot read, is that message's error alone)."""
    conn.send_bytes(pickle.dumps((kind, pickle.dumps(value))))


def _portable(exc: BaseException) -> BaseException:
    """`exc` if it survives pickling, else a RuntimeError saying what it was."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc


def _watch_parent(parent: int) -> None:
    """In a worker: exit as soon as the process that started the pool is gone (killed),
    rather than linger and hold its pipes open."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="fsnb-parent-watch", daemon=True).start()
