"""Bookmarks: labelled paths kept per folder in the index database's `bookmarks` table.

A folder gets its `corpora` row when its first bookmark is added; that does not mark it
indexed. One bookmark per path: adding it again changes its label.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import pandas as pd

from fsnb.db.database import Database
from fsnb.db.schema import corpus_id

_COLUMNS = ["root", "path", "label", "created_at"]


@dataclass(frozen=True)
class Bookmark:
    """A bookmarked path (relative to its folder `root`) with its label."""

    root: str
    path: str
    label: str | None
    created_at: datetime


def add(store: Database, root: str, path: str, label: str | None) -> bool:
    """Bookmark `path` (relative) in the folder `root` (absolute), or relabel it; True
    when the bookmark is new."""
    with store.write() as con:
        cid = corpus_id(con, root)
        updated = con.execute(
            "UPDATE bookmarks SET label = ? WHERE corpus_id = ? AND path = ?", [label, cid, path]
        ).fetchone()[0]
        if not updated:
            con.execute(
                "INSERT INTO bookmarks (corpus_id, path, label) VALUES (?, ?, ?)",
                [cid, path, label],
            )
    return not updated


def remove(store: Database, root: str, path: str) -> bool:
    """Remove the bookmark of `path` in the folder `root`; False when there was none."""
    if not store.path.exists():
        return False
    with store.write() as con:
        cid = corpus_id(con, root, create=False)
        if cid is None:
            return False
        gone = con.execute(
            "DELETE FROM bookmarks WHERE corpus_id = ? AND path = ?", [cid, path]
        ).fetchone()[0]
    return bool(gone)


def listing(store: Database, root: str | None = None) -> list[Bookmark]:
    """The bookmarks of the folder `root` (absolute; None: of every folder), by folder
    and path."""
    if not store.path.exists():
        return []
    where, params = ("WHERE c.root = ?", [root]) if root is not None else ("", [])
    with store.read() as con:
        rows = con.execute(
            "SELECT c.root, b.path, b.label, b.created_at FROM bookmarks b"
            f" JOIN corpora c ON c.id = b.corpus_id {where} ORDER BY c.root, b.path",
            params,
        ).fetchall()
    return [Bookmark(*row) for row in rows]


def frame(store: Database, root: str | None = None) -> pd.DataFrame:
    """`listing` as a DataFrame: root, path, label, created_at."""
    rows = [(b.root, b.path, b.label, b.created_at) for b in listing(store, root)]
    return pd.DataFrame(rows, columns=_COLUMNS)


__all__ = ["Bookmark", "add", "frame", "listing", "remove"]
