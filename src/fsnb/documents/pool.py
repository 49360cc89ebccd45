"""Worker processes that can be killed one at a time: a process pool whose jobs have time
limits, so that a parse stuck in C code (Docling's backends, pypdfium2), which no
exception reaches, is stopped.

A `ProcessPoolExecutor` is broken for good when one of its workers dies, and every job in
flight with it. Here each worker is a 'spawn' process with a pipe of its own, and one
thread of the pool's owner runs them all: a job past its time limit has its worker killed
(SIGKILL) and replaced, and fails with `Overtime`; a worker that dies otherwise (a crash
in C code, killed from outside) fails its one job with `WorkerDied`. Other jobs carry on.

Workers start as jobs come, up to the pool's size, and stay warm for the next jobs (for
`idle_s`): each imports `preload` before it takes one; a job's clock starts when a ready
worker takes it. A job's limit is set when it is submitted (`Pool.submit_within`), or from
inside the job (`fsnb.documents.child.clock`). Workers run `fsnb.documents.child`, never
the caller's `__main__` (safe in a Jupyter kernel and in a script without a guard), ignore
interrupts, and are killed when their owner exits.
"""

from __future__ import annotations

import atexit
import logging
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
import types
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError, Executor, Future
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from fsnb.documents.child import run_with, serve, settings

log = logging.getLogger(__name__)

_pools: list[Pool] = []
_shared: dict[tuple[str, ...], Pool] = {}
_lock = threading.RLock()


def default_workers() -> int:
    """`FSNB_WORKERS`, else the number of CPUs (at most 8)."""
    env = os.environ.get("FSNB_WORKERS")
    return max(1, int(env)) if env else min(8, os.cpu_count() or 2)


IDLE_S = 300.0  #: seconds a warm worker waits for a job, then exits


class Overtime(Exception):
    """A job ran past its time limit: its worker was killed."""

    def __init__(self, seconds: float, why: str = "") -> None:  # why: the clock's reason
        super().__init__(why or f"still running after {seconds:g} s")
        self.seconds, self.why = seconds, why


class WorkerDied(Exception):
    """A job's worker died before it answered (a crash, or killed from outside), or no
    worker could start."""


