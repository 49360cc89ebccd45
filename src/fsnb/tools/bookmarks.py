"""`bookmark`: labelled paths of a folder, kept in the index database."""

from __future__ import annotations

from typing import Literal

from fsnb.fsindex import bookmarks
from fsnb.protocol.outcome import ToolOutcome
from fsnb.security import shown
from fsnb.tools.context import ToolContext
from fsnb.tools.payloads import Bookmark, Bookmarks
from fsnb.tools.registry import tool

Action = Literal["add", "remove", "list"]


@tool
def bookmark(
    action: Action = "list", path: str | None = None, *, ctx: ToolContext, label: str | None = None
) -> ToolOutcome[Bookmarks]:
    """Add, remove or list the folder's bookmarks: paths kept with a label.

    Adding a bookmarked path again changes its label. The list says which paths are gone.

    Args:
        action: add, remove or list.
        path: The file or folder to add or remove, relative to the root.
        label: A few words saying why the path matters (for add).
    """
    if action not in ("add", "remove", "list"):
        msg = f"unknown action {action!r}: use one of add, remove, list"
        raise ValueError(msg)
    box, store, root = ctx.sandbox, ctx.db, ctx.root
    if action != "list":
        if not path:
            msg = f"bookmark {action} needs a path"
            raise ValueError(msg)
        target = box.existing(path) if action == "add" else box.resolve(path, reading=False)
        rel = box.relative(target)
        named = shown(rel) + (f" ({label})" if label else "")
        if action == "add":
            new = bookmarks.add(store, root, rel, label)
            text = f"Bookmarked {named}." if new else f"Updated the bookmark of {named}."
        elif bookmarks.remove(store, root, rel):
            text = f"Removed the bookmark of {shown(rel)}."
        else:
            text = f"No bookmark for {shown(rel)}."
            return ToolOutcome.failure(text, _rows(ctx))
        return ToolOutcome(text, payload=_rows(ctx))
    rows = _rows(ctx)
    if not rows.bookmarks:
        return ToolOutcome("No bookmarks in this folder.", payload=rows)
    lines = [f"{len(rows.bookmarks)} bookmarks:"]
    for row in rows.bookmarks:
        label_text = f" - {row.label}" if row.label else ""
        gone = "" if row.exists else "  [missing: no longer exists]"
        lines.append(f"  {row.path}{label_text}  (added {row.created}){gone}")
    return ToolOutcome("\n".join(lines), payload=rows)


def _rows(ctx: ToolContext) -> Bookmarks:
    root = ctx.sandbox.root
    return Bookmarks(
        tuple(
            Bookmark(
                shown(b.path),
                b.label,
                f"{b.created_at:%Y-%m-%d %H:%M}",
                (root / b.path).exists(),
            )
            for b in bookmarks.listing(ctx.db, ctx.root)
        )
    )


__all__ = ["bookmark"]
