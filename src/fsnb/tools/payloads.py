"""The typed payloads of the tools' outcomes: one frozen dataclass per kind of result.

A tool declares its payload in its return annotation (`-> ToolOutcome[PageRead]`) and the
code around it (the loop, receipts, the offline strategy, the views) reads the fields,
never the text. `ToolOutcome.data` is a payload's plain view (`as_data`): what events,
saved runs and `--json` hold; `load` rebuilds a payload from that view and its type tag
(or, for a run saved before the tags, from the view's keys alone).
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Protocol, runtime_checkable

from fsnb.protocol.outcome import OMIT_NONE, from_data
from fsnb.protocol.usage import NO_TOKENS, Tokens


@dataclass(frozen=True)
class Scanned:
    """`scan_folder`: files listed, documents previewed, files that could not be read,
    and every file the scan listed (in the order of its text)."""

    files: int
    previewed: int
    failed: int
    listed: tuple[str, ...] = ()


@dataclass(frozen=True)
class PageRead:
    """A paged read (`parse_file`, `read`, `get_document`, `preview_file`): the characters
    `offset`-`end` of the `total` of `path`, and the pages whose `[page N]` marks it shows."""

    path: str
    offset: int
    end: int
    total: int
    pages: tuple[int, ...] = ()


@dataclass(frozen=True)
class Hit:
    """A passage found: its file, its page (None: it has none) and its score."""

    path: str
    page: int | None
    score: float | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class Hits:
    """`semantic_search`: passages best first, and those of the files whose names match."""

    hits: tuple[Hit, ...]
    name_matches: tuple[Hit, ...] = ()


@dataclass(frozen=True)
class Item:
    """One entry of a browsed folder."""

    name: str
    type: str
    size: int
    modified: str


@dataclass(frozen=True)
class Browsed:
    """`browse_directory`: the entries listed, from the index or a walk."""

    path: str
    items: tuple[Item, ...]
    source: str


@dataclass(frozen=True)
class TreeEntry:
    """A drawn tree line: a folder's size and counts cover what it holds."""

    path: str
    type: str
    size: int
    files: int
    folders: int


@dataclass(frozen=True)
class Tree:
    """`tree`: the totals, the entries drawn (in drawing order) and how many were cut."""

    folders: int
    files: int
    size: int
    cut: int
    path: str
    source: str
    entries: tuple[TreeEntry, ...]


@dataclass(frozen=True)
class FileInfo:
    """`file_info`: a file (with its MIME type) or a folder (with its files by type)."""

    path: str
    type: str
    files: int | None = field(default=None, kw_only=True, metadata=OMIT_NONE)
    size: int
    mime: str | None = field(default=None, kw_only=True, metadata=OMIT_NONE)
    by_type: dict[str, int] | None = field(default=None, kw_only=True, metadata=OMIT_NONE)


@dataclass(frozen=True)
class FileRow:
    """A file found: its size, modified time and (for `find_files`) why it matched."""

    path: str
    size: int
    modified: str
    match: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class Found:
    """`find_files`: the files listed, how many matched, how many were looked at."""

    results: tuple[FileRow, ...]
    total: int
    walked: int
    source: str


@dataclass(frozen=True)
class Recent:
    """`recent_files`: the files listed, newest first."""

    results: tuple[FileRow, ...]
    source: str


@dataclass(frozen=True)
class UsageEntry:
    """A ranked folder or file of `disk_usage`, with its share of the total."""

    path: str
    type: str
    size: int
    files: int
    share: float = 0.0


@dataclass(frozen=True)
class DiskUsage:
    """`disk_usage`: the folder's totals and its biggest entries."""

    path: str
    size: int
    files: int
    folders: int
    source: str = ""
    entries: tuple[UsageEntry, ...] = ()


@dataclass(frozen=True)
class DuplicateGroup:
    size: int
    sha256: str
    paths: tuple[str, ...]


@dataclass(frozen=True)
class Unreadable:
    path: str
    why: str


@dataclass(frozen=True)
class Duplicates:
    """`find_duplicates`: every group of copies, the bytes they waste, files hashed now."""

    groups: tuple[DuplicateGroup, ...]
    wasted: int
    source: str
    hashed: int
    unreadable: tuple[Unreadable, ...] = ()


@dataclass(frozen=True)
class Bookmark:
    path: str
    label: str | None
    created: str
    exists: bool


@dataclass(frozen=True)
class Bookmarks:
    """`bookmark`: the folder's bookmarks after the call."""

    bookmarks: tuple[Bookmark, ...]


@dataclass(frozen=True)
class Comparison:
    """`compare_files`: the summary line, and the lines added and removed."""

    summary: str
    same: bool
    added: int
    removed: int


