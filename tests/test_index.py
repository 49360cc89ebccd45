from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest
from conftest import make_pdf

from fsnb.db import Database, DatabaseLocked
from fsnb.db.database import database
from fsnb.db.guard import SqlRefused
from fsnb.db.schema import SCHEMA_VERSION
from fsnb.documents import parse
from fsnb.index import writer
from fsnb.index.chunking import chunk_document
from fsnb.index.index import Index


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
    assert report.failed == {}
    assert report.warnings["empty.txt"] == "empty file (0 bytes)"  # a caveat, not a failure
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
    import sys, duckdb
    con = duckdb.connect(sys.argv[1])
    print("holding", flush=True)
    sys.stdin.read()  # until the test closes our stdin
    """
)


def test_a_locked_database_waits_then_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    db = tmp_path / "locked.duckdb"
    with database(db).write():
        pass
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "holding"
        locked = pytest.raises(DatabaseLocked, match="is locked by another process")
        with locked, Database(db, lock_timeout_s=0.3).read():
            pass
        # the writer's first try finds the file locked; at its second the holder is told to
        # let go, and the writer goes on trying until it gets the file
        tries: list[int | None] = []  # the holder's exit code at each try (None: running)
        attach = Database._attach

        def tried(self: Database, read_only: bool):
            tries.append(holder.poll())
            if len(tries) == 2:
                holder.stdin.close()
            return attach(self, read_only)

        monkeypatch.setattr(Database, "_attach", tried)
        with Database(db, lock_timeout_s=30).write() as con:  # waits for the holder to let go
            assert (
                con.execute("SELECT max(version) FROM schema_version").fetchone()[0]
                == SCHEMA_VERSION
            )
        assert len(tries) >= 2 and tries[:2] == [None, None]
        assert holder.wait(timeout=30) == 0
    finally:
        holder.kill()
        holder.wait()


def _tree(root: Path) -> Path:
    for rel, data in {
        "a/b/photo.JPG": b"\xff\xd8jpeg",
        "a/report.pdf.gz": b"gz",
        "README": b"read me",
        ".hidden": b"h",
        "notes.txt": b"some notes",
        "keys/server.pem": b"key",
        ".env": b"A=1",
        "node_modules/x.js": b"x",
        "ignored/dir/file.dat": b"i",
        "data/table.csv": b"a,b\n1,2\n",
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    (root / ".fsnbignore").write_text("ignored\n")
    (root / "link.txt").symlink_to(root / "notes.txt")
    os.mkfifo(root / "pipe")
    return root


def test_the_file_index_holds_every_file_with_its_columns(index: Index, tmp_path: Path):
    root = _tree(tmp_path / "tree")
    report = index.add_folder(root, progress=False)
    files = index.files(root).set_index("path")
    assert set(files.index) == {
        "a/b/photo.JPG", "a/report.pdf.gz", "README", ".hidden", "notes.txt", "data/table.csv",
    }  # fmt: skip
    assert report.skipped == 3  # server.pem (blocked), .env (skipped), link.txt (a symlink)
    photo = files.loc["a/b/photo.JPG"]
    assert (photo["name"], photo["extension"], photo["category"], photo["mime"]) == (
        "photo.JPG", ".jpg", "image", "image/jpeg",
    )  # fmt: skip
    assert (photo["parent"], photo["depth"], photo["size"]) == ("a/b", 2, 6)
    assert photo["mtime_ns"] == (root / "a/b/photo.JPG").stat().st_mtime_ns
    assert files.loc["a/report.pdf.gz", ["extension", "category"]].tolist() == [".gz", "archive"]
    readme = files.loc["README"]
    assert (readme["extension"], readme["parent"], readme["depth"]) == ("", ".", 0)
    assert pd.isna(readme["mime"])  # no guess from the name
    assert files.loc[".hidden", "extension"] == ""
    assert files.loc["notes.txt", ["category", "mime"]].tolist() == ["text", "text/plain"]
    assert files.loc["data/table.csv", "category"] == "document"


def test_a_rescan_writes_only_the_files_that_changed(
    index: Index, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    from fsnb.index import pipeline

    root = _tree(tmp_path / "tree")
    writes: list[tuple[int, int]] = []
    real = pipeline.store_files
    monkeypatch.setattr(pipeline, "store_files", lambda *a: writes.append(real(*a)) or writes[-1])
    index.add_folder(root, progress=False)
    index.add_folder(root, progress=False)
    assert writes == [(6, 0), (0, 0)]  # (inserted, deleted): the unchanged tree writes nothing

    (root / "README").write_bytes(b"read me, now longer")
    (root / "a/b/photo.JPG").unlink()
    (root / "a/new.png").write_bytes(b"png")
    index.add_folder(root, progress=False)
    assert writes[-1] == (2, 2)  # README replaced, new.png in, photo.JPG out
    files = index.files(root).set_index("path")
    assert "a/b/photo.JPG" not in files.index
    assert files.loc["README", "size"] == len(b"read me, now longer")
    assert files.loc["a/new.png", ["category", "mime"]].tolist() == ["image", "image/png"]


def test_the_files_of_an_older_index_get_their_mime_type(tmp_path: Path):
    import duckdb

    from fsnb.db.schema import migrate

    root = tmp_path / "tree"
    root.mkdir()
    (root / "page.html").write_text("<p>hi</p>")
    (root / "photo.png").write_bytes(b"png")
    db = tmp_path / "old.duckdb"
    con = duckdb.connect(str(db))
    migrate(con, to=3)
    con.execute("INSERT INTO corpora (root) VALUES (?)", [str(root.resolve())])
    info = (root / "photo.png").stat()
    con.execute(
        "INSERT INTO files VALUES (1, 'photo.png', 'photo.png', '.png', ?, ?, 'image', 0, '.',"
        " 'none')",
        [info.st_size, info.st_mtime_ns],
    )
    con.close()

    index = Index(db)
    index.add_folder(root, progress=False)
    mimes = index.files(root).set_index("path")["mime"].to_dict()
    assert mimes == {"page.html": "text/html", "photo.png": "image/png"}


def test_the_walk_applies_the_policy_to_folder_names_and_file_names(tmp_path: Path):
    from fsnb.fsindex.walk import list_files
    from fsnb.security import Sandbox

    root = tmp_path / "tree"
    for rel in ("home/.ssh/config", "home/.aws/credentials", "a/my_password.txt", "a/plain.txt"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x")
    listing = list_files(Sandbox(root))
    levels = dict(zip(listing.columns["path"], listing.columns["sensitivity"], strict=True))
    assert levels == {"a/my_password.txt": "warn", "a/plain.txt": "none"}
    assert listing.skipped == 2  # under .ssh (blocked by its folder), .aws/credentials


def test_a_run_with_nothing_to_parse_opens_the_database_once(
    index: Index, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    root = tmp_path / "tree"
    (root / "a").mkdir(parents=True)
    (root / "a/data.bin").write_bytes(b"bin")  # not a document
    (root / "notes.txt").write_text("some notes")
    index.add_folder(root, progress=False)  # parses notes.txt: several commits
    opened: list[bool] = []
    real = Database._open
    monkeypatch.setattr(
        Database, "_open", lambda self, ro, **kw: opened.append(ro) or real(self, ro, **kw)
    )
    (root / "a/data.bin").write_bytes(b"bin, changed")
    report = index.add_folder(root, progress=False)
    assert opened == [False]  # walk first, then one transaction
    assert (report.unchanged, report.files_written, report.files_removed) == (1, 1, 1)
    with index.db.read() as con:
        assert con.execute("SELECT state FROM index_runs ORDER BY id DESC LIMIT 1").fetchone() == (
            "finished",
        )
        assert con.execute("SELECT count(*), sum(files) FROM scan_log").fetchone() == (2, 4)


def test_the_file_version_changes_with_every_commit(tmp_path: Path):
    """Readers remember what they found by `file_version`: each commit changes it, though
    DuckDB rewrites blocks in place (the file keeps its size)."""
    from fsnb.db.version import file_version

    store = database(tmp_path / "v.duckdb")
    with store.write():
        pass  # the schema
    seen, sizes = [], set()
    for i in range(4):
        with store.write() as con:
            con.execute("INSERT INTO bookmarks (corpus_id, path) VALUES (1, ?)", [f"p{i}"])
        seen.append(file_version(store.path))
        sizes.add(store.path.stat().st_size)
    assert None not in seen and len(set(seen)) == len(seen)
    assert len(sizes) < len(seen)  # sizes come back: a signature of them would miss writes
    (tmp_path / "short.duckdb").write_bytes(b"DUCK")
    assert file_version(tmp_path / "short.duckdb") is None
    assert file_version(tmp_path / "missing.duckdb") is None
