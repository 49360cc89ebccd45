"""Each corpus' BM25 engine (`fsnb.index.engine`) kept in step with the DuckDB file, which
stays the one source of truth: the engine is derived from its rows, and rebuilt from them.

The engine of corpus `cid` of `index.duckdb` lives in `index.duckdb.bm25/corpus-<cid>/`,
shared by every process; its `state.json` says which documents it holds (their ids and
chunk counts) and the documents' state it matches (their count, largest and summed ids,
latest `indexed_at`), written after each commit. A read session checks it when the file's
version (`fsnb.db.version.file_version`) differs from the last one it checked at, then
adds the chunks of new documents and drops those of deleted ones: document ids only grow
and a document's rows never change under its id, so the difference of the two id sets
is the whole update, and adding a document deletes its id first (an update cut short
between commit and state file is redone, not doubled). A search with the file unchanged
since that check, and the folder's corpus known at that version, answers without opening
the file (`cached_hits`).

Updates of up to `INLINE_CHUNKS` chunks are made by the search that finds them (one
tantivy commit); larger ones (a first search of a big folder, a rebuild) by a background
thread that reads the file in short sessions of `BATCH_CHUNKS` chunks and commits each
batch (another process resumes an interrupted build). Meanwhile, and while another
process holds the engine's writer, or when the directory cannot be written, the SQL
ranking answers; so it does for a writable connection (its transaction may hold changes
the engine has not seen) and when `FSNB_BM25_ENGINE=sql`.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

import duckdb

from fsnb.db.database import Database, database
from fsnb.index.engine import EngineBusy, TextIndex
from fsnb.index.query import Folder, known_corpus, session, version_of
from fsnb.index.sync import Corpus, apply, chunk_rows, engine_dir, plan, state

log = logging.getLogger(__name__)

#: An update of more chunks than this is made in the background (the SQL ranks meanwhile):
#: adding a chunk costs ~0.3 ms, mostly masking its secret values (`fsnb.index.engine`).
INLINE_CHUNKS = 5_000
#: Chunks read from the file in one session by a background build, and committed at once.
BATCH_CHUNKS = 50_000
#: Engines kept open by this process (each holds a reader and a thread of tantivy's).
OPEN_ENGINES = 16


def disabled() -> bool:
    """Whether `FSNB_BM25_ENGINE` asks for the SQL ranking (`sql`, `off` or `0`)."""
    return os.environ.get("FSNB_BM25_ENGINE", "").strip().lower() in {"sql", "off", "0"}


_open: OrderedDict[tuple[str, int], Corpus] = OrderedDict()
_open_lock = threading.Lock()


def _corpus(db: Path, cid: int, *, create: bool = True) -> Corpus | None:
    """This process' handle on the engine of corpus `cid` (None when it cannot be opened)."""
    key = (str(db), cid)
    with _open_lock:
        if (found := _open.get(key)) is not None:
            _open.move_to_end(key)
            return found
        if not create:
            return None
        try:
            corpus = _open[key] = Corpus(db, cid, TextIndex(engine_dir(db, cid)))
        except (OSError, ValueError) as exc:  # a folder that cannot be written: SQL ranks
            log.debug("no BM25 engine for %s: %s", db, exc)
            return None
        if (excess := len(_open) - OPEN_ENGINES) > 0:
            for old in [k for k, c in _open.items() if not c.building()][:excess]:
                del _open[old]
        return corpus


def ready(con: duckdb.DuckDBPyConnection, cid: int) -> Corpus | None:
    """The engine of corpus `cid`, up to date with what `con` reads, or None (rank in SQL).

    `con` is in a read-only `session`; an update of up to `INLINE_CHUNKS` chunks is made now
    with it, a larger one started in the background."""
    if disabled() or (known := version_of(con)) is None:
        return None
    db, version = Path(known[0]), known[1]
    corpus = _corpus(db, cid)
    if corpus is None:
        return None
    if corpus.version == version:
        return corpus
    if not corpus.lock.acquire(blocking=False):  # another thread updates it
        return None
    try:
        if corpus.building():
            return None
        found, made = state(con, cid)
        if not corpus.matches(found, made):
            todo = plan(con, corpus, found, made)
            if todo.chunks > INLINE_CHUNKS:
                _start(corpus)
                return None
            apply(corpus, todo, lambda ids: chunk_rows(con, cid, ids), INLINE_CHUNKS + 1)
        corpus.version = version
        corpus.filters.clear()
        corpus.allowed.clear()
        return corpus
    except EngineBusy:
        return None
    except (OSError, ValueError, RuntimeError) as exc:  # only derived: the SQL answers
        log.warning("the BM25 engine of %s could not be brought up to date: %s", db, exc)
        return None
    finally:
        corpus.lock.release()