@dataclass(frozen=True)
class Rows:
    """`query_data`: the SQL, the columns, the first rows and how many there were."""

    sql: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    row_count: int
    more_rows: bool
    note: str | None = field(default=None, metadata=OMIT_NONE)

    def records(self) -> list[dict[str, Any]]:
        """The rows as dicts keyed by column."""
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


@dataclass(frozen=True)
class TableInfo:
    """A table `extract_tables` listed: its place, size, typed columns and first rows."""

    index: int
    page: int | None
    where: str
    caption: str | None
    rows: int
    columns: dict[str, str]
    head: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class Tables:
    """`extract_tables`: a document's tables, and what the extraction's limits left out."""

    path: str
    tables: tuple[TableInfo, ...]
    read: tuple[str, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class TableLoad:
    """One document's table loaded into the scratchpad (`fsnb.extract.load.LoadReport`)."""

    table: str
    added: int
    rows: int
    columns: dict[str, str]
    created: bool
    source_file: str
    page: int | None
    where: str = ""
    renamed: dict[str, str] = field(default_factory=dict)
    replaced: int = 0
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Loaded(TableLoad):
    """`load_table` of one document: its load, and the document it read."""

    read: tuple[str, ...] = ()


@dataclass(frozen=True)
class LoadFailure:
    path: str
    error: str


@dataclass(frozen=True)
class LoadedMany:
    """`load_table` of several documents: each load, each failure, the table after them
    (None when none loaded)."""

    loaded: tuple[TableLoad, ...]
    failed: tuple[LoadFailure, ...]
    read: tuple[str, ...]
    table: str | None = field(default=None, metadata=OMIT_NONE)
    rows: int | None = field(default=None, metadata=OMIT_NONE)
    columns: dict[str, str] | None = field(default=None, metadata=OMIT_NONE)
    added: int | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class Extracted:
    """`extract_rows` (`fsnb.extract.rows.RowsReport`): rows added per document, those
    whose quote was not found, the model calls made, and the documents read."""

    table: str
    added: dict[str, int]
    unverified: tuple[dict[str, Any], ...] = ()
    calls: int = 0
    tokens: Tokens = NO_TOKENS
    parts: dict[str, int] = field(default_factory=dict)
    columns_added: tuple[str, ...] = ()
    read: tuple[str, ...] = ()


@runtime_checkable
class ReadsDocuments(Protocol):
    """A payload of a tool that read whole documents (for their tables or rows): `read`
    names them, so they count as read for the run's citations."""

    read: tuple[str, ...]


#: Every payload type by its tag (the class name), as saved runs name them.
PAYLOADS: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        Scanned, PageRead, Hits, Browsed, Tree, FileInfo, Found, Recent, DiskUsage,
        Duplicates, Bookmarks, Comparison, Rows, Tables, Loaded, LoadedMany, Extracted,
    )
}  # fmt: skip


def tag(payload: object) -> str | None:
    """The tag a saved run keeps beside a payload's data (None: not a known payload)."""
    name = type(payload).__name__
    return name if PAYLOADS.get(name) is type(payload) else None


def load(data: dict[str, Any], name: str | None = None) -> Any:
    """The payload of the type tagged `name` rebuilt from its data; without a tag (a run
    saved before them) the one type whose fields the data's keys fit. None when nothing
    fits."""
    if not data:
        return None
    if name is not None:
        kinds = [PAYLOADS[name]] if name in PAYLOADS else []
    else:
        kinds = [cls for cls in PAYLOADS.values() if _fits(cls, data)]
    for cls in kinds:
        try:
            return from_data(cls, data)
        except (TypeError, ValueError):
            continue
    return None


def _fits(cls: type, data: dict[str, Any]) -> bool:
    """Whether `data` has every field of `cls` that has no default, and no other key."""
    every = {f.name for f in fields(cls)}
    needed = {f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING}
    return needed <= data.keys() <= every


__all__ = [
    "PAYLOADS",
    "Bookmark",
    "Bookmarks",
    "Browsed",
    "Comparison",
    "DiskUsage",
    "DuplicateGroup",
    "Duplicates",
    "Extracted",
    "FileInfo",
    "FileRow",
    "Found",
    "Hit",
    "Hits",
    "Item",
    "LoadFailure",
    "Loaded",
    "LoadedMany",
    "PageRead",
    "ReadsDocuments",
    "Recent",
    "Rows",
    "Scanned",
    "TableInfo",
    "TableLoad",
    "Tables",
    "Tree",
    "TreeEntry",
    "Unreadable",
    "UsageEntry",
    "load",
    "tag",
]
