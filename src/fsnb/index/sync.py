"""Bringing a corpus' BM25 engine to the documents of the DuckDB file: the state file that
says what the engine holds, the plan (ids to add, ids to drop, or a rebuild), the rows
read for it, and the update, one tantivy commit per batch (`fsnb.index.derived` says when).

The state file, `state.json` in the engine's folder, is written after each commit: the
documents the engine holds (id -> chunks), the documents' state they match (None while an
update is under way), the corpus row's creation time (which tells one file from another
at the same path) and the chunks of deleted documents still in tantivy's statistics.
It never says the engine holds a document it does not: an update stopped between commit
and state file leaves documents the state file does not name, added again (their id
deleted first) by the next update.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from fsnb.index.engine import TextIndex, layout

#: Chunks of deleted documents, as a share of the live ones, that make the engine rebuild
#: (tantivy's N and document frequencies count them until it merges their segments).
REBUILD_SHARE = 0.1
STATE = "state.json"


def engine_dir(db: Path, cid: int) -> Path:
    return db.with_name(db.name + ".bm25") / f"corpus-{cid}"


@dataclass
class Plan:
    """What brings an engine to the documents of the file: ids to add, ids to drop."""

    state: list[Any]  # the documents' state it leads to
    corpus: str | None  # the corpus row's creation time: tells one file from another
    live: dict[int, int]  # live document id -> chunks
    add: list[int]
    gone: list[int]
    rebuild: bool
    kept: dict[int, int]  # documents the engine keeps -> chunks
    dead: int  # chunks of deleted documents still in tantivy's statistics

    @property
    def chunks(self) -> int:
        return sum(self.live[d] for d in self.add)


@dataclass
class Corpus:
    """This process' handle on one corpus' engine."""

    db: Path
    cid: int
    index: TextIndex
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: The file version at which the engine was found to match the documents.
    version: tuple[int, ...] | None = None
    #: The state file's (inode, mtime, size) when last read (and the reader reloaded).
    seen: tuple[int, int, int] | None = None
    saved: dict[str, Any] | None = None
    builder: threading.Thread | None = None
    #: At `version`: filter expression -> its condition; condition -> allowed document ids.
    filters: dict[str, tuple[str, list[Any]]] = field(default_factory=dict)
    allowed: dict[tuple[Any, ...], frozenset[int]] = field(default_factory=dict)

    @property
    def folder(self) -> Path:
        return self.index.path

    def building(self) -> bool:
        return self.builder is not None and self.builder.is_alive()

    def load(self) -> dict[str, Any] | None:
        """The state file (re-read, and the reader reloaded, when it changed)."""
        path = self.folder / STATE
        try:
            info = path.stat()
        except OSError:
            return None
        seen = (info.st_ino, info.st_mtime_ns, info.st_size)
        if seen != self.seen:
            try:
                saved = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return None
            saved["docs"] = {int(k): int(v) for k, v in saved.get("docs", {}).items()}
            self.index.reload()
            self.seen, self.saved = seen, saved
        return self.saved

    def save(self, plan: Plan, docs: dict[int, int], dead: int, *, done: bool) -> None:
        """Write the state file (atomically): `docs` are in the engine; `done`: it matches
        `plan.state`."""
        body = {
            "layout": layout(),
            "corpus": plan.corpus,
            "state": plan.state if done else None,
            "docs": {str(k): v for k, v in sorted(docs.items())},
            "dead": dead,
        }
        tmp = self.folder / f"{STATE}.{os.getpid()}.{threading.get_ident()}"
        tmp.write_text(json.dumps(body), encoding="utf-8")
        tmp.replace(self.folder / STATE)

    def share(self, allowed: frozenset[int] | None) -> float:
        """The part of the engine's documents that `allowed` names (1 without it)."""
        if allowed is None:
            return 1.0
        return len(allowed) / max(1, len(self.saved["docs"]) if self.saved else 1)

    def matches(self, state: list[Any], corpus: str | None) -> bool:
        saved = self.load()
        return bool(
            saved
            and saved.get("layout") == layout()
            and saved.get("corpus") == corpus
            and saved.get("state") == state
        )


def state(con: duckdb.DuckDBPyConnection, cid: int) -> tuple[list[Any], str | None]:
    """(the corpus' live documents' state, the corpus row's creation time)."""
    row = con.execute(
        "SELECT count(*), coalesce(max(id), 0), coalesce(sum(id), 0), max(indexed_at)::VARCHAR,"
        " (SELECT created_at::VARCHAR FROM corpora WHERE id = $cid)"
        " FROM documents WHERE corpus_id = $cid AND NOT deleted",
        {"cid": cid},
    ).fetchone()
    return [int(row[0]), int(row[1]), int(row[2]), row[3]], row[4]


