from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from conftest import unprivileged

from fsnb.db import scratchpad
from fsnb.db.database import database
from fsnb.db.scratchpad import Scratchpad, ScratchpadError, ScratchpadLimit, sanitize
from fsnb.tools import Registry
from fsnb.tools.scratch import SCRATCH_TOOLS, _query_text

ROWS = [
    {"date": "2025-01-05", "description": "NETFLIX", "amount": 15.99, "category": "subscription"},
    {"date": "2025-01-07", "description": "WHOLE FOODS", "amount": 87.32, "category": "groceries"},
    {"date": "2025-02-05", "description": "NETFLIX", "amount": 15.99, "category": "subscription"},
]
COLUMNS = "date DATE, description VARCHAR, amount DECIMAL(12,2), category TEXT"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index database with its schema and one indexed document."""
    path = tmp_path_factory.mktemp("template") / "index.duckdb"
    with database(path).write() as con:
        con.execute("INSERT INTO corpora (root) VALUES ('/corpus')")
        con.execute("INSERT INTO documents (corpus_id, path, title) VALUES (1, 'a.pdf', 'Deal')")
    return path


@pytest.fixture
def db(template: Path, tmp_path: Path) -> Path:
    """A fresh copy of the template (copying is faster than building it again)."""
    return Path(shutil.copy(template, tmp_path / "index.duckdb"))


@pytest.fixture
def pad(db: Path) -> Scratchpad:
    return Scratchpad(db)


def _index_intact(db: Path) -> None:
    with database(db).read() as con:
        assert con.execute("SELECT title FROM main.documents").fetchall() == [("Deal",)]


def test_round_trip(pad: Scratchpad):
    assert pad.create_table("transactions", COLUMNS) == "transactions"
    assert pad.insert("transactions", json.dumps(ROWS)) == 3
    assert pad.insert("transactions", [{"Description": "REFUND", "amount": -5}]) == 1
    totals = pad.query(
        "SELECT category, sum(amount) AS total FROM transactions GROUP BY ALL ORDER BY total"
    )
    assert totals["category"].tolist()[1:] == ["subscription", "groceries"]
    assert pd.isna(totals["category"].iloc[0])
    assert totals["total"].tolist() == pytest.approx([-5, 31.98, 87.32])
    frame = pad.df("transactions")
    assert list(frame.columns) == ["date", "description", "amount", "category"]
    assert len(frame) == 4 and frame["date"].iloc[0] == pd.Timestamp("2025-01-05")
    tables = pad.tables()
    assert list(tables.columns) == ["name", "rows", "columns", "bytes"]
    row = tables.iloc[0]
    assert (row["name"], row["rows"]) == ("transactions", 4)
    assert (
        row["columns"] == "date DATE, description VARCHAR, amount DECIMAL(12,2), category VARCHAR"
    )
    assert row["bytes"] > 4 * (4 + 8)  # fixed widths plus the text
    assert "transactions" in pad
    assert pad.drop("transactions") == 4


def test_types_are_whitelisted(pad: Scratchpad):
    pad.create_table("t", {"a": "real", "b": "varchar(255)", "c": "Numeric(10, 2)", "d": "int"})
    assert pad.schema("t") == {"a": "DOUBLE", "b": "VARCHAR", "c": "DECIMAL(10,2)", "d": "INTEGER"}
    pad.create_table("j", [("meta", "JSON"), ("ok", "bool"), ("at", "datetime")])
    pad.insert("j", [{"meta": {"k": [1, 2]}, "ok": True, "at": "2025-01-05 10:00:00"}])
    assert pad.query("SELECT meta->'$.k[1]' AS x, ok FROM j").iloc[0].tolist() == ["2", True]
    for bad in ["x BLOB", "x VARCHAR PRIMARY KEY", "x INTEGER[]", "x DECIMAL(50,2)", "x"]:
        with pytest.raises(ScratchpadError, match=r"type|needs a name and a type"):
            pad.create_table("bad", bad)
    assert "bad" not in pad


def test_create_existing_table(pad: Scratchpad):
    pad.create_table("t", "a INTEGER")
    pad.insert("t", [{"a": 1}])
    assert pad.create_table("t", "a INTEGER") == "t"  # same columns: nothing changes
    with pytest.raises(ScratchpadError, match=r"already exists with columns \(a INTEGER\)"):
        pad.create_table("t", "a VARCHAR")
    assert pad.df("t")["a"].tolist() == [1]
    pad.create_table("t", "b VARCHAR", replace=True)
    assert pad.schema("t") == {"b": "VARCHAR"} and pad.df("t").empty


def test_insert_is_all_or_nothing(pad: Scratchpad):
    pad.create_table("transactions", COLUMNS)
    pad.insert("transactions", ROWS[:1])
    bad = [*ROWS[1:], {"date": "2025-03-01", "amount": "12,50"}]
    with pytest.raises(ScratchpadError, match=r"row 3, column amount: cannot convert '12,50'"):
        pad.insert("transactions", bad)
    with pytest.raises(ScratchpadError, match="column date: cannot convert 'March 1'"):
        pad.insert("transactions", [{"date": "March 1"}])
    assert len(pad.df("transactions")) == 1


def test_insert_unknown_columns_and_bad_rows(pad: Scratchpad):
    pad.create_table("t", "name VARCHAR, bonus DOUBLE")
    with pytest.raises(ScratchpadError, match=r"unknown columns 'salary', '\?\?' for table t"):
        pad.insert("t", [{"name": "Ann"}, {"name": "Bob", "salary": 1, "??": 2}])
    for rows in ["not json", '{"name": 1', "[1, 2]", '"text"']:
        with pytest.raises(ScratchpadError, match="JSON"):
            pad.insert("t", rows)
    with pytest.raises(ScratchpadError, match="no scratchpad table 'nope'"):
        pad.insert("nope", [{"name": "Ann"}])
    assert pad.insert("t", []) == 0 and pad.df("t").empty
    assert pad.insert("t", {"name": "Ann", "bonus": float("nan")}) == 1
    assert pad.df("t")["bonus"].isna().all()


NOT_SELECT = [
    "DROP TABLE t",
    "INSERT INTO t VALUES (1)",
    "UPDATE t SET a = 2",
    "DELETE FROM t",
    "CREATE TABLE u (a INTEGER)",
    "ATTACH 'other.duckdb' AS other",
    "COPY t TO 'out.csv'",
    "PRAGMA database_size",
    "SET threads = 1",
    "INSTALL httpfs",
    "LOAD httpfs",
    "EXPORT DATABASE 'dump'",
    "CALL pragma_version()",
    "EXPLAIN SELECT 1",
]
TWO_STATEMENTS = [
    "SELECT 1; DROP TABLE t",
    "SELECT 1 /* harmless */; DROP TABLE t -- trailing comment",
    "SELECT 1 --\n; DROP TABLE t",
    "WITH x AS (SELECT 1) SELECT * FROM x; DELETE FROM t",
]


def test_query_refuses_anything_but_one_select(pad: Scratchpad, tmp_path: Path):
    pad.create_table("t", "a INTEGER")
    pad.insert("t", [{"a": 1}])
    for sql in NOT_SELECT:
        with pytest.raises(
            ScratchpadError, match=r"only a SELECT query is allowed here, not an? [A-Z]+ statement"
        ):
            pad.query(sql)
    for sql in TWO_STATEMENTS:
        with pytest.raises(ScratchpadError, match="one SQL statement at a time, found 2"):
            pad.query(sql)
    assert pad.df("t")["a"].tolist() == [1] and pad.schema("t") == {"a": "INTEGER"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.duckdb"]


def test_query_accepts_one_select_whatever_its_comments(pad: Scratchpad):
    pad.create_table("t", "a INTEGER")
    assert pad.query("SELECT 1 AS a /* ; DROP TABLE t */").iat[0, 0] == 1
    assert pad.query("-- a note\nWITH x AS (SELECT 2 AS a) SELECT * FROM x;").iat[0, 0] == 2
    assert "t" in pad
    for sql in ["", "-- only a comment", "SELEC 1"]:
        with pytest.raises(ScratchpadError, match=r"no SQL statement|syntax error"):
            pad.query(sql)


def test_query_cannot_reach_files_python_or_run_forever(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    (tmp_path / "secret.csv").write_text("password\nhunter2\n")
    # DuckDB would otherwise scan a DataFrame found by name in the calling module
    monkeypatch.setattr(scratchpad, "secret", pd.DataFrame({"password": ["x"]}), raising=False)
    pad = Scratchpad(db, timeout_s=0.2)
    with pytest.raises(ScratchpadError, match="Permission Error"):
        pad.query(f"SELECT * FROM read_csv('{tmp_path / 'secret.csv'}')")
    with pytest.raises(ScratchpadError, match="Table with name secret does not exist"):
        pad.query("SELECT * FROM secret")
    with pytest.raises(ScratchpadError, match=r"query stopped after 0\.2 s"):
        pad.query("SELECT sum(hash(range)) FROM range(1000000000000)")


def test_index_tables_are_readable(pad: Scratchpad, db: Path):
    pad.create_table("notes", "path VARCHAR, note VARCHAR")
    pad.insert("notes", [{"path": "a.pdf", "note": "signed"}])
    joined = pad.query("SELECT d.title, n.note FROM documents d JOIN notes n USING (path)")
    assert joined.to_dict("records") == [{"title": "Deal", "note": "signed"}]
    assert pad.query("SELECT count(*) FROM main.files").iat[0, 0] == 0
    _index_intact(db)


HOSTILE = {
    "x; DROP TABLE y": "x_drop_table_y",
    "Robert'); --": "robert",
    "../../etc": "etc",
    "main.documents": "main_documents",
    '"quoted"': "quoted",
    "select": "select_",
    "2024 Sales (€)": "t_2024_sales",
    "Préstamo": "prestamo",
    "a" * 100: "a" * 63,
}


def test_hostile_names_become_safe(pad: Scratchpad, db: Path, tmp_path: Path):
    assert {name: sanitize(name) for name in HOSTILE} == HOSTILE
    pad.create_table("y", "a INTEGER")
    for name in ["x; DROP TABLE y", "Robert'); --", "../../etc", "main.documents", "select"]:
        assert pad.create_table(name, {name: "VARCHAR"}) == HOSTILE[name]
    assert sorted(pad.tables()["name"]) == [
        "etc", "main_documents", "robert", "select_", "x_drop_table_y", "y"
    ]  # fmt: skip
    assert pad.insert("x; DROP TABLE y", [{"x; DROP TABLE y": "v"}]) == 1
    assert pad.insert("select", [{"select": "w"}]) == 1
    assert pad.query("SELECT * FROM x_drop_table_y, select_").iloc[0].tolist() == ["v", "w"]
    assert pad.drop("main.documents") == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.duckdb"]
    _index_intact(db)


def test_names_with_nothing_left_are_refused(pad: Scratchpad, db: Path):
    for name in ["", ";--", "'); --", "日本", "___"]:
        with pytest.raises(ScratchpadError, match="invalid table name"):
            pad.create_table(name, "a INTEGER")
    with pytest.raises(ScratchpadError, match="no scratchpad table 'main_documents'"):
        pad.drop("main.documents")
    with pytest.raises(ScratchpadError, match="duplicate column 'a'"):
        pad.create_table("t", "a INTEGER, A VARCHAR")
    assert sanitize("x", "column") == "x"
    assert pad.tables().empty
    _index_intact(db)


def test_table_limit(db: Path):
    pad = Scratchpad(db, max_tables=2)
    pad.create_table("a", "x INTEGER")
    pad.create_table("b", "x INTEGER")
    with pytest.raises(ScratchpadLimit, match=r"at most 2 tables \(drop one with drop_table\)"):
        pad.create_table("c", "x INTEGER")
    pad.create_table("b", "y INTEGER", replace=True)  # replacing is not a new table
    assert sorted(pad.tables()["name"]) == ["a", "b"]


def test_row_limit(db: Path):
    pad = Scratchpad(db, max_rows=3)
    pad.create_table("t", "x INTEGER")
    pad.insert("t", [{"x": 1}, {"x": 2}])
    with pytest.raises(ScratchpadLimit, match="at most 3 rows per table; t has 2 and this adds 2"):
        pad.insert("t", [{"x": 3}, {"x": 4}])
    assert pad.df("t")["x"].tolist() == [1, 2]


def test_size_limit(db: Path):
    pad = Scratchpad(db, max_bytes=100)
    pad.create_table("t", "x VARCHAR")
    pad.insert("t", [{"x": "a" * 50}])
    with pytest.raises(ScratchpadLimit, match=r"at most 100 bytes of data in all; .* to 110"):
        pad.insert("t", [{"x": "b" * 60}])
    assert pad.df("t")["x"].tolist() == ["a" * 50]
    assert pad.tables()["bytes"].tolist() == [50]


def test_tools_through_the_registry(db: Path, tmp_path: Path):
    registry = Registry(SCRATCH_TOOLS)

    def call(tool: str, **args: object) -> str:
        return registry.call(tool, args, root=str(tmp_path), db=str(db)).text

    assert call("list_tables") == "No scratchpad tables yet: make one with create_table."
    assert call("create_table", name="Transactions!", columns=COLUMNS) == (
        "Created table transactions (date DATE, description VARCHAR, amount DECIMAL(12,2), "
        "category VARCHAR) (the name 'Transactions!' became 'transactions')."
    )
    assert call("create_table", name="transactions", columns=COLUMNS).startswith(
        "Table transactions already exists with these columns"
    )
    assert call("insert_data", table="transactions", rows=json.dumps(ROWS)) == (
        "Inserted 3 rows into transactions (now 3 rows)."
    )
    out = call(
        "query_data",
        sql="SELECT description, sum(amount) AS total FROM transactions GROUP BY 1 ORDER BY 2",
    )
    assert out.splitlines()[0] == "2 rows"
    assert "NETFLIX  31.98" in out and "WHOLE FOODS  87.32" in out
    assert call("list_tables").startswith("1 scratchpad table:\n- transactions: 3 rows, ")
    assert call("query_data", sql="SELECT 1 WHERE false") == "0 rows (columns: 1)"
    many = call("query_data", sql="SELECT range AS n FROM range(20000)")
    assert many.startswith("more than 10,000 rows")
    assert "[first 100 of more than 10,000 rows shown" in many
    assert len(many.splitlines()) == 103
    assert call("drop_table", name="transactions") == "Dropped table transactions (3 rows)."


def test_tool_errors_are_text(db: Path, tmp_path: Path):
    registry = Registry(SCRATCH_TOOLS)

    def call(tool: str, **args: object) -> str:
        return registry.call(tool, args, root=str(tmp_path), db=str(db)).text

    call("create_table", name="t", columns="a INTEGER")
    assert call("query_data", sql="DROP TABLE t").startswith(
        "error: only a SELECT query is allowed here, not a DROP statement"
    )
    assert call("insert_data", table="t", rows='[{"b": 1}]').startswith(
        "error: unknown column 'b' for table t (columns: a)"
    )
    assert call("create_table", name="u", columns="a BLOB").startswith(
        "error: unsupported type 'BLOB' for column a; use one of VARCHAR"
    )
    assert call("drop_table", name="nope") == (
        "error: no scratchpad table 'nope' (list_tables shows the tables)"
    )
    assert call("insert_data", table="t").startswith("error: invalid arguments for insert_data")
    assert "\n" not in call("query_data", sql="SELECT * FROM nope")


def test_tool_schemas_describe_every_parameter():
    schemas = {s["name"]: s for s in Registry(SCRATCH_TOOLS).schemas()}
    assert list(schemas) == [
        "create_table",
        "insert_data",
        "query_data",
        "list_tables",
        "drop_table",
    ]
    for schema in schemas.values():
        assert schema["description"]
        params = schema["parameters"]
        assert "root" not in params["properties"] and "db" not in params["properties"]
        for name, prop in params["properties"].items():
            assert prop.get("description"), (schema["name"], name)
            assert prop["type"] == "string"
    assert schemas["create_table"]["parameters"]["required"] == ["name", "columns"]
    assert (
        "DECIMAL(p,s)"
        in schemas["create_table"]["parameters"]["properties"]["columns"]["description"]
    )
    assert schemas["list_tables"]["parameters"]["properties"] == {}


READ_ONLY_SCRIPT = """
import json, sys
from fsnb.tools import agent_registry
registry, root, db = agent_registry(), sys.argv[1], sys.argv[2]
calls = [
    ("create_table", {"name": "t2", "columns": "a INTEGER"}),
    ("insert_data", {"table": "t", "rows": '[{"a": 2}]'}),
    ("drop_table", {"name": "t"}),
    ("query_data", {"sql": "SELECT sum(a) AS total FROM t"}),
    ("list_tables", {}),
]
for name, args in calls:
    print(json.dumps([name, registry.call(name, args, root=root, db=db).text]))
