"""The served folders' index, brought up to date in one background thread, so that the
server answers at once while it is built: `Indexer.start` queues a folder (or joins its
indexing under way), `Job` says how it stands, `progress` how far the run has got (read
from the index file's run record, which `fsnb.index` updates with each committed batch).
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field

from fsnb.db.database import Database, database
from fsnb.db.schema import corpus_id
from fsnb.errors import one_line
from fsnb.index import Index
from fsnb.index import runs as index_runs
from fsnb.index.report import IndexReport
from fsnb.mcp.folders import Served
from fsnb.tools.registry import describe


@dataclass(eq=False)
class Job:
    """One indexing of a folder: waiting, indexing, ready (with its report) or failed."""

    folder: Served
    rebuild: bool = False
    state: str = "waiting"
    report: IndexReport | None = None
    error: str | None = None
    finished: threading.Event = field(default_factory=threading.Event)

    def line(self) -> str:
        """How it stands, on one line."""
        if self.state == "ready" and self.report is not None:
            counts = self.report.counts()
            changed = ", ".join(f"{counts[k]} {k}" for k in ("added", "updated", "deleted"))
            failed = f", {counts['failed']} failed" if counts["failed"] else ""
            return f"ready ({changed}, {counts['unchanged']} unchanged{failed})"
        if self.state == "failed":
            return f"failed: {self.error}"
        return self.state


class Indexer:
    """Indexes the served folders one at a time (DuckDB takes one writer) in a daemon thread."""

    def __init__(self, db: str | None) -> None:
        self.db: Database = database(db)
        self._lock = threading.Lock()
        self._jobs: dict[str, Job] = {}  # the latest job of each folder, by name
        self._queue: queue.Queue[Job] = queue.Queue()
        self._thread: threading.Thread | None = None

    def start(self, folder: Served, *, rebuild: bool = False) -> Job:
        """Queue `folder` for indexing; while an indexing of it is waiting or under way
        (and `rebuild` asks for no more than it does), that one."""
        with self._lock:
            job = self._jobs.get(folder.name)
            if job is not None and not job.finished.is_set() and job.rebuild >= rebuild:
                return job
            job = self._jobs[folder.name] = Job(folder, rebuild)
            self._queue.put(job)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._work, name="fsnb-mcp-index", daemon=True
                )
                self._thread.start()
            return job

    def job(self, folder: Served) -> Job | None:
        """The folder's latest indexing by this server, if any."""
        with self._lock:
            return self._jobs.get(folder.name)

    def _work(self) -> None:
        while True:
            job = self._queue.get()
            job.state = "indexing"
            try:
                job.report = Index(self.db).add_folder(
                    job.folder.root, progress=False, rebuild=job.rebuild
                )
                job.state = "ready"
            except Exception as exc:  # a locked or damaged file, a folder gone: said in status
                job.error, job.state = one_line(describe(exc), 300), "failed"
            finally:
                job.finished.set()

    def progress(self, folder: Served) -> tuple[int, int | None]:
        """(documents committed, documents to parse) of the folder's latest indexing run,
        as the index file records it; (0, None) before it has begun one."""
        if not self.db.path.exists():
            return 0, None
        with self.db.read() as con:
            cid = corpus_id(con, folder.root, create=False)
            run = index_runs.latest(con, cid) if cid is not None else None
        return (run.done, run.total) if run is not None else (0, None)

    def describe(self, folder: Served) -> str:
        """One line: how the folder's index stands."""
        job = self.job(folder)
        if job is None:
            return "not indexed by this server (the index tool builds it)"
        if job.state != "indexing":
            return job.line()
        try:
            done, total = self.progress(folder)
        except Exception:  # the file is busy: say what is known
            return "indexing"
        return f"indexing: {done:,} of {total:,} documents" if total else "indexing: scanning"


__all__ = ["Indexer", "Job"]
