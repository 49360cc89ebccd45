"""`Index`: the user-facing handle on the DuckDB index, with every table as a DataFrame."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from fsnb.db.database import Database, database
from fsnb.db.errors import DatabaseDamaged
from fsnb.documents import document_files
from fsnb.index import bridge as fallback
from fsnb.index import derived, search
from fsnb.index.pipeline import corpus_id, forget_folder, index_folder
from fsnb.index.query import indexing
from fsnb.index.report import IndexReport
from fsnb.index.vectors import embed_corpus
from fsnb.security import Sandbox

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from fsnb.index.watch import Reindex, Watch

_STATUS_SQL = (
    "SELECT c.id, c.root, c.indexed_at,"
    " (SELECT count(*) FROM documents d WHERE d.corpus_id = c.id AND NOT d.deleted"
    "   AND d.error IS NULL) AS documents,"
    " (SELECT count(*) FROM documents d WHERE d.corpus_id = c.id AND d.error IS NOT NULL"
    "   AND NOT d.deleted) AS failed,"
    " (SELECT count(*) FROM chunks k JOIN documents d ON d.id = k.doc_id"
    "   WHERE d.corpus_id = c.id AND NOT d.deleted) AS chunks,"
    " (SELECT count(*) FROM files f WHERE f.corpus_id = c.id) AS files"
    " FROM corpora c WHERE c.indexed_at IS NOT NULL"  # not folders with only a scratchpad
    " OR EXISTS (SELECT 1 FROM index_runs r WHERE r.corpus_id = c.id) ORDER BY c.id"
)


class Index:
    """The index in one DuckDB file (default `FSNB_DB` or `~/.fsnb/index.duckdb`).

    >>> ix = Index("index.duckdb")
    >>> ix.add_folder("data/large_acquisition")       # incremental
    >>> ix.search("retention bonus", folder="data/large_acquisition")
    """

    def __init__(self, db: str | os.PathLike[str] | Database | None = None) -> None:
        self.db = db if isinstance(db, Database) else database(db)

    def __repr__(self) -> str:
        return f"Index({str(self.db.path)!r})"

    @property
    def path(self) -> Path:
        return self.db.path

    def add_folder(
        self,
        folder: str | os.PathLike[str],
        *,
        progress: bool = True,
        workers: int | None = None,
        rebuild: bool = False,
        max_mb: float | None = None,
        executor: Executor | None = None,
    ) -> IndexReport:
        """Index a folder incrementally: only new and changed documents are parsed.

        With `rebuild`, see `rebuild`. Files larger than `max_mb` (default
        `FSNB_MAX_INDEX_MB`, else 50) are indexed by their metadata only. Documents are
        parsed on `executor` when given (e.g. a Dask client's `get_executor()`), else in
        `workers` local processes; this process writes the index.
        """
        options = {"workers": workers, "max_mb": max_mb, "executor": executor}
        if rebuild:
            return self.rebuild(folder, progress=progress, **options)
        return index_folder(self.db, folder, progress=progress, **options)

    def rebuild(self, folder: str | os.PathLike[str], **options: Any) -> IndexReport:
        """Index a folder from scratch. A damaged index file is not deleted: it is moved
        aside (`<name>.damaged-YYYYmmdd-HHMMSS`, with its WAL; see `report.set_aside`) and
        a new one is built; other folders it held must then be indexed again."""
        try:
            forget_folder(self.db, folder)
            return index_folder(self.db, folder, **options)
        except DatabaseDamaged:
            moved = self.db.set_aside()
        report = index_folder(self.db, folder, **options)
        report.set_aside = str(moved) if moved else None
        return report

    def warm(self, folder: str | os.PathLike[str]) -> bool:
        """Bring the folder's BM25 engine up to date now (`fsnb.index.derived`), so that the
        first search after a large indexing run ranks with it rather than in SQL while it
        builds; whether it is ready. `fsnb index` and `%explore_index` call it."""
        return derived.refresh(self.db, folder)

    def indexing(self, folder: str | os.PathLike[str]) -> str | None:
        """How an unfinished indexing of `folder` stands ('indexing in progress: 120 of 500
        documents committed', 'indexing interrupted: ...'); None when it finished or never ran."""
        if not self.db.path.exists():
            return None
        with self.db.read() as con:
            cid = corpus_id(con, str(Path(folder).expanduser().resolve()), create=False)
            return indexing(con, cid) if cid is not None else None

    def search(
        self,
        query: str,
        folder: str | os.PathLike[str] = ".",
        *,
        k: int = 10,
        filter: str | None = None,
        embedder: Any = None,
        mode: str = "auto",
        bridge: bool = True,
    ) -> pd.DataFrame:
        """Chunks ranked by BM25 (hybrid with vectors when `embedder` has them), filtered by
        metadata; when they do not answer the query, passages of files named like it."""
        hits = search.search(
            self.db, folder, query, k=k, filter=filter, embedder=embedder, mode=mode
        )  # type: ignore[arg-type]
        if bridge:
            extra = fallback.bridge(self.db, folder, query, hits)
            if not extra.empty:
                return pd.concat([hits, extra], ignore_index=True)
        return hits

    def find_files(
        self, pattern: str, folder: str | os.PathLike[str] = ".", *, k: int = 50
    ) -> pd.DataFrame:
        """Files of an indexed folder whose names match a glob or keywords."""
        return fallback.find_files(self.db, folder, pattern, k=k)

    def watch(
        self,
        folder: str | os.PathLike[str],
        *,
        settle_s: float = 0.5,
        max_mb: float | None = None,
        on_reindex: Callable[[Reindex], None] | None = None,
        catch_up: bool = True,
        on_notice: Callable[[str], None] | None = None,
    ) -> Watch:
        """Keep `folder` indexed in a background thread: changes are collected until
        `settle_s` passes without one, then `add_folder` runs (first at once with `catch_up`).
        A folder deleted and made again is watched again (`on_notice` hears of both).

        >>> w = ix.watch("data")   # w.running, w.last (report, at, error), w.stop()
        """
        from fsnb.index.watch import Watch

        def reindex() -> IndexReport:
            return self.add_folder(folder, progress=False, max_mb=max_mb)

        return Watch(
            folder,
            reindex,
            settle_s=settle_s,
            ignore=(self.db.path,),  # the index file, its WAL and set-aside copies
            on_reindex=on_reindex,
            catch_up=catch_up,
            on_notice=on_notice,
        )

    def embed(self, folder: str | os.PathLike[str], embedder: Any, *, progress: bool = True) -> int:
        """Store vectors for the folder's chunks that lack them (see `fsnb.index.vectors`)."""
        return embed_corpus(self.db, folder, embedder, progress=progress)

    # -- DataFrames ------------------------------------------------------------------

    def _frame(self, sql: str, params: list[Any] | None = None) -> pd.DataFrame:
        with self.db.read() as con:
            return con.execute(sql, params or []).df()

    def _scope(self, folder: str | os.PathLike[str] | None, alias: str) -> tuple[str, list[Any]]:
        if folder is None:
            return "", []
        root = str(Path(folder).expanduser().resolve())
        return f" AND {alias}.corpus_id = (SELECT id FROM corpora WHERE root = ?)", [root]

    def corpora(self) -> pd.DataFrame:
        return self._frame(
            "SELECT c.id, c.root, c.indexed_at,"
            " count(d.id) FILTER (WHERE NOT d.deleted) AS documents"
            " FROM corpora c LEFT JOIN documents d ON d.corpus_id = c.id"
            " GROUP BY ALL ORDER BY c.id"
        )

    def files(self, folder: str | os.PathLike[str] | None = None) -> pd.DataFrame:
        """Every indexed file (documents or not): path, name, extension, size, mtime_ns,
        category, depth, parent, sensitivity and MIME type (guessed by name)."""
        where, params = self._scope(folder, "f")
        return self._frame(
            f"SELECT f.* FROM files f WHERE true{where} ORDER BY f.corpus_id, f.path", params
        )

    def duplicates(self, folder: str | os.PathLike[str], min_size: int = 1) -> pd.DataFrame:
        """Files with the same content, one row per file: group (0 wastes the most), size,
        sha256, path. Hashes only files that share a size, cached in the index."""
        from fsnb.fsindex import duplicates
        from fsnb.fsindex.filesystem import indexed

        box = Sandbox(folder)
        where = indexed(self.db, box.root)
        return duplicates.find(self.db, box, ".", min_size, where).frame()

    def bookmarks(self, folder: str | os.PathLike[str] | None = None) -> pd.DataFrame:
        """The bookmarks of `folder` (None: of every folder): root, path, label, created_at."""
        from fsnb.fsindex import bookmarks

        root = None if folder is None else str(Path(folder).expanduser().resolve())
        return bookmarks.frame(self.db, root)

    def _corpus(self, folder: str | os.PathLike[str]) -> int:
        from fsnb.fsindex.filesystem import indexed

        where = indexed(self.db, Path(folder).expanduser().resolve())
        if where is None:
            msg = f"{folder} is not indexed: run add_folder first"
            raise ValueError(msg)
        return where.cid

    def folders(self, folder: str | os.PathLike[str]) -> pd.DataFrame:
        """Per folder of an indexed folder ('.' its root): path, parent, depth, size (all
        under it), files, folders, top_extensions."""
        from fsnb.fsindex import filesystem

        return filesystem.folders(self.db, self._corpus(folder))

    def disk_usage(
        self, folder: str | os.PathLike[str], path: str = ".", depth: int = 1
    ) -> pd.DataFrame:
        """The folders and files at most `depth` levels under `path`, largest first: path,
        type, size, files, folders, share (of the total under `path`)."""
        from fsnb.fsindex import filesystem

        rows = filesystem.entries(self.db, self._corpus(folder), path.strip("/") or ".", depth)
        frame = pd.DataFrame(rows, columns=["path", "type", "size", "files", "folders", "mtime_ns"])
        frame = frame.drop(columns="mtime_ns").sort_values(
            ["size", "path"], ascending=[False, True]
        )
        top = frame["path"].str.count("/") == (0 if path in (".", "") else path.count("/") + 1)
        total = frame.loc[top, "size"].sum()
        frame["share"] = frame["size"] / total if total else 0.0
        return frame.reset_index(drop=True)

    def scans(self, folder: str | os.PathLike[str]) -> pd.DataFrame:
        """The scan log of an indexed folder, oldest first."""
        from fsnb.fsindex import filesystem

        return filesystem.scans(self.db, self._corpus(folder))

    def documents(
        self, folder: str | os.PathLike[str] | None = None, *, deleted: bool = False
    ) -> pd.DataFrame:
        where, params = self._scope(folder, "d")
        alive = "" if deleted else " AND NOT d.deleted"
        return self._frame(
            "SELECT d.id, d.corpus_id, d.path, d.title, d.format, d.pages, d.chars, d.parser,"
            " d.metadata, d.error, d.deleted, d.indexed_at, d.ocr, d.ocr_confidence"
            f" FROM documents d WHERE true{alive}{where} ORDER BY d.corpus_id, d.path",
            params,
        )

    def chunks(self, folder: str | os.PathLike[str] | None = None) -> pd.DataFrame:
        where, params = self._scope(folder, "d")
        return self._frame(
            "SELECT d.path, c.position, c.page, c.heading, c.start_char, c.end_char, c.n_terms,"
            " c.ocr, c.ocr_confidence, c.text"
            f" FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE NOT d.deleted{where}"
            " ORDER BY d.path, c.position",
            params,
        )

    def schema(self, folder: str | os.PathLike[str]) -> pd.DataFrame:
        where, params = self._scope(folder, "s")
        return self._frame(
            f"SELECT s.field, s.type, s.documents, s.examples FROM schemas s"
            f" WHERE true{where} ORDER BY s.field",
            params,
        )

    def status(self) -> pd.DataFrame:
        """Per corpus: documents, chunks, failures, the last scan and unfinished indexing."""
        with self.db.read() as con:
            frame = con.execute(_STATUS_SQL).df()
            frame["indexing"] = [indexing(con, int(cid)) or "" for cid in frame.pop("id")]
        return frame

    def sql(
        self,
        query: str,
        folder: str | os.PathLike[str] | None = None,
        *,
        limit: int | None = None,
        timeout_s: float = 60.0,
        params: Mapping[str, Any] | Sequence[Any] | None = None,
    ) -> pd.DataFrame:
        """Run one SELECT, read-only, with no file access and bounded time and memory.

        With `folder`, the query sees only that folder: its `documents`, `chunks` and
        `files` and its scratchpad tables, by their bare names. Without it, the whole
        index, with the shared scratch schema first on the search path. `params` are
        bound to the query's `$name` (a mapping) or `?` (a sequence) parameters.
        """
        return self.db.select(query, folder=folder, limit=limit, timeout_s=timeout_s, params=params)

    def is_current(self, folder: str | os.PathLike[str]) -> bool:
        """Whether every supported file of `folder` is indexed with its current size and mtime."""
        if not self.db.path.exists():
            return False
        box = Sandbox(folder)
        stats = {box.relative(f): f.stat() for f in document_files(box)}
        disk = {path: (st.st_size, st.st_mtime_ns) for path, st in stats.items()}
        with self.db.read() as con:
            rows = con.execute(
                "SELECT path, size, mtime_ns FROM documents WHERE NOT deleted AND corpus_id ="
                " (SELECT id FROM corpora WHERE root = ?)",
                [str(box.root)],
            ).fetchall()
        return bool(disk) and {p: (s, m) for p, s, m in rows} == disk
