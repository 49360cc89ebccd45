"""What the navigator tools ask of a folder's files, and the answers' shapes.

Seven tools ask the same few questions of a folder: `browse_directory`, `tree`,
`find_files`, `disk_usage`, `recent_files`, `find_duplicates`, and the folder map. They ask:
what a folder holds, to a depth; its folders and files with their totals; its files, newest
first; which files match a name or some metadata; which files may be copies.

`ToolContext.files` answers them through one `FileCatalog`, chosen once per context
(`fsnb.tools.index_catalog.choose`):
- the index's `files` table, when the index holds the folder (`IndexCatalog`);
- else one walk of the folder, kept for the context (`fsnb.tools.walk_catalog.WalkCatalog`).

Each catalog says where its answers come from, as the tools write it (`source`, `kind`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, Protocol

from fsnb.fsindex.duplicates import Duplicates
from fsnb.fsindex.filesystem import Entry
from fsnb.text.ranges import DateRange, SizeRange

#: A name query with one of these is a glob ("*.pdf", "report_202?").
WILDCARDS = re.compile(r"[*?\[]")
#: How a search's matches are ordered, by `FindQuery.sort`.
FindSort = Literal["relevance", "name", "size", "modified"]
#: Called before each file a duplicate search hashes; it raises to stop (`ToolContext.check`).
Check = Callable[[], None]


@dataclass
class Node:
    """One thing in a folder; a folder's size and counts cover everything under it."""

    name: str
    rel: str
    kind: str  # folder, file, symlink, other
    size: int = 0
    mtime: float = 0.0
    children: list[Node] = field(default_factory=list)
    files: int = 0
    folders: int = 0
    note: str = ""
    items: int = 0  # what a folder holds directly, when its children were not kept


@dataclass(frozen=True)
class FindQuery:
    """A search for files under `base`: by name (`text` a glob, a file name or words), by
    document text, by both (`how` "name+content"), or by the filters alone ("metadata")."""

    text: str
    how: str  # name, content, name+content or metadata
    base: str = "."
    extensions: frozenset[str] = frozenset()  # '.pdf'
    sizes: SizeRange | None = None
    dates: DateRange | None = None
    sort: FindSort = "relevance"
    limit: int = 50


@dataclass(frozen=True)
class Hit:
    """A file a search found: its path from the root, size, modified time, and why."""

    rel: str
    size: int
    mtime: float
    score: float
    why: str


@dataclass(frozen=True)
class FoundFiles:
    """A search's first `limit` matches, best first, how many there are in all, how many
    files it looked at, and where the answer came from."""

    hits: list[Hit]
    total: int
    looked_at: int
    kind: Literal["index", "walk"]
    source: str  # as the tool writes it: "from the index, scanned ..." | "from a walk of N files"


class FileCatalog(Protocol):
    """A folder's files, from the index or from a walk; paths are relative to the root
    ('.': the root), and every answer stays inside the sandbox's rules."""

    #: Where the answers come from, as the payloads say it.
    kind: Literal["index", "walk"]
    #: Where the answers come from, as the tools' text says it: "from the index, scanned
    #: 2026-11-27 10:00" or "from a walk".
    source: str

    @property
    def walked(self) -> FileCatalog:
        """The folder walked, for what only a walk sees: symlinks, special files, empty
        folders, document text (the walk catalog itself, or the one an index catalog
        keeps for these)."""
        ...

    def node(self, rel: str, depth: int | None, *, hidden: bool) -> Node:
        """The folder `rel` and what it holds, `depth` levels down (None: all); folders at
        the last level hold their totals but no children. `hidden`: keep names that start
        with a dot (else they are neither listed nor counted). From the index: only indexed
        files, and the folders holding them."""
        ...

    def entries(self, rel: str, depth: int) -> list[Entry]:
        """The folders (totals over the files under them) and the files at most `depth`
        levels under `rel`, unordered: the files the index holds, or would."""
        ...

    def files(
        self,
        rel: str = ".",
        *,
        extensions: frozenset[str] = frozenset(),
        since_ns: int | None = None,
        newest_first: bool = False,
    ) -> list[tuple[str, int, int]]:
        """(path, size, mtime_ns) of the files under `rel` the index holds (or would), with
        these extensions and modified at `since_ns` or later, by path or newest first."""
        ...

    def find(self, query: FindQuery) -> FoundFiles:
        """The files under `query.base` that match, ranked by `query.sort`."""
        ...

    def duplicates(self, rel: str, min_size: int, check: Check) -> Duplicates:
        """Files under `rel` of `min_size` bytes or more with the same content."""
        ...


__all__ = ["WILDCARDS", "FileCatalog", "FindQuery", "FindSort", "FoundFiles", "Hit", "Node"]
