"""The file index read as a file system: whether a folder is indexed, and its files.

The navigator tools answer from here when the folder is indexed and walk it when not
(`fsnb.tools.catalog`); reading never creates the database file.
"""

from __future__ import annotations

import itertools
import re
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import duckdb
import pandas as pd

from fsnb.db.database import Database
from fsnb.db.errors import DatabaseDamaged, DatabaseLocked
from fsnb.db.version import file_version
from fsnb.text.ranges import DateRange, SizeRange


@dataclass(frozen=True)
class Indexed:
    """A folder whose files the index holds: its corpus id and its last finished scan."""

    cid: int
    root: str
    scanned_at: datetime

    def source(self) -> str:
        """How a tool says where its answer comes from."""
        return f"from the index, scanned {self.scanned_at:%Y-%m-%d %H:%M}"


def indexed(store: Database, root: str | Path) -> Indexed | None:
    """The corpus of the folder `root` (absolute) when its files are indexed; None when
    they are not, or the database cannot be read now (a tool then walks the folder).

    Remembered while the database file is unchanged (`file_version`).
    """
    key = (str(store.path), str(root))
    signature = file_version(store.path)
    if signature is None:
        return None
    known = _known.get(key)
    if known is not None and known[0] == signature:
        return known[1]
    try:
        with store.read() as con:
            row = con.execute(
                "SELECT id, root, indexed_at FROM corpora"
                " WHERE root = ? AND indexed_at IS NOT NULL",
                [str(root)],
            ).fetchone()
    except (duckdb.Error, DatabaseDamaged, DatabaseLocked):
        return None
    found = Indexed(int(row[0]), row[1], row[2]) if row else None
    _known[key] = (signature, found)
    return found


_known: dict[tuple[str, str], tuple[tuple[int, ...], Indexed | None]] = {}


#: Copies of corpora's `files` rows in the process' in-memory DuckDB, by (database file,
#: corpus): the file's signature when copied, and the copy's schema. A name search reads
#: the copy (warm, in memory, no file lock) instead of attaching the file each time.
_copies: dict[tuple[str, int], tuple[tuple[int, ...], str]] = {}
_copies_lock = threading.RLock()
_copy_ids = itertools.count(1)
#: Corpora whose copies are kept; the least recently copied goes first.
COPIES = 4


@contextmanager
def _files_of(store: Database, cid: int) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection on which `files` is the in-memory copy of corpus `cid`'s rows (with
    `lpath` and `lname`, lower-case), made anew when the database file changed since."""
    signature = file_version(store.path)
    if signature is None:
        msg = f"the index {store.path} is gone"
        raise FileNotFoundError(msg)
    key = (str(store.path), cid)
    with _copies_lock:  # held while reading too: a newer copy drops the one it replaces
        known = _copies.get(key)
        if known is None or known[0] != signature:
            known = _copy(store, cid, signature)
        con = store.memory()
        try:
            con.execute(f"USE memory.{known[1]}")
            yield con
        finally:
            con.close()


def _copy(store: Database, cid: int, signature: tuple[int, ...]) -> tuple[tuple[int, ...], str]:
    """Copy corpus `cid`'s `files` rows into a new schema of the in-memory DuckDB."""
    with store.read() as con:
        rows = con.execute(
            "SELECT corpus_id, path, name, extension, size, mtime_ns, lower(path) AS lpath,"
            " lower(name) AS lname FROM files WHERE corpus_id = ?",
            [cid],
        ).df()
    schema = f"files_copy_{next(_copy_ids)}"
    con = store.memory()
    try:
        con.execute(f"CREATE SCHEMA memory.{schema}")
        con.register("copied_rows", rows)
        con.execute(f"CREATE TABLE memory.{schema}.files AS FROM copied_rows")
        con.unregister("copied_rows")
        key = (str(store.path), cid)
        stale = [_copies.pop(key)] if key in _copies else []
        _copies[key] = (signature, schema)
        while len(_copies) > COPIES:
            stale.append(_copies.pop(next(iter(_copies))))
        for _, name in stale:
            con.execute(f"DROP SCHEMA IF EXISTS memory.{name} CASCADE")
    finally:
        con.close()
    return _copies[key]


