"""The navigator tools: browse a folder, draw its tree, describe a file, find files.

They read the index when the folder is indexed, else walk it with `fsnb.security.scan`
under the sandbox's rules (ignored paths and excluded folders left out, symlinked folders
not followed, blocked files never opened), keeping nodes only as deep as they draw, and
return text the LLM can read, with the rows as a typed payload (`fsnb.tools.payloads`).
"""

from __future__ import annotations

import contextlib
import fnmatch
import mimetypes
import os
import re
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import BinaryIO, Literal

from fsnb.documents import parse, supported
from fsnb.documents.text import looks_binary
from fsnb.errors import ParseError
from fsnb.fsindex.filesystem import entries, find, indexed
from fsnb.protocol.outcome import ToolOutcome
from fsnb.security import Listed, Sandbox, Sensitivity, open_file, os_reason, scan, shown
from fsnb.text import ranges
from fsnb.tools.context import ToolContext
from fsnb.tools.files import human_size
from fsnb.tools.payloads import Browsed, FileInfo, FileRow, Found, Item, Tree, TreeEntry
from fsnb.tools.registry import tool

#: Lines `tree` draws before it cuts.
TREE_LINES = 300
#: Largest text file whose encoding and lines `file_info` counts.
TEXT_BYTES = 20 * 2**20
BrowseSort = Literal["name", "size", "modified", "type"]
FindSort = Literal["relevance", "name", "size", "modified"]
SearchType = Literal["auto", "name", "content", "metadata"]
_WILDCARDS = re.compile(r"[*?\[]")
_FILE_NAME = re.compile(r"\S+\.\w{1,5}")


def _choice(name: str, value: str, accepted: tuple[str, ...]) -> str:
    if value not in accepted:
        msg = f"unknown {name} {value!r}: use one of {', '.join(accepted)}"
        raise ValueError(msg)
    return value


def when(mtime: float) -> str:
    """A modified time as the tools show it and file citations quote it (local time)."""
    return datetime.fromtimestamp(mtime).strftime("%Y-%m-%d %H:%M")


@dataclass
class _Node:
    """One thing in a walked folder; a folder's size and counts cover everything under it."""

    name: str
    rel: str
    kind: str  # folder, file, symlink, other
    size: int = 0
    mtime: float = 0.0
    children: list[_Node] = field(default_factory=list)
    files: int = 0
    folders: int = 0
    note: str = ""
    items: int = 0  # what a folder holds directly, when its children were not kept


def _walk(
    box: Sandbox, path: Path, rel: str, depth: int | None = None, hidden: bool = True
) -> _Node:
    """`path` and everything under it that the sandbox lets tools see, from one `scan`.

    Folders `depth` levels down hold their totals and `items` but no children; `hidden`:
    keep names that start with a dot (else they are neither listed nor counted).
    """
    root = _Node(path.name or rel, rel, "folder")
    start = "" if rel == "." else f"{rel}/"
    nodes = {start: (root, 0)}
    walked: list[tuple[_Node, _Node]] = []  # (folder, its parent), parents first
    for listed in scan(box, str(path), start):
        node, level = nodes[listed.prefix]
        if listed.error:
            node.note = f"cannot list ({os_reason(listed.error)})"
            continue
        if not hidden:
            listed.folders = [f for f in listed.folders if not f.name.startswith(".")]
        with contextlib.suppress(OSError):
            node.mtime = os.fstat(listed.fd).st_mtime
        opened = depth is None or level < depth
        for item in listed.folders:
            child = _Node(item.name, listed.prefix + item.name, "folder")
            nodes[f"{child.rel}/"] = (child, level + 1)
            walked.append((child, node))
            if opened:
                node.children.append(child)
        if opened:
            _add_children(node, listed, hidden)
        else:
            _add_totals(node, listed, hidden)
    for child, parent in reversed(walked):
        parent.size += child.size
        parent.files += child.files
        parent.folders += 1 + child.folders
    return root


def _add_children(node: _Node, listed: Listed, hidden: bool) -> None:
    """Give `node` a child for each entry of its folder, sorted by name."""
    prefix = listed.prefix
    for kind, items in (
        ("file", listed.files),
        ("symlink", listed.links),
        ("other", listed.others),
    ):
        for item in items:
            if not hidden and item.name.startswith("."):
                continue
            try:
                info = item.stat(follow_symlinks=False)
            except OSError:  # gone since the folder was read
                continue
            size = info.st_size if kind == "file" else 0
            node.children.append(_Node(item.name, prefix + item.name, kind, size, info.st_mtime))
            node.size += size
            node.files += kind == "file"
    node.children.sort(key=lambda c: c.name)