class RemoteTraceback(Exception):
    """The traceback, in the worker, of a job's exception (its `__cause__`)."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(eq=False)
class _Job:
    future: Future[Any]
    call: bytes  # (fn, args, kwargs), pickled
    seconds: float | None


@dataclass(eq=False)
class _Worker:
    process: Any  # a spawn context's Process
    conn: Connection
    state: str = "starting"  # then "idle" or "busy"
    job: _Job | None = None
    until: float | None = None  # the job's deadline
    clock: tuple[float, float, Callable[[], None] | None, str] | None = None  # from `clock`
    since: float = field(default_factory=time.monotonic)  # idle since


class Pool(Executor):
    """Up to `size` worker processes, each importing `preload` as it starts; workers idle
    for `idle_s` seconds (None: never) exit, and start again when jobs come."""

    def __init__(self, size: int, preload: Iterable[str] = (), idle_s: float | None = None):
        self.size, self.preload, self.idle_s = max(1, size), tuple(preload), idle_s
        self._workers: list[_Worker] = []
        self._pending: deque[_Job] = deque()
        self._stops: set[Future[Any]] = set()
        self._closed = self._killed = False
        self._lock = threading.RLock()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)
        self._thread = threading.Thread(target=self._run, name="fsnb-pool", daemon=True)
        self._thread.start()
        with _lock:
            _pools.append(self)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return self.submit_within(None, fn, *args, **kwargs)

    def submit_within(
        self, seconds: float | None, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> Future[Any]:
        """`fn(*args, **kwargs)` in a worker, with this process's `FSNB_*` settings of now,
        failed with `Overtime` (its worker killed) once it has run `seconds` there."""
        job = _Job(Future(), pickle.dumps((run_with, (settings(), fn, *args), kwargs)), seconds)
        with self._lock:
            if self._closed:
                msg = "cannot submit to a pool that was shut down"
                raise RuntimeError(msg)
            self._pending.append(job)
        self._wake()
        return job.future

    def stop(self, future: Future[Any]) -> None:
        """Cancel a job not started; kill the worker of one running (which fails with
        `CancelledError`); nothing for one done."""
        with self._lock:
            if not future.cancel() and not future.done():
                self._stops.add(future)
        self._wake()

    def pids(self) -> list[int]:
        """The process ids of the workers now."""
        with self._lock:
            return [w.process.pid for w in self._workers]

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """No more jobs: the workers exit once those submitted are done (with
        `cancel_futures`, those not started are cancelled)."""
        with self._lock:
            self._closed = True
            if cancel_futures:
                for job in self._pending:
                    job.future.cancel()
        self._wake()
        if wait:
            self._thread.join()

    def kill(self) -> None:
        """Stop now: jobs not started are cancelled, running ones fail with
        `CancelledError`, and every worker is killed."""
        with self._lock:
            self._closed = self._killed = True
        self._wake()
        self._thread.join(10)

    def _wake(self) -> None:
        with self._lock:
            if self._wake_w < 0:  # the pool is done
                return
            with suppress(BlockingIOError):  # woken many times already
                os.write(self._wake_w, b"x")

    def _run(self) -> None:
        try:
            while self._step():
                pass
        except BaseException:
            log.exception("the worker pool failed")
            with self._lock:
                self._closed = self._killed = True
                self._end(WorkerDied("the worker pool failed"))
        finally:
            with _lock:
                if self in _pools:
                    _pools.remove(self)
            with self._lock:
                os.close(self._wake_r)
                os.close(self._wake_w)
                self._wake_w = -1

    def _step(self) -> bool:
        """One round of the owner's thread; False when the pool is done."""
        with self._lock:
            if self._killed:
                self._end(CancelledError())
                return False
            self._dispatch()
            self._grow()
            if self._closed and not self._pending and all(w.job is None for w in self._workers):
                for worker in list(self._workers):
                    self._retire(worker, gently=True)
                return False
            waits: list[Any] = [self._wake_r]
            for worker in self._workers:
                waits += [worker.conn, worker.process.sentinel]
            timeout = self._timeout()
        ready = set(wait(waits, timeout))
        with self._lock:
            if self._wake_r in ready:
                os.read(self._wake_r, 4096)
            for worker in list(self._workers):
                if worker.conn in ready or worker.process.sentinel in ready:
                    self._read(worker)
            self._expire()
        return True

    def _dispatch(self) -> None:
        self._pending = deque(j for j in self._pending if not j.future.cancelled())
        idle = [w for w in self._workers if w.state == "idle"]
        while idle and self._pending:
            job = self._pending.popleft()
            if not job.future.set_running_or_notify_cancel():
                continue
            worker = idle.pop()
            worker.state, worker.job, worker.clock = "busy", job, None
            worker.until = time.monotonic() + job.seconds if job.seconds else None
            with suppress(OSError):  # it died; its death is read next round
                worker.conn.send_bytes(job.call)

    def _grow(self) -> None:
        starting = sum(w.state == "starting" for w in self._workers)
        for _ in range(min(len(self._pending) - starting, self.size - len(self._workers))):
            self._start()

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")
        mine, theirs = context.Pipe()
        process = context.Process(
            target=serve, args=(theirs, os.getpid(), self.preload), name="fsnb-worker"
        )
        process.daemon = True
        try:
            with _no_main():
                process.start()
        except Exception as exc:  # (a daemonic process may start none)
            mine.close()
            self._fail_pending(WorkerDied(f"no worker could start ({exc})"))
            return
        finally:
            theirs.close()
        self._workers.append(_Worker(process, mine))

    def _read(self, worker: _Worker) -> None:
        """Take the worker's messages; a worker gone is replaced and fails its job."""
        try:
            while worker.conn.poll():
                kind, data = pickle.loads(worker.conn.recv_bytes())
                self._take(worker, kind, data)
        except (EOFError, OSError):
            pass
        if worker in self._workers and not worker.process.is_alive():
            self._lost(worker)

    def _take(self, worker: _Worker, kind: str, data: bytes) -> None:
        try:
            value = pickle.loads(data)
        except Exception as exc:  # e.g. a class the worker has and this process has not
            if kind != "done":
                log.warning("a worker's %r message could not be read: %s", kind, exc)
                return
            value = (False, (exc, ""))
        if kind == "ready":
            worker.state, worker.since = "idle", time.monotonic()
        elif kind == "broken":
            self._retire(worker)
            self._fail_pending(WorkerDied(f"a worker could not start ({value})"))
        elif kind == "clock":
            seconds, after, why = value
            worker.clock = (time.monotonic() + seconds, seconds, after, why) if seconds else None
        elif kind == "done" and worker.job is not None:
            future, worker.job = worker.job.future, None
            self._stops.discard(future)
            worker.state, worker.since, worker.clock = "idle", time.monotonic(), None
            ok, result = value
            if ok:
                future.set_result(result)
            else:
                error, trace = result
                if trace:
                    error.__cause__ = RemoteTraceback(trace)
                future.set_exception(error)

    def _lost(self, worker: _Worker) -> None:
        code = worker.process.exitcode
        self._retire(worker)
        if worker.state == "starting":
            self._fail_pending(WorkerDied(f"a worker could not start (exit code {code})"))
        elif worker.job is not None:
            why = f"exit code {code}"
            if code is not None and code < 0:
                why = signal.strsignal(-code) or f"signal {-code}"
            worker.job.future.set_exception(WorkerDied(f"its worker process died: {why}"))
            self._replace()

    def _expire(self) -> None:
        """Kill the workers of jobs past their time or stopped, and idle ones too long."""
        now = time.monotonic()
        for worker in list(self._workers):
            if worker.state == "idle" and self.idle_s and now - worker.since >= self.idle_s:
                self._retire(worker)
            job, clock, after = worker.job, worker.clock, None
            if job is None:
                continue
            if job.future in self._stops:
                error: BaseException = CancelledError()
            elif clock is not None and clock[0] <= now:
                error, after = Overtime(clock[1], clock[3]), clock[2]
            elif worker.until is not None and worker.until <= now:
                error = Overtime(job.seconds or 0)
            else:
                continue
            self._stops.discard(job.future)
            self._retire(worker)
            try:
                if after is not None:  # what the worker can no longer do, done here
                    after()
            except Exception:
                log.warning("after a job's overtime", exc_info=True)
            job.future.set_exception(error)
            self._replace()

    def _timeout(self) -> float | None:
        ends = [w.until for w in self._workers if w.until is not None and w.job is not None]
        ends += [w.clock[0] for w in self._workers if w.clock is not None and w.job is not None]
        if self.idle_s:
            ends += [w.since + self.idle_s for w in self._workers if w.state == "idle"]
        return max(0.0, min(ends) - time.monotonic()) if ends else None

    def _replace(self) -> None:
        if not self._closed and len(self._workers) < self.size:
            self._start()

    def _retire(self, worker: _Worker, gently: bool = False) -> None:
        """Take the worker out of the pool and end its process (killed unless `gently`:
        asked to exit, killed if it does not within 5 s)."""
        if worker in self._workers:
            self._workers.remove(worker)
        if gently:
            with suppress(OSError):
                worker.conn.send_bytes(b"")
            worker.process.join(5)
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join()
        worker.process.close()
        worker.conn.close()

    def _fail_pending(self, error: Exception) -> None:
        while self._pending:
            job = self._pending.popleft()
            if job.future.set_running_or_notify_cancel():
                job.future.set_exception(error)

    def _end(self, error: Exception) -> None:
        for job in self._pending:
            job.future.cancel()
        self._pending.clear()
        for worker in list(self._workers):
            self._retire(worker)
            if worker.job is not None and not worker.job.future.done():
                worker.job.future.set_exception(error)


def shared(preload: Iterable[str]) -> Pool:
    """This process's pool for `preload` (`default_workers()` workers at most, those idle
    for 5 minutes exiting), made on first use."""
    modules = tuple(preload)
    with _lock:
        pool = _shared.get(modules)
        if pool is None or pool._closed:
            pool = _shared[modules] = Pool(default_workers(), modules, idle_s=IDLE_S)
        return pool


@contextmanager
def _no_main() -> Iterator[None]:
    """Spawned workers import `__main__` by its spec or path: let it have neither (they
    import `fsnb.documents.child`, for `serve`, and nothing of the caller's)."""
    with _lock:
        main = sys.modules["__main__"]
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            yield
        finally:
            sys.modules["__main__"] = main


@atexit.register
def _kill_all() -> None:
    with _lock:
        pools = list(_pools)
    for pool in pools:
        pool.kill()