def plan(
    con: duckdb.DuckDBPyConnection, corpus: Corpus, state: list[Any], made: str | None
) -> Plan:
    live = dict(
        con.execute(
            "SELECT doc_id, count(*) FROM chunks WHERE doc_id IN"
            " (SELECT id FROM documents WHERE corpus_id = ? AND NOT deleted) GROUP BY doc_id",
            [corpus.cid],
        ).fetchall()
    )
    saved = corpus.load()
    usable = bool(saved) and saved.get("layout") == layout() and saved.get("corpus") == made
    had: dict[int, int] = saved["docs"] if saved and usable else {}
    gone = sorted(had.keys() - live.keys())
    dead = (int(saved.get("dead", 0)) if saved and usable else 0) + sum(had[d] for d in gone)
    # Chunks the engine holds beyond what its state file says (an update stopped between
    # commit and state file) are added again: their first copies die.
    corpus.index.reload()
    dead += max(0, corpus.index.searcher.num_docs - sum(had.values()))
    kept = {d: n for d, n in had.items() if d in live}
    rebuild = not usable or dead > REBUILD_SHARE * max(1, sum(live.values()))
    if rebuild:
        return Plan(state, made, live, sorted(live), [], True, {}, 0)
    return Plan(state, made, live, sorted(live.keys() - had.keys()), gone, False, kept, dead)


def chunk_rows(con: duckdb.DuckDBPyConnection, cid: int, ids: list[int]) -> list[tuple[Any, ...]]:
    """The engine's rows of documents `ids`: (doc_id, position, bag of terms, then
    `fsnb.index.engine.ROW`'s fields). Each term is written `tf` times; the id range lets
    DuckDB skip the row groups of `terms` that hold none of them (new documents, whose ids
    are the largest, are in its unsorted tail)."""
    if not ids:
        return []
    bounds = {"cid": cid, "lo": min(ids), "hi": max(ids), "ids": ids}
    return con.execute(
        "SELECT c.doc_id, c.position, coalesce(t.bag, ''), d.path, d.title, c.page, c.heading,"
        " c.text, c.start_char, c.end_char, c.ocr_confidence"
        " FROM chunks c JOIN documents d ON d.id = c.doc_id"
        " LEFT JOIN (SELECT doc_id, position, string_agg(repeat(term || ' ', tf), '') AS bag"
        "   FROM terms WHERE corpus_id = $cid AND doc_id BETWEEN $lo AND $hi"
        "   AND doc_id IN (SELECT unnest($ids)) GROUP BY doc_id, position) t"
        " ON t.doc_id = c.doc_id AND t.position = c.position"
        " WHERE c.doc_id BETWEEN $lo AND $hi AND c.doc_id IN (SELECT unnest($ids))"
        " ORDER BY c.doc_id, c.position",
        bounds,
    ).fetchall()


def _batches(plan: Plan, size: int) -> Iterator[list[int]]:
    batch: list[int] = []
    chunks = 0
    for doc in plan.add:
        batch.append(doc)
        chunks += plan.live[doc]
        if chunks >= size:
            yield batch
            batch, chunks = [], 0
    if batch:
        yield batch


def apply(
    corpus: Corpus, plan: Plan, read: Callable[[list[int]], list[tuple[Any, ...]]], size: int
) -> None:
    """Make the engine hold `plan.live`: drop and add documents, reading each batch of ids
    with `read(ids)`, one commit per batch; the state file follows each commit."""
    docs, dead = dict(plan.kept), plan.dead
    writer = corpus.index.writer()  # its holder alone writes the state file
    try:
        if not (plan.add or plan.gone or plan.rebuild):  # documents without chunks changed
            corpus.save(plan, docs, dead, done=True)
            return
        if plan.rebuild:
            corpus.save(plan, {}, 0, done=False)  # it no longer says what the engine holds
            writer.delete_all()
        else:
            writer.delete([*plan.gone, *plan.add])
        batches = list(_batches(plan, size)) or [[]]
        for batch in batches:
            writer.add(read(batch))
            writer.commit()
            docs.update((d, plan.live[d]) for d in batch)
            corpus.save(plan, docs, dead, done=batch is batches[-1])
    finally:
        writer.close()
    corpus.load()