def _add_totals(node: _Node, listed: Listed, hidden: bool) -> None:
    """Add the sizes and the count of a folder's files to `node`, with no children."""
    files = listed.files if hidden else [f for f in listed.files if not f.name.startswith(".")]
    try:
        node.size += sum([item.stat(follow_symlinks=False).st_size for item in files])
        node.files += len(files)
    except OSError:  # one is gone since the folder was read: count the others
        for item in files:
            with contextlib.suppress(OSError):
                node.size += item.stat(follow_symlinks=False).st_size
                node.files += 1
    node.items = (
        len(files)
        + len(listed.folders)
        + sum(hidden or not i.name.startswith(".") for i in (*listed.links, *listed.others))
    )


def _folder(box: Sandbox, path: str) -> tuple[Path, str]:
    target = box.existing(path, "folder")
    return target, box.relative(target)


def _extensions(file_types: str | None) -> set[str]:
    return {"." + t.strip().lower().lstrip(".") for t in (file_types or "").split(",") if t.strip()}


def _label(node: _Node) -> str:
    return {"folder": "[DIR]", "file": "[FIL]", "symlink": "[LNK]"}.get(node.kind, "[OTH]")


def _index_node(ctx: ToolContext, cid: int, rel: str, depth: int | None, hidden: bool) -> _Node:
    """`_walk` of `rel` from the index, to `depth` levels: folders at the last level hold
    their totals but no children; only indexed files (no symlinks, no empty folders)."""
    root = _Node(Path(rel).name or rel, rel, "folder")
    nodes = {rel: root}
    for e in sorted(entries(ctx.store, cid, rel, depth, hidden=hidden), key=lambda e: e.path):
        parent = nodes[e.path.rpartition("/")[0] or "."]
        node = _Node(e.path.rpartition("/")[2], e.path, e.type, e.size, e.mtime_ns / 1e9)
        if e.type == "folder":
            node.files, node.folders = e.files, e.folders
            nodes[e.path] = node
        parent.children.append(node)
    for node in nodes.values():
        node.children.sort(key=lambda c: c.name)
    top = root.children
    root.size = sum(c.size for c in top)
    root.files = sum(c.files if c.kind == "folder" else 1 for c in top)
    root.folders = sum(1 + c.folders for c in top if c.kind == "folder")
    return root


@tool
def browse_directory(
    path: str = ".",
    *,
    ctx: ToolContext,
    show_hidden: bool = False,
    sort_by: BrowseSort = "name",
    filter_type: str | None = None,
    max_items: int = 100,
) -> ToolOutcome[Browsed]:
    """List a folder's contents with type, size (folders: their total) and modified date.

    Args:
        path: Folder to browse, relative to the root.
        show_hidden: Include names that start with a dot.
        sort_by: name (folders first), size (largest first), modified (newest first) or type.
        filter_type: Only files with these extensions, e.g. "pdf" or "pdf,docx"; folders stay.
        max_items: The most entries to list.
    """
    _choice("sort_by", sort_by, ("name", "size", "modified", "type"))
    if max_items <= 0:
        msg = "max_items must be > 0"
        raise ValueError(msg)
    box = ctx.sandbox
    target, rel = _folder(box, path)
    where = indexed(ctx.store, ctx.root)
    if where:
        node, said = _index_node(ctx, where.cid, rel, 1, True), where.source()
        for child in node.children:
            if child.kind == "folder":
                with contextlib.suppress(OSError):
                    child.mtime = (target / child.name).stat().st_mtime
    else:
        node, said = _walk(box, target, rel, depth=1), "from a walk"
    wanted = _extensions(filter_type)
    items = [
        c
        for c in node.children
        if (show_hidden or not c.name.startswith("."))
        and (not wanted or c.kind == "folder" or Path(c.name).suffix.lower() in wanted)
    ]
    keys = {
        "name": lambda c: (c.kind != "folder", c.name.lower()),
        "size": lambda c: (-c.size, c.name.lower()),
        "modified": lambda c: (-c.mtime, c.name.lower()),
        "type": lambda c: (c.kind != "folder", Path(c.name).suffix.lower(), c.name.lower()),
    }
    items.sort(key=keys[sort_by])
    total = sum(c.size for c in items)
    lines = [f"{shown(rel)} ({len(items)} items, {human_size(total)} total; {said})", ""]
    width = max((len(shown(c.name)) + 1 for c in items[:max_items]), default=4)
    lines.append(f"  Type  {'Name':<{width}}  {'Size':>9}  Modified")
    for c in items[:max_items]:
        name = shown(c.name) + ("/" if c.kind == "folder" else "")
        note = f"  ({c.note})" if c.note else ""
        lines.append(
            f"  {_label(c)} {name:<{width}}  {human_size(c.size):>9}  {when(c.mtime)}{note}"
        )
    if not items:
        lines.append("  (empty)" if not node.children else "  (nothing matches the filter)")
    if len(items) > max_items:
        lines.append(f"[{len(items) - max_items} more items not shown: raise max_items]")
    rows = tuple(Item(shown(c.name), c.kind, c.size, when(c.mtime)) for c in items[:max_items])
    browsed = Browsed(shown(rel), rows, "index" if where else "walk")
    return ToolOutcome("\n".join(lines), payload=browsed)


