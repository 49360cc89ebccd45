"""Search over the index: BM25 ranking on the sample corpora, filters, highlights,
vectors and hybrid fusion, the file-name bridge, deleted documents, name search."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest
from conftest import DATA, make_pdf
from fake_gemini import FakeGemini, Scripted, Sent

from fsnb.db import Database
from fsnb.db.database import database
from fsnb.index.bm25 import bm25
from fsnb.index.bridge import bridge, find_files
from fsnb.index.filters import FilterError
from fsnb.index.index import Index
from fsnb.index.query import COLUMNS, NotIndexed, highlights, query_terms, snippet
from fsnb.index.search import rrf, search
from fsnb.index.vectors import (
    EmbeddingError,
    GeminiEmbedder,
    HashEmbedder,
    SentenceTransformerEmbedder,
    embed_corpus,
    embedder_from_name,
    has_vectors,
    stored_embedder,
    stored_models,
    vector_search,
)
from fsnb.index.writer import cluster_terms

CORPORA = ["test_acquisition", "large_acquisition", "mixed"]


def _single_questions() -> list[Any]:
    params = []
    for corpus in CORPORA:
        for q in json.loads((DATA / corpus / "questions.json").read_text())["questions"]:
            # paraphrases (`paraphrase_of`) are measured by bench/quality.py, not asserted
            if q["level"] == "single" and "paraphrase_of" not in q:
                params.append(pytest.param(corpus, q, id=q["id"]))
    return params


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    """The three sample corpora, indexed once for the module."""
    tmp = tmp_path_factory.mktemp("search-index")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FSNB_CACHE_DIR", str(tmp / "cache"))
        ix = Index(tmp / "index.duckdb")
        for corpus in CORPORA:
            ix.add_folder(DATA / corpus, progress=False)
        yield ix


def _corpus(root: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


# -- ranking -----------------------------------------------------------------------------


@pytest.mark.parametrize(("corpus", "question"), _single_questions())
def test_single_questions_rank_their_source_in_the_top_3(
    index: Index, corpus: str, question: dict[str, Any]
):
    hits = bm25(index.db, DATA / corpus, question["question"], k=3)
    assert question["sources"][0] in list(hits["path"])


def test_hits_are_chunks_with_scores_highlights_and_exact_text(index: Index):
    folder = DATA / "large_acquisition"
    hits = bm25(index.db, folder, "retention bonus of the CTO", k=5)
    assert list(hits.columns) == COLUMNS
    assert len(hits) == 5 and set(hits["ranker"]) == {"bm25"}
    assert list(hits["score"]) == sorted(hits["score"], reverse=True)
    top = hits.iloc[0]
    assert {"retention", "bonus"} <= set(top["highlights"]["terms"])
    assert "**retention**" in top["highlights"]["snippet"].lower()
    assert len(top["highlights"]["snippet"]) < 420
    texts = index.sql("SELECT path, text FROM documents WHERE NOT deleted")
    text = dict(zip(texts["path"], texts["text"], strict=True))[top["path"]]
    assert text[top["start_char"] : top["end_char"]] == top["text"]


def test_an_open_connection_gives_the_same_hits(index: Index):
    folder = DATA / "mixed"
    with index.db.read() as con:
        shared = bm25(con, folder, "battery supplier contract")
    alone = bm25(index.db, folder, "battery supplier contract")
    pd.testing.assert_frame_equal(shared, alone)


def test_a_query_of_stopwords_has_no_hits(index: Index):
    assert bm25(index.db, DATA / "mixed", "what is the").empty


def test_a_folder_that_is_not_indexed(index: Index, tmp_path: Path):
    with pytest.raises(NotIndexed, match=r"is not indexed: run `fsnb index .*` or Index\(\)"):
        bm25(index.db, tmp_path, "price")
    missing = tmp_path / "nowhere.duckdb"
    with pytest.raises(NotIndexed):
        bm25(database(missing), tmp_path, "price")
    assert not missing.exists()


# -- filters -----------------------------------------------------------------------------


def test_a_filter_restricts_the_documents(index: Index):
    folder = DATA / "large_acquisition"
    expr = "document_type=agreement and max_amount>=1000000"
    hits = bm25(index.db, folder, "payment escrow bonus", k=20, filter=expr)
    assert not hits.empty
    docs = index.documents(folder).set_index("path")
    for path in hits["path"]:
        meta = json.loads(docs.loc[path, "metadata"])
        assert meta["document_type"] == "agreement" and meta["max_amount"] >= 1_000_000
    everything = bm25(index.db, folder, "payment escrow bonus", k=20)
    assert set(hits["path"]) < set(everything["path"])


def test_an_unknown_filter_field_names_the_known_ones(index: Index):
    with pytest.raises(FilterError) as caught:
        bm25(index.db, DATA / "mixed", "price", filter="doc_type=memo")
    message = str(caught.value)
    assert "unknown filter field 'doc_type' (did you mean 'document_type'?)" in message
    assert "known fields:" in message and "max_amount" in message
    with pytest.raises(FilterError, match="filter syntax error"):
        bm25(index.db, DATA / "mixed", "price", filter="document_type memo")


# -- highlights --------------------------------------------------------------------------


def test_snippet_is_the_densest_window_with_matches_in_bold():
    text = "alpha " * 80 + "The retention bonus is $1,200,000 for the CTO. " + "omega " * 80
    counts, words = query_terms("retention bonus 1200000")
    found = highlights(text, words)
    assert found["terms"] == ["retention", "bonus", "1200000"]
    assert "**retention** **bonus** is $**1,200,000**" in found["snippet"]
    assert found["snippet"].startswith("…") and found["snippet"].endswith("…")
    assert snippet("short text", []) == "short text"
    assert set(counts) == {"retent", "bonus", "1200000"}


def test_a_heading_match_counts_as_found():
    _, words = query_terms("escrow")
    assert highlights("nothing here", words, heading="Escrow Terms")["terms"] == ["escrow"]


# -- vectors and hybrid ------------------------------------------------------------------


def test_the_hash_embedder_is_deterministic_and_normalized():
    embedder = HashEmbedder(64)
    first, again = embedder.embed(["retention bonus"]), embedder.embed(["retention bonus"])
    assert first == again and len(first[0]) == 64
    assert math.isclose(math.sqrt(sum(v * v for v in first[0])), 1.0)
    assert embedder_from_name(embedder.name).dim == 64
    with pytest.raises(EmbeddingError, match="unknown embedder"):
        embedder_from_name("word2vec")


@pytest.fixture
def small(tmp_path: Path) -> tuple[Database, Path]:
    root = _corpus(
        tmp_path / "small",
        {
            "escrow.md": "# Escrow\n\nThe escrow holds $900,000 for twelve months.\n",
            "bonus.md": "# Retention\n\nThe CTO receives a retention bonus of $1,200,000.\n",
            "lunch.txt": "The team lunch is on Friday at the Italian place.\n",
        },
    )
    store = database(tmp_path / "small.duckdb")
    Index(store).add_folder(root, progress=False)
    return store, root


def test_vectors_are_incremental_and_follow_reindexing(small: tuple[Database, Path]):
    store, root = small
    embedder = HashEmbedder(32)
    assert not has_vectors(store, root, embedder)
    assert embed_corpus(store, root, embedder) == 3
    assert embed_corpus(store, root, embedder) == 0
    assert has_vectors(store, root, embedder)
    (root / "new.md").write_text("# Earnout\n\nThe earnout pays up to $5,000,000.\n")
    (root / "lunch.txt").write_text("The team lunch moved to Thursday.\n")
    Index(store).add_folder(root, progress=False)
    assert embed_corpus(store, root, embedder) == 2  # the new file and the changed one
    with store.read() as con:
        rows = con.execute("SELECT count(*) FROM embeddings_32").fetchone()[0]
    assert rows == 4  # the changed file's old vector is gone
    assert stored_models(store, root).to_dict("records") == [
        {"model": "hash-32", "dim": 32, "chunks": 4}
    ]


def test_embedding_a_folder_that_is_not_indexed(small: tuple[Database, Path], tmp_path: Path):
    store, _ = small
    with pytest.raises(NotIndexed):
        embed_corpus(store, tmp_path, HashEmbedder(8))
    missing = database(tmp_path / "none.duckdb")
    with pytest.raises(NotIndexed):
        embed_corpus(missing, tmp_path, HashEmbedder(8))
    assert not missing.path.exists()


def test_tables_per_dimension_and_model(small: tuple[Database, Path]):
    store, root = small
    embed_corpus(store, root, HashEmbedder(16))
    embed_corpus(store, root, HashEmbedder(48))
    models = stored_models(store, root)
    assert sorted(models["model"]) == ["hash-16", "hash-48"]
    assert isinstance(stored_embedder(store, root), HashEmbedder)


def test_only_the_index_files_own_vector_tables_count(small: tuple[Database, Path], tmp_path: Path):
    """Another database attached to the same connection may hold tables of the same names."""
    store, root = small
    with store.write() as con:
        con.execute(f"ATTACH '{tmp_path / 'other.duckdb'}' AS other")
        con.execute("CREATE TABLE other.embeddings_8 (model VARCHAR, chunk_id BIGINT)")
        assert stored_models(con, root).empty
        assert not has_vectors(con, root, HashEmbedder(8))


def test_vector_search_and_hybrid_fusion(small: tuple[Database, Path]):
    store, root = small
    embedder = HashEmbedder(256)
    assert search(store, root, "retention bonus", embedder=embedder)["ranker"].eq("bm25").all()
    embed_corpus(store, root, embedder)
    dense = vector_search(store, root, "retention bonus", embedder, k=3)
    assert dense.iloc[0]["path"] == "bonus.md" and set(dense["ranker"]) == {"vector"}
    assert -1.0 <= dense["score"].min() <= dense["score"].max() <= 1.0 + 1e-6
    hybrid = search(store, root, "retention bonus", embedder=embedder)
    assert hybrid.iloc[0]["path"] == "bonus.md"
    assert hybrid.iloc[0]["ranker"] == "bm25+vector"
    assert math.isclose(hybrid.iloc[0]["score"], 2 / 61)
    assert (
        search(store, root, "escrow", embedder=embedder, mode="vector")["ranker"].eq("vector").all()
    )
    with pytest.raises(ValueError, match="needs an embedder"):
        search(store, root, "escrow", mode="hybrid")
    with pytest.raises(FilterError):
        vector_search(store, root, "escrow", embedder, filter="nope=1")


def test_reciprocal_rank_fusion():
    bm25_ranking = [(1, 0, 9.0), (2, 0, 5.0), (3, 0, 1.0)]
    vector_ranking = [(3, 0, 0.9), (1, 0, 0.8)]
    fused = rrf({"bm25": bm25_ranking, "vector": vector_ranking}, k=3)
    assert [(doc, ranker) for doc, _, _, ranker in fused] == [
        (1, "bm25+vector"),
        (3, "bm25+vector"),
        (2, "bm25"),
    ]
    assert math.isclose(fused[0][2], 1 / 61 + 1 / 62)
    assert math.isclose(fused[1][2], 1 / 63 + 1 / 61)


def test_the_gemini_embedder_through_a_fake_server(
    small: tuple[Database, Path], monkeypatch: pytest.MonkeyPatch
):
    store, root = small

    class FakeEmbeddings(FakeGemini):
        def _answer(self, sent: Sent) -> Scripted:
            self.requests.append(sent)
            texts = [
                "".join(p["text"] for p in r["content"]["parts"]) for r in sent.body["requests"]
            ]
            vectors = HashEmbedder(8).embed(texts)
            return Scripted(200, {"embeddings": [{"values": v} for v in vectors]})

    with FakeEmbeddings() as server:
        monkeypatch.setenv("FSNB_GEMINI_BASE_URL", server.url)
        embedder = GeminiEmbedder(dim=8, api_key="test-key", batch=2)
        assert embed_corpus(store, root, embedder) == 3
        hits = vector_search(store, root, "retention bonus", embedder, k=1)
    assert hits.iloc[0]["path"] == "bonus.md"
    assert len(server.requests) == 3  # batches of 2, 1, then the query
    first = server.requests[0]
    assert first.path.endswith("/models/gemini-embedding-001:batchEmbedContents")
    assert first.body["requests"][0]["taskType"] == "RETRIEVAL_DOCUMENT"
    assert first.body["requests"][0]["outputDimensionality"] == 8
    assert server.requests[-1].body["requests"][0]["taskType"] == "RETRIEVAL_QUERY"
    assert embedder.name == "gemini:gemini-embedding-001:8"


def test_gemini_embedding_errors_are_clear(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    with FakeGemini() as server:
        server.enqueue_error(403, "API key not valid", "PERMISSION_DENIED")
        embedder = GeminiEmbedder(dim=8, api_key="bad", base_url=server.url, retries=0)
        with pytest.raises(EmbeddingError, match="HTTP 403 PERMISSION_DENIED: API key not valid"):
            embedder.embed(["x"])
    for name in ("GOOGLE_API_KEY", "GEMINI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(EmbeddingError, match="no Gemini API key for embeddings: set GOOGLE_API"):
        GeminiEmbedder()


def test_local_models_are_never_downloaded():
    try:
        import sentence_transformers  # noqa: F401
    except ImportError:
        with pytest.raises(EmbeddingError, match="sentence-transformers package"):
            SentenceTransformerEmbedder("all-MiniLM-L6-v2")
    else:
        with pytest.raises(EmbeddingError, match="is not on disk"):
            SentenceTransformerEmbedder("fsnb/no-such-model")


# -- deleted documents -------------------------------------------------------------------


def test_deleted_documents_are_never_returned(small: tuple[Database, Path]):
    store, root = small
    embedder = HashEmbedder(64)
    embed_corpus(store, root, embedder)
    (root / "escrow.md").unlink()
    Index(store).add_folder(root, progress=False)
    for mode in ("bm25", "vector", "hybrid"):
        hits = search(store, root, "escrow twelve months", embedder=embedder, mode=mode)
        assert "escrow.md" not in set(hits["path"]), mode
    assert "escrow.md" not in set(find_files(store, root, "escrow")["path"])


# -- the bridge --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> tuple[Database, Path]:
    """Payments whose words ('vendor payments') are only in their file names."""
    tmp_path = tmp_path_factory.mktemp("ledger")
    rows = "\n".join(f"Acme Supply {i},2024-0{1 + i % 9}-15,{1200 + 75 * i}.00" for i in range(30))
    root = _corpus(
        tmp_path / "ledger",
        {
            "finance/vendor_payments_2024.csv": "payee,date,amount\n" + rows + "\n",
            "finance/vendor_payments_2023.dat": b"\x00\x01\x02 not a document",
            "notes/offsite.md": "# Offsite\n\nThe offsite agenda covers hiring and the roadmap.\n",
        },
    )
    store = database(tmp_path / "ledger.duckdb")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FSNB_CACHE_DIR", str(tmp_path / "cache"))
        Index(store).add_folder(root, progress=False)
    return store, root


def test_the_bridge_reads_files_whose_names_match(ledger: tuple[Database, Path]):
    store, root = ledger
    query = "vendor payments"
    hits = bm25(store, root, query)
    assert hits.empty  # the words are only in the file names
    passages = bridge(store, root, query, hits)
    assert list(passages.columns) == COLUMNS and set(passages["ranker"]) == {"bridge"}
    assert set(passages["path"]) == {"finance/vendor_payments_2024.csv"}
    assert "Acme Supply" in passages.iloc[0]["text"]
    assert passages.attrs["reason"] == "no indexed passage matched"
    assert passages.attrs["skipped"] == {
        "finance/vendor_payments_2023.dat": "unsupported file type '.dat'"
    }


def test_no_bridge_when_the_hits_answer(ledger: tuple[Database, Path]):
    store, root = ledger
    hits = bm25(store, root, "offsite agenda hiring")
    assert hits.iloc[0]["path"] == "notes/offsite.md"
    passages = bridge(store, root, "offsite agenda hiring", hits)
    assert passages.empty and passages.attrs["reason"] is None


def test_the_bridge_passages_hold_the_query_words(tmp_path: Path):
    filler = ["Filler paragraph about nothing in particular."] * 40
    body = "\n\n".join([*filler, "Receipt no. 4471: laptop 14-inch, total $2,499.", *filler])
    root = _corpus(
        tmp_path / "c",
        {"purchases/macbook_2023.md": body, "policy.md": "Keep every receipt for audits."},
    )
    store = database(tmp_path / "c.duckdb")
    Index(store).add_folder(root, progress=False)
    hits = bm25(store, root, "macbook receipt")
    passages = bridge(store, root, "macbook receipt", hits)
    assert set(passages["path"]) == {"purchases/macbook_2023.md"}
    assert "Receipt no. 4471" in passages.iloc[0]["text"]
    assert "**Receipt** no. 4471" in passages.iloc[0]["highlights"]["snippet"]
    assert passages.attrs["reason"].startswith("the top passages hold")


# -- names -------------------------------------------------------------------------------


def test_find_files_by_keywords_and_globs(ledger: tuple[Database, Path]):
    store, root = ledger
    found = find_files(store, root, "vendor payment 2024")
    assert list(found["path"][:2]) == [
        "finance/vendor_payments_2024.csv",
        "finance/vendor_payments_2023.dat",
    ]
    assert list(found["matches"][:2]) == [3, 2]
    assert list(find_files(store, root, "*.csv")["path"]) == ["finance/vendor_payments_2024.csv"]
    assert list(find_files(store, root, "**/notes/*")["path"]) == ["notes/offsite.md"]
    assert find_files(store, root, "the of").empty


# -- clustering --------------------------------------------------------------------------


def test_clustering_terms_keeps_results(tmp_path: Path):
    root = tmp_path / "docs"
    make_pdf(root / "deal.pdf", [["The escrow holds $900,000."], ["Retention bonus terms."]])
    (root / "memo.md").write_text("# Memo\n\nThe escrow agent is First Bank.\n")
    store = database(tmp_path / "c.duckdb")
    Index(store).add_folder(root, progress=False)
    before = bm25(store, root, "escrow retention")
    assert cluster_terms(store) is False  # a small tail: nothing to do
    assert cluster_terms(store, force=True) is True
    pd.testing.assert_frame_equal(bm25(store, root, "escrow retention"), before)
    with duckdb.connect(str(store.path), read_only=True) as con:
        assert (
            con.execute(
                "SELECT count(*) FROM duckdb_indexes() WHERE index_name = 'terms_term'"
            ).fetchone()[0]
            == 0
        )
        layout = con.execute("SELECT max_doc_id, term_rows FROM terms_layout").fetchone()
        assert layout == (2, con.execute("SELECT count(*) FROM terms").fetchone()[0])
    (root / "late.md").write_text("# Late\n\nAnother escrow release.\n")
    Index(store).add_folder(root, progress=False)
    assert "late.md" in set(bm25(store, root, "escrow release")["path"])


def _textbook_bm25(store: Database, root: Path, query: str) -> dict[tuple[str, int], float]:
    """BM25 (k1 1.2, b 0.75) of every live chunk of `root` that holds a query term,
    computed in Python from the stored terms."""
    with duckdb.connect(str(store.path), read_only=True) as con:
        chunks = con.execute(
            "SELECT d.path, c.position, c.n_terms FROM chunks c JOIN documents d ON d.id ="
            " c.doc_id JOIN corpora k ON k.id = d.corpus_id WHERE k.root = ? AND NOT d.deleted",
            [str(root.resolve())],
        ).fetchall()
        tf = {
            (path, pos, term): n
            for path, pos, term, n in con.execute(
                "SELECT d.path, t.position, t.term, t.tf FROM terms t JOIN documents d ON"
                " d.id = t.doc_id JOIN corpora k ON k.id = d.corpus_id"
                " WHERE k.root = ? AND NOT d.deleted",
                [str(root.resolve())],
            ).fetchall()
        }
    counts, _ = query_terms(query)
    avgdl = sum(n for _, _, n in chunks) / len(chunks)
    df = {t: sum(1 for key in tf if key[2] == t) for t in counts}
    scores = {}
    for path, pos, length in chunks:
        score = sum(
            qtf
            * math.log(1 + (len(chunks) - df[t] + 0.5) / (df[t] + 0.5))
            * tf[(path, pos, t)]
            * 2.2
            / (tf[(path, pos, t)] + 1.2 * (0.25 + 0.75 * length / avgdl))
            for t, qtf in counts.items()
            if (path, pos, t) in tf
        )
        if score:
            scores[(path, pos)] = score
    return scores


def test_scores_follow_incremental_updates(small: tuple[Database, Path]):
    """The corpus' chunk count and average length kept between queries follow each write:
    scores stay the textbook BM25 after a document is added, changed and deleted."""
    store, root = small
    query = "escrow retention bonus months"

    def check() -> pd.DataFrame:
        hits = bm25(store, root, query, k=50)
        expected = _textbook_bm25(store, root, query)
        got = hits.set_index(["path", "position"])["score"].to_dict()
        assert got.keys() == expected.keys()
        for key, score in expected.items():
            assert got[key] == pytest.approx(score)
        return hits

    check()
    (root / "escrow2.md").write_text("# Escrow release\n\nThe escrow is released in months.\n")
    Index(store).add_folder(root, progress=False)
    assert "escrow2.md" in set(check()["path"])
    (root / "bonus.md").write_text("# Retention\n\nA bonus, a bonus, a retention bonus again.\n")
    Index(store).add_folder(root, progress=False)
    check()
    (root / "escrow.md").unlink()
    Index(store).add_folder(root, progress=False)
    assert "escrow.md" not in set(check()["path"])


def test_an_index_from_schema_7_migrates_on_the_first_search(
    small: tuple[Database, Path], tmp_path: Path
):
    """A file whose `terms` rows lack their corpus and chunk length (schema 7) is migrated
    by the first search, read-only as it is, and ranks as a fresh index does."""
    from fsnb.db.schema import SCHEMA_VERSION, migrate

    store, root = small
    query = "escrow retention bonus months"
    fresh = bm25(store, root, query, k=10)[["path", "position", "score"]]
    old = tmp_path / "v7.duckdb"
    with duckdb.connect(str(old)) as con:
        migrate(con, to=7)
        con.execute(f"ATTACH '{store.path}' AS new (READ_ONLY)")
        for table in ("corpora", "documents", "chunks", "index_runs"):  # schema 7's columns
            names = con.execute(
                "SELECT column_name FROM duckdb_columns() WHERE table_name = ?"
                " AND database_name = current_database()",
                [table],
            ).fetchall()
            columns = ", ".join(name for (name,) in names)
            con.execute(f"INSERT INTO {table} ({columns}) SELECT {columns} FROM new.{table}")
        con.execute("INSERT INTO terms SELECT doc_id, position, term, tf FROM new.terms")
        gone = "INSERT INTO documents (id, corpus_id, path, deleted) VALUES (999, 1, 'x.md', true)"
        con.execute(gone)
        con.execute("INSERT INTO terms VALUES (999, 0, 'escrow', 5)")  # a deleted doc's row
    migrated = bm25(database(old), root, query, k=10)[["path", "position", "score"]]
    pd.testing.assert_frame_equal(migrated, fresh)
    with duckdb.connect(str(old), read_only=True) as con:
        assert con.execute("SELECT max(version) FROM schema_version").fetchone()[0] == (
            SCHEMA_VERSION
        )
        assert con.execute("SELECT count(*) FROM terms WHERE doc_id = 999").fetchone()[0] == 0
