"""Duplicate files: grouped by size first, then by the sha256 of only the files that share one.

Candidates come from the index's `files` table when the folder is indexed (and the hashes
are cached back in `files.sha256`, so a second search hashes nothing), else from a walk.
Blocked and skipped sensitive files are never opened; unreadable ones are reported.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import pandas as pd

from fsnb.db.database import Database
from fsnb.db.errors import DatabaseInUse, DatabaseLocked
from fsnb.fsindex.filesystem import Indexed
from fsnb.fsindex.walk import file_sha256
from fsnb.security import Sandbox, Sensitivity, os_reason

#: Sensitivity levels whose files may be opened (stored as `files.sensitivity`).
READABLE = (Sensitivity.NONE.value, Sensitivity.WARN.value)
#: Called before each file is hashed; it raises to stop the search.
Check = Callable[[], None]


def _go_on() -> None:
    """The check of a search that is never stopped."""


@dataclass(frozen=True)
class Candidate:
    """A file that may have copies: its path relative to the root, size, cached hash."""

    rel: str
    size: int
    sha256: str | None = None


@dataclass(frozen=True)
class Group:
    """Files with the same content."""

    size: int
    sha256: str
    paths: list[str]

    @property
    def wasted(self) -> int:
        """The bytes that removing all copies but one would free."""
        return self.size * (len(self.paths) - 1)


@dataclass
class Duplicates:
    """The groups, largest waste first, and what the search could not read."""

    groups: list[Group] = field(default_factory=list)
    unreadable: list[tuple[str, str]] = field(default_factory=list)  # (path, why)
    hashed: int = 0  # files hashed by this search (not taken from the index)
    candidates: int = 0  # files considered (at least `min_size`)

    @property
    def wasted(self) -> int:
        return sum(g.wasted for g in self.groups)

    def frame(self) -> pd.DataFrame:
        """One row per file: group (0 = the most waste), size, sha256, path."""
        rows = [
            (number, g.size, g.sha256, path)
            for number, g in enumerate(self.groups)
            for path in g.paths
        ]
        return pd.DataFrame(rows, columns=["group", "size", "sha256", "path"])


@dataclass(frozen=True)
class _Hash:
    rel: str
    sha256: str
    size: int
    mtime_ns: int


def group(
    candidates: Iterable[Candidate], hasher: Callable[[str], tuple[str, int, int]]
) -> tuple[Duplicates, list[_Hash]]:
    """Group `candidates` by size, hash (with `hasher(rel)`) those that share a size and
    have no cached hash, and group by hash. Returns the result and the new hashes."""
    by_size: dict[int, list[Candidate]] = defaultdict(list)
    found = Duplicates()
    for c in candidates:
        by_size[c.size].append(c)
        found.candidates += 1
    by_hash: dict[str, list[tuple[str, int]]] = defaultdict(list)
    fresh: list[_Hash] = []
    for same in (files for files in by_size.values() if len(files) > 1):
        for c in same:
            digest, size = c.sha256, c.size
            if digest is None:
                try:
                    digest, size, mtime_ns = hasher(c.rel)
                except OSError as exc:
                    found.unreadable.append((c.rel, os_reason(exc)))
                    continue
                fresh.append(_Hash(c.rel, digest, size, mtime_ns))
            by_hash[digest].append((c.rel, size))
    found.hashed = len(fresh)
    found.groups = sorted(
        (
            Group(files[0][1], digest, sorted(rel for rel, _ in files))
            for digest, files in by_hash.items()
            if len(files) > 1
        ),
        key=lambda g: (-g.wasted, g.paths[0]),
    )
    return found, fresh


def _hasher(box: Sandbox, check: Check) -> Callable[[str], tuple[str, int, int]]:
    def sha256(rel: str) -> tuple[str, int, int]:
        check()  # before each file: a cancelled run stops hashing
        return file_sha256(box.root / rel, box.root)

    return sha256


def among(candidates: Iterable[Candidate], box: Sandbox, check: Check = _go_on) -> Duplicates:
    """Duplicates among `candidates`, files of the sandbox a walk found: only those that
    share a size are hashed."""
    return group(candidates, _hasher(box, check))[0]


def from_walk(box: Sandbox, base: str, min_size: int, check: Check = _go_on) -> Duplicates:
    """Duplicates among the regular files under `base` (relative), from a walk."""
    candidates = []
    for entry in box.entries(base):
        if entry.note or entry.symlink or entry.verdict.level.value not in READABLE:
            continue
        try:
            size = entry.path.stat(follow_symlinks=False).st_size
        except OSError:  # gone since the folder was read
            continue
        if size >= min_size:
            candidates.append(Candidate(entry.rel, size))
    return among(candidates, box, check)


def from_index(
    store: Database, where: Indexed, box: Sandbox, base: str, min_size: int, check: Check = _go_on
) -> Duplicates:
    """Duplicates among the indexed files under `base`: only files whose size another
    shares are read, cached hashes are used, and new ones written back in one
    transaction (for rows whose size and mtime still match the hashed file)."""
    scope = "" if base == "." else " AND (path = $base OR starts_with(path, $base || '/'))"
    files = (
        "SELECT path, size, sha256 FROM files WHERE corpus_id = $cid AND size >= $min"
        f" AND sensitivity IN ('none', 'warn'){scope}"
    )
    params = {"cid": where.cid, "min": min_size} | ({"base": base} if scope else {})
    with store.read() as con:
        total = con.execute(f"SELECT count(*) FROM ({files})", params).fetchone()[0]
        rows = con.execute(
            f"{files} QUALIFY count(*) OVER (PARTITION BY size) > 1 ORDER BY path", params
        ).fetchall()
    found, fresh = group((Candidate(*row) for row in rows), _hasher(box, check))
    found.candidates = int(total)
    if fresh:
        _cache(store, where.cid, fresh)
    return found


def _cache(store: Database, cid: int, hashes: list[_Hash]) -> None:
    """Write new hashes to `files.sha256`; skipped when the database is busy."""
    frame = pd.DataFrame(
        [(h.rel, h.sha256, h.size, h.mtime_ns) for h in hashes],
        columns=["path", "sha256", "size", "mtime_ns"],
    )
    try:
        with store.write() as con:
            con.register("new_hashes", frame)
            con.execute(
                "UPDATE file_rows f SET sha256 = h.sha256 FROM new_hashes h WHERE f.corpus_id = ?"
                " AND f.path = h.path AND f.size = h.size AND f.mtime_ns = h.mtime_ns",
                [cid],
            )
            con.unregister("new_hashes")
    except (DatabaseInUse, DatabaseLocked):
        return


def find(
    store: Database,
    box: Sandbox,
    base: str,
    min_size: int,
    where: Indexed | None,
    *,
    check: Check = _go_on,
) -> Duplicates:
    """`from_index` when the folder is indexed (`where`), else `from_walk`; `check()` runs
    before each file is hashed (`ToolContext.check`: it raises to stop)."""
    if where is None:
        return from_walk(box, base, min_size, check)
    return from_index(store, where, box, base, min_size, check)


__all__ = [
    "Candidate",
    "Duplicates",
    "Group",
    "among",
    "file_sha256",
    "find",
    "from_index",
    "from_walk",
]
