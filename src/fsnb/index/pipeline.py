"""Incremental indexing of a folder into the DuckDB store.

The folder is walked before the database opens. A run with no document to hash or parse
(every file-only run, and any unchanged tree) is one transaction: run, files, scan log.
Otherwise changes are found by size and mtime and confirmed by a content hash; only changed
documents are parsed (in parallel, through the parse cache), chunked and written. Rows are
prepared outside the database (in the worker process that parsed the document when parsing
runs in processes, so that this process only writes) and committed in batches, every
`COMMIT_S` seconds or `BATCH` documents, each with the run's progress (`fsnb.index.runs`):
the file is held only while a batch is written, so other processes read what is committed
meanwhile, and a killed run loses at most its last batch. Files gone from disk are marked
deleted.

A file that cannot be read (permission denied, gone, not a regular file) gets a one-line
reason and the rest goes on; a file larger than the cap (`FSNB_MAX_INDEX_MB`) is indexed
by its metadata only; a name that is not valid UTF-8 is stored with its bad bytes escaped.
"""

from __future__ import annotations

import json
import time
from contextlib import suppress
from datetime import datetime, timezone
from functools import partial
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from fsnb.db.schema import corpus_id
from fsnb.documents.batch import default_workers, parse_many
from fsnb.documents.scans import NEEDS_OCR
from fsnb.documents.workers import parse_on, process_pool
from fsnb.errors import EMPTY_FILE, ParseError
from fsnb.index import changes, runs
from fsnb.index.changes import FileRow, Known
from fsnb.index.field_schema import discover_schema
from fsnb.index.report import IndexReport
from fsnb.index.writer import Entry, cluster_terms, prepare, store_files, write
from fsnb.security import Sandbox

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from concurrent.futures import Executor

    import duckdb

    from fsnb.db.database import Database
    from fsnb.documents.model import Document

#: A batch is committed when it holds this many documents or is this many seconds old
#: (longer when commits are slow: see `_Batches`).
BATCH = 256
COMMIT_S = 1.0
#: With more documents than this to parse with Docling, they are parsed in worker processes.
POOL_FROM = 8
#: What Docling parses (the rest, text and markup, parses at once in this process).
HEAVY = frozenset({".pdf", ".docx", ".pptx", ".xlsx", ".html", ".htm"})


def index_folder(
    store: Database,
    folder: str | Path,
    *,
    progress: bool = True,
    workers: int | None = None,
    max_mb: float | None = None,
    executor: Executor | None = None,
) -> IndexReport:
    """Bring the index of `folder` up to date and return what changed.

    Files larger than `max_mb` (default `FSNB_MAX_INDEX_MB`, else 50) are indexed by their
    metadata only. Documents are parsed on `executor` when given (any
    `concurrent.futures.Executor`, e.g. a Dask client's `get_executor()`), else in a pool of
    `workers` processes (default `FSNB_WORKERS` or the CPUs) when there are more than
    `POOL_FROM`, else in threads; this process alone writes the database.
    """
    began = time.monotonic()
    started_at = datetime.now(timezone.utc).replace(tzinfo=None)
    box = Sandbox(folder)
    cap = changes.max_index_bytes(max_mb)
    report = IndexReport(str(box.root))
    found = changes.scan(box, report)  # before the database opens: held only to write
    with store.write() as con:
        cid = corpus_id(con, report.root)
        run = runs.begin(con, cid)
        known = {
            path: Known(*rest)
            for path, *rest in con.execute(
                "SELECT path, size, mtime_ns, content_hash, error, parser FROM documents "
                "WHERE corpus_id = ? AND NOT deleted",
                [cid],
            ).fetchall()
        }
        if changes.settled(found.documents, known, cap):  # nothing to hash: one transaction
            plan = changes.plan(found.documents, known, cap, report)
            files = _files(found, set(), report)
            report.deleted = sorted(set(known) - found.documents.keys())
            report.duration_s = time.monotonic() - began
            _record(con, cid, run, report, plan.touched, started_at, files)
            return report
    try:
        touched, files = _index(
            store, found, cid, run, known, cap, report, progress, (workers, executor)
        )
        report.duration_s = time.monotonic() - began
        with store.write() as con:
            _record(con, cid, run, report, touched, started_at, files)
    except BaseException as exc:
        state = "interrupted" if isinstance(exc, KeyboardInterrupt) else "failed"
        why = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        with suppress(Exception), store.write() as con:
            runs.update(con, run, state=state, error=why)
        raise
    if report.added or report.updated:
        cluster_terms(store)
    return report


