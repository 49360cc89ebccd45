"""BM25 in SQL over the `terms` table.

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

from fsnb.index.query import (
    Folder,
    Source,
    fetch_chunks,
    filter_sql,
    hit_frame,
    query_terms,
    session,
)


def _hits(n: int, columns: str = "doc_id, position, term, tf") -> str:
    # One equality per term: each is pruned by the zone maps of a term-clustered table,
    # where `term IN (...)` prunes only to the range from the smallest to the largest term.
    return " UNION ALL ".join(f"SELECT {columns} FROM terms WHERE term = ?" for _ in range(n))


def _top_sql(n: int, where: str, k: int, k1: float, b: float) -> str:
    k1, b = float(k1), float(b)
    allowed = (
        f"WHERE h.doc_id IN (SELECT id FROM documents d WHERE d.corpus_id = ? AND {where})"
        if where
        else ""
    )
    return f"""
    WITH q(term, qtf) AS (SELECT unnest(?::VARCHAR[]), unnest(?::INTEGER[])),
    live AS (SELECT id FROM documents WHERE corpus_id = ? AND NOT deleted),
    hits AS (SELECT * FROM ({_hits(n)}) h WHERE h.doc_id IN (SELECT id FROM live)),
    stats AS (SELECT count(*) AS n, avg(n_terms) AS avgdl FROM chunks
              WHERE doc_id IN (SELECT id FROM live)),
    idf AS (SELECT term, any_value(qtf) * ln(1 + ((SELECT n FROM stats) - count(*) + 0.5)
                / (count(*) + 0.5)) AS w FROM hits JOIN q USING (term) GROUP BY term)
    SELECT h.doc_id, h.position,
        sum(idf.w * h.tf * {k1 + 1} / (h.tf + {k1} * ({1 - b} + {b} * c.n_terms / s.avgdl)))
    FROM hits h JOIN idf USING (term)
    JOIN chunks c ON c.doc_id = h.doc_id AND c.position = h.position, stats s {allowed}
    GROUP BY h.doc_id, h.position ORDER BY 3 DESC, 1, 2 LIMIT {int(k)}
    """


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
    _, words = query_terms(query)
    with session(store, folder) as (con, cid):
        where, params = filter_sql(con, cid, filter)
        scored = bm25_scores(con, cid, query, k=k, where=(where, params), k1=k1, b=b)
        rows = fetch_chunks(con, scored)
    return hit_frame(rows, "bm25", words)


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
    if not counts:
        return []
    terms = list(counts)
    args = [terms, [counts[t] for t in terms], cid, *terms]
    args += [cid, *where[1]] if where[0] else []
    return con.execute(_top_sql(len(terms), where[0], k, k1, b), args).fetchall()


def query_idf(store: Source, folder: Folder, query: str) -> dict[str, float]:
    """The BM25 idf of each query term over the corpus' chunks (the most for unseen terms)."""
    terms = list(query_terms(query)[0])
    if not terms:
        return {}
    with session(store, folder) as (con, cid):
        row = con.execute(
            "WITH live AS (SELECT id FROM documents WHERE corpus_id = ? AND NOT deleted)"
            " SELECT (SELECT count(*) FROM chunks WHERE doc_id IN (SELECT id FROM live)),"
            f" (SELECT map(list(term), list(n)) FROM (SELECT term, count(*) AS n FROM"
            f" ({_hits(len(terms), 'doc_id, term')}) WHERE doc_id IN (SELECT id FROM live)"
            " GROUP BY term))",
            [cid, *terms],
        ).fetchone()
    n, dfs = row[0], row[1] or {}
    return {t: math.log(1 + (n - dfs.get(t, 0) + 0.5) / (dfs.get(t, 0) + 0.5)) for t in terms}
