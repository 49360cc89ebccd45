"""A batch of documents' rows, prepared outside the database and written in bulk.

Metadata, chunks and terms are computed before the connection opens (`prepare`), so the
database file is held only for the few set-based statements of `write`. `cluster_terms`
keeps the `terms` table sorted by term for BM25's zone-map lookups.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import pandas as pd

from fsnb.documents.parse import PARSER_VERSION
from fsnb.documents.scans import NEEDS_OCR
from fsnb.documents.scans import enabled as ocr_enabled
from fsnb.index.chunking import chunk_document
from fsnb.index.metadata import extract_metadata
from fsnb.text.words import tokenize

if TYPE_CHECKING:
    import duckdb

    from fsnb.db.database import Database
    from fsnb.documents import Document

DOCUMENT_COLUMNS = [
    "title", "format", "pages", "chars", "text", "metadata", "parser", "warnings", "spans",
    "ocr", "ocr_confidence", "ocr_pages",
]  # fmt: skip
CHUNK_COLUMNS = [
    "position", "text", "start_char", "end_char", "page", "heading", "ocr", "ocr_confidence",
    "n_terms",
]  # fmt: skip


@dataclass
class Entry:
    """One document's rows: parsed (`fields`, `chunks`, `terms`) or an `error`."""

    path: str
    size: int | None
    mtime_ns: int | None
    digest: str | None
    error: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    chunks: list[tuple[Any, ...]] = field(default_factory=list)
    terms: list[tuple[int, str, int]] = field(default_factory=list)


def utf8(text: str) -> str:
    """`text` as DuckDB can store it: lone surrogates (undecodable bytes) become '?'."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


def prepare(path: str, size: int, mtime_ns: int, digest: str, doc: Document) -> Entry:
    """The rows of a parsed document: its metadata, chunks and their term counts."""
    text = utf8(doc.text)
    if text is not doc.text:
        doc = replace(doc, text=text)
    meta = extract_metadata(text, title=doc.title, path=path, format=doc.format) | doc.meta
    entry = Entry(path, size, mtime_ns, digest)
    entry.fields = {
        "title": utf8(doc.title) if doc.title else doc.title,
        "format": doc.format,
        "pages": doc.pages,
        "chars": len(text),
        "text": text,
        "metadata": json.dumps(meta, default=str),
        "parser": parser_label(doc.parser),
        "warnings": json.dumps(doc.warnings),
        "spans": json.dumps(doc.to_dict()["spans"]),
        "ocr": bool(doc.ocr),
        "ocr_confidence": doc.ocr_confidence(),
        "ocr_pages": json.dumps(doc.ocr) if doc.ocr else None,
    }
    for chunk in chunk_document(doc):
        counts = Counter(tokenize(f"{chunk.heading}\n{chunk.text}"))
        entry.chunks.append(
            (
                chunk.position,
                chunk.text,
                chunk.start,
                chunk.end,
                chunk.page,
                chunk.heading,
                chunk.page in doc.ocr,
                doc.ocr.get(chunk.page),
                sum(counts.values()),
            )
        )
        entry.terms.extend((chunk.position, t, n) for t, n in counts.items())
    return entry


def write(con: duckdb.DuckDBPyConnection, cid: int, entries: list[Entry]) -> None:
    """Replace the rows of `entries` (documents, chunks, terms) in corpus `cid`; each
    terms row (a posting) carries the corpus and its chunk's `n_terms` for BM25."""
    if not entries:
        return
    paths = [e.path for e in entries]
    old = [
        row[0]
        for row in con.execute(
            "SELECT id FROM documents WHERE corpus_id = ? AND path IN (SELECT unnest(?))",
            [cid, paths],
        ).fetchall()
    ]
    if old:
        for table in ("terms", "chunks"):
            con.execute(f"DELETE FROM {table} WHERE doc_id IN (SELECT unnest(?))", [old])
        con.execute("DELETE FROM documents WHERE id IN (SELECT unnest(?))", [old])
    ids = [
        row[0]
        for row in con.execute(
            "SELECT nextval('document_ids') FROM range(?)", [len(entries)]
        ).fetchall()
    ]
    docs = pd.DataFrame(
        [
            {
                "id": doc_id,
                "path": e.path,
                "size": e.size,
                "mtime_ns": e.mtime_ns,
                "content_hash": e.digest,
                "error": e.error,
                **{name: e.fields.get(name) for name in DOCUMENT_COLUMNS},
                "ocr": bool(e.fields.get("ocr")),
            }
            for doc_id, e in zip(ids, entries, strict=True)
        ]
    ).astype(
        {
            "size": "Int64",
            "mtime_ns": "Int64",
            "pages": "Int64",
            "chars": "Int64",
            "ocr_confidence": "Float64",
        }
    )
    chunks = [(doc_id, *c) for doc_id, e in zip(ids, entries, strict=True) for c in e.chunks]
    terms = [
        (doc_id, *t, lengths[t[0]])
        for doc_id, e in zip(ids, entries, strict=True)
        for lengths in [{c[0]: c[-1] for c in e.chunks}]
        for t in e.terms
    ]
    _insert(con, "documents", docs, "corpus_id", cid)
    if chunks:
        _insert(con, "chunks", pd.DataFrame(chunks, columns=["doc_id", *CHUNK_COLUMNS]))
        frame = pd.DataFrame(terms, columns=["doc_id", "position", "term", "tf", "n_terms"])
        _insert(con, "terms", frame, "corpus_id", cid)


