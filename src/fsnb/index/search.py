"""Search over the index: BM25 in SQL, hybrid ranking with vectors, and a file-name bridge.

BM25 is computed per chunk by DuckDB over the `terms` table: idf from how many chunks of
the corpus hold each term, length normalization by `n_terms` over the corpus average.
Query terms come from `fsnb.text.tokenize`, like the indexed ones. Each query term is one
equality on `terms.term`, which zone maps answer from a few row groups once the table is
clustered by term (`cluster_terms`, after indexing); the top chunks' text is fetched
afterwards, so a query never scans the chunk texts.

`search` fuses BM25 with vector similarity (`fsnb.index.vectors`) by reciprocal rank
fusion. `fsnb.index.bridge` is the fallback when the chunks do not answer a query.
"""

from __future__ import annotations

import functools
import math
import os
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import duckdb
import pandas as pd

from fsnb.errors import FsnbError
from fsnb.index import runs
from fsnb.index.filters import compile_filter
from fsnb.index.store import Store, corpus_id
from fsnb.text import STOPWORDS, stem, tokenize

if TYPE_CHECKING:
    from fsnb.index.vectors import Embedder

#: Where to search: a `Store`, or a connection already open on one (opening costs ~50 ms).
Source = Store | duckdb.DuckDBPyConnection
Folder = str | os.PathLike[str]
COLUMNS = [
    "path", "title", "page", "position", "heading", "score",
    "text", "start_char", "end_char", "highlights", "ranker",
]  # fmt: skip
FILE_COLUMNS = ["path", "name", "extension", "size", "category", "matches"]
RRF_K = 60
#: Hits holding less than this share of the query's idf do not answer it (see `bridge`).
MIN_COVERAGE = 0.5
SNIPPET_CHARS = 300
#: A word or number as users write them ("1,200,000" in one piece).
WORD = re.compile(r"\d{1,3}(?:[,\u2009]\d{3})+(?:\.\d+)?|[A-Za-z0-9]+(?:\.[0-9]+)?")
#: Rows appended to `terms` since it was last clustered that make `cluster_terms` act.
CLUSTER_TAIL_ROWS = 200_000

Mode = Literal["auto", "bm25", "vector", "hybrid"]


class NotIndexed(FsnbError):
    """The folder has no corpus in the index."""

    def __init__(self, folder: Folder, why: str = "") -> None:
        self.folder = str(folder)
        super().__init__(
            f"{self.folder} is not indexed{f' ({why})' if why else ''}: "
            f"run `fsnb index {self.folder}` or Index().add_folder({self.folder!r})"
        )


# -- corpus, schema, filters ---------------------------------------------------------


class IndexingInProgress(NotIndexed):
    """The folder is being indexed and none of its documents is committed yet."""

    def __init__(self, folder: Folder, progress: str) -> None:
        self.folder = str(folder)
        self.progress = progress
        msg = f"{self.folder} is not searchable yet ({progress}): try again in a moment"
        FsnbError.__init__(self, msg)


def corpus_of(con: duckdb.DuckDBPyConnection, folder: Folder) -> int:
    """The id of the corpus rooted at `folder`, or `NotIndexed`."""
    cid = corpus_id(con, str(Path(folder).expanduser().resolve()), create=False)
    if cid is None:
        raise NotIndexed(folder)
    return cid


@contextmanager
def session(source: Source, folder: Folder) -> Iterator[tuple[duckdb.DuckDBPyConnection, int]]:
    """(connection, corpus id): a short read-only connection, or the one passed in."""
    if isinstance(source, duckdb.DuckDBPyConnection):
        yield source, corpus_of(source, folder)
        return
    if not source.path.exists():
        raise NotIndexed(folder)
    with source.connect(read_only=True) as con:
        cid = corpus_of(con, folder)
        _check_committed(con, cid, folder)
        yield con, cid


def indexing(con: duckdb.DuckDBPyConnection, cid: int) -> str | None:
    """How the latest indexing run of corpus `cid` stands ('indexing in progress: 120 of
    500 documents committed', 'indexing interrupted: ...'), or None once it finished."""
    run = runs.latest(con, cid)
    return run.describe() if run and run.status != "finished" else None


