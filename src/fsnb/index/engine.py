"""The BM25 engine: one tantivy index per corpus, derived from the DuckDB file.

Each chunk is one tantivy document. `body` holds the chunk's `terms` rows as fsnb indexed
them (`fsnb.text.words.tokenize`), each written `tf` times and split on spaces only, so
tantivy counts the same term frequencies and chunk lengths as the SQL ranking
(`fsnb.index.bm25`); `doc_id` and `position` are fast fields; `row` keeps what a hit shows
(path, title, page, heading, text, offsets, OCR confidence), so that a search answers
without reading DuckDB. tantivy ranks by BM25 with k1 1.2 and b 0.75 and the idf
ln(1 + (N - df + 0.5) / (df + 0.5)), as the SQL does, and finds the top chunks with
block-max WAND instead of scoring every chunk that holds a query term.

Where its scores differ from the SQL's textbook BM25 (the documented tolerance):

- a chunk's length is stored in one byte: exact up to 40 terms, rounded down above that,
  by at most 1/8 (a chunk of 300 terms counts as 280);
- N and each term's document frequency count the chunks of replaced or deleted documents
  until tantivy merges their segment away (`fsnb.index.derived` rebuilds the index once
  they pass `REBUILD_SHARE` of the live chunks);
- scores are 32-bit floats.

`fsnb.index.derived` keeps these indexes in step with the DuckDB file.
"""

from __future__ import annotations

import functools
import hashlib
import json
import shutil
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any

import tantivy

from fsnb.text.redact import mask_secrets

#: The engine's layout; an index written under another one is rebuilt (`layout`).
LAYOUT = 2
#: tantivy's BM25 parameters (fixed in tantivy): other values rank in SQL.
K1, B = 1.2, 0.75
#: The writer's memory budget (tantivy flushes a segment when it is spent).
WRITER_HEAP = 64_000_000
#: A filter that keeps this share of the documents or more is applied to the best chunks of
#: all (up to `MAX_FETCH` of them), not intersected with the query.
WIDE_FILTER = 0.1
MAX_FETCH = 2_000
#: The fields of `row`, in `fsnb.index.query.fetch_chunks`'s names, then the text with its
#: secret values masked (`fsnb.text.redact`; None when that changes nothing), which a hit's
#: snippet is cut from: masking costs more than the rest of a search.
ROW = ("path", "title", "page", "heading", "text", "start_char", "end_char", "ocr", "masked")


@functools.cache
def layout() -> str:
    """`LAYOUT` and a digest of the secret masker's code: an index whose texts another
    masker masked is rebuilt."""
    digest = hashlib.sha256()
    folder = resources.files("fsnb.text.redact")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".py"):
            digest.update(entry.name.encode() + b"\0" + entry.read_bytes())
    return f"{LAYOUT}-{digest.hexdigest()[:16]}"


def schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("body", tokenizer_name="whitespace", index_option="freq")
    builder.add_integer_field("doc_id", indexed=True, fast=True)
    builder.add_integer_field("position", fast=True)
    builder.add_bytes_field("row", stored=True)
    return builder.build()


class EngineBusy(Exception):
    """Another process holds the index's writer: it is being brought up to date there."""


