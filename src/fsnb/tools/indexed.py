"""The agent's tools over the DuckDB index: ranked passages, indexed documents, their text.

Each works on the index of its context (`ctx=`: the folder and the database; by hand,
`root=` and `db=`, None for the default index) and returns text, with the passages found or
the range of a document shown as data; a folder that is not indexed, a bad filter or a
locked database come back as one "error: ..." line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd

from fsnb.documents import Document, PageSpan, parse
from fsnb.documents.model import ocr_label
from fsnb.errors import FsnbError, NotFound, ToolError
from fsnb.index.bm25 import bm25
from fsnb.index.bridge import bridge
from fsnb.index.filters import BUILTIN_FIELDS
from fsnb.index.query import IndexingInProgress, NotIndexed, filter_sql, indexing, session
from fsnb.index.search import search
from fsnb.index.vectors import EmbeddingError, stored_embedder
from fsnb.protocol.outcome import ToolOutcome
from fsnb.tools.context import ToolContext
from fsnb.tools.payloads import Hit, Hits, PageRead
from fsnb.tools.reading import PAGE_CHARS, page_marks, page_outcome, page_window, with_page_marks
from fsnb.tools.registry import tool

#: Documents `list_indexed_documents` lists before it stops.
MAX_LISTED = 200
#: The longest query `semantic_search` takes (ranking cost grows with its distinct words).
MAX_QUERY_CHARS = 1_000


@contextmanager
def _indexed(ctx: ToolContext) -> Iterator[tuple[duckdb.DuckDBPyConnection, int]]:
    """The folder's index session; "not indexed" said without the folder's absolute path."""
    try:
        with session(ctx.db, ctx.root) as (con, cid):
            yield con, cid
    except IndexingInProgress as exc:
        msg = f"this folder is not searchable yet ({exc.progress}); read files directly meanwhile"
        raise FsnbError(msg) from None
    except NotIndexed:
        msg = "this folder is not indexed; use scan_folder, grep and parse_file instead"
        raise FsnbError(msg) from None


@tool(phase="search")
def semantic_search(
    query: str, filter: str = "", k: int = 8, *, ctx: ToolContext
) -> ToolOutcome[Hits]:
    """Find the passages of the indexed folder that best match a query, best first.

    Ranks indexed chunks by BM25 (fused with vector similarity when the index has
    vectors) and shows each with its file, page and a snippet. When no passage answers
    the query, it falls back to files whose names match the query and shows their passages.

    Args:
        query: What to look for, in plain words, e.g. "retention bonus CTO".
        filter: Optional metadata filter, e.g. "document_type=agreement and max_amount>=1000000".
        k: How many passages to return (at most 50).
    """
    if not query.strip():
        msg = "the query is empty"
        raise ToolError(msg)
    if len(query) > MAX_QUERY_CHARS:
        size = f"{len(query):,} characters"
        msg = f"the query is {size}; use at most {MAX_QUERY_CHARS:,}: a few key words"
        raise ToolError(msg)
    k = max(1, min(k, 50))
    notes: list[str] = []
    root = ctx.root
    with _indexed(ctx) as (con, cid):
        if progress := indexing(con, cid):
            notes.append(f"({progress}: results cover the documents committed so far)")
        try:
            embedder = stored_embedder(con, root)
            hits = search(con, root, query, k=k, filter=filter or None, embedder=embedder)
        except EmbeddingError as exc:
            notes.append(f"(vector search unavailable, BM25 only: {exc})")
            hits = bm25(con, root, query, k=k, filter=filter or None)
        fallback = bridge(con, root, query, hits)
    if not fallback.empty:
        hits = hits.head(3)  # weak matches, shown after the files whose names match
        lines = [
            f"No indexed passage answers {query!r} well ({fallback.attrs['reason']}); "
            f"passages from files whose names match it:",
            *_listing(fallback),
        ]
        if not hits.empty:
            lines += ["\nBest indexed passages (weak matches):", *_listing(hits)]
    elif hits.empty:
        lines = [f"no indexed passage matches {query!r} in this folder; try other words"]
    else:
        rankers = "+".join(sorted({r for value in hits["ranker"] for r in value.split("+")}))
        count = f"{len(hits)} passage{'s' * (len(hits) != 1)}"
        lines = [f"{count} for {query!r} ({rankers}):", *_listing(hits)]
    skipped = fallback.attrs.get("skipped") or {}
    if skipped:
        notes.append("(not read: " + "; ".join(f"{p}: {why}" for p, why in skipped.items()) + ")")
    found = Hits(_hits(hits, score=True), _hits(fallback, score=False))
    return ToolOutcome("\n".join(lines + notes), payload=found)


def _hits(frame: pd.DataFrame, *, score: bool) -> tuple[Hit, ...]:
    """The passages listed, best first, with their page (None: it has none) and, with
    `score`, their score."""
    return tuple(
        Hit(
            hit["path"],
            int(hit["page"]) if pd.notna(hit["page"]) else None,
            float(hit["score"]) if score else None,
        )
        for hit in frame.to_dict("records")
    )


def _listing(hits: pd.DataFrame) -> list[str]:
    lines = []
    for i, hit in enumerate(hits.to_dict("records"), start=1):
        where = f"{hit['path']}, page {hit['page']}" if pd.notna(hit["page"]) else hit["path"]
        if pd.notna(hit.get("ocr")):
            where += f" ({ocr_label(hit['ocr'])})"
        heading = f" — {hit['heading']}" if hit["heading"] else ""
        score = "file name match" if hit["ranker"] == "bridge" else f"score {hit['score']:.3g}"
        lines.append(f"\n[{i}] {where} ({score}){heading}")
        lines.append(f"    {hit['highlights']['snippet']}")
    return lines


@tool(phase="read", reads="path", parses=True)
def get_document(
    path: str, offset: int = 0, limit: int = PAGE_CHARS, *, ctx: ToolContext
) -> ToolOutcome[PageRead]:
    """Read the indexed text of one document, with `[page N]` lines where pages begin.

    Long documents come in pages of `limit` characters; the reply says how much remains
    and the offset to continue from.

    Args:
        path: File path, relative to the root, as semantic_search shows it.
        offset: Character offset to start from (0 for the beginning).
        limit: Maximum characters to return.
    """
    box = ctx.sandbox
    file = box.resolve(path)
    rel = box.relative(file)
    with _indexed(ctx) as (con, cid):
        row = con.execute(
            "SELECT id, title, format, pages, text, parser, error, size, mtime_ns FROM documents"
            " WHERE corpus_id = ? AND path = ? AND NOT deleted",
            [cid, rel],
        ).fetchone()
        if row is None:
            raise NotFound(rel, "is not in this folder's index")
        doc_id, title, fmt, pages, text, parser, error, size, mtime_ns = row
        if error:
            msg = f"{rel} could not be indexed: {error}"
            raise FsnbError(msg)
        spans = _stored_spans(con, doc_id)
        marks = con.execute(
            "SELECT start_char, coalesce(page, 1) FROM chunks WHERE doc_id = ? ORDER BY position",
            [doc_id],
        ).fetchall()
    text = text or ""
    stat = file.stat() if file.exists() else None
    stale = stat is not None and (stat.st_size, stat.st_mtime_ns) != (size, mtime_ns)
    if spans is None and stat is not None and not stale:
        spans = _parsed_spans(file, text, box.root)
    spans = spans if spans is not None else _chunk_spans(marks)
    doc = Document(rel, text, title or "", fmt or "", pages or 1, spans, parser)
    start, end, note = page_window(len(doc.text), offset, limit)
    warn = "\n(warning: the file changed since it was indexed; parse_file reads it now)" * stale
    header = (
        f"{rel} ({doc.format}, {doc.pages} pages, {len(doc.text):,} characters, indexed, "
        f"parser: {parser}) characters {start:,}-{end:,}{warn}"
    )
    text = f"{header}\n{with_page_marks(doc, start, end)}\n{note}"
    return page_outcome(text, rel, start, end, len(doc.text), page_marks(doc, start, end))


def _stored_spans(con: duckdb.DuckDBPyConnection, doc_id: int) -> list[PageSpan] | None:
    """The page spans the index stores (`documents.spans`, JSON as `Document.to_dict`
    writes them), or None where it stores none."""
    stored = con.execute(
        "SELECT 1 FROM duckdb_columns() WHERE table_name = 'documents' AND column_name = 'spans'"
    ).fetchone()
    if stored:
        (raw,) = con.execute("SELECT spans FROM documents WHERE id = ?", [doc_id]).fetchone()
        if raw:
            return [PageSpan(**span) for span in json.loads(raw)]
    return None


def _parsed_spans(file: Path, text: str, root: Path) -> list[PageSpan] | None:
    """The page spans of the (cached) parse of an unchanged file, if it gives the same text."""
    try:
        doc = parse(file, root=root)
    except FsnbError:
        return None
    return doc.spans if doc.text == text else None


def _chunk_spans(marks: list[tuple[int, int]]) -> list[PageSpan]:
    """Page spans from the chunks' (start, page): exact only to a chunk."""
    starts: list[tuple[int, int]] = []
    for start, page in marks:
        if not starts or page > starts[-1][1]:
            starts.append((start, page))
    ends = [s for s, _ in starts[1:]] + [2**31]
    return [PageSpan(page, start, end) for (start, page), end in zip(starts, ends, strict=True)]


