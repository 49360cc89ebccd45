"""fsnb beside jupysql and other DuckDB users in one kernel, through a real IPython shell.

jupysql's `%sql` on `fsnb.connect()` (queries through cursors) and on
`fsnb.sqlalchemy_url()` (`%sqlcmd`, duckdb-engine), indexing while they are open (refused
with the connections to close named, then done), scratch tables from any cursor, and
`%explore_sql`'s interpolation and bound parameters.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from conftest import usage_error
from IPython.core.interactiveshell import InteractiveShell

import fsnb
from fsnb.db.scratchpad import Scratchpad
from fsnb.index import Index
from fsnb.notebook.interpolation import UnresolvedWarning, expand
from fsnb.notebook.sql_text import bind, parameters, split_line

pytest.importorskip("sql", reason="jupysql is in the dev extra")
sqlalchemy = pytest.importorskip("sqlalchemy")


@pytest.fixture
def ip(monkeypatch: pytest.MonkeyPatch):
    # jupysql's telemetry and version check (ploomber-core) would reach the network.
    monkeypatch.setenv("PLOOMBER_STATS_ENABLED", "false")
    monkeypatch.setenv("PLOOMBER_VERSION_CHECK_DISABLED", "1")
    shell = InteractiveShell.instance()
    shell.run_line_magic("reload_ext", "fsnb")
    shell.run_line_magic("load_ext", "sql")
    shell.run_line_magic("config", "SqlMagic.displaylimit = 0")
    before = set(shell.user_ns)
    yield shell
    from sql.connection import ConnectionManager

    ConnectionManager.close_all()
    ConnectionManager.current = None
    fsnb.close_connections()
    for name in set(shell.user_ns) - before:
        shell.user_ns.pop(name, None)


@pytest.fixture
def indexed(folder: Path) -> Path:
    """`folder` indexed into the test's FSNB_DB, with a shared scratch table `deals`."""
    Index().add_folder(folder, progress=False)
    pad = Scratchpad()
    pad.create_table("deals", {"name": "VARCHAR", "price": "BIGINT"})
    pad.insert("deals", [{"name": "Falcon", "price": 9_000_000}, {"name": "Heron", "price": 5}])
    return folder


def _run(ip: InteractiveShell, code: str):
    """Run a cell as a notebook would (execution counts, `In [n]`); fail on its error."""
    result = ip.run_cell(code, store_history=True)
    result.raise_error()
    return result.result


def _names(result) -> list[str]:
    return [row[0] for row in result]


def test_sql_on_fsnb_connect_coexists_with_indexing(ip: InteractiveShell, indexed: Path):
    _run(ip, "import fsnb\nconn = fsnb.connect()")
    made = ip.execution_count - 1  # the cell just run
    ip.run_line_magic("sql", "conn --alias fsnb")
    # jupysql queries through conn.cursor(): the scratch table needs no prefix there
    assert _names(ip.run_line_magic("sql", "SELECT name FROM deals ORDER BY name")) == [
        "Falcon",
        "Heron",
    ]
    assert ip.run_line_magic("sql", "SELECT count(*) FROM documents")[0][0] >= 4
    # fsnb's own reads go on while it is open
    assert len(ip.run_line_magic("explore_sql", "SELECT path FROM documents")) >= 4

    # indexing borrows the file from the connection and gives it back, views refreshed
    (indexed / "later.txt").write_text("Added while jupysql held the index.\n")
    report = ip.run_line_magic("explore_index", str(indexed))
    assert list(report["path"]) == ["later.txt"] and list(report["change"]) == ["added"]
    paths = _names(ip.run_line_magic("sql", "SELECT path FROM documents ORDER BY path"))
    assert "later.txt" in paths
    _run(
        ip,
        "from fsnb.db.scratchpad import Scratchpad\nScratchpad().create_table('later_deals', {'name': 'VARCHAR'})",
    )
    assert _names(ip.run_line_magic("sql", "SELECT count(*) FROM later_deals")) == [0]
    assert made > 0 and "fsnb" in str(ip.run_line_magic("sql", "--connections"))


