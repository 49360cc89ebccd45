"""Parses with a time limit run in worker processes that are killed, and replaced, when the
time is up (`fsnb.documents.pool`): a parse stuck in C code stops too, the other parses in
flight carry on, and an interrupted caller leaves no worker running.

The jobs here sleep (C code, which no Python exception reaches) rather than parse; they
are module-level functions, so that workers import them from this module. No test reads
a clock: limits are a second or two and the tests look at outcomes.
"""

from __future__ import annotations

import io
import json
import os
import signal
import threading
import time
import zipfile
from collections.abc import Iterator
from concurrent.futures import CancelledError
from functools import partial
from pathlib import Path

import pytest
from conftest import until

from fsnb.documents import child
from fsnb.documents.cache import ParseCache
from fsnb.documents.limits import WARM, TooLarge, overtime, within
from fsnb.documents.pool import Overtime, Pool, WorkerDied
from fsnb.documents.workers import parse_on
from fsnb.errors import ParseError


def _hang(started: str | None = None) -> None:
    """A job stuck in C code: it says it started (its process id), then sleeps."""
    if started:
        Path(started).write_text(str(os.getpid()))
    time.sleep(600)


def _hang_within(seconds: float, marker: str) -> None:
    """A job that, in its worker, hangs under `within`: the pool kills the worker, and
    touches `marker` first (what the worker could no longer do)."""
    within(seconds, "stuck.docx", _hang, on_overtime=partial(Path(marker).touch))


def _wait_for(started: str, marker: str) -> str:
    """A slow job: it says it started, then waits for `marker`."""
    Path(started).write_text(str(os.getpid()))
    while not Path(marker).exists():
        time.sleep(0.05)
    return "kept"


def _nested_clocks(outer_s: float, inner_s: float, hang_in: str) -> str:
    """Clocks inside clocks, in a worker: it hangs in the inner block, or after it."""
    with child.clock(outer_s, None, "the outer clock"):
        with child.clock(inner_s, None, "the inner clock"):
            if hang_in == "inner":
                time.sleep(600)
        if hang_in == "outer":
            time.sleep(600)
    return "done"


def _pid(value: int = 0) -> tuple[int, int]:
    return os.getpid(), value


def _fail(why: str) -> None:
    raise ParseError("odd.docx", why)


def _crash() -> None:
    os.kill(os.getpid(), signal.SIGSEGV)


def _appears(path: Path) -> str:
    """The text of `path` once a job has written it (a hung test fails, never hangs)."""
    for _ in range(1200):
        if path.exists() and path.read_text():
            return path.read_text()
        time.sleep(0.05)
    pytest.fail(f"{path.name} never written")


def _gone(pid: int) -> bool:
    """Whether process `pid` has ended (waited for, up to a minute)."""
    for _ in range(1200):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def pool() -> Iterator[Pool]:
    workers = Pool(2)
    yield workers
    workers.kill()


def test_a_job_past_its_limit_has_its_worker_killed_and_the_next_job_runs(
    pool: Pool, tmp_path: Path
):
    started = tmp_path / "started"
    stuck = pool.submit_within(1, _hang, str(started))
    with pytest.raises(Overtime, match="still running after 1 s"):
        stuck.result(timeout=120)
    killed = int(started.read_text())
    assert _gone(killed)
    pid, value = pool.submit_within(60, _pid, 7).result(timeout=120)
    assert value == 7 and pid != killed and pid in pool.pids()


def test_a_clock_inside_another_runs_to_the_earlier_end_and_says_why(pool: Pool):
    """OCR's per-page clock runs inside its per-file one: whichever ends first kills the
    job, with its own reason, and the outer clock runs on after the inner one stops."""
    with pytest.raises(Overtime, match="the inner clock"):
        pool.submit(_nested_clocks, 600, 1, "inner").result(timeout=120)
    with pytest.raises(Overtime, match="the outer clock"):
        pool.submit(_nested_clocks, 1, 600, "inner").result(timeout=120)
    with pytest.raises(Overtime, match="the outer clock"):
        pool.submit(_nested_clocks, 2, 600, "outer").result(timeout=120)
    assert pool.submit(_nested_clocks, 600, 600, "nowhere").result(timeout=120) == "done"