@tool(phase="search")
def list_indexed_documents(filter: str = "", *, ctx: ToolContext) -> str:
    """List the indexed documents of the folder with their metadata, optionally filtered.

    Shows each document's path, title, format, pages, type and largest amount, and the
    files that could not be indexed, with the reason.

    Args:
        filter: Optional metadata filter, e.g. "document_type=memo and year>=2024".
    """
    with _indexed(ctx) as (con, cid):
        where, params = filter_sql(con, cid, filter)
        rows = con.execute(
            "SELECT d.path, d.title, d.format, d.pages, d.metadata, d.error FROM documents d"
            f" WHERE d.corpus_id = ? AND NOT d.deleted AND ({where or 'TRUE'})"
            " ORDER BY d.error IS NOT NULL, d.path",
            [cid, *params],
        ).fetchall()
        schema = con.execute("SELECT field FROM schemas WHERE corpus_id = ?", [cid]).fetchall()
    fields = sorted({f for (f,) in schema} | set(BUILTIN_FIELDS))
    if filter.strip() and not rows:
        return f"no indexed document in this folder matches the filter {filter!r}"
    good = [r for r in rows if r[5] is None]
    lines = [
        f"{len(good)} documents indexed in this folder"
        + (f" matching {filter!r}" if filter.strip() else "")
        + ":"
    ]
    for path, title, fmt, pages, metadata, _ in good[:MAX_LISTED]:
        lines.append(f"{path} — {title} ({fmt}, {pages} page{'s' * (pages != 1)}){_meta(metadata)}")
    if len(good) > MAX_LISTED:
        lines.append(f"[{len(good) - MAX_LISTED} more: narrow them with a filter]")
    failed = [f"{path}: {error}" for path, _, _, _, _, error in rows if error]
    if failed:
        lines.append("\nnot indexed (could not be read):\n" + "\n".join(failed))
    lines.append(f"\nfilter fields: {', '.join(fields)}")
    return "\n".join(lines)


def _meta(metadata: Any) -> str:
    data = json.loads(metadata) if isinstance(metadata, str) else (metadata or {})
    parts = []
    if kind := data.get("document_type"):
        parts.append(f"document_type={kind}")
    amount = data.get("max_amount")
    if isinstance(amount, (int, float)) and not isinstance(amount, bool):
        parts.append(f"max_amount={amount:,.0f}")
    return f" [{', '.join(parts)}]" if parts else ""


INDEX_TOOLS = [semantic_search, get_document, list_indexed_documents]

__all__ = ["INDEX_TOOLS", "get_document", "list_indexed_documents", "semantic_search"]
