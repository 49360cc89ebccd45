"""The storage object (`fsnb.db`): one `Database` per file, its migrations one file per
version, the header read readers rely on, the process state a test can swap, and lending
a handed-out connection's file to a write while a query runs on it."""

from __future__ import annotations

import os
import re
import shutil
import threading
from importlib import resources
from pathlib import Path

import duckdb
import pytest

from fsnb.db import Database, DatabaseInUse, SqlRefused
from fsnb.db.database import database
from fsnb.db.engine import Engine, current
from fsnb.db.schema import SCHEMA_VERSION, migrate, migrations
from fsnb.db.sql import ident, literal
from fsnb.db.version import HEADER_BYTES, file_version
from fsnb.tools.context import ToolContext


def _versions(path: Path) -> list[int]:
    with duckdb.connect(str(path), read_only=True) as con:
        rows = con.execute("SELECT version FROM schema_version ORDER BY version").fetchall()
    return [v for (v,) in rows]


def _catalog(path: Path) -> list[tuple]:
    """Every table, view and column of the file, with types, in a stable order."""
    with duckdb.connect(str(path), read_only=True) as con:
        return con.execute(
            "SELECT schema_name, table_name, column_name, data_type FROM duckdb_columns()"
            " WHERE database_name = current_database() ORDER BY ALL"
        ).fetchall()


# --- migrations: one file per version -------------------------------------------------------


def test_the_migration_files_are_numbered_one_to_n_without_gaps():
    folder = resources.files("fsnb.db") / "migrations"
    names = sorted(entry.name for entry in folder.iterdir() if not entry.name.startswith("__"))
    assert all(re.fullmatch(r"\d{3}_[a-z0-9_]+\.sql", n) for n in names), names
    assert [int(n[:3]) for n in names] == list(range(1, SCHEMA_VERSION + 1))
    assert [m.version for m in migrations()] == list(range(1, SCHEMA_VERSION + 1))
    assert all(m.sql.strip() for m in migrations())
    assert migrations()[0].name == "base" and migrations()[-1].name == "ocr"


def test_a_fresh_file_migrates_to_the_last_version(tmp_path: Path):
    path = tmp_path / "fresh.duckdb"
    with database(path).write():
        pass
    assert _versions(path) == list(range(1, SCHEMA_VERSION + 1))


@pytest.mark.parametrize("old", range(SCHEMA_VERSION))
def test_a_file_of_an_older_version_migrates_forward(tmp_path: Path, old: int):
    """A file an older fsnb wrote (version `old`) reaches the last version on the first
    write, with the same tables and columns as a file made new."""
    fresh, aged = tmp_path / "fresh.duckdb", tmp_path / f"v{old}.duckdb"
    with database(fresh).write():
        pass
    with duckdb.connect(str(aged)) as con:
        assert migrate(con, to=old) == 0
    assert _versions(aged) == list(range(1, old + 1))
    with database(aged).write():
        pass
    assert _versions(aged) == list(range(1, SCHEMA_VERSION + 1))
    assert _catalog(aged) == _catalog(fresh)


def test_a_file_replaced_under_its_database_is_migrated_again(tmp_path: Path):
    """The migration check is skipped only while the file is the one this object last
    wrote: a file copied over it (an older index restored, say) is checked again."""
    path, old = tmp_path / "index.duckdb", tmp_path / "old.duckdb"
    db = database(path)
    with db.write():
        pass
    with duckdb.connect(str(old)) as con:
        migrate(con, to=3)
    shutil.copyfile(old, path)
    with db.write() as con:
        assert con.execute("SELECT count(*) FROM explorations").fetchone() == (0,)  # version 7
    assert _versions(path)[-1] == SCHEMA_VERSION


# --- the header read ------------------------------------------------------------------------


def test_file_version_reads_duckdbs_headers(tmp_path: Path):
    """Pinned to DuckDB's storage format: the file opens with a block of 4 KiB then two
    database headers, each with the magic `DUCK` at byte 8 of the file and a checkpoint
    count that goes up by one with every checkpoint. If a DuckDB release changes this, the
    readers' caches (`fsnb.db.version`) need another signature."""
    path = tmp_path / "v.duckdb"
    db = database(path)
    with db.write():
        pass
    head = path.read_bytes()[:HEADER_BYTES]
    assert head[8:12] == b"DUCK"
    before = file_version(path)
    assert before is not None
    db.checkpoint()
    after = file_version(path)
    assert after is not None
    assert after[2] in (before[2], before[2] + 1)  # nothing logged: DuckDB may skip it
    with db.write() as con:
        con.execute("INSERT INTO bookmarks (corpus_id, path) VALUES (1, 'a')")
    db.checkpoint()
    last = file_version(path)
    assert last is not None and last[:2] == after[:2] and last[2] == after[2] + 1


# --- one object per file, and process state a test can swap ---------------------------------


def test_one_database_per_resolved_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "one.duckdb"
    monkeypatch.chdir(tmp_path)
    assert database(path) is database(str(path)) is database("one.duckdb")
    assert database(path).path == path.resolve()
    monkeypatch.setenv("FSNB_DB", str(path))
    assert database() is database(path)
    assert database(tmp_path / "two.duckdb") is not database(path)