def _check_committed(con: duckdb.DuckDBPyConnection, cid: int, folder: Folder) -> None:
    """`NotIndexed` saying why when a corpus whose indexing has not finished has no documents."""
    run = runs.latest(con, cid)
    if run is None:  # a corpus row made for a scratchpad, never indexed
        (indexed_at,) = con.execute("SELECT indexed_at FROM corpora WHERE id = ?", [cid]).fetchone()
        if indexed_at is None:
            raise NotIndexed(folder)
        return
    if run.status == "finished":
        return
    if con.execute("SELECT 1 FROM documents WHERE corpus_id = ? LIMIT 1", [cid]).fetchone():
        return
    if run.active:
        raise IndexingInProgress(folder, run.describe())
    raise NotIndexed(folder, run.describe())


def schema_of(con: duckdb.DuckDBPyConnection, cid: int) -> dict[str, str]:
    """{field: type} of the corpus' metadata, as the filter language wants it."""
    return dict(
        con.execute("SELECT field, type FROM schemas WHERE corpus_id = ?", [cid]).fetchall()
    )


def filter_sql(con: duckdb.DuckDBPyConnection, cid: int, expr: str | None) -> tuple[str, list[Any]]:
    """A condition over documents `d` for a filter expression (None without one)."""
    if not expr or not expr.strip():
        return "", []
    return compile_filter(expr, schema_of(con, cid))


# -- BM25 ------------------------------------------------------------------------------


def query_terms(query: str) -> tuple[Counter[str], dict[str, str]]:
    """Query term counts (stems, as indexed) and the word the user wrote for each stem."""
    words: dict[str, str] = {}
    for match in WORD.finditer(query):
        for term in tokenize(match.group()):
            words.setdefault(term, match.group())
    return Counter(tokenize(query)), words


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


def fetch_chunks(
    con: duckdb.DuckDBPyConnection, scored: list[tuple[int, int, float]]
) -> list[dict[str, Any]]:
    """The rows of scored (doc_id, position, score) chunks, in that order, without highlights.

    One equality per document: each reads one row group, where a join or an `IN` list
    would read the text of every chunk between the smallest and largest key.
    """
    positions: dict[int, list[int]] = {}
    for doc, pos, _ in scored:
        positions.setdefault(doc, []).append(pos)
    if not positions:
        return []
    union = " UNION ALL ".join(
        "SELECT * FROM chunks WHERE doc_id = ? AND list_contains(?, position)" for _ in positions
    )
    found = con.execute(
        "SELECT c.doc_id, c.position, d.path, d.title, c.page, c.heading, c.text, c.start_char,"
        f" c.end_char FROM ({union}) c JOIN documents d ON d.id = c.doc_id",
        [x for doc, pos in positions.items() for x in (doc, pos)],
    ).fetchall()
    names = ["doc_id", "position", "path", "title", "page", "heading", "text", "start_char"]
    rows = {(r[0], r[1]): dict(zip([*names, "end_char"], r, strict=True)) for r in found}
    return [
        {**rows[(doc, pos)], "score": float(score)}
        for doc, pos, score in scored
        if (doc, pos) in rows
    ]


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


def hit_frame(rows: list[dict[str, Any]], ranker: str, words: dict[str, str]) -> pd.DataFrame:
    """Hit rows as a frame of `COLUMNS`, with highlights for the query `words`."""
    for row in rows:
        row["highlights"] = highlights(row["text"], words, row["heading"] or "")
        row.setdefault("ranker", ranker)
    return pd.DataFrame(rows, columns=COLUMNS)


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


def coverage(idf: dict[str, float], text: str) -> float:
    """The share of the query's idf that `text` holds."""
    total = sum(idf.values())
    present = set(tokenize(text))
    return sum(v for t, v in idf.items() if t in present) / total if total else 0.0


# -- highlights ------------------------------------------------------------------------


def highlights(text: str, words: dict[str, str], heading: str = "") -> dict[str, Any]:
    """{terms: the query words found, snippet}; `words` maps query stems to query words."""
    spans = [
        (m.start(), m.end(), term)
        for m in _candidates(tuple(words)).finditer(text)
        if (term := _term(m.group())) in words
    ]
    present = {t for _, _, t in spans} | (set(tokenize(heading)) & words.keys())
    return {"terms": [w for t, w in words.items() if t in present], "snippet": snippet(text, spans)}


@functools.lru_cache(maxsize=256)
def _candidates(terms: tuple[str, ...]) -> re.Pattern[str]:
    """`WORD` matches that may stem to one of `terms`: numbers, or the same 3 first letters."""
    heads = "|".join(sorted({re.escape(t[:3]) for t in terms if not t[:1].isdigit()}))
    parts = [rf"(?<![A-Za-z0-9])(?i:{heads})[A-Za-z0-9]*(?:\.[0-9]+)?"] if heads else []
    if any(t[:1].isdigit() for t in terms):
        parts.append(r"(?<![A-Za-z0-9])" + WORD.pattern.split("|")[0] + r"|\b\d+(?:\.\d+)?")
    return re.compile("|".join(parts) or r"(?!)")


