"""The navigator tools that show a folder: browse its entries, draw its tree.

Both read the folder's files through `ToolContext.files` (the index when it holds the
folder, else one walk under the sandbox's rules: `fsnb.tools.catalog`), and return text the
LLM can read, with the rows as a typed payload (`fsnb.tools.payloads`).
"""

from __future__ import annotations

import fnmatch
from pathlib import Path
from typing import Literal

from fsnb.protocol.outcome import ToolOutcome
from fsnb.security import shown
from fsnb.tools.catalog import Node
from fsnb.tools.context import ToolContext
from fsnb.tools.formats import choice, extensions, human_size, when
from fsnb.tools.payloads import Browsed, Item, Tree, TreeEntry
from fsnb.tools.registry import tool

#: Lines `tree` draws before it cuts.
TREE_LINES = 300
BrowseSort = Literal["name", "size", "modified", "type"]


def _label(node: Node) -> str:
    return {"folder": "[DIR]", "file": "[FIL]", "symlink": "[LNK]"}.get(node.kind, "[OTH]")


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
    choice("sort_by", sort_by, ("name", "size", "modified", "type"))
    if max_items <= 0:
        msg = "max_items must be > 0"
        raise ValueError(msg)
    box, files = ctx.sandbox, ctx.files
    rel = box.relative(box.existing(path, "folder"))
    node, said = files.node(rel, 1, hidden=True), files.source
    wanted = extensions(filter_type)
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
    browsed = Browsed(shown(rel), rows, files.kind)
    return ToolOutcome("\n".join(lines), payload=browsed)


def _matches(name: str, rel: str, patterns: str | None) -> bool:
    return any(
        fnmatch.fnmatch(name.lower(), p) or fnmatch.fnmatch(rel.lower(), p)
        for p in (q.strip().lower() for q in (patterns or "").split(","))
        if p
    )


def _prune(node: Node, include: str | None, exclude: str | None, dirs_only: bool) -> Node:
    """The node with hidden names, excluded ones and (with `include`) non-matching files
    left out; folders left with nothing that matches go too when filtering."""
    kept = Node(node.name, node.rel, node.kind, 0, node.mtime, note=node.note)
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
    box, files = ctx.sandbox, ctx.files
    rel = box.relative(box.existing(path, "folder"))
    patterns = include_pattern is not None or exclude_pattern is not None
    # filtered: everything, pruned here; else hidden names left out, deeper folders' totals kept
    root = files.node(rel, None if patterns else max_depth, hidden=patterns)
    if patterns:
        root = _prune(root, include_pattern, exclude_pattern, dirs_only)
    elif dirs_only:
        _drop_files(root)
    lines = [shown(rel) + "/"]
    drawn: list[TreeEntry] = []  # the entries behind lines[1:], in drawing order
    hidden = 0

    def size(n: Node) -> str:
        return f" ({human_size(n.size)})" if show_sizes else ""

    def draw(node: Node, prefix: str, depth: int) -> None:
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
    total = f"{root.folders} folders, {root.files} files, {human_size(root.size)} total"
    lines.append(f"\n{total} ({files.source})")
    drawing = Tree(
        root.folders, root.files, root.size, hidden, shown(rel), files.kind, tuple(drawn)
    )
    return ToolOutcome("\n".join(lines), payload=drawing)


def _entry(node: Node) -> TreeEntry:
    """A drawn tree line: a folder's size and counts cover what it holds."""
    folder = node.kind == "folder"
    return TreeEntry(
        shown(node.rel),
        node.kind,
        node.size,
        node.files if folder else int(node.kind == "file"),
        node.folders if folder else 0,
    )


def _drop_files(node: Node) -> None:
    node.children = [c for c in node.children if c.kind == "folder"]
    for child in node.children:
        _drop_files(child)


__all__ = ["TREE_LINES", "browse_directory", "tree"]