def _matches(name: str, rel: str, patterns: str | None) -> bool:
    return any(
        fnmatch.fnmatch(name.lower(), p) or fnmatch.fnmatch(rel.lower(), p)
        for p in (q.strip().lower() for q in (patterns or "").split(","))
        if p
    )


def _prune(node: _Node, include: str | None, exclude: str | None, dirs_only: bool) -> _Node:
    """The node with hidden names, excluded ones and (with `include`) non-matching files
    left out; folders left with nothing that matches go too when filtering."""
    kept = _Node(node.name, node.rel, node.kind, 0, node.mtime, note=node.note)
    for child in node.children:
        if child.name.startswith(".") or _matches(child.name, child.rel, exclude):
            continue
        if child.kind == "folder":
            sub = _prune(child, include, exclude, dirs_only)
            if include and not sub.files:
                continue
            kept.children.append(sub)
            kept.folders += 1 + sub.folders
            kept.files += sub.files
            kept.size += sub.size
        elif include is None or _matches(child.name, child.rel, include):
            kept.files += child.kind == "file"
            kept.size += child.size
            if not dirs_only:
                kept.children.append(child)
    return kept


@tool
def tree(
    path: str = ".",
    *,
    ctx: ToolContext,
    max_depth: int = 3,
    show_sizes: bool = True,
    include_pattern: str | None = None,
    exclude_pattern: str | None = None,
    dirs_only: bool = False,
) -> ToolOutcome[Tree]:
    """Draw a folder's tree of subfolders and files, with a summary line.

    Hidden names are left out. Folders deeper than max_depth show how much they hold.

    Args:
        path: Folder to draw, relative to the root.
        max_depth: How many levels of folders to open.
        show_sizes: Show each file's size and each folder's total.
        include_pattern: Only files matching these globs, e.g. "*.pdf,*.docx".
        exclude_pattern: Hide files and folders matching these globs, e.g. "drafts,*.tmp".
        dirs_only: Show folders only.
    """
    if max_depth < 1:
        msg = "max_depth must be >= 1"
        raise ValueError(msg)
    box = ctx.sandbox
    target, rel = _folder(box, path)
    where = indexed(ctx.store, ctx.root)
    patterns = include_pattern is not None or exclude_pattern is not None
    if where and not patterns:  # hidden names left out by the query, totals kept
        root = _index_node(ctx, where.cid, rel, max_depth, False)
        if dirs_only:
            _drop_files(root)
    elif where:
        root = _index_node(ctx, where.cid, rel, None, True)
        root = _prune(root, include_pattern, exclude_pattern, dirs_only)
    else:
        root = _walk(box, target, rel, None if patterns else max_depth, patterns)
        if patterns:
            root = _prune(root, include_pattern, exclude_pattern, dirs_only)
        elif dirs_only:
            _drop_files(root)
    lines = [shown(rel) + "/"]
    drawn: list[TreeEntry] = []  # the entries behind lines[1:], in drawing order
    hidden = 0

    def size(n: _Node) -> str:
        return f" ({human_size(n.size)})" if show_sizes else ""

    def draw(node: _Node, prefix: str, depth: int) -> None:
        nonlocal hidden
        for index, child in enumerate(node.children):
            last = index == len(node.children) - 1
            if len(lines) > TREE_LINES:
                hidden += 1 + child.files + child.folders
                continue
            name = shown(child.name)
            drawn.append(_entry(child))
            if child.kind == "folder":
                deeper = (
                    f" [{child.files} files, {child.folders} folders not shown]"
                    if depth >= max_depth
                    and (child.children or child.items or child.files or child.folders)
                    else ""
                )
                lines.append(f"{prefix}+-- {name}/{size(child)}{deeper}")
                if depth < max_depth:
                    draw(child, prefix + ("    " if last else "|   "), depth + 1)
            else:
                lines.append(f"{prefix}+-- {name}{size(child) if child.kind == 'file' else ''}")

    draw(root, "", 1)
    if hidden:
        lines.append(
            f"[tree cut at {TREE_LINES} lines: {hidden} more entries not shown; "
            "narrow the path, lower max_depth or use include_pattern]"
        )
    said = where.source() if where else "from a walk"
    total = f"{root.folders} folders, {root.files} files, {human_size(root.size)} total"
    lines.append(f"\n{total} ({said})")
    source = "index" if where else "walk"
    drawing = Tree(root.folders, root.files, root.size, hidden, shown(rel), source, tuple(drawn))
    return ToolOutcome("\n".join(lines), payload=drawing)