#: The files under `base` ('.': all) of one corpus, their path relative to `base` split
#: into parts; hidden ones (a part starting with a dot) left out unless `$hidden`.
_UNDER = """
    SELECT string_split(CASE WHEN $base = '.' THEN path ELSE substr(path, len($base) + 2) END,
                        '/') AS p, path, size, mtime_ns, extension
    FROM files
    WHERE corpus_id = $cid AND ($base = '.' OR starts_with(path, $base || '/'))
      AND ($hidden OR NOT regexp_matches(
          CASE WHEN $base = '.' THEN path ELSE substr(path, len($base) + 2) END, '(^|/)\\.'))
"""
#: Folders (with totals over everything under them) and files at most `$depth` levels
#: under `base`: path (from the root), type, size, files, folders, mtime_ns (a folder's:
#: its newest file's).
_ENTRIES = f"""
    WITH f AS ({_UNDER}),
    up AS (
        SELECT array_to_string(p[1:k], '/') AS rel, size, mtime_ns
        FROM (SELECT p, size, mtime_ns, unnest(range(1, least(len(p), $depth + 1))) AS k FROM f)
    ),
    folder AS (SELECT DISTINCT p[1:k] AS q
               FROM (SELECT p, unnest(range(1, len(p))) AS k FROM f)),
    below AS (
        SELECT array_to_string(q[1:j], '/') AS rel, count(*) AS folders
        FROM (SELECT q, unnest(range(1, least(len(q), $depth + 1))) AS j FROM folder)
        GROUP BY rel
    ),
    sized AS (
        SELECT rel, sum(size) AS size, count(*) AS files, max(mtime_ns) AS mtime_ns
        FROM up GROUP BY rel
    )
    SELECT CASE WHEN $base = '.' THEN s.rel ELSE $base || '/' || s.rel END AS path,
           'folder' AS type, s.size::BIGINT AS size, s.files, coalesce(b.folders, 0) AS folders,
           s.mtime_ns
    FROM sized s LEFT JOIN below b USING (rel)
    UNION ALL
    SELECT path, 'file', size, 1, 0, mtime_ns FROM f WHERE len(p) <= $depth
"""
#: Every folder of a corpus with its totals and most common extensions; the root is '.'.
_FOLDERS = """
    WITH f AS (SELECT string_split(path, '/') AS p, size, extension FROM files
               WHERE corpus_id = $cid),
    up AS (
        SELECT CASE WHEN k = 0 THEN '.' ELSE array_to_string(p[1:k], '/') END AS path,
               k AS depth, size, extension
        FROM (SELECT p, size, extension, unnest(range(0, len(p))) AS k FROM f)
    ),
    folder AS (SELECT DISTINCT p[1:k] AS q FROM (SELECT p, unnest(range(1, len(p))) AS k FROM f)),
    below AS (
        SELECT CASE WHEN j = 0 THEN '.' ELSE array_to_string(q[1:j], '/') END AS path,
               count(*) AS folders
        FROM (SELECT q, unnest(range(0, len(q))) AS j FROM folder) GROUP BY path
    ),
    kinds AS (
        SELECT path, extension, count(*) AS n FROM up WHERE extension <> '' GROUP BY ALL
    ),
    top AS (
        SELECT path, list(extension ORDER BY n DESC, extension)[1:3] AS top_extensions
        FROM kinds GROUP BY path
    )
    SELECT path,
           CASE WHEN path = '.' THEN NULL WHEN depth = 1 THEN '.'
                ELSE array_to_string(string_split(path, '/')[1:depth - 1], '/') END AS parent,
           depth, sum(size)::BIGINT AS size, count(*) AS files,
           coalesce(any_value(b.folders), 0) AS folders,
           coalesce(any_value(t.top_extensions), []) AS top_extensions
    FROM up LEFT JOIN below b USING (path) LEFT JOIN top t USING (path)
    GROUP BY path, depth ORDER BY path
"""
_SCANS = """
    SELECT started_at, finished_at, duration_s, added, updated, unchanged, deleted, failed,
           files, files_written, files_removed
    FROM scan_log WHERE corpus_id = ? ORDER BY started_at
"""


@dataclass(frozen=True)
class Entry:
    """A folder (totals over everything under it) or a file of the index; `path` from the root."""

    path: str
    type: str
    size: int
    files: int
    folders: int
    mtime_ns: int


def entries(
    store: Database, cid: int, base: str = ".", depth: int | None = 1, *, hidden: bool = True
) -> list[Entry]:
    """The folders and files at most `depth` levels (None: any) under `base`, unordered."""
    deepest = 10_000  # deeper than any path the system allows
    params = {"cid": cid, "base": base, "depth": min(depth or deepest, deepest), "hidden": hidden}
    with _files_of(store, cid) as con:
        rows = con.execute(_ENTRIES, params).fetchall()
    return [Entry(*row) for row in rows]


def folders(store: Database, cid: int) -> pd.DataFrame:
    """Every folder holding indexed files: path, parent, depth, size (everything under it),
    files, folders, top_extensions (the three most common); the root is '.'."""
    with store.read() as con:
        return con.execute(_FOLDERS, {"cid": cid}).df()


def scans(store: Database, cid: int) -> pd.DataFrame:
    """The scan log of a corpus, oldest first."""
    with store.read() as con:
        return con.execute(_SCANS, [cid]).df()


