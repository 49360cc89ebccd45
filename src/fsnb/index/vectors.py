"""Dense vectors for chunks: embedders, the embeddings tables, and similarity search.

An `Embedder` turns texts into vectors of `dim` floats; its `name` identifies the model
(and dimension), so vectors of different models are never compared. Vectors live in one
table per dimension, `embeddings_<dim>` (doc_id, position, model, vector FLOAT[dim]),
created on demand: a fixed-size array column is what DuckDB's built-in
`array_cosine_similarity` ranks, and a table per dimension lets models of different sizes
coexist. `embed_corpus` fills in the chunks that lack a vector (incremental: re-indexed
documents get new ids and so new chunks; vectors of chunks that are gone are dropped).

Embedders: `HashEmbedder` (hashed bag of stems: deterministic, no model; for tests and
offline demos), `GeminiEmbedder` (google-genai `embed_content`) and
`SentenceTransformerEmbedder` (a local model already on disk; never downloads).
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from typing import TYPE_CHECKING, Any, Protocol

import pandas as pd

from fsnb import config
from fsnb.errors import FsnbError, one_line
from fsnb.gemini_client import gemini_client
from fsnb.index.progress import bar as progress_bar
from fsnb.index.query import (
    Folder,
    NotIndexed,
    Source,
    corpus_of,
    fetch_chunks,
    filter_sql,
    hit_frame,
    query_terms,
    session,
)
from fsnb.text.words import tokenize

if TYPE_CHECKING:
    import duckdb

    from fsnb.db.database import Database

GEMINI_EMBEDDING_MODEL = "gemini-embedding-001"
#: Characters of a chunk (heading and text) sent to an embedder.
MAX_CHARS = 8000


class EmbeddingError(FsnbError):
    """An embedder could not be created or could not embed."""


class Embedder(Protocol):
    """Texts to vectors. `name` identifies the model and dimension of the vectors."""

    name: str
    dim: int

    def embed(self, texts: list[str]) -> list[list[float]]: ...


class HashEmbedder:
    """A hashed bag of stems (`fsnb.text.words.tokenize`), L2-normalized: lexical, deterministic."""

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.name = f"hash-{dim}"

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [self._one(text) for text in texts]

    def _one(self, text: str) -> list[float]:
        vector = [0.0] * self.dim
        for term, count in Counter(tokenize(text)).items():
            digest = int.from_bytes(hashlib.blake2b(term.encode(), digest_size=8).digest(), "big")
            vector[digest % self.dim] += (1 + math.log(count)) * (1 if digest >> 63 else -1)
        norm = math.sqrt(sum(v * v for v in vector)) or 1.0
        return [v / norm for v in vector]


class GeminiEmbedder:
    """Gemini embeddings through google-genai (key from `fsnb.config.api_key()`).

    Documents are embedded as RETRIEVAL_DOCUMENT and queries (`embed_query`) as
    RETRIEVAL_QUERY, in batches of `batch`; `FSNB_GEMINI_BASE_URL` points the client
    elsewhere (a proxy, or the fake server in tests).
    """

    def __init__(
        self,
        model: str = GEMINI_EMBEDDING_MODEL,
        dim: int = 768,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        batch: int = 100,
        retries: int = 2,
        timeout_s: float = 60.0,
    ) -> None:
        key = api_key or config.api_key()
        if not key:
            names = " or ".join(config.KEY_VARIABLES)
            msg = f"no Gemini API key for embeddings: set {names} (or put it in .env)"
            raise EmbeddingError(msg)
        self.model, self.dim, self.batch = model, dim, batch
        self.name = f"gemini:{model}:{dim}"
        self.client = gemini_client(
            key, base_url=base_url, timeout_s=timeout_s, attempts=retries + 1
        )

    def embed(self, texts: list[str], *, task: str = "RETRIEVAL_DOCUMENT") -> list[list[float]]:
        from google.genai import errors, types

        settings = types.EmbedContentConfig(task_type=task, output_dimensionality=self.dim)
        out: list[list[float]] = []
        for start in range(0, len(texts), self.batch):
            part = [text[:MAX_CHARS] or " " for text in texts[start : start + self.batch]]
            try:
                reply = self.client.models.embed_content(
                    model=self.model, contents=part, config=settings
                )
            except errors.APIError as exc:
                message = one_line(exc.message or exc, 300)
                msg = f"gemini embeddings: HTTP {exc.code} {exc.status or ''}: {message}"
                raise EmbeddingError(msg) from None
            vectors = [list(e.values or []) for e in reply.embeddings or []]
            if len(vectors) != len(part):
                msg = f"gemini embeddings: {len(vectors)} vectors for {len(part)} texts"
                raise EmbeddingError(msg)
            out.extend(vectors)
        return out

    def embed_query(self, text: str) -> list[float]:
        return self.embed([text], task="RETRIEVAL_QUERY")[0]


class SentenceTransformerEmbedder:
    """A sentence-transformers model already on disk (a path, or a cached model name).

    Needs the optional `sentence-transformers` package; never downloads a model.
    """

    def __init__(self, model: str) -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            msg = "local embeddings need the sentence-transformers package (pip install it)"
            raise EmbeddingError(msg) from None
        try:
            self._model = SentenceTransformer(model, local_files_only=True)
        except Exception as exc:  # the library raises OSError, ValueError, HF errors...
            why = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
            msg = f"sentence-transformers model {model!r} is not on disk ({why})"
            raise EmbeddingError(msg) from None
        self.dim = int(self._model.get_sentence_embedding_dimension() or 0)
        self.name = f"st:{model}"

    def embed(self, texts: list[str]) -> list[list[float]]:
        vectors = self._model.encode([t[:MAX_CHARS] for t in texts], normalize_embeddings=True)
        return [list(map(float, v)) for v in vectors]


def embedder_from_name(name: str) -> Embedder:
    """Rebuild the embedder that wrote vectors under `name` (EmbeddingError if it can't be)."""
    if match := re.fullmatch(r"hash-(\d+)", name):
        return HashEmbedder(int(match.group(1)))
    if match := re.fullmatch(r"gemini:(.+):(\d+)", name):
        return GeminiEmbedder(match.group(1), int(match.group(2)))
    if name.startswith("st:"):
        return SentenceTransformerEmbedder(name[3:])
    msg = f"unknown embedder {name!r}"
    raise EmbeddingError(msg)


# -- the embeddings tables -------------------------------------------------------------


def table_for(dim: int) -> str:
    if not isinstance(dim, int) or dim <= 0:
        msg = f"an embedder's dim must be a positive integer, not {dim!r}"
        raise EmbeddingError(msg)
    return f"embeddings_{dim}"


def _exists(con: duckdb.DuckDBPyConnection, table: str) -> bool:
    found = con.execute(
        "SELECT 1 FROM duckdb_tables() WHERE table_name = ? AND database_name = current_database()",
        [table],
    ).fetchone()
    return found is not None


def embed_corpus(
    store: Database, folder: Folder, embedder: Embedder, *, batch: int = 64, progress: bool = False
) -> int:
    """Embed the chunks of `folder` that have no vector from `embedder`; return how many.

    Texts are embedded outside any database connection and written one batch per
    transaction, so an interruption keeps what was done.
    """
    table = table_for(embedder.dim)
    if not store.path.exists():
        raise NotIndexed(folder)
    with store.write() as con:
        cid = corpus_of(con, folder)
        con.execute(
            f"CREATE TABLE IF NOT EXISTS {table} (doc_id INTEGER NOT NULL, position INTEGER NOT"
            f" NULL, model VARCHAR NOT NULL, vector FLOAT[{embedder.dim}] NOT NULL)"
        )
        con.execute(
            f"DELETE FROM {table} e WHERE NOT EXISTS (SELECT 1 FROM chunks c"
            " WHERE c.doc_id = e.doc_id AND c.position = e.position)"
        )
        todo = con.execute(
            "SELECT c.doc_id, c.position, coalesce(c.heading, '') || '\n' || c.text FROM chunks c"
            " JOIN documents d ON d.id = c.doc_id WHERE d.corpus_id = ? AND NOT d.deleted"
            f" AND NOT EXISTS (SELECT 1 FROM {table} e WHERE e.model = ? AND"
            " e.doc_id = c.doc_id AND e.position = c.position) ORDER BY c.doc_id, c.position",
            [cid, embedder.name],
        ).fetchall()
    bar = _bar(len(todo), embedder.name) if progress and todo else None
    for start in range(0, len(todo), batch):
        part = todo[start : start + batch]
        vectors = embedder.embed([text for _, _, text in part])
        if len(vectors) != len(part) or any(len(v) != embedder.dim for v in vectors):
            msg = f"{embedder.name} returned vectors of the wrong number or size"
            raise EmbeddingError(msg)
        frame = pd.DataFrame(
            {"doc_id": [d for d, _, _ in part], "position": [p for _, p, _ in part]}
        ).assign(model=embedder.name, vector=vectors)
        with store.write() as con:
            con.register("new_vectors", frame)
            con.execute(
                f"INSERT INTO {table} SELECT doc_id, position, model,"
                f" vector::FLOAT[{embedder.dim}] FROM new_vectors"
            )
            con.unregister("new_vectors")
        if bar is not None:
            bar.update(len(part))
    if bar is not None:
        bar.close()
    return len(todo)


def _bar(total: int, name: str) -> Any:
    return progress_bar(total, f"embedding ({name})", "chunk", "chunks embedded")


def has_vectors(store: Source, folder: Folder, embedder: Embedder) -> bool:
    """Whether any chunk of `folder` has a vector from `embedder`."""
    table = table_for(embedder.dim)
    with session(store, folder) as (con, cid):
        if not _exists(con, table):
            return False
        row = con.execute(
            f"SELECT 1 FROM {table} e JOIN documents d ON d.id = e.doc_id"
            " WHERE d.corpus_id = ? AND e.model = ? AND NOT d.deleted LIMIT 1",
            [cid, embedder.name],
        ).fetchone()
    return row is not None


def stored_models(store: Source, folder: Folder) -> pd.DataFrame:
    """The embedders that have vectors for `folder`: model, dim, chunks."""
    with session(store, folder) as (con, cid):
        names = con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()"
        ).fetchall()
        tables = [t for (t,) in names if re.fullmatch(r"embeddings_\d+", t)]
        parts = [
            f"SELECT e.model, {t.split('_')[1]} AS dim, count(*) AS chunks FROM {t} e"
            " JOIN documents d ON d.id = e.doc_id WHERE d.corpus_id = ? AND NOT d.deleted"
            " GROUP BY e.model"
            for t in tables
        ]
        if not parts:
            return pd.DataFrame(columns=["model", "dim", "chunks"])
        sql = " UNION ALL ".join(parts) + " ORDER BY chunks DESC, model"
        return con.execute(sql, [cid] * len(parts)).df()


