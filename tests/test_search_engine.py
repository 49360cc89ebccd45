"""The BM25 engine (tantivy, `fsnb.index.engine`) derived from the DuckDB file
(`fsnb.index.derived`): it ranks as the SQL BM25 does within its documented tolerance,
follows every write (added, changed and deleted documents), keeps filters and corpus
scoping, resumes an interrupted update, builds large updates in the background, and never
blocks or breaks a writer in another process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from conftest import DATA

from fsnb.db.database import database
from fsnb.index import bm25 as bm25_module
from fsnb.index import derived, sync
from fsnb.index.bm25 import bm25
from fsnb.index.engine import TextIndex
from fsnb.index.index import Index
from fsnb.index.search import search

QUERIES = {
    "large_acquisition": [
        "retention bonus of the CTO",
        "escrow amount and release",
        "purchase price adjustment",
        "non-compete period",
        "indemnification cap",
    ],
    "mixed": ["battery supplier contract", "quarterly revenue", "payment terms net 30"],
}
#: A chunk's length is stored rounded down by at most 1/8: its score is at most ~10.4% over
#: the textbook one (`fsnb.index.engine`), and never under it (32-bit floats aside).
OVER = 1.105


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    tmp = tmp_path_factory.mktemp("engine-samples")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FSNB_CACHE_DIR", str(tmp / "cache"))
        index = Index(tmp / "index.duckdb")
        for corpus in QUERIES:
            index.add_folder(DATA / corpus, progress=False)
        yield index


@pytest.fixture
def sql_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Rank in SQL for the test's duration."""
    monkeypatch.setenv("FSNB_BM25_ENGINE", "sql")
    yield