def _term(word: str) -> str:
    """`tokenize(word)[0]` (or '') for one `WORD` match, without its regular expressions."""
    word = word.lower().replace(",", "").replace("\u2009", "")
    return "" if word in STOPWORDS else stem(word)


def snippet(text: str, spans: list[tuple[int, int, str]], width: int = SNIPPET_CHARS) -> str:
    """About `width` characters of `text` around the densest run of `spans`, each in `**`."""
    best, best_key = (0, 0), (-1, -1)
    for i, (start, _, _) in enumerate(spans):
        inside = [s for s in spans[i:] if s[1] - start <= width]
        key = (len({s[2] for s in inside}), len(inside))
        if key > best_key:
            best, best_key = (start, inside[-1][1]), key
    pad = max(0, (width - (best[1] - best[0])) // 2)
    lo = max(0, min(best[0] - pad, len(text) - width))
    hi = min(len(text), lo + width)
    if lo > 0 and (space := text.rfind(" ", max(0, lo - 20), lo)) > 0:
        lo = space + 1
    if hi < len(text) and (space := text.find(" ", hi, hi + 20)) > 0:
        hi = space
    parts, pos = [], lo
    for start, end, _ in spans:
        if start >= lo and end <= hi:
            parts += [text[pos:start], f"**{text[start:end]}**"]
            pos = end
    parts.append(text[pos:hi])
    body = " ".join("".join(parts).split())
    return ("…" if lo > 0 else "") + body + ("…" if hi < len(text) else "")


# -- hybrid ----------------------------------------------------------------------------


def search(
    store: Source,
    folder: Folder,
    query: str,
    *,
    k: int = 10,
    filter: str | None = None,
    embedder: Embedder | None = None,
    mode: Mode = "auto",
) -> pd.DataFrame:
    """BM25, vector or hybrid search; `auto` is hybrid when `embedder` has vectors here.

    Hybrid fuses the two rankings (50 deep each) by reciprocal rank fusion (`rrf`): a
    chunk scores the sum of 1 / (60 + rank) over the rankings that found it, and its
    `ranker` says which ("bm25", "vector" or "bm25+vector").
    """
    from fsnb.index import vectors

    if mode not in ("auto", "bm25", "vector", "hybrid"):
        msg = f"unknown search mode {mode!r}: use auto, bm25, vector or hybrid"
        raise ValueError(msg)
    if mode in ("vector", "hybrid") and embedder is None:
        msg = f"search mode {mode!r} needs an embedder"
        raise ValueError(msg)
    _, words = query_terms(query)
    with session(store, folder) as (con, cid):
        if mode == "auto":
            ready = embedder is not None and vectors.has_vectors(con, folder, embedder)
            mode = "hybrid" if ready else "bm25"
        if mode == "bm25":
            return bm25(con, folder, query, k=k, filter=filter)
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


# -- files by name, and the bridge -------------------------------------------------------


def cluster_terms(
    store: Store, *, min_tail_rows: int = CLUSTER_TAIL_ROWS, force: bool = False
) -> bool:
    """Rewrite `terms` sorted by term once enough rows were appended since the last time.

    Indexing appends rows in document order, into row groups whose term range spans the
    vocabulary: every query term scans them all. Sorted, a term's rows share one or two
    row groups. Rows of documents newer than the last clustering (document ids only grow)
    form the unsorted tail. Returns whether the table was rewritten.

    (Schema migration 2 dropped the ART index on `terms(term)` in favour of this.)
    """
    with store.transaction() as con:
        last = con.execute("SELECT coalesce(max(max_doc_id), -1) FROM terms_layout").fetchone()[0]
        tail = con.execute("SELECT count(*) FROM terms WHERE doc_id > ?", [last]).fetchone()[0]
        if not force and tail < min_tail_rows:
            return False
        con.execute("CREATE TEMP TABLE sorted_terms AS FROM terms ORDER BY term, doc_id, position")
        con.execute("DELETE FROM terms")
        con.execute("INSERT INTO terms FROM sorted_terms")
        con.execute("DROP TABLE sorted_terms")
        con.execute("DELETE FROM terms_layout")
        con.execute(
            "INSERT INTO terms_layout (max_doc_id, term_rows) SELECT"
            " (SELECT coalesce(max(id), 0) FROM documents), (SELECT count(*) FROM terms)"
        )
    with store.connect() as con:
        con.execute("CHECKPOINT")
    return True
