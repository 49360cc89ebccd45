"""`Index.watch` and `fsnb index --watch`: real files changed, the index follows."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import DEADLINE_S, until

from fsnb.index import Index
from fsnb.index.report import IndexReport
from fsnb.index.watch import Watch, _Events
from fsnb.security import Sandbox


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "alpha.txt").write_text("The first note mentions apples.\n")
    return root


@pytest.fixture
def index(tmp_path: Path, docs: Path) -> Index:
    ix = Index(tmp_path / "index.duckdb")
    ix.add_folder(docs, progress=False)
    return ix


@pytest.fixture
def watched(index: Index, docs: Path) -> Iterator[Watch]:
    watch = index.watch(docs, catch_up=False)
    yield watch
    watch.stop()


def _paths(index: Index, docs: Path) -> set[str]:
    return set(index.documents(docs)["path"])


def _text(index: Index, docs: Path) -> str:
    return " ".join(index.chunks(docs)["text"])


def test_creation_modification_renaming_and_deletion_reach_the_index(
    index: Index, docs: Path, watched: Watch
):
    (docs / "beta.txt").write_text("A second note about pears.\n")
    until(lambda: _paths(index, docs) == {"alpha.txt", "beta.txt"}, "beta.txt indexed")
    assert "pears" in _text(index, docs)

    (docs / "alpha.txt").write_text("The first note now mentions quinces instead.\n")
    until(lambda: "quinces" in _text(index, docs), "alpha.txt re-indexed")
    assert "apples" not in _text(index, docs)

    (docs / "beta.txt").rename(docs / "gamma.txt")
    until(lambda: _paths(index, docs) == {"alpha.txt", "gamma.txt"}, "the rename followed")

    (docs / "alpha.txt").unlink()
    until(lambda: _paths(index, docs) == {"gamma.txt"}, "alpha.txt deleted")
    assert set(index.files(docs)["path"]) == {"gamma.txt"}

    assert watched.running
    assert watched.last is not None and watched.last.error is None
    assert watched.last.report is not None and watched.runs >= 4


def test_stop_ends_the_watcher(watched: Watch):
    assert watched.running
    watched.stop()
    assert not watched.running
    assert "stopped" in repr(watched)
    watched.stop()  # again: nothing left to stop, no error (the fixture stops it once more)
    assert not watched.running


def test_catch_up_indexes_what_changed_before_the_watch(index: Index, docs: Path):
    (docs / "late.txt").write_text("Written while nobody watched.\n")
    watch = index.watch(docs)
    try:
        until(lambda: "late.txt" in _paths(index, docs), "the first re-index")
    finally:
        watch.stop()


def test_a_failing_reindex_is_kept_and_the_watcher_goes_on(docs: Path):
    calls: list[int] = []

    def reindex() -> IndexReport:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("index file locked")
        return IndexReport(root=str(docs), added=["two.txt"])

    watch = Watch(docs, reindex, catch_up=False)
    try:
        (docs / "one.txt").write_text("one\n")
        until(lambda: watch.runs == 1, "the first re-index")
        assert watch.last is not None and watch.last.report is None
        assert watch.last.error == "RuntimeError: index file locked"
        assert watch.running

        (docs / "two.txt").write_text("two\n")
        until(lambda: watch.runs == 2, "the second re-index")
        assert watch.last.error is None and watch.last.report is not None
        assert watch.last.report.added == ["two.txt"]
    finally:
        watch.stop()


def test_files_the_index_never_holds_do_not_trigger_a_reindex(tmp_path: Path, docs: Path):
    (docs / ".fsnbignore").write_text("drafts/\n*.tmp\n")
    db = tmp_path / "index.duckdb"
    events = _Events(None, Sandbox(docs), (str(db),))  # type: ignore[arg-type]
    never = [".git/index", "node_modules/x.js", "a.tmp", ".env", "id_rsa", "drafts"]
    assert not any(events._relevant(str(docs / rel)) for rel in never)
    assert not events._relevant(f"{db}.wal")
    assert not events._relevant(str(tmp_path / "elsewhere.txt"))
    assert events._relevant(str(docs / "notes" / "new.txt"))
    assert events._relevant(str(docs / ".fsnbignore"))


def _lines(stream: object) -> queue.Queue[str]:
    """The lines of a pipe as they come, read in a thread."""
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in stream], daemon=True).start()
    return lines


def test_cli_watch_prints_a_line_per_reindex_and_stops_on_sigint(tmp_path: Path, docs: Path):
    db = tmp_path / "cli.duckdb"
    child = subprocess.Popen(
        [sys.executable, "-m", "fsnb.cli", "index", str(docs), "--watch", "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        out = _lines(child.stdout)
        assert "1 added" in out.get(timeout=120)  # the first indexing; watching from here
        (docs / "beta.txt").write_text("A note written while watched.\n")
        line = out.get(timeout=DEADLINE_S)
        assert "indexed" in line and "1 added" in line and "1 unchanged" in line
        child.send_signal(signal.SIGINT)
        assert child.wait(timeout=60) == 130
        assert child.stderr is not None and child.stderr.read() == "fsnb: interrupted\n"
        assert out.empty()
    finally:
        if child.poll() is None:
            child.kill()
    assert "beta.txt" in set(Index(db).documents(docs)["path"])