@pytest.fixture
def engine_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if the SQL ranking answers a query."""

    def refuse(*args: object, **kwargs: object) -> None:
        msg = "the SQL ranking answered: the engine should have"
        raise AssertionError(msg)

    monkeypatch.setattr(bm25_module, "sql_scores", refuse)


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def _sql(store, folder, query, **kwargs) -> pd.DataFrame:
    os.environ["FSNB_BM25_ENGINE"] = "sql"
    try:
        return bm25(store, folder, query, **kwargs)
    finally:
        del os.environ["FSNB_BM25_ENGINE"]


# -- the ranking -------------------------------------------------------------------------


@pytest.mark.parametrize("corpus", list(QUERIES))
def test_the_engine_scores_as_sql_within_the_tolerance(samples: Index, corpus: str):
    folder = DATA / corpus
    for query in QUERIES[corpus]:
        sql = _sql(samples.db, folder, query, k=200)
        engine = bm25(samples.db, folder, query, k=200)
        assert list(engine.columns) == list(sql.columns)
        assert len(engine) == len(sql), query  # the same chunks hold a query term
        want = sql.set_index(["path", "position"])["score"]
        got = engine.set_index(["path", "position"])["score"]
        assert set(got.index) == set(want.index), query
        for key, score in want.items():
            assert score * (1 - 1e-5) <= got[key] <= score * OVER, (query, key)
        assert engine.iloc[0]["path"] == sql.iloc[0]["path"], query
        top = engine.head(1).drop(columns="score").reset_index(drop=True)
        pd.testing.assert_frame_equal(top, sql.head(1).drop(columns="score"))


def test_a_search_answers_from_the_engine(samples: Index, engine_only: None):
    folder = DATA / "large_acquisition"
    with samples.db.read() as con:
        held = bm25(con, folder, "retention bonus", k=5)
    alone = bm25(samples.db, folder, "retention bonus", k=5)
    pd.testing.assert_frame_equal(held, alone)
    assert (
        search(samples.db, folder, "retention bonus", mode="bm25").iloc[0]["path"]
        == (alone.iloc[0]["path"])
    )
    assert (samples.path.parent / "index.duckdb.bm25").is_dir()


def test_other_bm25_parameters_rank_in_sql(samples: Index):
    folder = DATA / "mixed"
    default = bm25(samples.db, folder, "battery supplier", k=5)
    flat = bm25(samples.db, folder, "battery supplier", k=5, b=0.0)
    assert not default["score"].equals(flat["score"])


def test_the_sql_switch(small: tuple[Path, Path], sql_only: None):
    db, root = small
    hits = bm25(database(db), root, "escrow")
    assert hits.iloc[0]["path"] == "escrow.md"
    assert not db.with_name(db.name + ".bm25").exists()


# -- following the file ------------------------------------------------------------------


@pytest.fixture
def small(tmp_path: Path) -> tuple[Path, Path]:
    root = _write(
        tmp_path / "small",
        {
            "escrow.md": "# Escrow\n\nThe escrow holds $900,000 for twelve months.\n",
            "bonus.md": "# Retention\n\nThe CTO receives a retention bonus of $1,200,000.\n",
            "lunch.txt": "The team lunch is on Friday at the Italian place.\n",
        },
    )
    db = tmp_path / "small.duckdb"
    Index(db).add_folder(root, progress=False)
    return db, root


def test_the_engine_follows_added_changed_and_deleted_documents(
    small: tuple[Path, Path], engine_only: None
):
    db, root = small
    store = database(db)
    assert set(bm25(store, root, "escrow")["path"]) == {"escrow.md"}
    _write(root, {"deal/late.md": "# Late\n\nAnother escrow release, in twelve months.\n"})
    Index(db).add_folder(root, progress=False)
    assert set(bm25(store, root, "escrow")["path"]) == {"escrow.md", "deal/late.md"}
    _write(root, {"escrow.md": "# Holdback\n\nThe holdback is $50,000.\n"})
    Index(db).add_folder(root, progress=False)
    assert set(bm25(store, root, "escrow")["path"]) == {"deal/late.md"}
    assert list(bm25(store, root, "holdback")["path"]) == ["escrow.md"]
    (root / "deal" / "late.md").unlink()
    Index(db).add_folder(root, progress=False)
    assert bm25(store, root, "escrow").empty
    with store.read() as con:
        chunks = con.execute("SELECT count(*) FROM chunks").fetchone()[0]
    corpus = derived.cached(store, root)
    assert corpus is not None and corpus.index.searcher.num_docs == chunks  # nothing twice


def test_snippets_come_from_the_masked_text(tmp_path: Path, engine_only: None):
    """The engine keeps each chunk's text with its secret values masked, and the snippet is
    cut from it; the hit's text stays the document's."""
    root = _write(
        tmp_path / "s",
        {"creds.md": "# Access\n\nThe staging database login.\npassword: Hunter2!xQ\n"},
    )
    db = tmp_path / "s.duckdb"
    Index(db).add_folder(root, progress=False)
    hit = bm25(database(db), root, "staging database login").iloc[0]
    assert "Hunter2!xQ" in hit["text"]
    assert "Hunter2" not in hit["highlights"]["snippet"]
    assert "[secret withheld]" in hit["highlights"]["snippet"]


def test_another_masker_rebuilds_the_engine(
    small: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
):
    """Texts masked by another version of the masker are not served: the engine's layout
    names the masker's code."""
    db, root = small
    store = database(db)
    bm25(store, root, "escrow")
    state = derived.engine_dir(db, 1) / sync.STATE
    first = json.loads(state.read_text())["layout"]
    monkeypatch.setattr(sync, "layout", lambda: "another masker")
    derived._open.clear()
    assert list(bm25(store, root, "escrow")["path"]) == ["escrow.md"]
    assert json.loads(state.read_text())["layout"] == "another masker" != first


def test_a_writable_connection_ranks_in_sql(small: tuple[Path, Path]):
    """Its transaction may hold rows the engine has not seen."""
    db, root = small
    store = database(db)
    with store.write() as con:
        con.execute("DELETE FROM terms WHERE term = 'escrow'")
        assert bm25(con, root, "escrow").empty
        con.execute("ROLLBACK")
        con.execute("BEGIN TRANSACTION")
    assert list(bm25(store, root, "escrow")["path"]) == ["escrow.md"]


def test_an_unfinished_update_is_redone_not_doubled(small: tuple[Path, Path], engine_only: None):
    """A process stopped between the engine's commit and its state file: the state file
    says less than the engine holds, and the next search adds those documents again."""
    db, root = small
    store = database(db)
    before = bm25(store, root, "escrow retention lunch", k=10)
    state = derived.engine_dir(db, 1) / sync.STATE
    saved = json.loads(state.read_text())
    saved["docs"] = dict(list(saved["docs"].items())[:1])
    saved["state"] = None
    state.write_text(json.dumps(saved))
    derived._open.clear()  # as a new process finds it
    again = bm25(store, root, "escrow retention lunch", k=10)
    pd.testing.assert_frame_equal(again, before)
    assert derived.cached(store, root).index.searcher.num_docs == 3


