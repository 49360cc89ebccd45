"""Incremental indexing of a folder into the DuckDB store.

Changes are found by size and mtime and confirmed by a content hash; only changed
documents are parsed (in parallel, through the parse cache), chunked and written, in one
transaction per batch. Files gone from disk are marked deleted.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

import pandas as pd

from fsnb.documents import Document, supported
from fsnb.documents.batch import parse_many
from fsnb.errors import ParseError
from fsnb.index.chunking import chunk_document
from fsnb.index.metadata import discover_schema, extract_metadata
from fsnb.index.search import cluster_terms
from fsnb.security import Sandbox, Sensitivity
from fsnb.text import tokenize

if TYPE_CHECKING:
    import duckdb

    from fsnb.index.store import Store

BATCH = 32
_CATEGORIES = {
    "document": {".pdf", ".docx", ".pptx", ".xlsx", ".html", ".htm", ".md", ".markdown", ".csv"},
    "image": {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".tif", ".tiff", ".bmp"},
    "archive": {".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar"},
    "code": {".py", ".js", ".ts", ".java", ".go", ".rs", ".c", ".h", ".cpp", ".rb", ".php", ".sh"},
    "data": {".json", ".jsonl", ".yaml", ".yml", ".toml", ".xml", ".parquet", ".sqlite", ".db"},
}


def category(path: PurePosixPath) -> str:
    suffix = path.suffix.lower()
    kind = next((name for name, exts in _CATEGORIES.items() if suffix in exts), None)
    return kind or ("text" if supported(str(path)) else "other")


@dataclass
class IndexReport:
    """What one `add_folder` did."""

    root: str
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: int = 0
    deleted: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    skipped: int = 0
    files: int = 0
    duration_s: float = 0.0

    def counts(self) -> dict[str, Any]:
        return {
            "added": len(self.added),
            "updated": len(self.updated),
            "unchanged": self.unchanged,
            "deleted": len(self.deleted),
            "failed": len(self.failed),
            "skipped": self.skipped,
            "files": self.files,
            "duration_s": round(self.duration_s, 3),
        }

    def to_frame(self) -> pd.DataFrame:
        """One row per changed or failed file: path, change, reason."""
        rows = [(p, "added", "") for p in self.added] + [(p, "updated", "") for p in self.updated]
        rows += [(p, "deleted", "") for p in self.deleted]
        rows += [(p, "failed", why) for p, why in self.failed.items()]
        return pd.DataFrame(rows, columns=["path", "change", "reason"])

    def __repr__(self) -> str:
        parts = ", ".join(f"{k}={v}" for k, v in self.counts().items())
        return f"IndexReport({self.root}: {parts})"

    def _repr_html_(self) -> str:
        summary = ", ".join(f"<b>{v}</b> {k}" for k, v in self.counts().items())
        return f"<p>Indexed {self.root}: {summary}</p>" + self.to_frame().to_html(index=False)


@dataclass
class _FileRow:
    path: str
    size: int
    mtime_ns: int
    sensitivity: str


def _hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def corpus_id(con: duckdb.DuckDBPyConnection, root: str, *, create: bool = True) -> int | None:
    """The id of the corpus rooted at `root` (created when missing and `create`)."""
    if create:
        con.execute("INSERT INTO corpora (root) VALUES (?) ON CONFLICT DO NOTHING", [root])
    row = con.execute("SELECT id FROM corpora WHERE root = ?", [root]).fetchone()
    return int(row[0]) if row else None


def index_folder(
    store: Store, folder: str | Path, *, progress: bool = True, workers: int | None = None
) -> IndexReport:
    """Bring the index of `folder` up to date and return what changed."""
    began = time.monotonic()
    started_at = datetime.now(timezone.utc).replace(tzinfo=None)
    box = Sandbox(folder)
    root = str(box.root)
    report = IndexReport(root)
    on_disk: dict[str, _FileRow] = {}
    file_rows = []
    for file, verdict in box.walk():
        if verdict.level in (Sensitivity.BLOCK, Sensitivity.SKIP) or file.is_symlink():
            report.skipped += 1
            continue
        try:
            stat = file.stat()
        except OSError:
            report.skipped += 1
            continue
        rel = box.relative(file)
        pure = PurePosixPath(rel)
        on_disk[rel] = _FileRow(rel, stat.st_size, stat.st_mtime_ns, verdict.level.value)
        file_rows.append(
            (
                rel,
                pure.name,
                pure.suffix.lower(),
                stat.st_size,
                stat.st_mtime_ns,
                category(pure),
                len(pure.parts) - 1,
                str(pure.parent),
                verdict.level.value,
            )
        )
    report.files = len(file_rows)

    with store.transaction() as con:
        cid = corpus_id(con, root)
        known = {
            path: (size, mtime, digest)
            for path, size, mtime, digest in con.execute(
                "SELECT path, size, mtime_ns, content_hash FROM documents "
                "WHERE corpus_id = ? AND NOT deleted",
                [cid],
            ).fetchall()
        }
        files = pd.DataFrame(
            file_rows,
            columns=[
                "path",
                "name",
                "extension",
                "size",
                "mtime_ns",
                "category",
                "depth",
                "parent",
                "sensitivity",
            ],
        )
        con.execute("DELETE FROM files WHERE corpus_id = ?", [cid])
        con.register("new_files", files)
        con.execute("INSERT INTO files SELECT ?, * FROM new_files", [cid])
        con.unregister("new_files")

    to_parse: list[tuple[str, str]] = []  # (path, hash)
    touched: list[tuple[str, int, int]] = []
    for rel, row in on_disk.items():
        if not supported(rel):
            continue
        old = known.get(rel)
        if old and old[0] == row.size and old[1] == row.mtime_ns:
            report.unchanged += 1
            continue
        digest = _hash(box.root / rel)
        if old and old[2] == digest:
            report.unchanged += 1
            touched.append((rel, row.size, row.mtime_ns))
            continue
        to_parse.append((rel, digest))
    gone = sorted(set(known) - {p for p in on_disk if supported(p)})

    bar = _progress(len(to_parse), root) if progress and to_parse else None
    batch: list[tuple[str, str, Document | ParseError]] = []
    hashes = dict(to_parse)
    paths = [box.root / rel for rel, _ in to_parse]
    for path, result in parse_many(paths, workers=workers):
        rel = box.relative(path)
        batch.append((rel, hashes[rel], result))
        if bar is not None:
            bar.update(1)
        if len(batch) >= BATCH:
            _write(store, cid, batch, known, on_disk, report)
            batch = []
    if batch:
        _write(store, cid, batch, known, on_disk, report)
    if bar is not None:
        bar.close()

    with store.transaction() as con:
        for rel, size, mtime in touched:
            con.execute(
                "UPDATE documents SET size = ?, mtime_ns = ? WHERE corpus_id = ? AND path = ?",
                [size, mtime, cid, rel],
            )
        for rel in gone:
            _forget_chunks(con, cid, rel)
            con.execute(
                "UPDATE documents SET deleted = true, text = NULL WHERE corpus_id = ? AND path = ?",
                [cid, rel],
            )
        report.deleted = gone
        _store_schema(con, cid)
        report.duration_s = time.monotonic() - began
        counts = report.counts()
        con.execute(
            "INSERT INTO scan_log (corpus_id, started_at, duration_s, added, updated, unchanged,"
            " deleted, failed, report) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                cid,
                started_at,
                report.duration_s,
                counts["added"],
                counts["updated"],
                counts["unchanged"],
                counts["deleted"],
                counts["failed"],
                json.dumps({"failed": report.failed}),
            ],
        )
        con.execute("UPDATE corpora SET indexed_at = current_timestamp WHERE id = ?", [cid])
    cluster_terms(store)
    return report


def _progress(total: int, root: str) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=f"indexing {Path(root).name}", unit="doc", leave=False)


def _forget_chunks(con: duckdb.DuckDBPyConnection, cid: int, rel: str) -> None:
    for table in ("terms", "chunks"):
        con.execute(
            f"DELETE FROM {table} WHERE doc_id IN "
            "(SELECT id FROM documents WHERE corpus_id = ? AND path = ?)",
            [cid, rel],
        )


def _write(
    store: Store,
    cid: int,
    batch: list[tuple[str, str, Document | ParseError]],
    known: dict[str, Any],
    on_disk: dict[str, _FileRow],
    report: IndexReport,
) -> None:
    """Replace the rows of a batch of documents in one transaction."""
    chunk_rows: list[tuple[Any, ...]] = []
    term_rows: list[tuple[Any, ...]] = []
    with store.transaction() as con:
        for rel, digest, result in batch:
            row = on_disk[rel]
            _forget_chunks(con, cid, rel)
            con.execute("DELETE FROM documents WHERE corpus_id = ? AND path = ?", [cid, rel])
            if isinstance(result, ParseError):
                report.failed[rel] = result.why
                con.execute(
                    "INSERT INTO documents (corpus_id, path, size, mtime_ns, content_hash, error)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    [cid, rel, row.size, row.mtime_ns, digest, result.why],
                )
                continue
            (report.updated if rel in known else report.added).append(rel)
            meta = extract_metadata(result.text, title=result.title, path=rel, format=result.format)
            doc_id = con.execute(
                "INSERT INTO documents (corpus_id, path, title, format, pages, chars, text,"
                " content_hash, metadata, parser, warnings, size, mtime_ns, spans)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                [
                    cid,
                    rel,
                    result.title,
                    result.format,
                    result.pages,
                    len(result.text),
                    result.text,
                    digest,
                    json.dumps(meta, default=str),
                    result.parser,
                    json.dumps(result.warnings),
                    row.size,
                    row.mtime_ns,
                    json.dumps(result.to_dict()["spans"]),
                ],
            ).fetchone()[0]
            for chunk in chunk_document(result):
                counts = Counter(tokenize(f"{chunk.heading}\n{chunk.text}"))
                chunk_rows.append(
                    (
                        doc_id,
                        chunk.position,
                        chunk.text,
                        chunk.start,
                        chunk.end,
                        chunk.page,
                        chunk.heading,
                        sum(counts.values()),
                    )
                )
                term_rows.extend((doc_id, chunk.position, t, n) for t, n in counts.items())
        if chunk_rows:
            chunks = pd.DataFrame(
                chunk_rows,
                columns=[
                    "doc_id",
                    "position",
                    "text",
                    "start_char",
                    "end_char",
                    "page",
                    "heading",
                    "n_terms",
                ],
            )
            terms = pd.DataFrame(term_rows, columns=["doc_id", "position", "term", "tf"])
            con.register("new_chunks", chunks)
            con.register("new_terms", terms)
            con.execute("INSERT INTO chunks SELECT * FROM new_chunks")
            con.execute("INSERT INTO terms SELECT * FROM new_terms")
            con.unregister("new_chunks")
            con.unregister("new_terms")


def _store_schema(con: duckdb.DuckDBPyConnection, cid: int) -> None:
    """Rediscover the corpus' metadata schema from its current documents."""
    rows = [
        json.loads(meta)
        for (meta,) in con.execute(
            "SELECT metadata FROM documents WHERE corpus_id = ? AND NOT deleted AND error IS NULL",
            [cid],
        ).fetchall()
        if meta
    ]
    con.execute("DELETE FROM schemas WHERE corpus_id = ?", [cid])
    for entry in discover_schema(rows):
        con.execute(
            "INSERT INTO schemas VALUES (?, ?, ?, ?, ?)",
            [
                cid,
                entry["field"],
                entry["type"],
                entry["documents"],
                json.dumps(entry["examples"], default=str),
            ],
        )
