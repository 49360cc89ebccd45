"""`fsnb scratch list|show|drop|clear` on a real index file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fsnb.cli import main
from fsnb.db.scratchpad import Scratchpad

ROWS = [{"item": f"row {n}", "amount": n * 1.5} for n in range(1, 6)]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """An index file with a shared table `prices` (5 rows) and a folder's table `spend`."""
    path = tmp_path / "index.duckdb"
    shared = Scratchpad(path)
    shared.create_table("prices", "item VARCHAR, amount DOUBLE")
    shared.insert("prices", ROWS)
    (tmp_path / "bank").mkdir()
    own = Scratchpad(path, folder=tmp_path / "bank")
    own.create_table("spend", "amount DOUBLE")
    own.insert("spend", [{"amount": 3.0}])
    return path


def scratch(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["scratch", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_list_shows_the_tables_with_their_row_counts(db, tmp_path, capsys):
    code, out, _ = scratch(capsys, "list", "--db", str(db), "--json")
    assert code == 0
    assert json.loads(out) == [
        {"name": "prices", "rows": 5, "columns": "item VARCHAR, amount DOUBLE"}
    ]
    code, out, _ = scratch(capsys, "list", "--db", str(db), "--folder", str(tmp_path / "bank"))
    assert code == 0 and "spend" in out and "prices" not in out
    code, out, _ = scratch(capsys, "list", "--db", str(tmp_path / "none.duckdb"))
    assert (code, out) == (0, "no scratchpad tables in the shared scratchpad\n")
    assert not (tmp_path / "none.duckdb").exists()  # said, not created


def test_show_prints_a_table_with_a_limit(db, capsys):
    code, out, err = scratch(capsys, "show", "prices", "--db", str(db), "--limit", "2", "--json")
    assert code == 0 and json.loads(out) == ROWS[:2]
    assert err == "[first 2 of 5 rows: raise --limit]\n"
    code, out, err = scratch(capsys, "show", "Prices", "--db", str(db))
    assert code == 0 and "row 5" in out and "7.5" in out and err == ""


def test_a_missing_table_exits_2_with_one_line(db, capsys):
    for action in ("show", "drop"):
        code, out, err = scratch(capsys, action, "nope", "--db", str(db))
        assert (code, out) == (2, "")
        assert err == "fsnb: no scratchpad table 'nope' (fsnb scratch list shows them)\n"
    with pytest.raises(SystemExit):
        main(["scratch", "show", "prices", "--limit", "0"])


def test_drop_and_clear(db, tmp_path, capsys):
    code, out, _ = scratch(capsys, "drop", "prices", "--db", str(db))
    assert (code, out) == (0, "dropped prices (5 rows)\n")
    assert "prices" not in Scratchpad(db)
    folder = str(tmp_path / "bank")
    code, _, err = scratch(capsys, "clear", "--db", str(db), "--folder", folder)
    assert code == 2 and "add --yes to confirm" in err
    assert "spend" in Scratchpad(db, folder=folder)
    code, out, _ = scratch(capsys, "clear", "--db", str(db), "--folder", folder, "--yes")
    assert (code, out) == (0, "dropped 1 table: spend\n")
    assert Scratchpad(db, folder=folder).tables().empty