def _files(
    found: changes.Scan, gone: set[str], report: IndexReport
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The scanned files and kinds to store, less the documents `gone` while planned."""
    files = found.files
    if gone:
        files = files[~files["path"].isin(gone)]
    report.files = len(files)
    return files, found.kinds


def _index(
    store: Database,
    found: changes.Scan,
    cid: int,
    run: int,
    known: dict[str, Known],
    cap: int,
    report: IndexReport,
    progress: bool,
    parsing: tuple[int | None, Executor | None],
) -> tuple[list[FileRow], tuple[pd.DataFrame, pd.DataFrame] | None]:
    """Plan, write the files and the changed documents; return the touched files and,
    when no document needs writing, the files for `_record` to write (one commit less)."""
    on_disk = found.documents
    seen = set(on_disk)
    plan = changes.plan(on_disk, known, cap, report)
    files = _files(found, seen - on_disk.keys(), report)
    if not (plan.parse or plan.problems):
        report.deleted = sorted(set(known) - on_disk.keys())
        return plan.touched, files
    with store.write() as con:
        report.files_written, report.files_removed = store_files(con, cid, *files)
        runs.update(con, run, state="running", total=len(plan.parse) + len(plan.problems))

    batches = _Batches(store, cid, run, known, report)
    for entry in plan.problems:
        batches.add(entry)
    bar = _progress(len(plan.parse), report.root) if progress and plan.parse else None
    try:
        for entry in _prepared(plan.parse, report.root, *parsing):
            batches.add(entry)
            if bar is not None:
                bar.update(1)
        batches.flush()
    finally:  # interrupted too: the bar ends saying how far it got
        if bar is not None:
            bar.close()
    report.deleted = sorted(set(known) - on_disk.keys())
    return plan.touched, None


def _prepared(
    todo: list[tuple[FileRow, str]], root: str, workers: int | None, executor: Executor | None
) -> Iterator[Entry]:
    """The entry (rows or error) of each (file, hash) to parse, in order of completion:
    prepared in the worker that parsed it on a process pool or `executor`, else here; each
    file read is the one the walk of `root` found (`parse`'s `root`)."""
    rows = {row.file: (row, digest) for row, digest in todo}
    workers = workers or default_workers()
    heavy = [p for p in rows if p.suffix.lower() in HEAVY]
    if executor is None and workers > 1 and len(heavy) > POOL_FROM:
        light = [p for p in rows if p.suffix.lower() not in HEAVY]
        pool = process_pool(workers, preload=["fsnb.index.writer"])  # what `prepare` needs
        results = chain(_on(pool, heavy, rows, root), parse_many(light, workers=workers, root=root))
    elif executor is None:
        results = parse_many(list(rows), workers=workers, root=root)
    else:
        results = _on(executor, list(rows), rows, root)
    for path, result in results:
        yield _entry(*rows[path], result)


def _on(
    executor: Executor, paths: list[Path], rows: dict[Path, tuple[FileRow, str]], root: str
) -> Iterable[tuple[Path, Entry | ParseError]]:
    """(path, entry or error) for each path, parsed and prepared on `executor`."""
    finish = {
        p: partial(prepare, row.path, row.size, row.mtime_ns, digest)
        for p in paths
        for row, digest in [rows[p]]
    }
    return parse_on(executor, paths, finish=finish, root=root)


def _entry(row: FileRow, digest: str, result: Entry | Document | ParseError) -> Entry:
    """The entry of a parsed file: prepared already, prepared here, or its error."""
    if isinstance(result, ParseError):
        return Entry(row.path, row.size, row.mtime_ns, digest, result.why)
    if isinstance(result, Entry):
        return result
    return prepare(row.path, row.size, row.mtime_ns, digest, result)


class _Batches:
    """Entries committed with the run's progress when `BATCH` are pending or the oldest has
    waited `COMMIT_S` seconds, or ten times as long as the last commit took (so commits
    never take more than about a tenth of the time)."""

    def __init__(
        self, store: Database, cid: int, run: int, known: dict[str, Known], report: IndexReport
    ) -> None:
        self.store, self.cid, self.run, self.known, self.report = store, cid, run, known, report
        self.pending: list[Entry] = []
        self.done = 0
        self.last = time.monotonic()
        self.every = COMMIT_S

    def add(self, entry: Entry) -> None:
        self.pending.append(entry)
        if len(self.pending) >= BATCH or time.monotonic() - self.last >= self.every:
            self.flush()

    def flush(self) -> None:
        if self.pending:
            began = time.monotonic()
            with self.store.write() as con:
                write(con, self.cid, self.pending)
                runs.update(con, self.run, done=self.done + len(self.pending))
            self.every = max(COMMIT_S, 10 * (time.monotonic() - began))
            self.done += len(self.pending)
            for entry in self.pending:
                if entry.error == EMPTY_FILE:  # read, with nothing in it
                    self.report.warnings[entry.path] = entry.error
                elif entry.error is not None:
                    self.report.failed[entry.path] = entry.error
                else:
                    changed = entry.path in self.known
                    (self.report.updated if changed else self.report.added).append(entry.path)
                _note_scans(self.report, entry)
            self.pending = []
        self.last = time.monotonic()


def _note_scans(report: IndexReport, entry: Entry) -> None:
    """Put in the report the pages of `entry` OCR read, or its scans left unread."""
    if pages := entry.fields.get("ocr_pages"):
        report.ocr[entry.path] = {int(n): c for n, c in json.loads(pages).items()}
    notes = [entry.error or "", *json.loads(entry.fields.get("warnings") or "[]")]
    if any(NEEDS_OCR in note for note in notes):
        report.unread_scans.append(entry.path)


def _record(
    con: duckdb.DuckDBPyConnection,
    cid: int,
    run: int,
    report: IndexReport,
    touched: list[FileRow],
    started_at: datetime,
    files: tuple[pd.DataFrame, pd.DataFrame] | None = None,
) -> None:
    """Record `files` (scanned files and kinds, when given), new mtimes and deletions,
    the schema and the scan; mark the run finished."""
    counts = report.counts()
    if files is not None:
        report.files_written, report.files_removed = store_files(con, cid, *files)
    for row in touched:
        con.execute(
            "UPDATE documents SET size = ?, mtime_ns = ? WHERE corpus_id = ? AND path = ?",
            [row.size, row.mtime_ns, cid, row.path],
        )
    for rel in report.deleted:
        _forget_chunks(con, cid, rel)
        con.execute(
            "UPDATE documents SET deleted = true, text = NULL WHERE corpus_id = ? AND path = ?",
            [cid, rel],
        )
    _store_schema(con, cid)
    con.execute(
        "INSERT INTO scan_log (corpus_id, started_at, finished_at, duration_s, added, updated,"
        " unchanged, deleted, failed, report, files, files_written, files_removed)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            cid,
            started_at,
            datetime.now(timezone.utc).replace(tzinfo=None),
            report.duration_s,
            counts["added"],
            counts["updated"],
            counts["unchanged"],
            counts["deleted"],
            counts["failed"],
            json.dumps({"failed": report.failed, "warnings": report.warnings}),
            report.files,
            report.files_written,
            report.files_removed,
        ],
    )
    con.execute("UPDATE corpora SET indexed_at = current_timestamp WHERE id = ?", [cid])
    runs.update(con, run, state="finished")


def forget_folder(store: Database, folder: str | Path) -> None:
    """Drop what the index holds about `folder` (documents, chunks, terms, files, schema),
    so that the next `index_folder` indexes it from scratch."""
    with store.write() as con:
        cid = corpus_id(con, str(Sandbox(folder).root), create=False)
        if cid is None:
            return
        for table in ("terms", "chunks"):
            con.execute(
                f"DELETE FROM {table} WHERE doc_id IN"
                " (SELECT id FROM documents WHERE corpus_id = ?)",
                [cid],
            )
        for table in ("documents", "file_rows", "schemas"):
            con.execute(f"DELETE FROM {table} WHERE corpus_id = ?", [cid])


def _progress(total: int, root: str) -> Any:
    from fsnb.index.progress import bar

    return bar(total, f"indexing {Path(root).name}", "doc", "documents parsed")


def _forget_chunks(con: duckdb.DuckDBPyConnection, cid: int, rel: str) -> None:
    for table in ("terms", "chunks"):
        con.execute(
            f"DELETE FROM {table} WHERE doc_id IN "
            "(SELECT id FROM documents WHERE corpus_id = ? AND path = ?)",
            [cid, rel],
        )


def _store_schema(con: duckdb.DuckDBPyConnection, cid: int) -> None:
    """Rediscover the corpus' metadata schema from its current documents."""
    rows = [
        json.loads(meta)
        for (meta,) in con.execute(
            "SELECT metadata FROM documents WHERE corpus_id = ? AND NOT deleted AND error IS NULL",
            [cid],
        ).fetchall()
        if meta
    ]
    con.execute("DELETE FROM schemas WHERE corpus_id = ?", [cid])
    for entry in discover_schema(rows):
        con.execute(
            "INSERT INTO schemas VALUES (?, ?, ?, ?, ?)",
            [
                cid,
                entry["field"],
                entry["type"],
                entry["documents"],
                json.dumps(entry["examples"], default=str),
            ],
        )
