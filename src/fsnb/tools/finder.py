"""`find_files`: files by name, document text or metadata (size, date, type, the date a
photo was taken).

Names and metadata are searched in `ToolContext.files` (in SQL when the index holds the
folder, else in its walk); document text always in a walk, since the index holds none. A
photo's date comes from its EXIF header (`fsnb.documents.scans.photo_taken`).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Literal

from fsnb.documents.ocr import IMAGE_SUFFIXES
from fsnb.documents.scans import photo_taken
from fsnb.protocol.outcome import ToolOutcome
from fsnb.security import shown
from fsnb.text import ranges
from fsnb.tools.catalog import WILDCARDS, FindQuery, FindSort
from fsnb.tools.context import ToolContext
from fsnb.tools.formats import choice, extensions, human_size, when
from fsnb.tools.payloads import FileRow, Found
from fsnb.tools.registry import tool

SearchType = Literal["auto", "name", "content", "metadata"]
_FILE_NAME = re.compile(r"\S+\.\w{1,5}")
#: The most images whose EXIF date one `taken_range` search reads.
PHOTOS_CHECKED = 10_000


@tool
def find_files(
    query: str,
    *,
    ctx: ToolContext,
    search_type: SearchType = "auto",
    scope: str = ".",
    file_types: str | None = None,
    size_range: str | None = None,
    date_range: str | None = None,
    max_results: int = 50,
    sort_by: FindSort = "relevance",
    taken_range: str | None = None,
) -> ToolOutcome[Found]:
    """Find files by name, content or metadata (size, date, type), from a walk of the folder.

    auto searches names for a glob or a file name, else names and document text.

    Args:
        query: A name, a glob like "*report*.pdf", or words to find in the text.
        search_type: auto, name, content, or metadata (filters only; the query is not used).
        scope: Folder to search, relative to the root.
        file_types: Extensions to keep, e.g. "pdf,docx,txt".
        size_range: e.g. ">10MB", "<1KB", "1MB-100MB".
        date_range: Modified when, e.g. "today", "this-week", "2026-01", ">2026-01-01",
            "2025-01-01..2025-06-30".
        max_results: The most files to list.
        sort_by: relevance, name, size (largest first) or modified (newest first).
        taken_range: Images taken when (their EXIF date), e.g. "2024-03"; images
            without one are left out.
    """
    choice("search_type", search_type, ("auto", "name", "content", "metadata"))
    choice("sort_by", sort_by, ("relevance", "name", "size", "modified"))
    if max_results <= 0:
        msg = "max_results must be > 0"
        raise ValueError(msg)
    sizes = ranges.size_range(size_range) if size_range and size_range.strip() else None
    dates = ranges.date_range(date_range) if date_range and date_range.strip() else None
    box = ctx.sandbox
    base = box.relative(box.existing(scope, "folder"))
    how = search_type
    if how == "auto":
        plain = WILDCARDS.search(query) or _FILE_NAME.fullmatch(query.strip())
        how = "name" if plain else "name+content"
    wanted = frozenset(extensions(file_types))
    taken = ranges.date_range(taken_range) if taken_range and taken_range.strip() else None
    if taken:  # photos only, each checked by its EXIF date
        wanted = wanted & IMAGE_SUFFIXES if wanted else IMAGE_SUFFIXES
    limit = max_results if taken is None else PHOTOS_CHECKED
    found = ctx.files.find(FindQuery(query, how, base, wanted, sizes, dates, sort_by, limit))
    hits, total, walked, said = found.hits, found.total, found.looked_at, found.source
    if taken is not None:
        hits = [h for h in hits if (at := _taken(ctx, h.rel)) and at in taken]
        total = len(hits)
    filters = ", ".join(
        f"{k} {v}"
        for k, v in (
            ("types", file_types),
            ("size", size_range),
            ("modified", date_range),
            ("taken", taken_range),
        )
        if v
    )
    about = f"{how.replace('+', ' and ')} search, {said} under " + (
        f"{shown(base)}" + (f"; {filters}" if filters else "")
    )
    if not hits:
        text = f"No files found for {query!r} ({about})."
        return ToolOutcome(text, payload=Found((), 0, walked, found.kind))
    lines = [f"Found {total} files for {query!r} ({about}):"]
    for hit in hits[:max_results]:
        lines.append(
            f"  {shown(hit.rel)}  ({human_size(hit.size)}, {when(hit.mtime)})  {shown(hit.why)}"
        )
    if total > max_results:
        lines.append(f"[{total - max_results} more not shown: raise max_results or narrow]")
    rows = tuple(
        FileRow(shown(h.rel), h.size, when(h.mtime), shown(h.why)) for h in hits[:max_results]
    )
    return ToolOutcome("\n".join(lines), payload=Found(rows, total, walked, found.kind))


def _taken(ctx: ToolContext, rel: str) -> datetime | None:
    """When the photo at `rel` was taken (EXIF), or None."""
    stamp = photo_taken(ctx.sandbox.root / rel, ctx.sandbox.root)
    return datetime.fromisoformat(stamp) if stamp else None


__all__ = ["find_files"]
