"""Search over the index: BM25 in SQL, hybrid ranking with vectors, and a file-name bridge.

BM25 is computed per chunk by DuckDB over the `terms` table: idf from how many chunks of
the corpus hold each term, length normalization by `n_terms` over the corpus average.
Query terms come from `fsnb.text.tokenize`, like the indexed ones. Each query term is one
equality on `terms.term`, which zone maps answer from a few row groups once the table is
clustered by term (`cluster_terms`, after indexing); the top chunks' text is fetched
afterwards, so a query never scans the chunk texts.

`search` fuses BM25 with vector similarity (`fsnb.index.vectors`) by reciprocal rank
fusion. `bridge` is the fallback when the chunks do not answer a query: files whose names
match its keywords are read and their passages returned.
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import duckdb
import pandas as pd

from fsnb.errors import FsnbError
from fsnb.index.filters import compile_filter
from fsnb.index.store import Store
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
#: Share of the BM25 score each adjacent query-term pair found in a hit adds.
PAIR_BONUS = 0.25
#: Rows appended to `terms` since it was last clustered that make `cluster_terms` act.
CLUSTER_TAIL_ROWS = 200_000

Mode = Literal["auto", "bm25", "vector", "hybrid"]
_WORD = re.compile(r"\d{1,3}(?:[,\u2009]\d{3})+(?:\.\d+)?|[A-Za-z0-9]+(?:\.[0-9]+)?")
_BLOCK = re.compile(r"\S(?:.*?)(?=\n\s*\n|\Z)", re.S)


class NotIndexed(FsnbError):
    """The folder has no corpus in the index."""

    def __init__(self, folder: Folder) -> None:
        self.folder = str(folder)
        super().__init__(
            f"{self.folder} is not indexed: run `fsnb index {self.folder}` "
            f"or Index().add_folder({self.folder!r})"
        )


# -- corpus, schema, filters ---------------------------------------------------------


def corpus_of(con: duckdb.DuckDBPyConnection, folder: Folder) -> int:
    """The id of the corpus rooted at `folder`, or `NotIndexed`."""
    root = str(Path(folder).expanduser().resolve())
    row = con.execute("SELECT id FROM corpora WHERE root = ?", [root]).fetchone()
    if row is None:
        raise NotIndexed(folder)
    return int(row[0])


@contextmanager
def session(source: Source, folder: Folder) -> Iterator[tuple[duckdb.DuckDBPyConnection, int]]:
    """(connection, corpus id): a short read-only connection, or the one passed in."""
    if isinstance(source, duckdb.DuckDBPyConnection):
        yield source, corpus_of(source, folder)
        return
    if not source.path.exists():
        raise NotIndexed(folder)
    with source.connect(read_only=True) as con:
        yield con, corpus_of(con, folder)


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
    for match in _WORD.finditer(query):
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
        depth = max(3 * k, 30)
        scored = bm25_scores(con, cid, query, k=depth, where=(where, params), k1=k1, b=b)
        rows = fetch_chunks(con, scored)
    return hit_frame(proximity_rerank(rows, query)[:k], "bm25", words)


def proximity_rerank(rows: list[dict[str, Any]], query: str) -> list[dict[str, Any]]:
    """Rescore hits by how many of the query's adjacent term pairs stand adjacent in them.

    BM25 sees a bag of words; a passage that says "purchase price" beats one that says
    "price" here and "purchase" there. Each matched pair adds `PAIR_BONUS` of the score.
    """
    terms = tokenize(query)
    pairs = set(itertools.pairwise(terms))
    if not pairs:
        return rows
    for row in rows:
        seen = set(itertools.pairwise(tokenize(f"{row['heading'] or ''}\n{row['text']}")))
        row["score"] *= 1 + PAIR_BONUS * len(pairs & seen)
    return sorted(rows, key=lambda r: -r["score"])


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
    """`_WORD` matches that may stem to one of `terms`: numbers, or the same 3 first letters."""
    heads = "|".join(sorted({re.escape(t[:3]) for t in terms if not t[:1].isdigit()}))
    parts = [rf"(?<![A-Za-z0-9])(?i:{heads})[A-Za-z0-9]*(?:\.[0-9]+)?"] if heads else []
    if any(t[:1].isdigit() for t in terms):
        parts.append(r"(?<![A-Za-z0-9])" + _WORD.pattern.split("|")[0] + r"|\b\d+(?:\.\d+)?")
    return re.compile("|".join(parts) or r"(?!)")


def _term(word: str) -> str:
    """`tokenize(word)[0]` (or '') for one `_WORD` match, without its regular expressions."""
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


def keywords(text: str) -> list[str]:
    """Words worth matching against file names: no stopwords, at least 3 characters."""
    out: list[str] = []
    for match in _WORD.finditer(text):
        word = match.group().lower().replace(",", "")
        if len(word) >= 3 and tokenize(word) and word not in out:
            out.append(word)
    return out


def find_files(
    store: Source, folder: Folder, pattern_or_keywords: str, k: int = 50
) -> pd.DataFrame:
    """Files of the corpus by name: a glob (`*.pdf`, `**/vendor*`) or keywords.

    A glob matches the path or the name, ignoring case. Keywords match the path as
    written or stemmed ("payments" finds vendor_payment.csv), and files are ranked by how
    many keywords match, name matches first. Columns: `FILE_COLUMNS`.
    """
    text = pattern_or_keywords.strip()
    with session(store, folder) as (con, cid):
        if re.search(r"[*?\[]", text):
            test, args = _glob_sql(text)
            rows = con.execute(
                f"SELECT {', '.join(FILE_COLUMNS[:-1])}, 1 FROM files WHERE corpus_id = ?"
                f" AND {test} ORDER BY path LIMIT ?",
                [cid, *args, int(k)],
            ).fetchall()
            return pd.DataFrame(rows, columns=FILE_COLUMNS)
        tests, likes = [], []
        for word in keywords(text):  # the stem covers the word when it is a prefix of it
            root = (tokenize(word) or [word])[0]
            forms = [root] if word.startswith(root) else [word, root]
            tests.append("(" + " OR ".join("{c} ILIKE ?" for _ in forms) + ")::INT")
            likes += [f"%{form}%" for form in forms]
        if not tests:
            return pd.DataFrame(columns=FILE_COLUMNS)
        in_path = " + ".join(t.format(c="path") for t in tests)
        in_name = " + ".join(t.format(c="name") for t in tests)  # only for matching rows
        rows = con.execute(
            f"SELECT * FROM (SELECT {', '.join(FILE_COLUMNS[:-1])}, {in_path} AS matches"
            f" FROM files WHERE corpus_id = ?) WHERE matches > 0"
            f" ORDER BY matches DESC, {in_name} DESC, length(path), path LIMIT ?",
            [*likes, cid, *likes, int(k)],
        ).fetchall()
    return pd.DataFrame(rows, columns=FILE_COLUMNS)


def _glob_sql(pattern: str) -> tuple[str, list[str]]:
    """A case-insensitive SQL test of a glob: on the name, or on the path if it has a '/'.

    `**/` at the start means any folder, or none. Without `[...]` the glob becomes an
    ILIKE pattern, which DuckDB matches without lowering every path first.
    """
    column = "path" if "/" in pattern else "name"
    forms = [pattern[3:], "*/" + pattern[3:]] if pattern.startswith("**/") else [pattern]
    if "[" in pattern:
        tests = " OR ".join(f"lower({column}) GLOB ?" for _ in forms)
        return f"({tests})", [f.lower() for f in forms]
    escape = str.maketrans({"\\": "\\\\", "%": "\\%", "_": "\\_", "*": "%", "?": "_"})
    tests = " OR ".join(f"{column} ILIKE ? ESCAPE '\\'" for _ in forms)
    return f"({tests})", [f.translate(escape) for f in forms]


def needs_bridge(store: Source, folder: Folder, query: str, hits: pd.DataFrame) -> str | None:
    """Why the top 3 hits do not answer the query, or None when they do.

    They do not when there is none, when no query word occurs in them, or when together
    they hold less than `MIN_COVERAGE` of the query's idf (words no chunk holds weigh most).
    """
    top = hits.head(3)
    if top.empty:
        return "no indexed passage matched"
    if not any(h["terms"] for h in top["highlights"]):
        return "no query word occurs in the top passages"
    idf = query_idf(store, folder, query)
    together = "\n".join(
        f"{h or ''}\n{t}" for h, t in zip(top["heading"], top["text"], strict=True)
    )
    if (share := coverage(idf, together)) < MIN_COVERAGE:
        return f"the top passages hold {share:.0%} of the query's words, weighted by rarity"
    return None


def bridge(
    store: Source,
    folder: Folder,
    query: str,
    hits: pd.DataFrame,
    *,
    files: int = 3,
    passages: int = 2,
) -> pd.DataFrame:
    """Passages of files named like the query, when the chunk hits do not answer it.

    When `needs_bridge` says the hits fall short, the query's keywords that the top hits
    lack are matched against file names (`find_files`); up to `passages` passages of each
    of the best `files` files (their indexed text, else a cached parse) come back with
    `ranker="bridge"`. Empty otherwise. `attrs["reason"]` says why it fell back and
    `attrs["skipped"]` ({path: why}) which matching files could not be read.
    """
    from fsnb.documents import parse
    from fsnb.security import Sandbox

    _, words = query_terms(query)
    rows: list[dict[str, Any]] = []
    skipped: dict[str, str] = {}
    seen = set(
        tokenize(" ".join(f"{h or ''} {t}" for h, t in hits.head(3)[["heading", "text"]].values))
    )
    missing = " ".join(w for w in keywords(query) if (tokenize(w) or [w])[0] not in seen)
    with session(store, folder) as (con, cid):
        reason = needs_bridge(con, folder, query, hits) if missing else None
        names = find_files(con, folder, missing, k=files * 3) if reason else pd.DataFrame()
        indexed = _indexed_texts(con, cid, list(names.get("path", [])))
    for path, matches in zip(names.get("path", []), names.get("matches", []), strict=True):
        if len({r["path"] for r in rows}) >= files:
            break
        if path in indexed:
            title, text, page_at = indexed[path]
        else:
            try:
                doc = parse(Sandbox(folder).resolve(path))
            except (FsnbError, OSError) as exc:
                skipped[path] = getattr(exc, "why", None) or str(exc)
                continue
            title, text, page_at = doc.title, doc.text, doc.page_at
        for start, end, found in _passages(text, set(words), passages):
            rows.append({
                "path": path, "title": title, "page": page_at(start), "position": None,
                "heading": "", "score": float(matches + found), "text": text[start:end],
                "start_char": start, "end_char": end,
            })  # fmt: skip
    frame = hit_frame(rows, "bridge", words)
    frame.attrs.update(reason=reason, skipped=skipped)
    return frame


def _indexed_texts(
    con: duckdb.DuckDBPyConnection, cid: int, paths: list[str]
) -> dict[str, tuple[str, str, Any]]:
    """{path: (title, text, page_at)} of the given paths that are indexed with text."""
    if not paths:
        return {}
    rows = con.execute(
        "SELECT d.path, d.title, d.text, list(c.start_char ORDER BY c.position),"
        " list(c.page ORDER BY c.position) FROM documents d LEFT JOIN chunks c ON c.doc_id = d.id"
        " WHERE d.corpus_id = ? AND list_contains(?, d.path) AND NOT d.deleted"
        " AND d.text IS NOT NULL GROUP BY ALL",
        [cid, paths],
    ).fetchall()
    return {path: (title, text, _pager(starts, pages)) for path, title, text, starts, pages in rows}


def _pager(starts: list[int | None], pages: list[int | None]) -> Any:
    marks = [(s, p) for s, p in zip(starts, pages, strict=True) if s is not None and p]
    return lambda at: max(((s, p) for s, p in marks if s <= at), default=(0, 1))[1]


def _passages(
    text: str, terms: Iterable[str], limit: int, width: int = 1200
) -> list[tuple[int, int, int]]:
    """(start, end, distinct terms) of the best runs of paragraphs holding query terms.

    When none holds one (the file matched by its name only), its beginning.
    """
    wanted = set(terms)
    blocks = [m.span() for m in _BLOCK.finditer(text)]
    held = [wanted.intersection(tokenize(text[start:end])) for start, end in blocks]
    found: list[tuple[int, int, int]] = []
    for i, (start, _) in enumerate(blocks):
        j = i
        while j + 1 < len(blocks) and blocks[j + 1][1] - start <= width:
            j += 1
        if held[i] and (distinct := len(set().union(*held[i : j + 1]))):
            found.append((start, min(blocks[j][1], start + width), distinct))
    chosen: list[tuple[int, int, int]] = []
    for cand in sorted(found, key=lambda f: (-f[2], f[0])):
        if len(chosen) < limit and all(cand[1] <= c[0] or cand[0] >= c[1] for c in chosen):
            chosen.append(cand)
    if not chosen and blocks:
        chosen = [(blocks[0][0], min(len(text), blocks[0][0] + width), 0)]
    return sorted(chosen)


# -- maintenance -----------------------------------------------------------------------


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
