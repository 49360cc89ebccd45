"""`fsnb sql` is read-only in fact: one SELECT, no file or network access, bounded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fsnb.cli import main as cli
from fsnb.db.guard import SqlRefused
from fsnb.index import Index


@pytest.fixture
def db(folder: Path, tmp_path: Path) -> Path:
    path = tmp_path / "index.duckdb"
    Index(path).add_folder(folder, progress=False)
    return path


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli(["sql", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("sql", "why"),
    [
        ("SELECT * FROM read_text('/etc/passwd')", "file system operations are disabled"),
        ("SELECT * FROM '/etc/passwd'", "Table with name /etc/passwd does not exist"),
        ("COPY (SELECT 1) TO 'out.csv'", "not a COPY statement"),
        ("INSTALL httpfs", "not a LOAD statement"),  # DuckDB parses INSTALL as LOAD
        ("ATTACH 'x.duckdb'", "not an ATTACH statement"),
        ("DELETE FROM documents", "not a DELETE statement"),
        ("SELECT 1; DROP TABLE documents", "one SQL statement at a time, found 2"),
        ("", "no SQL statement given"),
        ("   ", "no SQL statement given"),
    ],
)
def test_refused_with_one_line(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], sql: str, why: str, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(capsys, sql, "--db", str(db))
    assert code == 2 and out == "" and why in err and err.count("\n") == 1, err
    assert not (tmp_path / "out.csv").exists()
    assert Index(db).sql("SELECT count(*) AS n FROM documents")["n"][0] >= 4


def test_rows_are_capped_with_a_note(db: Path, capsys: pytest.CaptureFixture[str]):
    code, out, err = _run(capsys, "SELECT range AS n FROM range(3000000)", "--db", str(db))
    assert code == 0 and "[only the first 1,000 rows" in err
    assert len(out.splitlines()) == 1001  # header and 1,000 rows
    code, out, _ = _run(capsys, "SELECT range AS n FROM range(10)", "--db", str(db), "--json")
    assert code == 0 and [r["n"] for r in json.loads(out)] == list(range(10))


def test_a_runaway_query_is_stopped(db: Path, capsys: pytest.CaptureFixture[str]):
    sql = "SELECT sum(hash(a.range * b.range)) FROM range(1000000) a, range(1000000) b"
    code, _, err = _run(capsys, sql, "--db", str(db), "--timeout", "0.5")
    assert code == 2 and "query stopped after 0.5 s" in err


def test_memory_is_bounded(db: Path, capsys, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("FSNB_SQL_MEMORY", "64MB")
    code, _, err = _run(capsys, "SELECT list(range) FROM range(50000000)", "--db", str(db))
    assert code == 2 and "needs more than 64MB of memory" in err
    assert not list(db.parent.glob("*.tmp"))  # nothing spilled to disk


def test_no_index_yet(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    code, _, err = _run(capsys, "SELECT 1", "--db", str(tmp_path / "none.duckdb"))
    assert code == 2 and "no index at" in err and not (tmp_path / "none.duckdb").exists()


def test_bound_parameters_are_values_and_pass_the_same_checks(db: Path, folder: Path):
    index = Index(db)
    rows = index.sql("SELECT path FROM documents WHERE path = $p", params={"p": "agreement.pdf"})
    assert list(rows["path"]) == ["agreement.pdf"]
    sneaky = {"p": "x' OR '1'='1"}
    assert index.sql("SELECT count(*) AS n FROM files WHERE path = $p", params=sneaky)["n"][0] == 0
    confined = index.sql("SELECT $1 + 1 AS n, count(*) AS c FROM documents", folder, params=[41])
    assert confined["n"][0] == 42 and confined["c"][0] >= 4
    with pytest.raises(SqlRefused, match="file system operations are disabled"):
        index.sql("SELECT * FROM read_text($p)", params={"p": "/etc/passwd"})
    with pytest.raises(SqlRefused, match=r"read_text\(\) is not available here"):
        index.sql("SELECT * FROM read_text(?)", folder, params=["/etc/passwd"])