def test_the_other_job_in_flight_is_kept_when_one_is_killed(pool: Pool, tmp_path: Path):
    started, marker = tmp_path / "started", tmp_path / "overtime"
    slow = pool.submit(_wait_for, str(started), str(marker))
    survivor = int(_appears(started))  # in flight in its worker before the other is stuck
    stuck = pool.submit(_hang_within, 1, str(marker))
    with pytest.raises(Overtime):
        stuck.result(timeout=120)
    assert marker.exists()  # the pool ran what the killed worker could not
    assert slow.result(timeout=120) == "kept"
    assert survivor in pool.pids()


def test_errors_and_crashes_are_the_jobs_alone(pool: Pool):
    with pytest.raises(ParseError, match="not a document"):
        pool.submit(_fail, "not a document").result(timeout=120)
    with pytest.raises(WorkerDied, match="its worker process died: Segmentation fault"):
        pool.submit(_crash).result(timeout=120)
    assert pool.submit(_pid, 3).result(timeout=120)[1] == 3


def test_a_stopped_job_kills_its_worker(pool: Pool, tmp_path: Path):
    started = tmp_path / "started"
    stuck = pool.submit(_hang, str(started))
    pid = int(_appears(started))
    pool.stop(stuck)
    with pytest.raises(CancelledError):
        stuck.result(timeout=120)
    assert _gone(pid)


def test_within_runs_in_a_worker_that_is_killed_when_the_time_is_up(tmp_path: Path):
    started = tmp_path / "started"
    with pytest.raises(TooLarge) as info:
        within(1, "stuck.docx", _hang, str(started))
    assert info.value.why == overtime(1)
    assert _gone(int(started.read_text()))
    assert not child.in_worker()
    pid, value = within(30, "fine.docx", _pid, 5)  # a worker replaced the one killed
    assert value == 5 and pid != os.getpid()
    with pytest.raises(ParseError, match="not a document"):
        within(30, "odd.docx", _fail, "not a document")
    with pytest.raises(ParseError, match=r"the parser crashed \(its worker process died"):
        within(30, "odd.docx", _crash)


def test_an_interrupted_caller_leaves_no_worker_running(tmp_path: Path):
    started = tmp_path / "started"

    def interrupt() -> None:
        _appears(started)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=interrupt, daemon=True).start()
    with pytest.raises(KeyboardInterrupt):
        within(300, "stuck.docx", _hang, str(started))
    assert _gone(int(started.read_text()))


def _docx(path: Path, paragraphs: str) -> Path:
    """A real DOCX (python-docx's template) whose body holds `paragraphs`."""
    docx = pytest.importorskip("docx")
    template = io.BytesIO()
    docx.Document().save(template)
    with zipfile.ZipFile(template) as source, zipfile.ZipFile(path, "w") as out:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "word/document.xml":
                text = data.decode()
                start = text.index("<w:body>") + len("<w:body>")
                data = (text[:start] + paragraphs + text[start:]).encode()
            out.writestr(info.filename, data)
    return path


def test_a_pool_parse_past_its_limit_is_its_files_error_and_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    small = _docx(tmp_path / "small.docx", "<w:p><w:r><w:t>A small memo</w:t></w:r></w:p>")
    flood = _docx(tmp_path / "flood.docx", "<w:p/>" * 1_000_000)  # minutes in Docling
    monkeypatch.setenv("FSNB_PARSE_TIMEOUT", "2")  # before the workers start: theirs too
    workers = Pool(2, WARM)
    try:
        found = dict(parse_on(workers, [flood, small]))
    finally:
        workers.kill()
    assert isinstance(found[flood], ParseError) and found[flood].why == overtime(2)
    assert "A small memo" in found[small].text
    entries = [json.loads(p.read_text()) for p in ParseCache().directory.glob("*/*.json")]
    assert [(e["error"], e["limits"]) for e in entries if "error" in e] == [
        (overtime(2), "2.0s/256.0MB")
    ]  # written by this process, for the worker it killed


def test_workers_ignore_interrupts_and_exit_when_idle():
    """An interrupt meant for the notebook's kernel (SIGINT to its process group) never
    reaches a worker's Python, so no traceback lands in a later cell; a worker with nothing
    to do exits after `idle_s`, so none outlives the indexing it served."""
    workers = Pool(1, idle_s=1.0)
    try:
        pid, _ = workers.submit(_pid).result(timeout=120)
        os.kill(pid, signal.SIGINT)
        again, _ = workers.submit(_pid, 1).result(timeout=120)
        assert again == pid  # the same worker, still alive, took the next job
        until(lambda: not workers.pids(), "the idle worker exits")
    finally:
        workers.kill()
