"""The commands over the index file: `fsnb index FOLDER` (incremental, `--watch` to keep it
current), `fsnb search QUERY [FOLDER]` (BM25 and filters; exit status 1 when nothing
matches, as rg's), `fsnb sql QUERY [FOLDER]` (read-only) and `fsnb status`."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from fsnb.cli.output import (
    POSITIVE_INT,
    SECONDS,
    db_option,
    error,
    exit_status,
    folder_argument,
    number,
    print_frame,
    say,
)
from fsnb.errors import one_line

if TYPE_CHECKING:
    from fsnb.index import Index
    from fsnb.index.report import IndexReport
    from fsnb.index.watch import Reindex, Watch

_MEGABYTES = number(float, 0, "a number of megabytes, 0 or more")


def _no_index(path: Path) -> str:
    return f"no index at {path} yet: run fsnb index FOLDER first"


def _index(args: argparse.Namespace) -> int:
    from fsnb.index import Index

    index = Index(args.db)
    report = index.add_folder(
        args.folder, progress=sys.stderr.isatty(), rebuild=args.rebuild, max_mb=args.max_mb
    )
    if report.added or report.updated or report.deleted:
        index.warm(args.folder)  # the next process searches with the BM25 engine at once
    watcher = _watcher(index, args) if args.watch else None  # watching before it is said
    try:
        _said(report, args)
        while watcher is not None and watcher.running:  # until Ctrl-C
            time.sleep(0.2)
    finally:
        if watcher is not None:
            watcher.stop()
    return 1 if report.failed else 0  # the others are indexed all the same


def _said(report: IndexReport, args: argparse.Namespace) -> None:
    if args.json:
        extra = {"failed": report.failed, "warnings": report.warnings}
        extra |= {"ocr": report.ocr, "unread_scans": report.unread_scans}
        print(json.dumps({**report.counts(), **extra, "set_aside": report.set_aside}, indent=2))
        return
    say(_index_summary(report))
    for line in report.ocr_note().splitlines():
        say(f"  {line}")
    for path, why in report.failed.items():
        say(f"  failed {path}: {one_line(why)}", err=True)
    for path, why in report.warnings.items():
        say(f"  warning {path}: {one_line(why)}", err=True)
    if report.failed:
        count = len(report.failed)
        say(f"{count:,} file{'s' * (count != 1)} could not be read", err=True)
    if report.set_aside:
        say(f"  the damaged index was moved to {report.set_aside}")
    sys.stdout.flush()


def _watcher(index: Index, args: argparse.Namespace) -> Watch:
    """`fsnb index --watch`: one line per re-index (a failed one on stderr)."""

    def said(record: Reindex) -> None:
        if record.report is None:
            error(f"{record.at:%H:%M:%S} re-index failed: {record.error}")
        elif args.json:
            print(json.dumps({"at": record.at.isoformat(), **record.report.counts()}), flush=True)
        else:
            say(f"{record.at:%H:%M:%S} {_index_summary(record.report)}")
            sys.stdout.flush()

    def notice(text: str) -> None:
        say(f"{datetime.now():%H:%M:%S} {text}", err=True)

    return index.watch(
        args.folder, max_mb=args.max_mb, on_reindex=said, catch_up=False, on_notice=notice
    )


def _index_summary(report: IndexReport) -> str:
    """'indexed FOLDER: 48 files · 3 added, 44 unchanged, 1 failed · 2.9 s'."""
    counts = report.counts()
    kinds = ("added", "updated", "unchanged", "deleted", "failed", "skipped")
    changes = ", ".join(f"{counts[k]:,} {k}" for k in kinds if counts[k]) or "nothing to do"
    files = f"{counts['files']:,} file{'' if counts['files'] == 1 else 's'}"
    return f"indexed {report.root}: {files} · {changes} · {counts['duration_s']:.1f} s"


def _search(args: argparse.Namespace) -> int:
    from fsnb.index import Index

    index = Index(args.db)
    if not index.path.is_file():
        error(_no_index(index.path))
        return 2
    note = index.indexing(args.folder)
    hits = index.search(args.query, folder=args.folder, filter=args.filter or None, k=args.k)
    if note:
        print(f"fsnb: {note}; searched what is committed", file=sys.stderr)
    if not args.json and "highlights" in hits:  # the table shows the snippet, not the dict
        hits["snippet"] = [
            h.get("snippet", "") if isinstance(h, dict) else h for h in hits.pop("highlights")
        ]
    if hits.empty:  # as rg: nothing printed but the empty JSON list, and status 1
        if args.json:
            print("[]")
        return 1
    shown = ("path", "page", "ocr", "score", "ranker", "heading", "snippet")
    columns = [c for c in shown if c in hits]
    print_frame(hits if args.json else hits[columns], args.json)
    return 0


def _sql(args: argparse.Namespace) -> int:
    from fsnb.db.guard import result_note
    from fsnb.index import Index

    index = Index(args.db)
    if not index.path.is_file():
        error(_no_index(index.path))
        return 2
    frame = index.sql(args.query, args.folder, limit=args.limit + 1, timeout_s=args.timeout)
    print_frame(frame.head(args.limit), args.json)
    if note := result_note(frame):  # cut at the cell or byte cap before --limit
        print(f"[{note}]", file=sys.stderr)
    elif len(frame) > args.limit:
        print(f"[only the first {args.limit:,} rows: aggregate, filter or raise --limit]",
              file=sys.stderr)  # fmt: skip
    return 0


def _status(args: argparse.Namespace) -> int:
    from fsnb.index import Index

    index = Index(args.db)
    if not index.path.is_file():  # said, not created
        print("[]" if args.json else f"index: {index.path} (none yet: fsnb index FOLDER makes it)")
        return 0
    status = index.status()
    if not args.json:
        print(f"index: {index.path}")
    print_frame(status, args.json)
    return 0


def add_index_commands(command: Callable[..., argparse.ArgumentParser]) -> None:
    """Add `index`, `search`, `sql` and `status`; `command(name, run, help, epilog)` makes
    a top-level one."""
    index = command(
        "index",
        _index,
        "index a folder into DuckDB (incremental); a file that cannot be read gets one line on"
        " stderr and the others are indexed, with exit status 1",
        exit_status(
            "indexed",
            "some files could not be read (the others are indexed)",
            "the command could not run (bad arguments, not a folder, a locked index)",
        ),
    )
    index.add_argument("folder", metavar="FOLDER", help="the folder to index")
    index.add_argument(
        "--rebuild",
        action="store_true",
        help="index the folder from scratch; a damaged index file is moved aside, not deleted",
    )
    index.add_argument(
        "--max-mb",
        type=_MEGABYTES,
        default=None,
        help="index larger files by metadata only (default: FSNB_MAX_INDEX_MB or 50)",
    )
    index.add_argument(
        "--json", action="store_true", help="print the counts, failures and warnings as JSON"
    )
    index.add_argument(
        "--watch",
        action="store_true",
        help="then keep the index current until Ctrl-C, one line per re-index",
    )
    db_option(index)

    search = command(
        "search",
        _search,
        "search an indexed folder (BM25, filters)",
        exit_status("hits printed", "no hits (nothing printed; --json prints [])"),
    )
    search.add_argument("query", help="words to search for (BM25)")
    folder_argument(search, "indexed folder (default: .)")
    search.add_argument(
        "--filter", default="", help='e.g. "document_type=agreement and max_amount>=1e6"'
    )
    search.add_argument("-k", type=POSITIVE_INT, default=10, help="number of hits (default: 10)")
    search.add_argument(
        "--json", action="store_true", help="print every column of the hits in full, as JSON"
    )
    db_option(search)

    sql = command(
        "sql",
        _sql,
        "run a read-only SQL query over the index and scratchpad",
        exit_status(
            "the query ran (no rows too: a query is not a search)",
            None,
            "the query was not run (refused, wrong, too slow or too big; no index yet)",
        ),
    )
    sql.add_argument("query", help="one SELECT (DuckDB dialect)")
    folder_argument(sql, "see only this folder's index and scratchpad tables (default: all)", None)
    sql.add_argument(
        "--limit", type=POSITIVE_INT, default=1000, help="rows printed (default: 1000)"
    )
    sql.add_argument("--timeout", type=SECONDS, default=60.0, help="seconds (default: 60)")
    sql.add_argument(
        "--json", action="store_true", help="print the rows in full as JSON (no cut columns)"
    )
    db_option(sql)

    status = command(
        "status", _status, "what the index holds, per folder", exit_status("done", None)
    )
    status.add_argument("--json", action="store_true", help="print the table as JSON")
    db_option(status)


__all__ = ["add_index_commands"]