def _entry(node: _Node) -> TreeEntry:
    """A drawn tree line: a folder's size and counts cover what it holds."""
    folder = node.kind == "folder"
    return TreeEntry(
        shown(node.rel),
        node.kind,
        node.size,
        node.files if folder else int(node.kind == "file"),
        node.folders if folder else 0,
    )


def _drop_files(node: _Node) -> None:
    node.children = [c for c in node.children if c.kind == "folder"]
    for child in node.children:
        _drop_files(child)


def _encoding(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        return "UTF-8 (with BOM)"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        from charset_normalizer import from_bytes

        best = from_bytes(data).best()
        return best.encoding if best else "unknown"
    return "UTF-8" if not data.isascii() else "ASCII"


def _office(file: BinaryIO, suffix: str) -> list[str]:
    """Sheet, slide or page counts read from an Office file's zip directory."""
    with zipfile.ZipFile(file) as archive:
        names = archive.namelist()
        if suffix == ".xlsx":
            book = archive.read("xl/workbook.xml")[:1_000_000].decode("utf-8", "replace")
            sheets = re.findall(r"<sheet\b[^>]*\bname=\"([^\"]*)\"", book)
            return [f"sheets: {len(sheets)} ({', '.join(sheets[:10])})"]
        if suffix == ".pptx":
            slides = [n for n in names if re.fullmatch(r"ppt/slides/slide\d+\.xml", n)]
            return [f"slides: {len(slides)}"]
        if "docProps/app.xml" in names:
            app = archive.read("docProps/app.xml")[:1_000_000].decode("utf-8", "replace")
            pages = re.search(r"<Pages>(\d+)</Pages>", app)
            if pages:
                return [f"pages: {pages.group(1)} (as last saved)"]
    return []


def _details(file: BinaryIO, suffix: str, size: int) -> list[str]:
    """Format-specific facts: pages, sheets, slides, image size, or encoding and lines, of
    the file open in `file` (named with `suffix`)."""
    try:
        if suffix == ".pdf":
            import pypdfium2

            pdf = pypdfium2.PdfDocument(file)
            try:
                return [f"pages: {len(pdf)}"]
            finally:
                pdf.close()
        if suffix in (".xlsx", ".pptx", ".docx"):
            return _office(file, suffix)
        head = file.read(8192)
        file.seek(0)
        if (
            head[:4] in (b"\x89PNG", b"GIF8")
            or head[:2] == b"\xff\xd8"
            or suffix in (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp")
        ):
            return _image(file)
        if looks_binary(head) or size > TEXT_BYTES:
            return [] if looks_binary(head) else ["text: too large to count lines"]
        data = file.read()
        lines = data.count(b"\n") + (bool(data) and not data.endswith(b"\n"))
        return [f"encoding: {_encoding(data)}", f"lines: {lines:,}"]
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, ImportError) as exc:
        return [f"details: unreadable ({type(exc).__name__}: {str(exc)[:100]})"]
    except Exception as exc:
        return [f"details: unreadable ({type(exc).__name__})"]


def _image(file: BinaryIO) -> list[str]:
    try:
        from PIL import Image
    except ImportError:
        return []
    with Image.open(file) as image:
        return [f"image: {image.width} x {image.height} pixels, {image.format}, {image.mode}"]


@tool
def file_info(path: str, *, ctx: ToolContext) -> ToolOutcome[FileInfo]:
    """Describe a file or folder: size, dates, MIME type and format facts.

    Text files get their encoding and line count; PDFs their pages; Office files their
    sheets, slides or pages; images their dimensions. Folders get their item count,
    total size and a breakdown by file type.

    Args:
        path: File or folder, relative to the root.
    """
    box = ctx.sandbox
    target = box.existing(path)
    rel = shown(box.relative(target))
    if target.is_dir():
        info = target.stat(follow_symlinks=False)
        return _folder_info(box, target, rel, info)
    with open_file(target, box.root) as handle:  # never a FIFO swapped in since the check
        info = os.fstat(handle.fileno())
        details = _details(handle, target.suffix.lower(), info.st_size)
    mime = mimetypes.guess_type(target.name)[0]
    if mime is None:
        mime = "text/plain" if any(d.startswith("encoding") for d in details) else "unknown"
    lines = [
        f"{rel} (file)",
        f"size: {human_size(info.st_size)} ({info.st_size:,} bytes)",
        *_dates(info),
        f"MIME type: {mime}",
        *details,
    ]
    verdict = box.resolve(path, reading=False)
    if verdict != target:
        lines.append(f"(a symlink to {shown(box.relative(target))})")
    return ToolOutcome("\n".join(lines), payload=FileInfo(rel, "file", info.st_size, mime=mime))


def _dates(info: os.stat_result) -> list[str]:
    created = getattr(info, "st_birthtime", None)
    return [f"modified: {when(info.st_mtime)}"] + (
        [f"created: {when(created)}"] if created else [f"changed: {when(info.st_ctime)}"]
    )


def _folder_info(
    box: Sandbox, target: Path, rel: str, info: os.stat_result
) -> ToolOutcome[FileInfo]:
    """`file_info` of a folder: its items, total size and a breakdown by file type."""
    node = _walk(box, target, box.relative(target))
    kinds: Counter[str] = Counter()
    sizes: Counter[str] = Counter()
    _count(node, kinds, sizes)
    lines = [
        f"{rel}/ (folder)",
        f"items: {node.files} files, {node.folders} folders ({len(node.children)} directly inside)",
        f"total size: {human_size(node.size)}",
        *_dates(info),
        "by type:",
    ]
    lines += [
        f"  {ext}: {count} files, {human_size(sizes[ext])}" for ext, count in kinds.most_common(15)
    ]
    folder = FileInfo(rel, "folder", node.size, files=node.files, by_type=dict(kinds))
    return ToolOutcome("\n".join(lines), payload=folder)


def _count(node: _Node, kinds: Counter[str], sizes: Counter[str]) -> None:
    for child in node.children:
        if child.kind == "folder":
            _count(child, kinds, sizes)
        elif child.kind == "file":
            ext = Path(child.name).suffix.lower() or "(no extension)"
            kinds[ext] += 1
            sizes[ext] += child.size


@dataclass
class _Hit:
    rel: str
    size: int
    mtime: float
    score: float
    why: str


def _name_score(query: str, rel: str) -> tuple[float, str]:
    """How well a path's name matches: a glob, the whole query, or all its words."""
    name, low = rel.rsplit("/", 1)[-1].lower(), query.lower().strip()
    if _WILDCARDS.search(low):
        hit = fnmatch.fnmatch(name, low) or fnmatch.fnmatch(rel.lower(), low)
        return (50.0, "name matches the pattern") if hit else (0.0, "")
    if name == low or Path(name).stem == low:
        return 100.0, "exact name"
    if low in name:
        return 60.0, "name contains the query"
    words = low.split()
    if words and all(w in name for w in words):
        return 40.0, "name contains every word"
    if words and all(w in rel.lower() for w in words):
        return 20.0, "path contains every word"
    return 0.0, ""


def _content_score(file: Path, query: str, root: Path) -> tuple[float, str]:
    """How often the query (or, failing that, all its words) occurs in a document's text."""
    try:
        text = parse(file, root=root).text
    except ParseError:
        return 0.0, ""
    low, query = text.lower(), query.lower().strip()
    count = low.count(query)
    if not count:
        words = query.split()
        if len(words) < 2 or not all(w in low for w in words):
            return 0.0, ""
        at, what = low.index(words[0]), "every word in the text"
    else:
        at, what = low.index(query), f"{count} matches in the text"
    snippet = " ".join(text[max(0, at - 40) : at + len(query) + 40].split())
    return min(count, 30) or 1, f"{what}: \u2026{snippet}\u2026"


def _walk_hits(
    box: Sandbox,
    base: str,
    query: str,
    how: str,
    wanted: set[str],
    sizes: ranges.SizeRange | None,
    dates: ranges.DateRange | None,
) -> tuple[int, list[_Hit]]:
    """(files looked at, matches) from a walk of `base`."""
    walked, hits = 0, []
    for entry in box.entries(base):
        if entry.note or entry.symlink or entry.verdict.level is Sensitivity.BLOCK:
            continue
        try:
            info = entry.path.stat(follow_symlinks=False)
        except OSError:
            continue
        walked += 1
        if wanted and entry.path.suffix.lower() not in wanted:
            continue
        if sizes and info.st_size not in sizes:
            continue
        if dates and datetime.fromtimestamp(info.st_mtime) not in dates:
            continue
        score, why = (1.0, "matches the filters") if how == "metadata" else (0.0, "")
        if "name" in how:
            score, why = _name_score(query, entry.rel)
        readable = entry.verdict.level in (Sensitivity.NONE, Sensitivity.WARN)
        if not score and "content" in how and readable and supported(entry.rel):
            score, why = _content_score(entry.path, query, box.root)
        if score:
            hits.append(_Hit(entry.rel, info.st_size, info.st_mtime, score, why))
    return walked, hits


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
    """
    _choice("search_type", search_type, ("auto", "name", "content", "metadata"))
    _choice("sort_by", sort_by, ("relevance", "name", "size", "modified"))
    if max_results <= 0:
        msg = "max_results must be > 0"
        raise ValueError(msg)
    sizes = ranges.size_range(size_range) if size_range and size_range.strip() else None
    dates = ranges.date_range(date_range) if date_range and date_range.strip() else None
    wanted = _extensions(file_types)
    box = ctx.sandbox
    _, base = _folder(box, scope)
    how = search_type
    if how == "auto":
        plain = _WILDCARDS.search(query) or _FILE_NAME.fullmatch(query.strip())
        how = "name" if plain else "name+content"
    where = indexed(ctx.store, ctx.root) if how in ("name", "metadata") else None
    if where:  # scored, ranked and cut in SQL
        text = None if how == "metadata" else query
        total, rows = find(
            ctx.store, where.cid, base, text, glob=bool(_WILDCARDS.search(query)),
            extensions=wanted, sizes=sizes, dates=dates, sort=sort_by, limit=max_results,
        )  # fmt: skip
        hits = [_Hit(rel, size, ns / 1e9, 0.0, why) for rel, size, ns, why in rows]
        walked, said, source = total, where.source(), "index"
    else:
        walked, hits = _walk_hits(box, base, query, how, wanted, sizes, dates)
        said, source, total = f"from a walk of {walked} files", "walk", len(hits)
        keys = {
            "relevance": lambda h: (-h.score, h.rel.lower()),
            "name": lambda h: h.rel.lower(),
            "size": lambda h: (-h.size, h.rel.lower()),
            "modified": lambda h: (-h.mtime, h.rel.lower()),
        }
        hits.sort(key=keys[sort_by])
    filters = ", ".join(
        f"{k} {v}"
        for k, v in (("types", file_types), ("size", size_range), ("modified", date_range))
        if v
    )
    about = f"{how.replace('+', ' and ')} search, {said} under " + (
        f"{shown(base)}" + (f"; {filters}" if filters else "")
    )
    if not hits:
        text = f"No files found for {query!r} ({about})."
        return ToolOutcome(text, payload=Found((), 0, walked, source))
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
    return ToolOutcome("\n".join(lines), payload=Found(rows, total, walked, source))


NAVIGATOR_TOOLS = [browse_directory, tree, file_info, find_files]

__all__ = ["NAVIGATOR_TOOLS", "browse_directory", "file_info", "find_files", "tree"]