def test_sqlcmd_and_sqlplot_through_the_sqlalchemy_url(ip: InteractiveShell, indexed: Path):
    url = fsnb.sqlalchemy_url()
    assert url.startswith("duckdb:///") and url.endswith("?access_mode=read_only")
    assert sqlalchemy.engine.make_url(url).database == str(Index().path.resolve())
    engine = sqlalchemy.create_engine(url)
    with engine.connect() as con, pytest.raises(sqlalchemy.exc.DBAPIError, match="read-only"):
        con.exec_driver_sql("CREATE TABLE scratch.nope (x INT)")
    ip.user_ns["engine"] = engine
    ip.run_line_magic("sql", "engine --alias idx")
    tables = str(ip.run_line_magic("sqlcmd", "tables"))
    assert "documents" in tables and "chunks" in tables
    assert "deals" in str(ip.run_line_magic("sqlcmd", "tables --schema scratch"))
    rows = ip.run_line_magic("sql", "SELECT name FROM scratch.deals WHERE price > 100")
    assert _names(rows) == ["Falcon"]

    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    ax = ip.run_line_magic("sqlplot", "histogram --table documents --column chars")
    assert ax.get_title() and len(ax.patches) > 0

    # fsnb reads beside duckdb-engine's connection (another configuration) ...
    assert list(
        ip.run_line_magic("explore_sql", "SELECT name FROM deals WHERE price = 5")["name"]
    ) == ["Heron"]
    # ... and a write names it, until fsnb.close_connections() closes it
    (indexed / "later.txt").write_text("Added while duckdb-engine held the index.\n")
    message = usage_error(lambda: ip.run_line_magic("explore_index", str(indexed)))
    assert "jupysql's 'idx' (a SQLAlchemy connection) with %sql --close idx" in message
    assert fsnb.close_connections() == ["jupysql's 'idx' (a SQLAlchemy connection)"]
    assert "idx" not in str(ip.run_line_magic("sql", "--connections"))
    report = ip.run_line_magic("explore_index", str(indexed))
    assert list(report["path"]) == ["later.txt"]


def test_connections_fsnb_handed_out_live_through_writes_and_close(
    ip: InteractiveShell, indexed: Path
):
    _run(ip, "import fsnb\nmine = fsnb.connect()")
    _run(ip, "other = %explore_connection")
    (indexed / "later.txt").write_text("new\n")
    assert Index().add_folder(indexed, progress=False).counts()["added"] == 1
    for name in ("mine", "other"):
        rows = _run(
            ip,
            f"{name}.execute(\"SELECT count(*) FROM documents WHERE path = 'later.txt'\").fetchone()",
        )
        assert rows == (1,)
        assert _run(ip, f"{name}.cursor().execute('SELECT count(*) FROM deals').fetchone()") == (2,)

    held = ip.user_ns.pop("other")  # unnamed now: still closed by close_connections()
    closed = fsnb.close_connections()
    assert sorted(closed)[0].startswith(("`mine` from fsnb.connect()", "a connection from"))
    assert len(closed) == 2
    with pytest.raises(duckdb.Error, match="closed"):
        held.execute("SELECT 1")


def test_scratch_tables_resolve_from_any_cursor(indexed: Path):
    conn = fsnb.connect()
    try:
        cursors = [conn, conn.cursor(), conn.cursor().cursor()]
        for cursor in cursors:
            assert cursor.execute("SELECT name FROM deals ORDER BY name").fetchall() == [
                ("Falcon",),
                ("Heron",),
            ]
        cur = conn.cursor()
        assert cur.sql("SELECT count(*) FROM scratch.deals").fetchall()[0] == (2,)  # as before
        assert cur.sql("SELECT count(*) FROM main.documents").fetchall()[0][0] >= 4
        assert cur.sql("SELECT count(*) FROM fsnb.scratch.deals").fetchall()[0] == (2,)
        joined = cur.sql(
            "SELECT d.name, count(c.doc_id) AS n FROM deals d, chunks c GROUP BY d.name"
        ).df()
        assert isinstance(joined, pd.DataFrame) and len(joined) == 2
        with pytest.raises(duckdb.Error, match="read-only"):
            cur.execute("INSERT INTO fsnb.scratch.deals VALUES ('Owl', 1)")
    finally:
        conn.close()
    with pytest.raises(duckdb.Error, match="closed"):
        cursors[1].execute("SELECT 1")


def test_an_index_without_scratch_tables_connects(folder: Path, tmp_path: Path):
    db = tmp_path / "plain.duckdb"
    Index(db).add_folder(folder, progress=False)
    with fsnb.connect(db) as conn:
        assert conn.cursor().sql("SELECT count(*) FROM files").fetchall()[0][0] >= 4


