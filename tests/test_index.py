from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import make_pdf

from fsnb.documents import parse
from fsnb.index import DatabaseLocked, Store, writer
from fsnb.index.chunking import chunk_document
from fsnb.index.guard import SqlRefused
from fsnb.index.index import Index
from fsnb.index.store import SCHEMA_VERSION


@pytest.fixture
def index(tmp_path: Path) -> Index:
    return Index(tmp_path / "index.duckdb")


def test_a_new_parser_version_parses_unchanged_files_again(
    index: Index, folder: Path, monkeypatch: pytest.MonkeyPatch
):
    index.add_folder(folder, progress=False)
    stored = index.documents(folder).set_index("path")["parser"]
    assert stored["agreement.pdf"].endswith("/" + writer.PARSER_VERSION)

    monkeypatch.setattr(writer, "PARSER_VERSION", "next")
    again = index.add_folder(folder, progress=False)
    assert sorted(again.updated) == sorted(stored.index[stored.notna()])
    assert again.unchanged == 1  # empty.txt never parsed: retried only when it changes
    assert set(index.documents(folder)["parser"].dropna().str.rpartition("/")[2]) == {"next"}
    assert index.add_folder(folder, progress=False).unchanged == 5


def _bump_mtime(path: Path, seconds: int = 5) -> None:
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + seconds * 1_000_000_000))


