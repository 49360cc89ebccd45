"""`IndexCatalog`: a folder's files from the index's `files` table, and `choose`, which
picks a context's catalog: the index when it holds the folder, else a walk.

The index holds regular files only (no symlinks, no special files, no empty folders, no
blocked or skipped sensitive files), and no document text: what only a walk sees (a
folder's every entry for `file_info`, a search of document text) comes from the walk it
keeps for that (`walked`).
"""

from __future__ import annotations

import contextlib
import functools
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from fsnb.fsindex import duplicates, filesystem
from fsnb.fsindex.duplicates import Duplicates
from fsnb.fsindex.filesystem import Entry, Indexed, indexed
from fsnb.security import Sandbox
from fsnb.text.ranges import DateRange
from fsnb.tools.catalog import WILDCARDS, Check, FileCatalog, FindQuery, FoundFiles, Hit, Node
from fsnb.tools.walk_catalog import WalkCatalog

if TYPE_CHECKING:
    from fsnb.db.database import Database


def choose(box: Sandbox, store: Database) -> FileCatalog:
    """The catalog of the sandbox's folder: the index's when it holds the folder (and can
    be read now), else one walk (`fsnb.fsindex.filesystem.indexed`)."""
    where = indexed(store, str(box.root))
    return IndexCatalog(store, box, where) if where else WalkCatalog(box)


class IndexCatalog:
    """A folder's files from the index (see the module)."""

    kind: Literal["index", "walk"] = "index"

    def __init__(self, store: Database, box: Sandbox, where: Indexed) -> None:
        self.db, self.box, self.where = store, box, where
        self.source = where.source()

    def __repr__(self) -> str:
        return f"IndexCatalog({str(self.box.root)!r}, corpus={self.where.cid})"

    @functools.cached_property
    def walked(self) -> WalkCatalog:
        return WalkCatalog(self.box)

    def node(self, rel: str, depth: int | None, *, hidden: bool) -> Node:
        root = Node(Path(rel).name or rel, rel, "folder")
        nodes = {rel: root}
        found = filesystem.entries(self.db, self.where.cid, rel, depth, hidden=hidden)
        for e in sorted(found, key=lambda e: e.path):
            parent = nodes[e.path.rpartition("/")[0] or "."]
            node = Node(e.path.rpartition("/")[2], e.path, e.type, e.size, e.mtime_ns / 1e9)
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
        for child in top:  # the index dates a folder by its newest file: ask the folder
            if child.kind == "folder":
                with contextlib.suppress(OSError):
                    child.mtime = (self.box.root / child.rel).stat().st_mtime
        return root

    def entries(self, rel: str, depth: int) -> list[Entry]:
        return filesystem.entries(self.db, self.where.cid, rel, depth)

    def files(
        self,
        rel: str = ".",
        *,
        extensions: frozenset[str] = frozenset(),
        since_ns: int | None = None,
        newest_first: bool = False,
    ) -> list[tuple[str, int, int]]:
        after = None if since_ns is None else DateRange(datetime.fromtimestamp(since_ns / 1e9))
        rows = filesystem.files_under(
            self.db,
            self.where.cid,
            rel,
            extensions=extensions,
            dates=after,
            order="newest" if newest_first else "path",
        )  # the date in seconds, rounded: cut at the very nanosecond
        return rows if since_ns is None else [row for row in rows if row[2] >= since_ns]

    def find(self, query: FindQuery) -> FoundFiles:
        if query.how not in ("name", "metadata"):  # the index holds no document text
            return self.walked.find(query)
        total, rows = filesystem.find(  # scored, ranked and cut in SQL
            self.db,
            self.where.cid,
            query.base,
            None if query.how == "metadata" else query.text,
            glob=bool(WILDCARDS.search(query.text)),
            extensions=query.extensions,
            sizes=query.sizes,
            dates=query.dates,
            sort=query.sort,
            limit=query.limit,
        )
        hits = [Hit(rel, size, ns / 1e9, 0.0, why) for rel, size, ns, why in rows]
        return FoundFiles(hits, total, total, "index", self.source)

    def duplicates(self, rel: str, min_size: int, check: Check) -> Duplicates:
        return duplicates.from_index(self.db, self.where, self.box, rel, min_size, check)


__all__ = ["IndexCatalog", "choose"]
