"""Where the space goes and what changed lately: `disk_usage` and `recent_files`.

Both read `ToolContext.files` (the index when it holds the folder, else one walk); either
way they see the same files: regular files the sensitive-file policy does not block or
skip, ignored paths left out, and folders only as the totals of the files under them.
"""

from __future__ import annotations

import time

from fsnb.protocol.outcome import ToolOutcome
from fsnb.security import shown
from fsnb.tools.context import ToolContext
from fsnb.tools.formats import extensions, human_size, when
from fsnb.tools.payloads import DiskUsage, FileRow, Recent, UsageEntry
from fsnb.tools.registry import tool


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
    box, files = ctx.sandbox, ctx.files
    rel = box.relative(box.existing(path, "folder"))
    found = files.entries(rel, depth)
    top = [e for e in found if _level(e.path, rel) == 1]
    size = sum(e.size for e in top)
    held = sum(e.files for e in top)
    folders = sum(1 + e.folders for e in top if e.type == "folder")
    ranked = sorted(found, key=lambda e: (-e.size, e.path))[:top_n]
    rows = [
        UsageEntry(shown(e.path), e.type, e.size, e.files, e.size / size if size else 0.0)
        for e in ranked
    ]
    lines = [
        f"{shown(rel)}: {human_size(size)} in {held} files, {folders} folders ({files.source})",
        "",
    ]
    for row in rows:
        name = row.path + ("/" if row.type == "folder" else "")
        count = f"  {row.files} files" if row.type == "folder" else ""
        lines.append(f"  {human_size(row.size):>9}  {row.share:6.1%}  {name}{count}")
    if len(found) > top_n:
        lines.append(f"[{len(found) - top_n} smaller entries not shown: raise top_n]")
    usage = DiskUsage(shown(rel), size, held, folders, files.kind, tuple(rows))
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
    box, files = ctx.sandbox, ctx.files
    rel = box.relative(box.existing(path, "folder"))
    since = time.time_ns() - int(days * 86_400 * 1e9)
    wanted = frozenset(extensions(file_type))
    hits = files.files(rel, extensions=wanted, since_ns=since, newest_first=True)
    rows = tuple(FileRow(shown(p), size, when(ns / 1e9)) for p, size, ns in hits[:max_results])
    kinds = f" ({file_type})" if file_type else ""
    head = (
        f"{len(hits)} files{kinds} modified in the last {days:g} days under {shown(rel)} "
        f"({files.source})"
    )
    lines = [head + (":" if rows else ".")]
    lines += [f"  {r.modified}  {human_size(r.size):>9}  {r.path}" for r in rows]
    if len(hits) > max_results:
        lines.append(f"[{len(hits) - max_results} more not shown: raise max_results]")
    return ToolOutcome("\n".join(lines), payload=Recent(rows, files.kind))


__all__ = ["disk_usage", "recent_files"]
