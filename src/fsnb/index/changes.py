"""What changed on disk since the last index: the folder's files, and a plan per document.

`scan` lists the regular files the index may hold (`fsnb.fsindex.walk`: symlinks, FIFOs and
the like are never opened), with names that are not valid UTF-8 escaped so DuckDB can store
them. `plan` compares the documents with what the index holds, by size and mtime,
confirmed by a streamed hash.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import pandas as pd

from fsnb.fsindex.walk import COLUMNS, KIND_COLUMNS, Listing, file_sha256, kind, list_files
from fsnb.index.writer import Entry, stale_parse
from fsnb.security import Sandbox

if TYPE_CHECKING:
    from fsnb.index.report import IndexReport

#: Files larger than this (MB; `FSNB_MAX_INDEX_MB`) are indexed by their metadata only.
MAX_INDEX_MB = 50.0
TOO_LARGE = "too large to index"
_DTYPES = {"size": np.int64, "mtime_ns": np.int64}


def max_index_bytes(max_mb: float | None = None) -> int:
    """The size cap in bytes: `max_mb`, else `FSNB_MAX_INDEX_MB`, else `MAX_INDEX_MB`."""
    if max_mb is None:
        env = os.environ.get("FSNB_MAX_INDEX_MB", "").strip()
        try:
            max_mb = float(env) if env else MAX_INDEX_MB
        except ValueError:
            msg = f"FSNB_MAX_INDEX_MB must be a number of megabytes, not {env!r}"
            raise ValueError(msg) from None
    return int(max_mb * 1_000_000)


@dataclass
class FileRow:
    path: str  # as stored: relative, POSIX, bad bytes escaped
    file: Path  # on disk
    size: int
    mtime_ns: int
    sensitivity: str


class Known(NamedTuple):
    size: int | None
    mtime_ns: int | None
    digest: str | None
    error: str | None
    parser: str | None


@dataclass
class Plan:
    parse: list[tuple[FileRow, str]] = field(default_factory=list)  # (row, hash)
    problems: list[Entry] = field(default_factory=list)  # metadata-only rows
    touched: list[FileRow] = field(default_factory=list)  # same content, new mtime


def _why(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "file disappeared during indexing"
    return (exc.strerror or str(exc)).lower()


def _hash(path: Path) -> str:
    """sha256 of a regular file (see `file_sha256`)."""
    return file_sha256(path)[0]


@dataclass
class Scan:
    """The folder's files as a frame (`walk.COLUMNS`), the category and MIME type of their
    extensions (`walk.KIND_COLUMNS`) and the documents by stored path."""

    files: pd.DataFrame
    kinds: pd.DataFrame
    documents: dict[str, FileRow]


def scan(box: Sandbox, report: IndexReport) -> Scan:
    """The regular files of the folder the index may hold; counts the skipped ones."""
    listing: Listing = list_files(box)
    report.skipped += listing.skipped
    report.warnings.update(listing.warnings)
    docs = {
        rel: FileRow(rel, Path(path), size, mtime_ns, level)
        for rel, (path, size, mtime_ns, level) in sorted(
            listing.documents.items(), key=lambda item: item[0].split("/")
        )
    }
    frame = pd.DataFrame(  # typed arrays: pandas infers nothing (2.5 times faster)
        {c: np.array(listing.columns[c], dtype=_DTYPES.get(c, object)) for c in COLUMNS}
    )
    kinds = pd.DataFrame(
        [(ext, *kind(ext)[:2]) for ext in set(listing.columns["extension"])],
        columns=KIND_COLUMNS,
    ).astype({"mime": "string"})
    return Scan(frame, kinds, docs)


def _same(row: FileRow, old: Known | None) -> bool:
    """Whether an indexed document `old` matches `row` by size and mtime, parsed by the
    current parser."""
    return (
        old is not None
        and not stale_parse(old.parser, old.error)
        and (old.size, old.mtime_ns) == (row.size, row.mtime_ns)
    )


def settled(on_disk: dict[str, FileRow], known: dict[str, Known], cap: int) -> bool:
    """Whether `plan` would find every document unchanged without hashing one: then the
    run has nothing to hash, parse or write but the files."""
    for path, row in on_disk.items():
        old = known.get(path)
        if old is None or not _same(row, old):
            return False
        if row.size > cap:
            if not (old.error and old.error.startswith(TOO_LARGE)):
                return False
        elif old.digest is None:
            return False
    return True


def plan(
    on_disk: dict[str, FileRow], known: dict[str, Known], cap: int, report: IndexReport
) -> Plan:
    """Decide per document: unchanged, touched, to parse, or metadata only; a document
    that vanished meanwhile is dropped from `on_disk`."""
    todo = Plan()
    for path, row in list(on_disk.items()):
        old = known.get(path)
        stale = old is not None and stale_parse(old.parser, old.error)
        same = _same(row, old)
        if row.size > cap:
            if same and old.error and old.error.startswith(TOO_LARGE):
                report.unchanged += 1
                continue
            why = f"{TOO_LARGE} ({_mb(row.size)} > {_mb(cap)} cap); metadata only"
            todo.problems.append(Entry(path, row.size, row.mtime_ns, None, why))
            continue
        if same and old.digest is not None:
            report.unchanged += 1
            continue
        try:
            digest = _hash(row.file)
        except OSError as exc:
            if isinstance(exc, FileNotFoundError):
                del on_disk[path]  # gone: marked deleted if it was indexed
                report.failed[path] = _why(exc)
            else:
                todo.problems.append(Entry(path, row.size, row.mtime_ns, None, _why(exc)))
            continue
        if old and old.digest == digest and not stale:
            report.unchanged += 1
            todo.touched.append(row)
            continue
        todo.parse.append((row, digest))
    return todo


def _mb(size: int) -> str:
    return f"{size / 1_000_000:,.0f} MB" if size >= 10_000_000 else f"{size / 1_000_000:.1f} MB"