def stored_embedder(store: Source, folder: Folder) -> Embedder | None:
    """An embedder for the vectors `folder` has (the most complete first), if one can be made."""
    for name in stored_models(store, folder)["model"]:
        try:
            return embedder_from_name(name)
        except EmbeddingError:
            continue
    return None


def vector_scores(
    con: duckdb.DuckDBPyConnection,
    cid: int,
    query: str,
    embedder: Embedder,
    *,
    k: int,
    where: tuple[str, list[Any]] = ("", []),
) -> list[tuple[int, int, float]]:
    """The (doc_id, position, cosine) of the `k` chunks of corpus `cid` nearest to `query`."""
    table = table_for(embedder.dim)
    if not _exists(con, table):
        return []
    embed_query = getattr(embedder, "embed_query", None)
    vector = embed_query(query) if embed_query else embedder.embed([query])[0]
    return con.execute(
        "SELECT e.doc_id, e.position, array_cosine_similarity(e.vector,"
        f" ?::FLOAT[{embedder.dim}]) AS score FROM {table} e"
        " JOIN documents d ON d.id = e.doc_id"
        f" WHERE d.corpus_id = ? AND NOT d.deleted AND e.model = ? AND {where[0] or 'TRUE'}"
        f" ORDER BY score DESC, e.doc_id, e.position LIMIT {int(k)}",
        [vector, cid, embedder.name, *where[1]],
    ).fetchall()


def vector_search(
    store: Source,
    folder: Folder,
    query: str,
    embedder: Embedder,
    *,
    k: int = 10,
    filter: str | None = None,
) -> pd.DataFrame:
    """The `k` chunks of `folder` most similar to `query` (cosine), like `bm25`'s frame."""
    _, words = query_terms(query)
    with session(store, folder) as (con, cid):
        where = filter_sql(con, cid, filter)
        scored = vector_scores(con, cid, query, embedder, k=k, where=where)
        rows = fetch_chunks(con, scored)
    return hit_frame(rows, "vector", words)