def test_a_test_can_swap_the_process_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "swap.duckdb"
    first = database(path)
    with first.write() as con:
        con.execute("CREATE TABLE kept (x INTEGER)")
    mine = Engine()
    monkeypatch.setattr("fsnb.db.engine._current", mine)
    try:
        assert current() is mine
        second = database(path)
        assert second is not first and second.engine is mine and first.engine is not mine
        with second.read() as con:
            assert con.execute("SELECT count(*) FROM kept").fetchone() == (0,)
        assert mine.instance() is not first.engine.instance()
        assert not mine.handouts.held(path)
    finally:
        mine.close()


def test_the_tool_context_holds_the_database(tmp_path: Path):
    ctx = ToolContext(tmp_path, tmp_path / "ctx.duckdb")
    assert isinstance(ctx.db, Database)
    assert ctx.db is database(tmp_path / "ctx.duckdb") is ctx.db
    assert ctx.db_path == os.fspath(tmp_path / "ctx.duckdb")
    assert ctx.scratchpad.db is ctx.db


# --- reading, writing, selecting ------------------------------------------------------------


def test_read_write_and_select(tmp_path: Path):
    db = database(tmp_path / "rw.duckdb")
    with db.write() as con:
        con.execute("CREATE TABLE t (x INTEGER)")
        con.execute("INSERT INTO t VALUES (1), (2)")
    with pytest.raises(ZeroDivisionError), db.write() as con:
        con.execute("INSERT INTO t VALUES (3)")
        1 / 0  # noqa: B018 -- rolled back
    with db.read() as con:
        assert con.execute("SELECT sum(x) FROM t").fetchone() == (3,)
        with pytest.raises(duckdb.Error, match="read-only"):
            con.execute("INSERT INTO t VALUES (4)")
    assert db.select("SELECT sum(x) AS s FROM t")["s"].tolist() == [3]
    with pytest.raises(SqlRefused, match="only a SELECT"):
        db.select("DELETE FROM t")
    with pytest.raises(SqlRefused):  # the guard's instance reads no files
        db.select(f"SELECT * FROM read_csv({literal(str(tmp_path / 'x.csv'))})")


def test_the_quoting_helpers():
    assert ident('a"b') == '"a""b"' and ident("order") == '"order"'
    assert literal("it's") == "'it''s'"
    with duckdb.connect() as con:
        name, text = 'we"ird', "it's"
        con.execute(f"CREATE TABLE {ident(name)} (v VARCHAR)")
        con.execute(f"INSERT INTO {ident(name)} VALUES ({literal(text)})")
        assert con.execute(f"SELECT v FROM {ident(name)}").fetchone() == (text,)


# --- lending: a handed-out connection and a write -------------------------------------------


@pytest.fixture
def lending(tmp_path: Path) -> tuple[Database, duckdb.DuckDBPyConnection]:
    db = database(tmp_path / "lend.duckdb")
    with db.write() as con:
        con.execute("CREATE TABLE big AS SELECT range AS i FROM range(10000)")
        con.execute("CREATE TABLE later (x INTEGER)")
    handout = db.handout("a test")
    yield db, handout
    handout.close()


def test_a_write_lends_the_file_of_a_handout(lending):
    """A write borrows the file from the handout: a query that starts meanwhile fails at
    once; afterwards the handout sees the write, new tables included."""
    db, handout = lending
    with db.write() as con:
        con.execute("INSERT INTO later VALUES (1)")
        con.execute("CREATE TABLE newer AS SELECT 7 AS y")
        with pytest.raises(duckdb.CatalogException):
            handout.execute("SELECT count(*) FROM big").fetchall()
    assert handout.execute("SELECT x FROM later").fetchall() == [(1,)]
    assert handout.execute("SELECT y FROM newer").fetchall() == [(7,)]


def test_a_query_running_on_a_handout_while_a_write_lends_it(lending):
    """The query runs on another thread and is held mid-scan (a Python function it calls
    waits), so the write begins while it runs, every time. The write is refused at once
    (DuckDB keeps the file open for the running query, though fsnb detached it), without
    waiting for the query; the query then finishes with its rows, the handout has its
    file back, and the next write goes through and is seen."""
    db, handout = lending
    running, release = threading.Event(), threading.Event()

    def hold(i: int) -> int:
        running.set()
        release.wait(30)
        return i

    handout.create_function("hold", hold, ["BIGINT"], "BIGINT")
    result: dict[str, object] = {}

    def query() -> None:
        try:
            result["rows"] = handout.cursor().execute("SELECT count(hold(i)) FROM big").fetchall()
        except duckdb.Error as exc:  # pragma: no cover - what the test would report
            result["error"] = exc

    thread = threading.Thread(target=query)
    thread.start()
    try:
        assert running.wait(30), "the query did not start"
        with pytest.raises(DatabaseInUse), db.write() as con:
            con.execute("INSERT INTO later VALUES (1)")
        assert thread.is_alive()  # refused at once, not after the query
    finally:
        release.set()
        thread.join(60)
    assert result == {"rows": [(10000,)]}
    assert handout.execute("SELECT count(*) FROM later").fetchall() == [(0,)]
    with db.write() as con:
        con.execute("INSERT INTO later VALUES (2)")
    assert handout.execute("SELECT x FROM later").fetchall() == [(2,)]