"""


def test_writes_to_a_read_only_database_are_one_line_errors(tmp_path: Path):
    """A database the process may not write: every scratch write says so in one line,
    reads still work, and nothing is lost (a real unprivileged process, as in
    test_permissions)."""
    root, folder = tmp_path / "db", tmp_path / "corpus"
    root.mkdir()
    folder.mkdir()
    db = root / "index.duckdb"
    pad = Scratchpad(db, folder=folder)
    pad.create_table("t", "a INTEGER")
    pad.insert("t", [{"a": 1}])
    db.chmod(0o444)
    root.chmod(0o555)
    try:
        out = subprocess.run(
            [*unprivileged(), sys.executable, "-c", READ_ONLY_SCRIPT, str(folder), str(db)],
            capture_output=True, text=True, timeout=120, check=True,
        ).stdout  # fmt: skip
    finally:
        root.chmod(0o755)
        db.chmod(0o644)
    lines = dict(json.loads(line) for line in out.splitlines())
    assert set(lines) == {"create_table", "insert_data", "drop_table", "query_data", "list_tables"}
    for write in ("create_table", "insert_data", "drop_table"):
        assert lines[write].startswith("error: ") and "ermission denied" in lines[write], out
        assert "\n" not in lines[write]
    assert lines["query_data"].startswith("1 row\n") and lines["query_data"].endswith("1")
    assert lines["list_tables"].startswith("1 scratchpad table:\n- t: 1 rows")
    assert pad.rows("t") == 1


def test_query_data_returns_its_sql_and_first_rows_as_data(db: Path, tmp_path: Path):
    registry = Registry(SCRATCH_TOOLS)

    def call(tool: str, **args: object):
        return registry.call(tool, args, root=str(tmp_path), db=str(db))

    call("create_table", name="t", columns=COLUMNS + ", paid_at TIMESTAMP, ratio DOUBLE")
    rows = [{**ROWS[0], "paid_at": "2025-01-05 10:30:00", "ratio": 0.5}, {"description": "x" * 500}]
    call("insert_data", table="t", rows=json.dumps(rows))
    sql = "SELECT date, description, amount, paid_at, ratio, 'NaN'::DOUBLE AS nan FROM t ORDER BY date"
    outcome = call("query_data", sql=sql)
    assert outcome.ok and outcome.text.startswith("2 rows\n")  # the LLM's text is unchanged
    assert outcome.text == _query_text(Scratchpad(db, folder=tmp_path).query(sql))
    data = outcome.data
    assert (data["sql"], data["row_count"], data["more_rows"]) == (sql, 2, False)
    assert data["columns"] == ["date", "description", "amount", "paid_at", "ratio", "nan"]
    first, second = data["rows"]
    assert first == ["2025-01-05", ROWS[0]["description"], 15.99, "2025-01-05T10:30:00", 0.5, None]
    assert second[0] is None and second[2:] == [None, None, None, None]
    assert second[1].endswith("…") and len(second[1]) == 200  # long text is cut in the data
    assert json.loads(json.dumps(data, allow_nan=False)) == data  # JSON as it is
    many = call("query_data", sql="SELECT range AS n FROM range(20000)").data
    assert (len(many["rows"]), many["row_count"], many["more_rows"]) == (50, 10_000, True)
    assert call("query_data", sql="SELECT * FROM nope").data == {}  # a failure has no data