def _insert(
    con: duckdb.DuckDBPyConnection,
    table: str,
    frame: pd.DataFrame,
    extra: str | None = None,
    value: Any = None,
) -> None:
    """INSERT the frame's columns by name (plus one constant column `extra`)."""
    names = [*frame.columns, *([extra] if extra else [])]
    select = ", ".join(frame.columns) + (", ?" if extra else "")
    view = f"new_{table}"
    con.register(view, frame)
    try:
        con.execute(
            f"INSERT INTO {table} ({', '.join(names)}) SELECT {select} FROM {view}",
            [value] if extra else [],
        )
    finally:
        con.unregister(view)


#: Rows appended to `terms` since it was last clustered that make `cluster_terms` act.
CLUSTER_TAIL_ROWS = 200_000


def cluster_terms(
    store: Database, *, min_tail_rows: int = CLUSTER_TAIL_ROWS, force: bool = False
) -> bool:
    """Rewrite `terms` sorted by term once enough rows were appended since the last time.

    Indexing appends rows in document order, into row groups whose term range spans the
    vocabulary: every query term scans them all. Sorted, a term's rows share one or two
    row groups. Rows of documents newer than the last clustering (document ids only grow)
    form the unsorted tail. Returns whether the table was rewritten.

    (Schema migration 2 dropped the ART index on `terms(term)` in favour of this.)
    """
    with store.write() as con:
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
    store.checkpoint()
    return True


def parser_label(parser: str) -> str:
    """What the index stores as a document's parser: its name and the parser version
    (`docling-pdf/4`; `/4-no-ocr` when OCR did not run), so that a new parser
    version, or OCR turned on since, re-parses unchanged files."""
    return f"{parser}/{_version()}"


def stale_parse(stored: str | None, error: str | None = None) -> bool:
    """Whether an indexed document was parsed by another parser version. Rows without a
    parse (failures) are retried when the file changes, or when the failure was a lack
    of OCR and OCR runs now."""
    if stored is None:
        return bool(error and NEEDS_OCR in error and ocr_enabled())
    return not stored.endswith(f"/{_version()}")


def _version() -> str:
    return PARSER_VERSION if ocr_enabled() else f"{PARSER_VERSION}-no-ocr"


#: A stored `files` row `f` that matches a scanned one `s` (with its kind) in every column.
_SAME_FILE = (
    "f.path = s.path AND f.size = s.size AND f.mtime_ns = s.mtime_ns"
    " AND f.sensitivity = s.sensitivity AND f.category = s.category"
    " AND f.mime IS NOT DISTINCT FROM s.mime"
)


def store_files(
    con: duckdb.DuckDBPyConnection, cid: int, scanned: pd.DataFrame, kinds: pd.DataFrame
) -> tuple[int, int]:
    """Bring corpus `cid`'s `files` rows to `scanned` (`walk.COLUMNS`; `kinds` gives each
    extension's category and MIME type) with two anti-joins: stored rows without an equal
    scanned row (gone or changed) are deleted, then scanned files without a stored row are
    inserted; an unchanged tree, found in one join, writes nothing. Returns (rows inserted,
    rows deleted)."""
    con.register("scanned_files", scanned)
    con.register("file_kinds", kinds)
    try:
        sql = "SELECT count(*) FROM files WHERE corpus_id = ?"
        ((stored,),) = con.execute(sql, [cid]).fetchall()  # fetched to the end: more follow
        if stored and not _differ(con, cid):
            return 0, 0
        deleted = (
            stored
            and con.execute(
                "DELETE FROM file_rows WHERE corpus_id = $cid AND path IN"
                " (SELECT f.path FROM files f"
                " ANTI JOIN (FROM scanned_files JOIN file_kinds USING (extension)) s"
                f" ON {_SAME_FILE} WHERE f.corpus_id = $cid)",
                {"cid": cid},
            ).fetchone()[0]
        )
        inserted = con.execute(
            "INSERT INTO file_rows (corpus_id, path, extension, size, mtime_ns, sensitivity,"
            " category, mime)"
            " SELECT $cid, s.path, s.extension, s.size, s.mtime_ns, s.sensitivity,"
            " k.category, k.mime"
            " FROM (FROM scanned_files"
            " ANTI JOIN (SELECT path FROM files WHERE corpus_id = $cid) f USING (path)) s"
            " JOIN file_kinds k ON k.extension = s.extension",
            {"cid": cid},
        ).fetchone()[0]
    finally:
        con.unregister("scanned_files")
        con.unregister("file_kinds")
    return int(inserted), int(deleted)


def _differ(con: duckdb.DuckDBPyConnection, cid: int) -> bool:
    """Whether the stored rows and the scanned ones differ, by their count and a digest of
    every row (an aggregate over each side: cheaper than joining them)."""
    return bool(
        con.execute(
            f"SELECT (SELECT {_DIGEST} FROM files f WHERE corpus_id = $cid)"
            f" IS DISTINCT FROM (SELECT {_DIGEST} FROM scanned_files s JOIN file_kinds f"
            " USING (extension))",
            {"cid": cid},
        ).fetchall()[0][0]
    )


#: The rows of `files` (or the scanned rows with their kinds), as one value.
_DIGEST = (
    "(count(*), bit_xor(hash(path, size, mtime_ns, sensitivity, f.category, coalesce(f.mime, ''))))"
)
