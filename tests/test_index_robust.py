"""Indexing under stress, with real processes and real files: reading while another process
indexes, a kill mid-index, huge files, a damaged database file, and hostile files."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from conftest import unprivileged

from fsnb.cli import main
from fsnb.db import DatabaseDamaged
from fsnb.index import Index
from fsnb.index import changes as changes_module
from fsnb.index.query import IndexingInProgress, NotIndexed
from fsnb.tools.indexed import semantic_search

WORDS = "retention bonus purchase price escrow indemnity audit ledger closing schedule".split()


def _corpus(root: Path, n: int) -> Path:
    """`n` small text files in folders of 100, each with its own marker word."""
    for i in range(n):
        folder = root / f"part{i // 100:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        body = " ".join(WORDS[(i * 7 + j) % len(WORDS)] for j in range(120))
        (folder / f"note{i:05d}.txt").write_text(f"Note {i}\n\n{body}\nmarker{i}\n")
    return root


def _indexer(db: Path, folder: Path, *extra: str) -> subprocess.Popen[str]:
    """`fsnb index` in another process."""
    return subprocess.Popen(
        [sys.executable, "-m", "fsnb.cli", "index", str(folder), "--db", str(db), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "FSNB_WORKERS": "2"},
    )


def _committed(note: str | None) -> tuple[int, int] | None:
    """(done, total) from 'indexing ...: 120 of 500 documents committed'."""
    if not note or " of " not in note:
        return None
    done, _, total = note.split(": ")[-1].split(" documents")[0].partition(" of ")
    return int(done.replace(",", "")), int(total.replace(",", ""))


def _counts(index: Index) -> tuple[int, ...]:
    with index.db.read() as con:
        return con.execute(
            "SELECT (SELECT count(*) FROM documents WHERE NOT deleted),"
            " (SELECT count(*) FROM chunks), (SELECT count(*) FROM terms),"
            " (SELECT sum(tf) FROM terms), (SELECT count(*) FROM files)"
        ).fetchone()


# -- reading while another process indexes ------------------------------------------------


def test_search_reads_what_is_committed_while_another_process_indexes(tmp_path: Path):
    folder = _corpus(tmp_path / "corpus", 1200)
    db = tmp_path / "index.duckdb"
    index = Index(db)
    proc = _indexer(db, folder)
    seen: list[tuple[int, int, int]] = []  # (done, total, hits) while in progress
    waiting = 0
    try:
        while proc.poll() is None:
            if not db.exists():
                time.sleep(0.05)
                continue
            try:
                note = index.indexing(folder)
                hits = index.search("retention escrow", folder=folder, k=5, bridge=False)
            except IndexingInProgress as exc:  # nothing committed yet: says so
                assert "indexing in progress" in str(exc)
                waiting += 1
                continue
            if (progress := _committed(note)) and "in progress" in (note or ""):
                seen.append((*progress, len(hits)))
        err = proc.communicate(timeout=300)[1]
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    partial = [(d, t, h) for d, t, h in seen if 0 < d < t]
    assert partial, f"never saw a partly committed index: {seen[:5]} (waiting {waiting})"
    assert all(h > 0 for _, _, h in partial), "committed documents must be searchable"
    assert all(t == 1200 for _, t, _ in seen)
    assert index.indexing(folder) is None  # finished
    assert index.status().loc[0, "documents"] == 1200
    text = semantic_search("marker7", root=str(folder), db=str(db))
    assert "note00007.txt" in text


def test_a_folder_being_indexed_is_not_called_unindexed(tmp_path: Path):
    """Before anything is committed, the tools say indexing is in progress, not 'not indexed'."""
    from fsnb.index import runs
    from fsnb.index.pipeline import corpus_id

    folder = _corpus(tmp_path / "corpus", 3)
    index = Index(tmp_path / "index.duckdb")
    with index.db.write() as con:  # a run of this (live) process, nothing committed
        run = runs.begin(con, corpus_id(con, str(folder.resolve())))
        runs.update(con, run, state="running", total=3)
    text = semantic_search("retention", root=str(folder), db=str(index.path))
    assert text.startswith("error: ") and "indexing in progress: 0 of 3 documents" in text
    assert "not indexed" not in text and str(folder) not in text
    assert index.indexing(folder) == "indexing in progress: 0 of 3 documents committed"
    Index(index.path).add_folder(folder, progress=False)  # another run commits documents
    with index.db.write() as con:  # and a new one is under way
        runs.update(
            con, runs.begin(con, corpus_id(con, str(folder.resolve()))), state="running", total=5
        )
    text = semantic_search("note", root=str(folder), db=str(index.path))
    assert "(indexing in progress: 0 of 5 documents committed: results cover" in text


# -- a kill mid-index ---------------------------------------------------------------------


def test_a_killed_indexer_keeps_its_committed_batches_and_a_rerun_finishes(tmp_path: Path):
    folder = _corpus(tmp_path / "corpus", 1200)
    db = tmp_path / "index.duckdb"
    index = Index(db)
    proc = _indexer(db, folder)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            progress = _committed(index.indexing(folder)) if db.exists() else None
            if progress and progress[0] > 0:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the indexer finished before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.communicate()
    note = index.indexing(folder)
    assert note and note.startswith("indexing interrupted: "), note
    done, total = _committed(note)
    assert total == 1200 and 0 < done <= 1200
    assert index.status().loc[0, "documents"] == done  # what was committed is all there
    assert "interrupted" in index.status().loc[0, "indexing"]
    assert not index.search("marker0", folder=folder, k=1, bridge=False).empty

    report = index.add_folder(folder, progress=False)
    assert (len(report.added), report.unchanged, report.failed) == (1200 - done, done, {})
    assert index.indexing(folder) is None
    clean = Index(tmp_path / "clean.duckdb")
    clean.add_folder(folder, progress=False)
    assert _counts(index) == _counts(clean)


# -- huge files ---------------------------------------------------------------------------


def test_a_file_over_the_size_cap_is_indexed_by_metadata_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "small.txt").write_text("The escrow is held for twelve months.\n")
    big = folder / "big.txt"
    big.write_text("retention bonus " * 200_000)  # 3.2 MB
    huge = folder / "huge.md"
    with huge.open("wb") as handle:  # 200 MB, sparse: never to be read
        handle.truncate(200_000_000)
    opened: list[str] = []
    real_hash = changes_module._hash
    monkeypatch.setattr(changes_module, "_hash", lambda p: opened.append(p.name) or real_hash(p))
    monkeypatch.setenv("FSNB_MAX_INDEX_MB", "1")
    index = Index(tmp_path / "index.duckdb")

    report = index.add_folder(folder, progress=False)
    assert report.added == ["small.txt"]
    assert report.failed == {
        "big.txt": "too large to index (3.2 MB > 1.0 MB cap); metadata only",
        "huge.md": "too large to index (200 MB > 1.0 MB cap); metadata only",
    }
    assert opened == ["small.txt"], "files over the cap are never read"
    docs = index.documents(folder).set_index("path")
    assert docs.loc["huge.md", "error"].startswith("too large to index (200 MB")
    assert set(index.files(folder)["path"]) == {"small.txt", "big.txt", "huge.md"}
    assert set(index.chunks(folder)["path"]) == {"small.txt"}

    again = index.add_folder(folder, progress=False)  # unchanged, still too large
    assert (again.added, again.failed, again.unchanged) == ([], {}, 3)
    raised = index.add_folder(folder, progress=False, max_mb=10)  # the cap was raised
    assert (raised.updated, raised.failed, raised.unchanged) == (["big.txt"], {}, 2)
    assert not index.search("retention bonus", folder=folder, bridge=False).empty


# -- a damaged database file --------------------------------------------------------------


def _damage(path: Path, how: str) -> None:
    if how == "truncated":
        os.truncate(path, path.stat().st_size // 2)
    else:  # bytes overwritten after the header
        with path.open("r+b") as handle:
            handle.seek(4096)
            handle.write(b"\xa5" * 8192)


@pytest.mark.parametrize("how", ["truncated", "overwritten"])
def test_a_damaged_index_says_so_and_rebuild_keeps_a_copy(
    how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    folder = _corpus(tmp_path / "corpus", 300)
    db = tmp_path / "index.duckdb"
    Index(db).add_folder(folder, progress=False)
    _damage(db, how)
    damaged = db.read_bytes()

    for argv in (
        ["status"],
        ["search", "retention", "--folder", str(folder)],
        ["index", str(folder)],
    ):
        assert main([*argv, "--db", str(db)]) == 2
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and err.startswith(f"fsnb: the index {db} is damaged ("), err
        assert "fsnb index FOLDER --rebuild" in err
    with pytest.raises(DatabaseDamaged):
        Index(db).search("retention", folder=folder)

    assert main(["index", str(folder), "--rebuild", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("index.duckdb.damaged-")]
    assert len(kept) == 1 and kept[0].read_bytes() == damaged
    assert f"the damaged index was moved to {kept[0]}" in out
    stamp = kept[0].name.removeprefix("index.duckdb.damaged-")
    assert time.strptime(stamp, "%Y%m%d-%H%M%S")
    index = Index(db)
    assert index.status().loc[0, "documents"] == 300
    assert not index.search("marker42", folder=folder, k=1, bridge=False).empty


def test_rebuild_of_a_healthy_index_reindexes_only_that_folder(tmp_path: Path):
    one, two = _corpus(tmp_path / "one", 5), _corpus(tmp_path / "two", 4)
    index = Index(tmp_path / "index.duckdb")
    index.add_folder(one, progress=False)
    index.add_folder(two, progress=False)
    report = index.add_folder(one, progress=False, rebuild=True)
    assert len(report.added) == 5 and report.set_aside is None
    assert list(index.status()["documents"]) == [5, 4]
    assert not any(p.name.startswith("index.duckdb.") for p in tmp_path.iterdir())


# -- hostile files ------------------------------------------------------------------------


def test_unreadable_fifo_and_badly_named_files_are_one_line_each(tmp_path: Path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "open.md").write_text("# Open\n\nThe auditor is Northgate LLP.\n")
    locked = folder / "locked.md"
    locked.write_text("# Locked\n\nhidden escrow terms\n")
    locked.chmod(0)
    bad = os.path.join(os.fsencode(folder), b"bad\xff.md")
    with open(bad, "wb") as handle:
        handle.write(b"# Bad name\n\nThe retention bonus is paid in March.\n")
    os.mkfifo(folder / "pipe.md")  # opening it for reading would block forever
    db = tmp_path / "index.duckdb"
    command = [sys.executable, "-m", "fsnb.cli", "index", str(folder), "--db", str(db), "--json"]
    run = subprocess.run(
        [*unprivileged(), *command], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 1, run.stderr  # locked.md failed; the others are indexed
    assert "Traceback" not in run.stderr
    report = json.loads(run.stdout)
    assert report["failed"] == {"locked.md": "permission denied"}
    assert report["warnings"] == {
        "bad\\xff.md": "file name is not valid UTF-8: stored with the bytes escaped"
    }
    assert report["added"] == 2  # open.md and bad\xff.md; the FIFO is skipped

    index = Index(db)
    docs = index.documents(folder).set_index("path")
    assert set(docs.index) == {"open.md", "bad\\xff.md", "locked.md"}
    assert docs.loc["locked.md", "error"] == "permission denied"
    assert "pipe.md" not in set(index.files(folder)["path"])
    hits = index.search("retention bonus", folder=folder, bridge=False)
    assert hits.iloc[0]["path"] == "bad\\xff.md"

    locked.chmod(0o644)
    again = index.add_folder(folder, progress=False)  # readable now: retried and indexed
    assert again.updated == ["locked.md"] and again.failed == {}
    assert pd.isna(index.documents(folder).set_index("path").loc["locked.md", "error"])


def test_a_file_deleted_during_indexing_is_reported_and_the_rest_indexed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    folder = _corpus(tmp_path / "corpus", 4)
    victim = folder / "part00" / "note00002.txt"
    real_hash = changes_module._hash

    def hash_after_delete(path: Path) -> str:
        if path == victim:
            victim.unlink()
        return real_hash(path)

    monkeypatch.setattr(changes_module, "_hash", hash_after_delete)
    index = Index(tmp_path / "index.duckdb")
    report = index.add_folder(folder, progress=False)
    assert report.failed == {"part00/note00002.txt": "file disappeared during indexing"}
    assert len(report.added) == 3 and report.files == 3
    assert "part00/note00002.txt" not in set(index.files(folder)["path"])


def test_a_search_before_any_index_still_says_not_indexed(tmp_path: Path):
    folder = _corpus(tmp_path / "corpus", 1)
    index = Index(tmp_path / "index.duckdb")
    index.add_folder(_corpus(tmp_path / "other", 1), progress=False)
    with pytest.raises(NotIndexed, match="is not indexed: run `fsnb index"):
        index.search("retention", folder=folder)
