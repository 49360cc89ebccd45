"""Where the space goes and what changed lately: `disk_usage` and `recent_files`.

Both read the file index when the folder is indexed and walk it when not; either way
they see the same files: regular files the sensitive-file policy does not block or skip,
ignored paths left out, and folders only as the totals of the files under them.
"""

from __future__ import annotations

import time
from collections import defaultdict
from datetime import datetime

from fsnb.fsindex.filesystem import Entry, entries, files_under, indexed
from fsnb.fsindex.walk import held, list_files, stored_name, suffix
from fsnb.protocol.outcome import ToolOutcome
from fsnb.security import Sandbox, scan, shown
from fsnb.text.ranges import DateRange
from fsnb.tools.context import ToolContext
from fsnb.tools.files import human_size
from fsnb.tools.navigator import _extensions, _folder, when
from fsnb.tools.payloads import DiskUsage, FileRow, Recent, UsageEntry
from fsnb.tools.registry import tool


def _files(box: Sandbox, base: str) -> list[tuple[str, int, int]]:
    """(path, size, mtime_ns) of the files under `base` the index would hold, from a walk."""
    columns = list_files(box, base).columns
    return list(zip(columns["path"], columns["size"], columns["mtime_ns"], strict=True))  # type: ignore[arg-type]


def walked_entries(box: Sandbox, base: str, depth: int) -> list[Entry]:
    """`fsnb.fsindex.filesystem.entries` from a walk of `base`: each folder's files summed
    as it is read, then each folder's sums added to the folders above it."""
    start = "" if base == "." else f"{base}/"
    cut = len(start)
    own: dict[str, list[int]] = {}  # folder: [size, files, newest mtime] of its own files
    found: list[Entry] = []
    for listed in scan(box, str(box.root / base), start):
        names, infos = held(listed)
        if not names:
            continue
        folder = stored_name(listed.prefix[:-1])
        own[folder] = [
            sum(info.st_size for info in infos),
            len(infos),
            max(info.st_mtime_ns for info in infos),
        ]
        if len(listed.prefix) <= cut or folder[cut:].count("/") + 1 < depth:
            found += [
                Entry(stored_name(listed.prefix + name), "file", s.st_size, 1, 0, s.st_mtime_ns)
                for name, s in zip(names, infos, strict=True)
            ]
    sized: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    under: dict[str, int] = defaultdict(int)  # folders holding files under each ranked one
    for folder in _with_ancestors(set(own), cut):
        parts = folder[cut:].split("/")
        mine = own.get(folder)
        for k in range(1, min(len(parts), depth) + 1):
            above = folder[: cut + len("/".join(parts[:k]))]
            under[above] += k < len(parts)
            if mine:
                total = sized[above]
                total[0] += mine[0]
                total[1] += mine[1]
                total[2] = max(total[2], mine[2])
    found += [Entry(f, "folder", *sized[f][:2], under[f], sized[f][2]) for f in sized]
    return found


def _with_ancestors(folders: set[str], cut: int) -> set[str]:
    """`folders` and every folder above them, up to (not including) the base."""
    every: set[str] = set()
    for folder in folders:
        while len(folder) > cut and folder not in every:
            every.add(folder)
            folder = folder.rpartition("/")[0]
    return every


@tool
def disk_usage(
    path: str = ".", *, ctx: ToolContext, depth: int = 1, top_n: int = 20
) -> ToolOutcome[DiskUsage]:
    """Show what takes the space in a folder: its biggest subfolders and files.

    Args:
        path: Folder to measure, relative to the root.
        depth: How many levels of subfolders and files to rank (1: what is directly inside).
        top_n: The most folders and files to list, largest first.
    """
    if depth < 1 or top_n < 1:
        msg = "depth and top_n must be >= 1"
        raise ValueError(msg)
    box = ctx.sandbox
    _, rel = _folder(box, path)
    where = indexed(ctx.store, ctx.root)
    if where:
        found, source = entries(ctx.store, where.cid, rel, depth), "index"
        said = where.source()
    else:
        found, source, said = walked_entries(box, rel, depth), "walk", "from a walk"
    top = [e for e in found if _level(e.path, rel) == 1]
    size = sum(e.size for e in top)
    files = sum(e.files for e in top)
    folders = sum(1 + e.folders for e in top if e.type == "folder")
    ranked = sorted(found, key=lambda e: (-e.size, e.path))[:top_n]
    rows = [
        UsageEntry(shown(e.path), e.type, e.size, e.files, e.size / size if size else 0.0)
        for e in ranked
    ]
    lines = [
        f"{shown(rel)}: {human_size(size)} in {files} files, {folders} folders ({said})",
        "",
    ]
    for row in rows:
        name = row.path + ("/" if row.type == "folder" else "")
        count = f"  {row.files} files" if row.type == "folder" else ""
        lines.append(f"  {human_size(row.size):>9}  {row.share:6.1%}  {name}{count}")
    if len(found) > top_n:
        lines.append(f"[{len(found) - top_n} smaller entries not shown: raise top_n]")
    usage = DiskUsage(shown(rel), size, files, folders, source, tuple(rows))
    return ToolOutcome("\n".join(lines), payload=usage)


def _level(path: str, base: str) -> int:
    return path.count("/") + 1 - (0 if base == "." else base.count("/") + 1)


@tool
def recent_files(
    days: float = 7,
    *,
    ctx: ToolContext,
    file_type: str | None = None,
    path: str = ".",
    max_results: int = 50,
) -> ToolOutcome[Recent]:
    """List the files modified in the last `days` days, newest first.

    Args:
        days: How far back to look, in days.
        file_type: Only these extensions, e.g. "pdf" or "pdf,docx".
        path: Folder to look in, relative to the root.
        max_results: The most files to list.
    """
    if not 0 < days <= 36_500 or max_results < 1:
        msg = "days must be > 0 and at most 36500 (a century), max_results > 0"
        raise ValueError(msg)
    box = ctx.sandbox
    _, rel = _folder(box, path)
    since = time.time_ns() - int(days * 86_400 * 1e9)
    wanted = _extensions(file_type)
    where = indexed(ctx.store, ctx.root)
    if where:
        after = DateRange(start=datetime.fromtimestamp(since / 1e9))
        found = files_under(
            ctx.store, where.cid, rel, extensions=wanted, dates=after, order="newest"
        )
        source, said = "index", where.source()
    else:
        found = sorted(_files(box, rel), key=lambda f: (-f[2], f[0]))
        found = [f for f in found if not wanted or suffix(f[0].rsplit("/", 1)[-1]) in wanted]
        source, said = "walk", "from a walk"
    hits = [f for f in found if f[2] >= since]
    rows = tuple(FileRow(shown(p), size, when(ns / 1e9)) for p, size, ns in hits[:max_results])
    kinds = f" ({file_type})" if file_type else ""
    head = (
        f"{len(hits)} files{kinds} modified in the last {days:g} days under {shown(rel)} ({said})"
    )
    lines = [head + (":" if rows else ".")]
    lines += [f"  {r.modified}  {human_size(r.size):>9}  {r.path}" for r in rows]
    if len(hits) > max_results:
        lines.append(f"[{len(hits) - max_results} more not shown: raise max_results]")
    return ToolOutcome("\n".join(lines), payload=Recent(rows, source))


__all__ = ["disk_usage", "recent_files", "walked_entries"]
