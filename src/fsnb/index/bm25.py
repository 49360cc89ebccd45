"""BM25: ranked by the corpus' tantivy engine (`fsnb.index.engine`, kept in step with the
file by `fsnb.index.derived`), else in SQL over the `terms` table (postings carrying their
corpus and chunk length), the reference the engine is checked against and the fallback
when it cannot answer (a writable connection, a build under way, other k1 or b, or
`FSNB_BM25_ENGINE=sql`).

In SQL:

idf comes from how many chunks of the corpus hold each term, length normalization from
`n_terms` over the corpus average. Each query term is one equality on `terms.term`, which
zone maps answer from a few row groups once the table is clustered by term
(`fsnb.index.writer.cluster_terms`, after indexing); the top chunks' text is fetched
afterwards, so a query never scans the chunk texts.
"""

from __future__ import annotations

import math
from typing import Any

import duckdb
import pandas as pd

from fsnb.db.database import Database
from fsnb.index import derived
from fsnb.index.engine import K1, B
from fsnb.index.query import (
    Folder,
    Source,
    fetch_chunks,
    filter_sql,
    hit_frame,
    query_terms,
    session,
    version_of,
)


def _hits(n: int, columns: str = "doc_id, position, term, tf, n_terms") -> str:
    """One lookup per query term in corpus `?`: each equality is pruned by the zone maps of
    the term-sorted table, where `term IN (...)` prunes only to the range from the smallest
    to the largest term. Parameters: (term, corpus id) per term."""
    return " UNION ALL ".join(
        f"SELECT {columns} FROM terms WHERE term = ? AND corpus_id = ?" for _ in range(n)
    )


def _top_sql(n: int, where: str, k: int, k1: float, b: float) -> str:
    """One pass over the query terms' postings, which carry their chunk's length: each
    term's document frequency is a window count over its postings (only live documents
    have any), the corpus size and average length are parameters (`corpus_stats`).
    Parameters: chunks, average length, (count, term, corpus id) per query term, then the
    corpus id and `where`'s when there is a filter."""
    k1, b = float(k1), float(b)
    allowed = (
        f"WHERE doc_id IN (SELECT id FROM documents d WHERE d.corpus_id = ? AND {where})"
        if where
        else ""
    )
    return f"""
    SELECT doc_id, position, sum(qtf * ln(1 + (?::DOUBLE - df + 0.5) / (df + 0.5))
        * tf * {k1 + 1} / (tf + {k1} * ({1 - b} + {b} * n_terms / ?::DOUBLE))) AS score
    FROM (SELECT *, count(*) OVER (PARTITION BY term) AS df
          FROM ({_hits(n, "doc_id, position, term, tf, n_terms, ?::DOUBLE AS qtf")}))
    {allowed}
    GROUP BY doc_id, position ORDER BY score DESC, doc_id, position LIMIT {int(k)}
    """


#: (corpus id, its live documents' state) -> (chunks, average terms per chunk).
_stats: dict[tuple[Any, ...], tuple[int, float]] = {}


def corpus_stats(con: duckdb.DuckDBPyConnection, cid: int) -> tuple[int, float]:
    """(live chunks, their average `n_terms`) in corpus `cid`, kept until its documents
    change.

    A write replaces a document's rows under a new id (ids only grow) and a deletion marks
    it, so the live documents' count, largest id and latest `indexed_at` (to the
    microsecond, which also tells one database file from another) say when to recount;
    inside a read-only `session`, the file's version says it without a query.
    """
    known = version_of(con)
    state = (
        known
        if known is not None
        else con.execute(
            "SELECT count(*), max(id), max(indexed_at) FROM documents"
            " WHERE corpus_id = ? AND NOT deleted",
            [cid],
        ).fetchone()
    )
    key = (cid, *state)
    if (cached := _stats.get(key)) is not None:
        return cached
    n, avgdl = con.execute(
        "SELECT count(*), coalesce(avg(n_terms), 0) FROM chunks WHERE doc_id IN"
        " (SELECT id FROM documents WHERE corpus_id = ? AND NOT deleted)",
        [cid],
    ).fetchone()
    if len(_stats) > 64:
        _stats.clear()
    _stats[key] = (int(n), float(avgdl))
    return int(n), float(avgdl)


