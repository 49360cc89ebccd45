"""The file-content bridge: when indexed chunks do not answer a query, read the files
whose names match its keywords and return their passages; and name search over `files`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import duckdb
import pandas as pd

from fsnb.documents import parse
from fsnb.errors import FsnbError
from fsnb.index.bm25 import query_idf
from fsnb.index.query import (
    FILE_COLUMNS,
    MIN_COVERAGE,
    WORD,
    Folder,
    Source,
    coverage,
    hit_frame,
    query_terms,
    session,
)
from fsnb.security import Sandbox
from fsnb.text.segments import paragraphs
from fsnb.text.words import tokenize

#: Keywords a name search uses at most: each adds a test per file row.
MAX_KEYWORDS = 32


def keywords(text: str) -> list[str]:
    """The first `MAX_KEYWORDS` words worth matching against file names: no stopwords, at
    least 3 characters."""
    out: list[str] = []
    for match in WORD.finditer(text):
        word = match.group().lower().replace(",", "")
        if len(word) >= 3 and tokenize(word) and word not in out:
            out.append(word)
            if len(out) == MAX_KEYWORDS:
                break
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
                box = Sandbox(folder)
                doc = parse(box.resolve(path), root=box.root)
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
    blocks = [(p.start, p.end) for p in paragraphs(text)]
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
