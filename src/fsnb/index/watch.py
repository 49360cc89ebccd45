"""Keep a folder's index current: watchdog events, debounced, then an incremental re-index.

Events are collected until the folder has been quiet for `settle_s` (0.5 s), then the
re-index callable runs (`Index.add_folder`, which parses only new and changed files) in a
background thread. A failing re-index is recorded in `Watch.last` and never stops the watcher.

The folder itself is looked at every `POLL_S` seconds: once deleted (watchdog's watch of it
ends with it), the watcher says so in one line and waits; when a folder is there again
(re-created, or replaced by another), it is watched afresh and re-indexed.
"""

from __future__ import annotations

import logging
import os
import stat
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from fsnb.index.report import IndexReport
from fsnb.security import EXCLUDED_DIRS, IGNORE_FILE, Sandbox, Sensitivity, classify

#: Event types that change a folder (opening and reading a file do not).
_CHANGES = frozenset({"created", "modified", "moved", "deleted", "closed"})
#: Seconds between two looks at the watched folder itself (gone, back, replaced).
POLL_S = 1.0

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Reindex:
    """One re-index: its report (None when it failed), when it ended, and its error."""

    report: IndexReport | None
    at: datetime
    error: str | None = None


class _Events(FileSystemEventHandler):
    """Notes the time of the last change to a file the index could hold.

    Left out: the index's own files, excluded folders (`.git`, ...), `.fsnbignore`d paths
    and files the sensitive-file policy skips or blocks; `.fsnbignore` itself counts.
    """

    def __init__(self, watch: Watch, box: Sandbox, ignored: tuple[str, ...]) -> None:
        self.watch = watch
        self.box = box
        self.ignored = ignored

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type not in _CHANGES:
            return
        paths = [os.fsdecode(event.src_path), os.fsdecode(getattr(event, "dest_path", "") or "")]
        try:
            relevant = any(p and self._relevant(p) for p in paths)
        except (OSError, ValueError):  # the root itself gone or unreadable: let add_folder say
            relevant = True
        if relevant:
            self.watch._changed()

    def _relevant(self, path: str) -> bool:
        if path.startswith(self.ignored):
            return False
        try:
            rel = Path(path).relative_to(self.box.root).as_posix()
        except ValueError:
            return False
        if rel == IGNORE_FILE:
            self.box = Sandbox(self.box.root)  # its patterns changed
            return True
        if rel == "." or EXCLUDED_DIRS.intersection(rel.split("/")) or self.box.ignored(rel):
            return False
        return classify(rel).level not in (Sensitivity.SKIP, Sensitivity.BLOCK)


class Watch:
    """A running watcher of one folder: `.stop()`, `.running`, `.last`, `.runs`."""

    def __init__(
        self,
        folder: str | os.PathLike[str],
        reindex: Callable[[], IndexReport],
        *,
        settle_s: float = 0.5,
        ignore: tuple[str | os.PathLike[str], ...] = (),
        on_reindex: Callable[[Reindex], None] | None = None,
        catch_up: bool = True,
        on_notice: Callable[[str], None] | None = None,
    ) -> None:
        """`on_notice` gets a line when the folder goes and when it comes back (default:
        logged as a warning)."""
        box = Sandbox(folder)
        self.root = box.root
        self.settle_s = settle_s
        self.last: Reindex | None = None
        self.runs = 0
        self._reindex = reindex
        self._on_reindex = on_reindex
        self._wake = threading.Condition()
        self._changed_at: float | None = time.monotonic() if catch_up else None
        self._stopping = False
        self._on_notice = on_notice or log.warning
        self._gone = False
        ignored = tuple(str(Path(p).expanduser().resolve()) for p in ignore)
        self._handler = _Events(self, box, ignored)
        self._observer = Observer()
        self._observer.daemon = True
        self._armed = _identity(self.root)
        self._observer.schedule(self._handler, str(self.root), recursive=True)
        self._observer.start()
        self._thread = threading.Thread(target=self._loop, name=f"fsnb-watch {self.root}")
        self._thread.daemon = True
        self._thread.start()

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        last = ""
        if self.last is not None:
            what = self.last.error or _counts(self.last.report)
            last = f", last {self.last.at:%H:%M:%S}: {what}"
        return f"Watch({str(self.root)!r}, {state}, {self.runs} re-indexes{last})"

    @property
    def running(self) -> bool:
        return self._thread.is_alive() and not self._stopping

    def stop(self, timeout: float | None = 30.0) -> None:
        """Stop watching; a re-index under way is left to finish (up to `timeout` s).
        Stopping again only waits: watchdog's observer must be stopped once."""
        with self._wake:
            again, self._stopping = self._stopping, True
            self._wake.notify_all()
        if not again:
            self._observer.stop()
        self._observer.join(timeout)
        self._thread.join(timeout)

    def _changed(self) -> None:
        with self._wake:
            self._changed_at = time.monotonic()
            self._wake.notify_all()

    def _settled(self) -> bool:
        """Wait for a change, then for `settle_s` without another, while the folder is
        there; False when stopping."""
        while True:
            self._look()  # not under `_wake`: watchdog holds its lock while it dispatches
            with self._wake:
                if self._stopping:
                    return False
                if self._changed_at is None or self._gone:
                    self._wake.wait(POLL_S)
                    continue
                quiet = time.monotonic() - self._changed_at
                if quiet >= self.settle_s:
                    self._changed_at = None
                    return True
                self._wake.wait(min(self.settle_s - quiet, POLL_S))

    def _look(self) -> None:
        """Notice the folder gone (said once), or back, replaced or no longer watched
        (watchdog's watch ends with the folder it watched): watch it afresh, re-index."""
        here = _identity(self.root)
        if here is None:
            if not self._gone:
                self._gone = True
                self._on_notice(f"{self.root} is gone: watching for it to come back")
            return
        alive = self._observer.emitters and all(e.is_alive() for e in self._observer.emitters)
        if here == self._armed and alive and not self._gone:
            return
        try:
            self._observer.unschedule_all()
            self._observer.schedule(self._handler, str(self.root), recursive=True)
        except OSError:  # gone again meanwhile: the next look says so
            return
        self._armed = here
        if self._gone:
            self._gone = False
            self._on_notice(f"{self.root} is back: re-indexing it")
        self._changed()  # what happened while it was not watched is caught up

    def _loop(self) -> None:
        while self._settled():
            if _identity(self.root) is None:  # gone since: re-indexed when it is back
                continue
            try:
                record = Reindex(self._reindex(), datetime.now())
            except Exception as exc:  # kept and reported; the watcher goes on
                record = Reindex(None, datetime.now(), f"{type(exc).__name__}: {exc}")
            self.last = record
            self.runs += 1
            if self._on_reindex is not None:
                with suppress(Exception):  # a broken callback must not stop the watcher
                    self._on_reindex(record)


def _identity(folder: Path) -> tuple[int, int] | None:
    """(device, inode) of `folder`, or None when no folder is there."""
    try:
        info = folder.stat()
    except OSError:
        return None
    return (info.st_dev, info.st_ino) if stat.S_ISDIR(info.st_mode) else None


def _counts(report: IndexReport | None) -> str:
    if report is None:
        return "failed"
    c = report.counts()
    return f"{c['added']} added, {c['updated']} updated, {c['deleted']} deleted"
