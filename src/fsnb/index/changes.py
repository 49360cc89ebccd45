"""What changed on disk since the last index: the folder's files, and a plan per document.

`scan` lists the regular files the index may hold (symlinks, FIFOs and the like are never
opened), with names that are not valid UTF-8 escaped so DuckDB can store them. `plan`
compares them with what the index holds, by size and mtime, confirmed by a streamed hash.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, NamedTuple

from fsnb.documents import supported
from fsnb.index.writer import Entry, stale_parse
from fsnb.security import Sandbox, Sensitivity

if TYPE_CHECKING:
    from fsnb.index.pipeline import IndexReport

#: Files larger than this (MB; `FSNB_MAX_INDEX_MB`) are indexed by their metadata only.
MAX_INDEX_MB = 50.0
TOO_LARGE = "too large to index"
_CATEGORIES = {
    "document": {".pdf", ".docx", ".pptx", ".xlsx", ".html", ".htm", ".md", ".markdown", ".csv"},
    "image": {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".tif", ".tiff", ".bmp"},
    "archive": {".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar"},
    "code": {".py", ".js", ".ts", ".java", ".go", ".rs", ".c", ".h", ".cpp", ".rb", ".php", ".sh"},
    "data": {".json", ".jsonl", ".yaml", ".yml", ".toml", ".xml", ".parquet", ".sqlite", ".db"},
}
FILE_COLUMNS = [
    "path", "name", "extension", "size", "mtime_ns", "category", "depth", "parent", "sensitivity",
]  # fmt: skip


def category(path: PurePosixPath) -> str:
    suffix = path.suffix.lower()
    kind = next((name for name, exts in _CATEGORIES.items() if suffix in exts), None)
    return kind or ("text" if supported(str(path)) else "other")


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

    def columns(self) -> tuple[Any, ...]:
        pure = PurePosixPath(self.path)
        return (
            self.path,
            pure.name,
            pure.suffix.lower(),
            self.size,
            self.mtime_ns,
            category(pure),
            len(pure.parts) - 1,
            str(pure.parent),
            self.sensitivity,
        )


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


def stored_name(rel: str) -> str:
    """`rel` as text DuckDB can store: undecodable bytes escaped ('bad\\xff.md')."""
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(rel).decode("utf-8", "backslashreplace")
    return rel


def _why(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "file disappeared during indexing"
    return (exc.strerror or str(exc)).lower()


def _hash(path: Path) -> str:
    """sha256 of a regular file, streamed; never blocks on a FIFO swapped in meanwhile."""
    digest = hashlib.sha256()
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def scan(box: Sandbox, report: IndexReport) -> dict[str, FileRow]:
    """The regular files of the folder the index may hold, by stored path."""
    on_disk: dict[str, FileRow] = {}
    for file, verdict in box.walk():
        if verdict.level in (Sensitivity.BLOCK, Sensitivity.SKIP):
            report.skipped += 1
            continue
        try:
            info = file.lstat()
        except OSError:
            report.skipped += 1
            continue
        if not stat.S_ISREG(info.st_mode):  # symlinks, FIFOs, sockets, devices
            report.skipped += 1
            continue
        rel = box.relative(file)
        path = stored_name(rel)
        if path in on_disk:  # 'bad\xff' escaped clashes with a file really named so
            report.skipped += 1
            continue
        if path != rel:
            report.warnings[path] = "file name is not valid UTF-8: stored with the bytes escaped"
        on_disk[path] = FileRow(path, file, info.st_size, info.st_mtime_ns, verdict.level.value)
    return on_disk


def plan(
    on_disk: dict[str, FileRow], known: dict[str, Known], cap: int, report: IndexReport
) -> Plan:
    """Decide per supported file: unchanged, touched, to parse, or metadata only."""
    todo = Plan()
    for path, row in list(on_disk.items()):
        if not supported(path):
            continue
        old = known.get(path)
        stale = old is not None and stale_parse(old.parser)
        same = (
            old is not None and not stale and (old.size, old.mtime_ns) == (row.size, row.mtime_ns)
        )
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