def bm25(
    store: Source,
    folder: Folder,
    query: str,
    *,
    k: int = 10,
    filter: str | None = None,
    k1: float = 1.2,
    b: float = 0.75,
) -> pd.DataFrame:
    """The `k` chunks of `folder` that best match `query` by BM25, best first.

    `filter` restricts the documents by metadata (`fsnb.index.filters`); an unknown field
    raises `FilterError`. The frame has `COLUMNS`; `highlights` is {terms: the query words
    found, snippet: ~300 characters around their densest match, each in `**`}.
    """
    if (hits := fast_hits(store, folder, query, k=k, filter=filter, k1=k1, b=b)) is not None:
        return hits
    with session(store, folder) as (con, cid):
        return bm25_hits(con, cid, query, k=k, filter=filter, k1=k1, b=b)


def bm25_hits(
    con: duckdb.DuckDBPyConnection,
    cid: int,
    query: str,
    *,
    k: int = 10,
    filter: str | None = None,
    k1: float = 1.2,
    b: float = 0.75,
) -> pd.DataFrame:
    """`bm25` in corpus `cid` of an open connection (a session already found it)."""
    counts, words = query_terms(query)
    where = filter_sql(con, cid, filter)
    engine = counts and (k1, b) == (K1, B)
    if engine and (rows := derived.hits(con, cid, counts, k, where, filter)) is not None:
        return hit_frame(rows, "bm25", words)
    scored = sql_scores(con, cid, query, k=k, where=where, k1=k1, b=b)
    return hit_frame(fetch_chunks(con, scored), "bm25", words)


def fast_hits(
    store: Source,
    folder: Folder,
    query: str,
    *,
    k: int = 10,
    filter: str | None = None,
    k1: float = K1,
    b: float = B,
) -> pd.DataFrame | None:
    """`bm25`'s frame from the engine without opening the file, when the file is unchanged
    since a search found the engine up to date (`derived.cached_hits`); else None."""
    if not isinstance(store, Database) or (k1, b) != (K1, B):
        return None
    counts, words = query_terms(query)
    if not counts:
        return None
    rows = derived.cached_hits(store, folder, counts, k, filter)
    return None if rows is None else hit_frame(rows, "bm25", words)


def bm25_scores(
    con: duckdb.DuckDBPyConnection,
    cid: int,
    query: str,
    *,
    k: int,
    where: tuple[str, list[Any]] = ("", []),
    k1: float = 1.2,
    b: float = 0.75,
) -> list[tuple[int, int, float]]:
    """The best (doc_id, position, score) for `query` in corpus `cid`; `where` from `filter_sql`."""
    counts, _ = query_terms(query)
    engine = counts and (k1, b) == (K1, B)
    if engine and (rows := derived.hits(con, cid, counts, k, where, rows=False)) is not None:
        return [(r["doc_id"], r["position"], r["score"]) for r in rows]
    return sql_scores(con, cid, query, k=k, where=where, k1=k1, b=b)


def sql_scores(
    con: duckdb.DuckDBPyConnection,
    cid: int,
    query: str,
    *,
    k: int,
    where: tuple[str, list[Any]] = ("", []),
    k1: float = 1.2,
    b: float = 0.75,
) -> list[tuple[int, int, float]]:
    """`bm25_scores` ranked in SQL."""
    counts, _ = query_terms(query)
    if not counts:
        return []
    terms = list(counts)
    n, avgdl = corpus_stats(con, cid)
    if not n:
        return []
    args: list[Any] = [n, avgdl, *(x for t in terms for x in (counts[t], t, cid))]
    args += [cid, *where[1]] if where[0] else []
    return con.execute(_top_sql(len(terms), where[0], k, k1, b), args).fetchall()


def query_idf(store: Source, folder: Folder, query: str) -> dict[str, float]:
    """The BM25 idf of each query term over the corpus' chunks (the most for unseen terms);
    counted by the engine when the file is unchanged since it was found up to date."""
    terms = list(query_terms(query)[0])
    if not terms:
        return {}
    if isinstance(store, Database) and (corpus := derived.cached(store, folder)) is not None:
        n, dfs = corpus.index.doc_freqs(terms)
        return {t: math.log(1 + (max(n - dfs[t], 0) + 0.5) / (dfs[t] + 0.5)) for t in terms}
    with session(store, folder) as (con, cid):
        n, _ = corpus_stats(con, cid)
        dfs = dict(
            con.execute(
                f"SELECT term, count(*) FROM ({_hits(len(terms), 'term')}) GROUP BY term",
                [x for t in terms for x in (t, cid)],
            ).fetchall()
        )
    return {t: math.log(1 + (n - dfs.get(t, 0) + 0.5) / (dfs.get(t, 0) + 0.5)) for t in terms}