class TextIndex:
    """One corpus' tantivy index in folder `path` (created when missing)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.schema = schema()
        path.mkdir(parents=True, exist_ok=True)
        try:
            self.index = tantivy.Index(self.schema, path=str(path), reuse=True)
        except (OSError, ValueError):  # damaged, or another layout: it is only derived
            shutil.rmtree(path, ignore_errors=True)
            path.mkdir(parents=True, exist_ok=True)
            self.index = tantivy.Index(self.schema, path=str(path), reuse=False)
        self.index.config_reader(reload_policy="Manual")
        self.searcher = self.index.searcher()

    def reload(self) -> None:
        """See the index as last committed (by this process or another)."""
        self.index.reload()
        self.searcher = self.index.searcher()

    def writer(self) -> Writer:
        """The index's one writer (`EngineBusy` while another process holds it)."""
        try:
            return Writer(self.index.writer(WRITER_HEAP, 1), self.schema)
        except ValueError as exc:
            raise EngineBusy(str(exc)) from None

    def _query(self, terms: dict[str, int], allowed: frozenset[int] | None) -> tantivy.Query:
        """Any of `terms` (each weighted by its count in the query), among `allowed`
        documents' chunks when given."""
        should = []
        for term, count in terms.items():
            query = tantivy.Query.term_query(self.schema, "body", term)
            if count != 1:
                query = tantivy.Query.boost_query(query, float(count))
            should.append((tantivy.Occur.Should, query))
        query = tantivy.Query.boolean_query(should)
        if allowed is None:
            return query
        among = tantivy.Query.term_set_query(self.schema, "doc_id", sorted(allowed))
        return tantivy.Query.boolean_query(
            [
                (tantivy.Occur.Must, query),
                (tantivy.Occur.Must, tantivy.Query.const_score_query(among, 0.0)),
            ]
        )

    def search(
        self,
        terms: dict[str, int],
        k: int,
        allowed: frozenset[int] | None = None,
        *,
        rows: bool,
        share: float = 0.0,
    ) -> list[dict[str, Any]]:
        """The best `k` chunks for the query `terms` ({term: count}) among the chunks of the
        `allowed` documents (all without it; `share`: the part of the corpus' documents
        they are): dicts of doc_id, position and score, with `ROW`'s fields when `rows`;
        best first, ties by (doc_id, position)."""
        if not terms or (allowed is not None and not allowed) or k <= 0:
            return []
        searcher = self.searcher
        picked = None
        if allowed is not None and share >= WIDE_FILTER:
            # Most documents pass: the best chunks of all, filtered, hold the best allowed
            # ones once k of them pass (cheaper than intersecting with the id set).
            n = min(MAX_FETCH, int(2 * k / share) + 16)
            hits = searcher.search(self._query(terms, None), n, count=False).hits
            docs = searcher.fast_field_values("doc_id", [a for _, a in hits])
            picked = [(s, a, d) for (s, a), d in zip(hits, docs, strict=True) if d in allowed]
            if len(picked) < k and len(hits) == n:
                picked = None
        if picked is None:
            hits = searcher.search(self._query(terms, allowed), k, count=False).hits
            docs = searcher.fast_field_values("doc_id", [a for _, a in hits])
            picked = [(s, a, d) for (s, a), d in zip(hits, docs, strict=True)]
        picked = picked[:k]
        positions = searcher.fast_field_values("position", [a for _, a, _ in picked])
        found = []
        for (score, address, doc), position in zip(picked, positions, strict=True):
            hit = {"doc_id": doc, "position": position, "score": float(score)}
            if rows:
                stored = searcher.doc(address).get_first("row")
                hit.update(zip(ROW, json.loads(stored), strict=True))
                if hit["masked"] is None:
                    hit["masked"] = hit["text"]
            found.append(hit)
        found.sort(key=lambda h: (-h["score"], h["doc_id"], h["position"]))
        return found

    def doc_freqs(self, terms: Iterable[str]) -> tuple[int, dict[str, int]]:
        """(chunks, {term: chunks holding it}) as tantivy counts them."""
        searcher = self.searcher
        return searcher.num_docs, {t: searcher.doc_freq("body", t) for t in terms}


class Writer:
    """Changes to a `TextIndex`, seen by searches after `commit`."""

    def __init__(self, writer: tantivy.IndexWriter, schema: tantivy.Schema) -> None:
        self._writer = writer
        self._schema = schema

    def add(self, rows: Iterable[tuple[Any, ...]]) -> int:
        """Add chunks: (doc_id, position, bag of terms, then `ROW`'s fields but the masked
        text) each; returns how many."""
        n = 0
        text_at = ROW.index("text")
        for doc_id, position, bag, *shown in rows:
            masked = mask_secrets(shown[text_at])[0]
            shown.append(None if masked == shown[text_at] else masked)
            doc = tantivy.Document()
            doc.add_text("body", bag or "")
            doc.add_integer("doc_id", int(doc_id))
            doc.add_integer("position", int(position))
            doc.add_bytes("row", json.dumps(shown, separators=(",", ":")).encode())
            self._writer.add_document(doc)
            n += 1
        return n

    def delete(self, doc_ids: Iterable[int]) -> None:
        """Remove the chunks of these documents."""
        ids = sorted({int(d) for d in doc_ids})
        if ids:
            self._writer.delete_documents_by_query(
                tantivy.Query.term_set_query(self._schema, "doc_id", ids)
            )

    def delete_all(self) -> None:
        self._writer.delete_all_documents()

    def commit(self) -> None:
        self._writer.commit()

    def close(self) -> None:
        """Let merges finish and release the writer's lock; what was not committed is lost."""
        self._writer.wait_merging_threads()