def test_a_damaged_engine_is_built_again(small: tuple[Path, Path], engine_only: None):
    db, root = small
    store = database(db)
    before = bm25(store, root, "escrow retention", k=10)
    folder = derived.engine_dir(db, 1)
    (folder / "meta.json").write_text("not json")
    derived._open.clear()
    pd.testing.assert_frame_equal(bm25(store, root, "escrow retention", k=10), before)


def test_a_large_update_is_built_in_the_background(
    small: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
):
    db, root = small
    store = database(db)
    monkeypatch.setattr(derived, "INLINE_CHUNKS", 0)
    derived._open.clear()
    first = bm25(store, root, "escrow retention", k=10)  # the SQL answers meanwhile
    corpus = derived._corpus(db, 1)
    assert corpus is not None and corpus.builder is not None
    corpus.builder.join()
    monkeypatch.setattr(bm25_module, "sql_scores", None)  # the engine answers now
    then = bm25(store, root, "escrow retention", k=10)
    assert list(then["path"]) == list(first["path"])
    assert derived.refresh(store, root)


# -- filters and corpora -----------------------------------------------------------------


def test_filters_mask_the_documents(samples: Index, engine_only: None):
    folder = DATA / "large_acquisition"
    expr = "document_type=agreement and max_amount>=1000000"
    with samples.db.read() as con:
        held = bm25(con, folder, "payment escrow bonus", k=20, filter=expr)
    cached = bm25(samples.db, folder, "payment escrow bonus", k=20, filter=expr)
    pd.testing.assert_frame_equal(held, cached)
    docs = samples.documents(folder).set_index("path")
    for path in cached["path"]:
        meta = json.loads(docs.loc[path, "metadata"])
        assert meta["document_type"] == "agreement" and meta["max_amount"] >= 1_000_000
    everything = bm25(samples.db, folder, "payment escrow bonus", k=20)
    assert set(cached["path"]) < set(everything["path"])
    none = bm25(samples.db, folder, "payment escrow", filter="max_amount > 1e15")
    assert none.empty


def test_corpora_are_ranked_apart(tmp_path: Path):
    """Each folder's engine holds its own chunks: hits and idf of its own corpus only."""
    a = _write(tmp_path / "a", {"x.md": "Escrow escrow terms.\n", "y.md": "Lunch menu.\n"})
    b = _write(tmp_path / "b", {f"n{i}.md": f"Escrow note {i}.\n" for i in range(6)})
    db = tmp_path / "two.duckdb"
    for root in (a, b):
        Index(db).add_folder(root, progress=False)
    store = database(db)
    in_a, in_b = bm25(store, a, "escrow"), bm25(store, b, "escrow")
    assert derived.cached(store, a) is not derived.cached(store, b) is not None
    assert list(in_a["path"]) == ["x.md"]
    assert set(in_b["path"]) == {f"n{i}.md" for i in range(6)}
    for root, hits in ((a, in_a), (b, in_b)):
        sql = _sql(store, root, "escrow")
        assert list(sql["path"]) == list(hits["path"])
        for got, want in zip(hits["score"], sql["score"], strict=True):
            assert want * (1 - 1e-5) <= got <= want * OVER


def test_a_process_keeps_few_engines_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(derived, "OPEN_ENGINES", 1)
    roots = [_write(tmp_path / f"f{i}", {"a.md": f"Escrow {i}.\n"}) for i in range(3)]
    db = tmp_path / "many.duckdb"
    for root in roots:
        Index(db).add_folder(root, progress=False)
    for root in roots * 2:
        assert list(bm25(database(db), root, "escrow")["path"]) == ["a.md"]
        assert sum(key[0] == str(db) for key in derived._open) == 1


# -- other processes ---------------------------------------------------------------------

SEARCHER = textwrap.dedent(
    """
    import json, sys
    from fsnb.db.database import database
    from fsnb.index.bm25 import bm25
    hits = bm25(database(sys.argv[1]), sys.argv[2], sys.argv[3], k=20)
    print(json.dumps(list(hits["path"])))
    """
)