def _start(corpus: Corpus) -> None:
    def run() -> None:
        try:
            _build(corpus)
        except EngineBusy:
            pass
        except Exception:  # the SQL ranking goes on answering; the next search retries
            log.exception("building the BM25 engine of %s failed", corpus.db)

    corpus.builder = threading.Thread(target=run, name=f"fsnb-bm25-{corpus.cid}", daemon=True)
    corpus.builder.start()


def _build(corpus: Corpus) -> None:
    """Bring the engine up to date with the file, reading it in short sessions."""
    store = database(corpus.db)
    with store.read() as con:
        found, made = state(con, corpus.cid)
        if corpus.matches(found, made):
            return
        todo = plan(con, corpus, found, made)

    def read(ids: list[int]) -> list[tuple[Any, ...]]:
        with store.read() as con:
            return chunk_rows(con, corpus.cid, ids)

    apply(corpus, todo, read, BATCH_CHUNKS)


def refresh(store: Database, folder: Folder) -> bool:
    """Bring the engine of `folder` up to date now, in this thread (waiting for a build
    under way in this process). Returns whether a search now ranks with it. Not inside a
    session: it opens its own."""
    with session(store, folder) as (_, cid):
        pass
    corpus = _corpus(store.path, cid)
    if corpus is None or disabled():
        return False
    if corpus.builder is not None:
        corpus.builder.join()
    with corpus.lock:
        try:
            _build(corpus)
        except EngineBusy:
            return False
    with session(store, folder) as (con, cid):
        return ready(con, cid) is not None


def allowed(corpus: Corpus, con: duckdb.DuckDBPyConnection, where: tuple[str, list[Any]],
            expr: str | None = None) -> frozenset[int] | None:  # fmt: skip
    """The ids of the live documents that meet `where` (None: no condition), kept while
    the file is unchanged."""
    if not where[0]:
        return None
    key = (where[0], *where[1])
    found = corpus.allowed.get(key)
    if found is None:
        found = frozenset(
            row[0]
            for row in con.execute(
                "SELECT id FROM documents d WHERE d.corpus_id = ? AND NOT d.deleted"
                f" AND {where[0]}",
                [corpus.cid, *where[1]],
            ).fetchall()
        )
        if len(corpus.allowed) > 32:
            corpus.allowed.clear()
            corpus.filters.clear()
        corpus.allowed[key] = found
    if expr:
        corpus.filters[expr] = where
    return found


def hits(
    con: duckdb.DuckDBPyConnection,
    cid: int,
    terms: dict[str, int],
    k: int,
    where: tuple[str, list[Any]] = ("", []),
    expr: str | None = None,
    *,
    rows: bool = True,
) -> list[dict[str, Any]] | None:
    """The engine's best `k` chunks of corpus `cid` for `terms` among the documents that
    meet `where` (the filter `expr` compiled), as `TextIndex.search` gives them; None when
    the SQL ranking must answer (`ready`)."""
    corpus = ready(con, cid)
    if corpus is None:
        return None
    among = allowed(corpus, con, where, expr)
    return corpus.index.search(terms, k, among, rows=rows, share=corpus.share(among))


def cached(store: Database, folder: Folder) -> Corpus | None:
    """The engine of `folder` when it matched the file at its current version: a search
    needs no session (and so never waits on a writer)."""
    if disabled() or (known := known_corpus(store, folder)) is None:
        return None
    corpus = _corpus(store.path, known[1], create=False)
    return corpus if corpus is not None and corpus.version == known[0] else None


def cached_hits(
    store: Database, folder: Folder, terms: dict[str, int], k: int, expr: str | None
) -> list[dict[str, Any]] | None:
    """The best `k` hit rows for `terms` without opening the file, or None when that
    cannot be done (the file changed, or the filter's documents are not known yet)."""
    corpus = cached(store, folder)
    if corpus is None:
        return None
    among = None
    if expr and expr.strip():
        where = corpus.filters.get(expr)
        among = corpus.allowed.get((where[0], *where[1])) if where else None
        if among is None:
            return None
    version = corpus.version
    rows = corpus.index.search(terms, k, among, rows=True, share=corpus.share(among))
    return rows if corpus.version == version else None