def test_explore_sql_interpolation(ip: InteractiveShell, indexed: Path):
    ip.user_ns.update(n=2, table="deals", limit=1)
    frame = ip.run_line_magic("explore_sql", "SELECT {n} + 1 AS v, '$table' AS quoted")
    assert frame.to_dict("records") == [{"v": 3, "quoted": "$table"}]  # '$x' is left alone
    frame = ip.run_cell_magic(
        "explore_sql", "-o q", "SELECT name FROM $table ORDER BY price DESC LIMIT {limit}"
    )
    assert list(frame["name"]) == ["Falcon"] and ip.user_ns["q"] is frame
    frame = ip.run_line_magic("explore_sql", "SELECT {{'k': {n}}}.k AS k, '$$' AS d")
    assert frame.to_dict("records") == [{"k": 2, "d": "$$"}]  # {{ }} are literal braces

    with pytest.warns(UnresolvedWarning, match=r"\{nowhere\}"):
        frame = ip.run_line_magic("explore_sql", "SELECT '{nowhere}' AS s, {n} AS n")
    assert frame.to_dict("records") == [{"s": "{nowhere}", "n": 2}]  # the rest is expanded


def test_explore_sql_bound_parameters(ip: InteractiveShell, indexed: Path):
    ip.user_ns.update(name="Falcon", sneaky="x' OR '1'='1", low=1, cast="7")
    rows = ip.run_line_magic("explore_sql", "SELECT price FROM deals WHERE name = :name")
    assert list(rows["price"]) == [9_000_000]
    rows = ip.run_line_magic("explore_sql", "SELECT name FROM deals WHERE name = :sneaky")
    assert rows.empty  # a value, never SQL
    rows = ip.run_cell_magic(
        "explore_sql",
        f"--folder {indexed}",
        "SELECT :cast::INT AS n, '::low' AS s, count(*) AS docs FROM documents WHERE chars > :low",
    )
    assert rows.to_dict("records") == [{"n": 7, "s": "::low", "docs": rows["docs"][0]}]
    assert rows["docs"][0] >= 4
    message = usage_error(lambda: ip.run_line_magic("explore_sql", "SELECT :nope AS x"))
    assert "no variable 'nope' to bind to :nope" in message
    # the guard's checks hold for bound values
    ip.user_ns["path"] = "/etc/passwd"
    message = usage_error(
        lambda: ip.run_line_magic("explore_sql", "SELECT * FROM read_text(:path)")
    )
    assert "disabled" in message or "not available" in message


def test_explore_sql_forms(ip: InteractiveShell, indexed: Path):
    message = usage_error(lambda: ip.run_cell_magic("explore_sql", "SELECT 1", "SELECT 2"))
    assert "takes the query from the cell body" in message
    assert "no SQL" in usage_error(lambda: ip.run_line_magic("explore_sql", "-o q"))
    frame = ip.run_line_magic("explore_sql", f"-o r --db {Index().path} SELECT 1 - 1 AS zero")
    assert ip.user_ns["r"] is frame and list(frame["zero"]) == [0]


@pytest.mark.parametrize(
    ("sql", "names"),
    [
        ("SELECT * FROM t WHERE a = :a AND b IN (:b,:c)", ["a", "b", "c"]),
        ("SELECT x::INT, ':a' AS s, {'k':v} AS st, l[1:n] FROM t -- :d", []),
        ("SELECT 1 LIMIT :limit", ["limit"]),
        ("SELECT 'unterminated", []),
    ],
)
def test_parameters_found_by_duckdbs_tokenizer(sql: str, names: list[str]):
    assert [name for _, name in parameters(sql)] == names


def test_bind_and_split_line():
    assert bind("SELECT :a, :a + :b", {"a": 1, "b": "x", "c": 3}) == (
        "SELECT $a, $a + $b",
        {"a": 1, "b": "x"},
    )
    with pytest.raises(KeyError, match="b"):
        bind("SELECT :a, :b", {"a": 1})
    assert split_line("-o q --db 'a b.duckdb' SELECT -1 -o") == (
        "-o q --db 'a b.duckdb'",
        "SELECT -1 -o",
    )
    assert split_line("--folder=x --out=y") == ("--folder=x --out=y", "")


def test_expand_keeps_ipythons_escapes():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing unresolved: no warning
        shell = InteractiveShell.instance()
        shell.user_ns["value"] = 5
        assert expand(shell, "x = $value, {value * 2}, $$value, {{value}}") == (
            "x = 5, 10, $value, {value}"
        )