def test_first_index_and_an_unchanged_reindex(
    index: Index, folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    report = index.add_folder(folder, progress=False)
    assert sorted(report.added) == [
        "agreement.pdf",
        "docs/summary.md",
        "letters/escrow.pdf",
        "notes.txt",
    ]
    assert report.failed == {"empty.txt": "empty file (0 bytes)"}
    assert report.skipped == 2  # .env (skip) and id_rsa (block) never enter the index
    files = index.files(folder)
    assert set(files["path"]) == {
        "agreement.pdf",
        "blob.bin",
        "docs/summary.md",
        "empty.txt",
        "letters/escrow.pdf",
        "notes.txt",
    }
    assert files.set_index("path").loc["blob.bin", "category"] == "other"
    assert files.set_index("path").loc["docs/summary.md", "depth"] == 1

    fresh_cache = tmp_path / "untouched-cache"
    monkeypatch.setenv("FSNB_CACHE_DIR", str(fresh_cache))
    again = index.add_folder(folder, progress=False)
    assert (again.added, again.updated, again.deleted, again.failed) == ([], [], [], {})
    assert again.unchanged == 5
    assert not fresh_cache.exists(), "an unchanged re-index must parse nothing"
    assert index.is_current(folder)


def test_modified_touched_deleted_and_added_files(index: Index, folder: Path):
    index.add_folder(folder, progress=False)
    (folder / "notes.txt").write_text("Meeting notes\nThe CFO is now Omar Haddad.\n")
    _bump_mtime(folder / "notes.txt")
    _bump_mtime(folder / "docs" / "summary.md")  # same content, new mtime
    (folder / "letters" / "escrow.pdf").unlink()
    make_pdf(
        folder / "new.pdf", [["A brand new side letter about earn-outs."]], title="Side Letter"
    )
    assert not index.is_current(folder)

    report = index.add_folder(folder, progress=False)
    assert report.updated == ["notes.txt"]
    assert report.added == ["new.pdf"]
    assert report.deleted == ["letters/escrow.pdf"]
    assert (
        report.unchanged == 3
    )  # agreement.pdf, summary.md (hash confirmed), empty.txt (failed before)
    docs = index.documents(folder)
    assert "letters/escrow.pdf" not in set(docs["path"])
    gone = index.documents(folder, deleted=True).set_index("path").loc["letters/escrow.pdf"]
    assert bool(gone["deleted"])
    chunks = index.chunks(folder)
    assert not (chunks["path"] == "letters/escrow.pdf").any()
    assert chunks[chunks["path"] == "notes.txt"]["text"].str.contains("Omar Haddad").all()
    terms = index.sql(
        "SELECT count(*) AS n FROM terms t JOIN documents d ON d.id = t.doc_id WHERE d.deleted"
    )
    assert terms["n"][0] == 0
    log = index.sql("SELECT added, updated, deleted FROM scan_log ORDER BY id")
    assert log.values.tolist() == [[4, 0, 0], [1, 1, 1]]
    assert index.is_current(folder)


def test_chunks_are_slices_with_pages_and_headings(folder: Path):
    doc = parse(folder / "agreement.pdf")
    chunks = chunk_document(doc, chunk_chars=80, overlap_chars=40)
    assert len(chunks) > 2
    for chunk in chunks:
        assert doc.text[chunk.start : chunk.end] == chunk.text
        assert chunk.page == doc.page_at(chunk.start)
        assert chunk.heading.startswith("Share Purchase Agreement")
    assert {c.page for c in chunks} == {1, 2}


def test_dataframes_and_read_only_sql(index: Index, folder: Path):
    index.add_folder(folder, progress=False)
    docs = index.documents(folder)
    assert {"path", "title", "format", "pages", "metadata"} <= set(docs.columns)
    assert docs.set_index("path").loc["agreement.pdf", "title"] == "Share Purchase Agreement"
    status = index.status()
    assert status.loc[0, "documents"] == 4 and status.loc[0, "failed"] == 1
    schema = index.schema(folder)
    assert "document_type" in set(schema["field"])
    with pytest.raises(SqlRefused, match="only a SELECT query is allowed here"):
        index.sql("DELETE FROM documents")
    docs = index.documents(folder)
    assert (
        len(docs) == 5
        and docs.set_index("path").loc["empty.txt", "error"] == "empty file (0 bytes)"
    )


WORKER = textwrap.dedent(
    """
    import sys
    from fsnb.index.index import Index
    report = Index(sys.argv[1]).add_folder(sys.argv[2], progress=False)
    print(len(report.added), len(report.failed))
    """
)


def test_two_processes_index_the_same_database_at_once(tmp_path: Path):
    db = tmp_path / "shared.duckdb"
    folders = []
    for n in range(2):
        root = tmp_path / f"corpus{n}"
        for i in range(12):
            (root / f"sub{i % 3}").mkdir(parents=True, exist_ok=True)
            (root / f"sub{i % 3}" / f"note{i}.md").write_text(
                f"# Note {i}\n\nCorpus {n} item {i}.\n" * 20
            )
        folders.append(root)
    env = {**os.environ, "FSNB_CACHE_DIR": str(tmp_path / "cache")}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(db), str(root)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for root in folders
    ]
    outputs = [p.communicate(timeout=120) for p in procs]
    for proc, (out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err
        assert out.split() == ["12", "0"]
    index = Index(db)
    for root in folders:
        assert len(index.documents(root)) == 12
        assert index.is_current(root)
    counts = index.sql("SELECT count(DISTINCT doc_id) AS n FROM chunks")
    assert counts["n"][0] == 24


HOLDER = textwrap.dedent(
    """
    import sys, time, duckdb
    con = duckdb.connect(sys.argv[1])
    print("holding", flush=True)
    time.sleep(float(sys.argv[2]))
    """
)


def test_a_locked_database_waits_then_says_so(tmp_path: Path):
    db = tmp_path / "locked.duckdb"
    with Store(db).connect():
        pass
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db), "2"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "holding"
        locked = pytest.raises(DatabaseLocked, match="is locked by another process")
        with locked, Store(db, lock_timeout_s=0.3).connect(read_only=True):
            pass
        began = time.monotonic()
        with Store(db, lock_timeout_s=30).connect() as con:  # waits for the holder to let go
            assert (
                con.execute("SELECT max(version) FROM schema_version").fetchone()[0]
                == SCHEMA_VERSION
            )
        assert time.monotonic() - began > 0.5
    finally:
        holder.kill()
        holder.wait()