def test_two_processes_bring_up_one_engine(tmp_path: Path):
    """Both answer (one builds the engine, the other ranks in SQL while it cannot)."""
    root = _write(
        tmp_path / "c", {f"n{i:02d}.md": f"# N{i}\n\nEscrow item {i}.\n" for i in range(30)}
    )
    db = tmp_path / "c.duckdb"
    Index(db).add_folder(root, progress=False)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", SEARCHER, str(db), str(root), "escrow item"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    found = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        found.append(set(json.loads(out)))
    assert found[0] == found[1] and len(found[0]) == 20
    assert set(bm25(database(db), root, "escrow item", k=20)["path"]) == found[0]


HOLDER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from fsnb.index.engine import TextIndex
    writer = TextIndex(Path(sys.argv[1])).writer()
    print("holding", flush=True)
    sys.stdin.readline()
    writer.close()
    """
)


def test_an_engine_held_by_another_process_leaves_the_answer_to_sql(small: tuple[Path, Path]):
    db, root = small
    store = database(db)
    bm25(store, root, "escrow")  # the engine exists
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(derived.engine_dir(db, 1))],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "holding"
        _write(root, {"late.md": "# Late\n\nAnother escrow release.\n"})
        Index(db).add_folder(root, progress=False)
        hits = bm25(store, root, "escrow")  # the engine cannot follow: SQL answers
        assert set(hits["path"]) == {"escrow.md", "late.md"}
    finally:
        holder.communicate("\n", timeout=60)
    assert set(bm25(store, root, "escrow")["path"]) == {"escrow.md", "late.md"}
    assert derived.cached(store, root) is not None  # the engine caught up


def test_searching_while_another_process_indexes(tmp_path: Path):
    """Searches in this process while `fsnb index` writes in another: the writer finishes,
    every search answers, and the engine ends where the file does."""
    root = tmp_path / "corpus"
    for i in range(400):
        words = " ".join(["escrow", "ledger", "audit", "closing"][: 1 + i % 4])
        _write(root, {f"part{i // 100}/note{i:04d}.md": f"# Note {i}\n\n{words} marker{i}\n"})
    db = tmp_path / "index.duckdb"
    proc = subprocess.Popen(
        [sys.executable, "-m", "fsnb.cli", "index", str(root), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "FSNB_WORKERS": "1"},
    )
    store = database(db)
    try:
        while proc.poll() is None:
            try:
                bm25(store, root, "escrow audit", k=5)
            except Exception as exc:  # not indexed yet, or in progress: says so
                assert "not indexed" in str(exc) or "not searchable yet" in str(exc), exc
        err = proc.communicate(timeout=300)[1]
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    final = bm25(store, root, "marker399 escrow", k=3)
    assert final.iloc[0]["path"] == "part3/note0399.md"
    assert derived.cached(store, root) is not None
    with store.read() as con:
        chunks = con.execute("SELECT count(*) FROM chunks").fetchone()[0]
    assert derived.cached(store, root).index.searcher.num_docs == chunks
    everything = _sql(store, root, "audit closing", k=500)  # the chunks that hold a term
    assert len(everything) == 200
    assert set(bm25(store, root, "audit closing", k=500)["path"]) == set(everything["path"])


def test_an_engine_folder_alone_opens(tmp_path: Path):
    """The engine is a folder of its own: opened without the DuckDB file."""
    index = TextIndex(tmp_path / "e")
    writer = index.writer()
    writer.add([(1, 0, "escrow escrow bonus", "a.md", "A", 1, "", "text", 0, 4, None)])
    writer.commit()
    writer.close()
    index.reload()
    hits = index.search({"escrow": 1}, 5, rows=True)
    assert [(h["doc_id"], h["path"], h["text"]) for h in hits] == [(1, "a.md", "text")]
    assert index.search({"escrow": 1}, 5, frozenset({2}), rows=False) == []


def test_fsnb_index_leaves_the_engine_ready_for_the_next_process(tmp_path: Path):
    """`fsnb index` (and `%explore_index`) warm the BM25 engine before they return, so a
    search in another process ranks with it at once."""
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.md").write_text("# Boiler\n\nThe boiler service is due in March.\n")
    db = tmp_path / "index.duckdb"
    subprocess.run(
        [sys.executable, "-m", "fsnb.cli", "index", "--db", str(db), str(folder)],
        check=True,
        capture_output=True,
    )
    states = list((tmp_path / "index.duckdb.bm25").glob("corpus-*/state.json"))
    assert len(states) == 1
