"""`WalkCatalog`: a folder's files from one walk, kept for the context that made it.

The walk (`fsnb.security.scan`, under the sandbox's rules: ignored paths and excluded
folders left out, symlinked folders not followed) records each folder's subfolders and the
`lstat` of its files, symlinks and special files, once. Every question after that is
answered from the record, by the rules each tool's own walk followed:
- `node`: everything a folder holds, symlinks and empty folders included (browse, tree,
  file_info);
- `entries` and `files`: the regular files the index would hold, without blocked or
  skipped sensitive files (`fsnb.fsindex.walk.list_files`), with folders as the totals of
  the files under them (disk_usage, recent_files, the folder map);
- `find` and `duplicates`: every file but blocked ones (`Sandbox.entries`), matched by name,
  text or metadata, or grouped by content.

A folder that no walk so far reached (a first call asks for a subfolder, or names an
excluded folder outright) is walked on its own. The record is as old as its context: a new
context walks again.
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
import stat
import threading
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Literal

from fsnb.documents import parse, supported
from fsnb.errors import ParseError
from fsnb.fsindex import duplicates
from fsnb.fsindex.duplicates import Candidate, Duplicates
from fsnb.fsindex.filesystem import Entry
from fsnb.fsindex.walk import stored_name, suffix
from fsnb.security import Sandbox, Sensitivity, classify, may_flag, os_reason, scan
from fsnb.tools.catalog import WILDCARDS, Check, FindQuery, FoundFiles, Hit, Node

#: Sensitivity levels whose files the index leaves out.
_SKIPPED = (Sensitivity.BLOCK, Sensitivity.SKIP)
_SORTS = {
    "relevance": lambda h: (-h.score, h.rel.lower()),
    "name": lambda h: h.rel.lower(),
    "size": lambda h: (-h.size, h.rel.lower()),
    "modified": lambda h: (-h.mtime, h.rel.lower()),
}


#: A file, symlink or special file as the walk saw it: its name and `lstat`.
_Item = tuple[str, os.stat_result]


@dataclass(slots=True)
class _Folder:
    """One folder as the walk read it."""

    prefix: str  # its path from the root: '' for the root, else ending in '/'
    mtime: float = 0.0
    error: OSError | None = None  # it could not be listed
    folders: list[str] = field(default_factory=list)
    files: list[_Item] = field(default_factory=list)
    links: list[_Item] = field(default_factory=list)
    others: list[_Item] = field(default_factory=list)  # pipes, sockets, devices
    kept: list[_Item] | None = None  # the files the index would hold, once asked


def _items(entries: list[os.DirEntry[str]]) -> list[_Item]:
    """The entries of one folder with their `lstat`, those gone since it was read left out."""
    try:  # the common case, in one comprehension
        return [(entry.name, entry.stat(follow_symlinks=False)) for entry in entries]
    except OSError:
        found = []
        for entry in entries:
            with contextlib.suppress(OSError):
                found.append((entry.name, entry.stat(follow_symlinks=False)))
        return found


def _record(box: Sandbox, rel: str) -> dict[str, _Folder]:
    """Every folder from `rel` down, by prefix, from one `scan`."""
    found: dict[str, _Folder] = {}
    start = box.root if rel == "." else box.root / rel
    for listed in scan(box, str(start), "" if rel == "." else f"{rel}/"):
        folder = found[listed.prefix] = _Folder(listed.prefix)
        if listed.error:
            folder.error = listed.error
            continue
        with contextlib.suppress(OSError):
            folder.mtime = os.fstat(listed.fd).st_mtime
        folder.folders = [item.name for item in listed.folders]
        for into, items in (
            (folder.files, listed.files),
            (folder.links, listed.links),
            (folder.others, listed.others),
        ):
            into += _items(items)
    return found


def _kept(folder: _Folder) -> list[_Item]:
    """The folder's files the index would hold: regular, neither blocked nor skipped
    (`fsnb.fsindex.walk.held`)."""
    if folder.kept is None:
        items = [(name, info) for name, info in folder.files if stat.S_ISREG(info.st_mode)]
        if items and may_flag([folder.prefix, *(name for name, _ in folder.files)]):
            items = [i for i in items if classify(folder.prefix + i[0]).level not in _SKIPPED]
        folder.kept = items
    return folder.kept


def _prefix(rel: str) -> str:
    return "" if rel == "." else f"{rel}/"


class WalkCatalog:
    """A folder's files from one walk of it, kept (see the module)."""

    kind: Literal["index", "walk"] = "walk"
    source = "from a walk"

    def __init__(self, box: Sandbox) -> None:
        self.box = box
        self._walks: list[dict[str, _Folder]] = []
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"WalkCatalog({str(self.box.root)!r})"

    @property
    def walked(self) -> WalkCatalog:
        return self

    def _walk(self, rel: str) -> dict[str, _Folder]:
        """The record holding the folder `rel`, walked now if none does yet."""
        prefix = _prefix(rel)
        with self._lock:
            for walk in self._walks:
                if prefix in walk:
                    return walk
            walk = _record(self.box, rel)
            # walks of folders under this one are in it now
            self._walks = [w for w in self._walks if not next(iter(w)).startswith(prefix)]
            self._walks.append(walk)
            return walk

    def _under(self, rel: str) -> Iterator[_Folder]:
        """The folder `rel` and every folder under it, each before those under it."""
        walk = self._walk(rel)
        pending = [_prefix(rel)]
        while pending:
            folder = walk[pending.pop()]
            yield folder
            pending += [f"{folder.prefix}{name}/" for name in folder.folders]

    def node(self, rel: str, depth: int | None, *, hidden: bool) -> Node:
        walk = self._walk(rel)
        root = Node((self.box.root / rel).name or rel, rel, "folder")
        pending = [(root, _prefix(rel), 0)]
        walked: list[tuple[Node, Node]] = []  # (folder, its parent), parents first
        while pending:
            node, prefix, level = pending.pop()
            folder = walk[prefix]
            if folder.error:
                node.note = f"cannot list ({os_reason(folder.error)})"
                continue
            node.mtime = folder.mtime
            names = [name for name in folder.folders if hidden or not name.startswith(".")]
            opened = depth is None or level < depth
            for name in names:
                child = Node(name, prefix + name, "folder")
                pending.append((child, f"{prefix}{name}/", level + 1))
                walked.append((child, node))
                if opened:
                    node.children.append(child)
            if opened:
                _add_children(node, folder, hidden)
            else:
                _add_totals(node, folder, len(names), hidden)
        for child, parent in reversed(walked):
            parent.size += child.size
            parent.files += child.files
            parent.folders += 1 + child.folders
        return root

    def entries(self, rel: str, depth: int) -> list[Entry]:
        """Each folder's files summed, then each folder's sums added to those above it."""
        cut = len(_prefix(rel))
        own: dict[str, list[int]] = {}  # folder: [size, files, newest mtime] of its own files
        found: list[Entry] = []
        for listed in self._under(rel):
            items = _kept(listed)
            if not items:
                continue
            folder = stored_name(listed.prefix[:-1])
            own[folder] = [
                sum(info.st_size for _, info in items),
                len(items),
                max(info.st_mtime_ns for _, info in items),
            ]
            if len(listed.prefix) <= cut or folder[cut:].count("/") + 1 < depth:
                prefix = listed.prefix
                found += [
                    Entry(stored_name(prefix + name), "file", s.st_size, 1, 0, s.st_mtime_ns)
                    for name, s in items
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

    def files(
        self,
        rel: str = ".",
        *,
        extensions: frozenset[str] = frozenset(),
        since_ns: int | None = None,
        newest_first: bool = False,
    ) -> list[tuple[str, int, int]]:
        rows: list[tuple[str, int, int]] = []
        odd: list[tuple[str, int, int]] = []  # names that are not valid UTF-8
        for folder in self._under(rel):
            for name, info in _kept(folder):
                path = folder.prefix + name
                into = rows if path.isascii() or stored_name(path) == path else odd
                into.append((path, info.st_size, info.st_mtime_ns))
        taken = {path for path, _, _ in rows} if odd else set()
        for path, size, mtime_ns in sorted(odd, key=lambda row: row[0].split("/")):
            stored = stored_name(path)
            if stored not in taken:  # else another file has the escaped name: left out
                taken.add(stored)
                rows.append((stored, size, mtime_ns))
        if extensions:
            rows = [row for row in rows if suffix(row[0].rpartition("/")[2]) in extensions]
        if since_ns is not None:
            rows = [row for row in rows if row[2] >= since_ns]
        rows.sort(key=(lambda r: (-r[2], r[0])) if newest_first else (lambda r: r[0]))
        return rows

    def _readable(self, rel: str) -> list[tuple[str, os.stat_result, Sensitivity]]:
        """(path, `lstat`, sensitivity) of the files under `rel` a tool may list: those
        `Sandbox.entries` gives, blocked ones left out, by path."""
        if rel != "." and self.box.ignored(rel):
            return []
        found = []
        for folder in self._under(rel):
            for name, info in folder.files:
                path = folder.prefix + name
                level = classify(path).level
                if level is not Sensitivity.BLOCK:
                    found.append((path, info, level))
        found.sort(key=lambda row: row[0].split("/"))
        return found

    def find(self, query: FindQuery) -> FoundFiles:
        how, text = query.how, query.text
        looked, hits = 0, []
        for path, info, level in self._readable(query.base):
            looked += 1
            if query.extensions and Path(path).suffix.lower() not in query.extensions:
                continue
            if query.sizes and info.st_size not in query.sizes:
                continue
            if query.dates and datetime.fromtimestamp(info.st_mtime) not in query.dates:
                continue
            score, why = (1.0, "matches the filters") if how == "metadata" else (0.0, "")
            if "name" in how:
                score, why = name_score(text, path)
            readable = level in (Sensitivity.NONE, Sensitivity.WARN)
            if not score and "content" in how and readable and supported(path):
                score, why = content_score(self.box.root / path, text, self.box.root)
            if score:
                hits.append(Hit(path, info.st_size, info.st_mtime, score, why))
        hits.sort(key=_SORTS[query.sort])
        said = f"from a walk of {looked} files"
        return FoundFiles(hits[: query.limit], len(hits), looked, "walk", said)

    def duplicates(self, rel: str, min_size: int, check: Check) -> Duplicates:
        candidates = [
            Candidate(path, info.st_size)
            for path, info, level in self._readable(rel)
            if level.value in duplicates.READABLE and info.st_size >= min_size
        ]
        return duplicates.among(candidates, self.box, check)


def _add_children(node: Node, folder: _Folder, hidden: bool) -> None:
    """Give `node` a child for each file, symlink and special file of its folder (its
    subfolders are there already), sorted by name."""
    for kind, items in (
        ("file", folder.files),
        ("symlink", folder.links),
        ("other", folder.others),
    ):
        for name, info in items:
            if not hidden and name.startswith("."):
                continue
            size = info.st_size if kind == "file" else 0
            node.children.append(Node(name, folder.prefix + name, kind, size, info.st_mtime))
            node.size += size
            node.files += kind == "file"
    node.children.sort(key=lambda c: c.name)


def _add_totals(node: Node, folder: _Folder, subfolders: int, hidden: bool) -> None:
    """Add the sizes and the count of a folder's files to `node`, with no children."""
    files = folder.files if hidden else [f for f in folder.files if not f[0].startswith(".")]
    node.size += sum(info.st_size for _, info in files)
    node.files += len(files)
    node.items = (
        len(files)
        + subfolders
        + sum(hidden or not name.startswith(".") for name, _ in (*folder.links, *folder.others))
    )


def _with_ancestors(folders: set[str], cut: int) -> set[str]:
    """`folders` and every folder above them, up to (not including) the base."""
    every: set[str] = set()
    for folder in folders:
        while len(folder) > cut and folder not in every:
            every.add(folder)
            folder = folder.rpartition("/")[0]
    return every


def name_score(query: str, rel: str) -> tuple[float, str]:
    """How well a path's name matches: a glob, the whole query, or all its words (the
    index scores the same in SQL: `fsnb.fsindex.filesystem.find`)."""
    name, low = rel.rsplit("/", 1)[-1].lower(), query.lower().strip()
    if WILDCARDS.search(low):
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


def content_score(file: Path, query: str, root: Path) -> tuple[float, str]:
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


__all__ = ["WalkCatalog", "content_score", "name_score"]