def _filters(
    cid: int,
    base: str,
    extensions: Iterable[str],
    sizes: SizeRange | None,
    dates: DateRange | None,
) -> tuple[list[str], list[object]]:
    """WHERE clauses and parameters for the files of corpus `cid` under `base` with these
    extensions ('.pdf'), sizes and modified dates."""
    where = ["corpus_id = ?", "(? = '.' OR starts_with(path, ? || '/'))"]
    params: list[object] = [cid, base, base]
    exts = sorted(extensions)
    if exts:
        where.append(f"extension IN ({', '.join('?' * len(exts))})")
        params += exts
    if sizes and sizes.low is not None:
        where.append("size >= ?")
        params.append(sizes.low)
    if sizes and sizes.high is not None:
        where.append("size < ?")
        params.append(sizes.high)
    for bound, op in ((dates.start, ">="), (dates.end, "<")) if dates else ():
        if bound is not None:
            where.append(f"mtime_ns {op} ?")
            params.append(int(bound.timestamp() * 1e9))
    return where, params


def files_under(
    store: Database,
    cid: int,
    base: str = ".",
    *,
    extensions: Iterable[str] = (),
    sizes: SizeRange | None = None,
    dates: DateRange | None = None,
    order: str = "path",
    limit: int | None = None,
) -> list[tuple[str, int, int]]:
    """(path, size, mtime_ns) of the files under `base` that pass the filters, ordered by
    `order` (path, newest)."""
    where, params = _filters(cid, base, extensions, sizes, dates)
    sql = f"SELECT path, size, mtime_ns FROM files WHERE {' AND '.join(where)}"
    sql += " ORDER BY mtime_ns DESC, path" if order == "newest" else " ORDER BY path"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    with _files_of(store, cid) as con:
        return con.execute(sql, params).fetchall()


#: How a name search scores a file, best first, as `walk_catalog.name_score` does on a walk.
_GLOB_SCORE = "CASE WHEN lname GLOB ? OR lpath GLOB ? THEN 50 ELSE 0 END"
_WORDS_SCORE = """CASE
    WHEN lname = ? OR regexp_replace(lname, '(.)\\.[^.]+$', '\\1') = ? THEN 100
    WHEN contains(lname, ?) THEN 60
    WHEN list_bool_and([contains(lname, w) FOR w IN ?::VARCHAR[]]) THEN 40
    WHEN list_bool_and([contains(lpath, w) FOR w IN ?::VARCHAR[]]) THEN 20
    ELSE 0 END"""
_SET = re.compile(r"\[[^\]]*\]")
_WHY = {
    100: "exact name",
    60: "name contains the query",
    50: "name matches the pattern",
    40: "name contains every word",
    20: "path contains every word",
    1: "matches the filters",
}
_ORDER = {
    "relevance": "score DESC, lpath",
    "name": "lpath",
    "size": "size DESC, lpath",
    "modified": "mtime_ns DESC, lpath",
}


def find(
    store: Database,
    cid: int,
    base: str,
    query: str | None,
    *,
    glob: bool = False,
    extensions: Iterable[str] = (),
    sizes: SizeRange | None = None,
    dates: DateRange | None = None,
    sort: str = "relevance",
    limit: int = 50,
) -> tuple[int, list[tuple[str, int, int, str]]]:
    """(matches, the first `limit` as (path, size, mtime_ns, why)) of a name search
    (`query` a glob with `glob`, else words) or, with no query, of the filters alone;
    scored, ranked and cut in SQL."""
    where, params = _filters(cid, base, extensions, sizes, dates)
    low = (query or "").lower().strip()
    score: list[object] = []
    if query is None:
        expression = "1"
    elif glob:  # pre-filtered by a LIKE pattern every match passes (a [set] as any one)
        expression, score = _GLOB_SCORE, [low, low]
        where.append("lpath LIKE ?")
        params.append("%" + _SET.sub("_", low).replace("*", "%").replace("?", "_"))
    else:  # pre-filtered: every word is somewhere in the path ('_' and '%' only widen it)
        words = low.split()
        expression, score = _WORDS_SCORE, [low, low, low, words, words]
        where += ["contains(lpath, ?)"] * len(words)
        params += words
    sql = (
        f"SELECT path, size, mtime_ns, score, count(*) OVER () FROM"
        f" (SELECT path, lpath, size, mtime_ns, {expression} AS score FROM files"
        f" WHERE {' AND '.join(where)}) WHERE score > 0"
        f" ORDER BY {_ORDER[sort]} LIMIT {min(int(limit), 2**62)}"
    )
    with _files_of(store, cid) as con:
        rows = con.execute(sql, score + params).fetchall()
    total = rows[0][4] if rows else 0
    return total, [(path, size, mtime, _WHY[points]) for path, size, mtime, points, _ in rows]
