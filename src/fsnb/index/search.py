"""Hybrid search: BM25 and vector similarity fused by reciprocal rank fusion.

`fsnb.index.bridge` is the fallback when the chunks do not answer a query.
"""

from __future__ import annotations

from typing import Literal

import pandas as pd

from fsnb.index import vectors
from fsnb.index.bm25 import bm25_hits, bm25_scores, fast_hits
from fsnb.index.query import (
    Folder,
    Source,
    fetch_chunks,
    filter_sql,
    hit_frame,
    query_terms,
    session,
)

RRF_K = 60

Mode = Literal["auto", "bm25", "vector", "hybrid"]


def search(
    store: Source,
    folder: Folder,
    query: str,
    *,
    k: int = 10,
    filter: str | None = None,
    embedder: vectors.Embedder | None = None,
    mode: Mode = "auto",
) -> pd.DataFrame:
    """BM25, vector or hybrid search; `auto` is hybrid when `embedder` has vectors here.

    Hybrid fuses the two rankings (50 deep each) by reciprocal rank fusion (`rrf`): a
    chunk scores the sum of 1 / (60 + rank) over the rankings that found it, and its
    `ranker` says which ("bm25", "vector" or "bm25+vector").
    """
    if mode not in ("auto", "bm25", "vector", "hybrid"):
        msg = f"unknown search mode {mode!r}: use auto, bm25, vector or hybrid"
        raise ValueError(msg)
    if mode in ("vector", "hybrid") and embedder is None:
        msg = f"search mode {mode!r} needs an embedder"
        raise ValueError(msg)
    plain = mode == "bm25" or (mode == "auto" and embedder is None)
    if plain and (hits := fast_hits(store, folder, query, k=k, filter=filter)) is not None:
        return hits
    _, words = query_terms(query)
    with session(store, folder) as (con, cid):
        if mode == "auto":
            ready = embedder is not None and vectors.has_vectors(con, folder, embedder)
            mode = "hybrid" if ready else "bm25"
        if mode == "bm25":
            return bm25_hits(con, cid, query, k=k, filter=filter)
        assert embedder is not None
        if mode == "vector":
            return vectors.vector_search(con, folder, query, embedder, k=k, filter=filter)
        where = filter_sql(con, cid, filter)
        depth = max(k, 50)
        fused = rrf(
            {
                "bm25": bm25_scores(con, cid, query, k=depth, where=where),
                "vector": vectors.vector_scores(con, cid, query, embedder, k=depth, where=where),
            },
            k=k,
        )
        rows = fetch_chunks(con, [(doc, pos, score) for doc, pos, score, _ in fused])
    by = {(doc, pos): ranker for doc, pos, _, ranker in fused}
    for row in rows:
        row["ranker"] = by[(row["doc_id"], row["position"])]
    return hit_frame(rows, "hybrid", words)


def rrf(
    rankings: dict[str, list[tuple[int, int, float]]], *, k: int = 10, rrf_k: int = RRF_K
) -> list[tuple[int, int, float, str]]:
    """Reciprocal rank fusion of named rankings of (doc_id, position, score).

    Returns the best `k` as (doc_id, position, fused score, "name+name" of who found it).
    """
    scores: dict[tuple[int, int], float] = {}
    found: dict[tuple[int, int], list[str]] = {}
    for name, ranking in rankings.items():
        for rank, (doc, pos, _) in enumerate(ranking, start=1):
            scores[(doc, pos)] = scores.get((doc, pos), 0.0) + 1.0 / (rrf_k + rank)
            found.setdefault((doc, pos), []).append(name)
    best = sorted(scores, key=lambda key: (-scores[key], key))[:k]
    return [(doc, pos, scores[(doc, pos)], "+".join(found[(doc, pos)])) for doc, pos in best]
