"""Extracted tables into the scratchpad with provenance: `fsnb.extract.load` and its tools."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from fsnb.db.scratchpad import Scratchpad, ScratchpadError
from fsnb.errors import AccessDenied
from fsnb.extract import load
from fsnb.extract.load import column_names, load_table, shape_difference
from fsnb.extract.tables import ExtractedTable as Table
from fsnb.tools import agent_registry


def statement(month: int, amounts: list[float], *, page: int | None = 1, index: int = 0) -> Table:
    raw = pd.DataFrame(
        {
            "Date": [f"2025-{month:02d}-{d + 1:02d}" for d in range(len(amounts))],
            "Description": [f"SHOP {d}" for d in range(len(amounts))],
            "Amount ($)": [f"${a:,.2f}" for a in amounts],
        }
    )
    frame = raw.assign(
        Date=pd.to_datetime(raw["Date"]), **{"Amount ($)": pd.Series(amounts, dtype=float)}
    )
    return Table(f"{month:02d}.pdf", index, page, "Transactions", frame, raw)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "statements"
    root.mkdir()
    for month in (1, 2):
        (root / f"{month:02d}.pdf").write_bytes(b"%PDF-1.4 stand-in")
    (tmp_path / "outside.pdf").write_bytes(b"%PDF-1.4 stand-in")
    return root


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "index.duckdb"


@pytest.fixture
def fake_extraction(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Table]]:
    """Documents' tables by file name, served in place of the real extraction."""
    tables = {
        "01.pdf": [statement(1, [12.5, 1234.5]), statement(1, [1.0], page=2, index=1)],
        "02.pdf": [statement(2, [15.99, -3.2, 7.0], page=None)],
    }
    monkeypatch.setattr(load, "document_tables", lambda path, sandbox: tables[Path(path).name])
    return tables


def test_a_new_table_gets_typed_columns_and_provenance(folder, db, fake_extraction):
    report = load_table(db, folder, "01.pdf", 0, "Transactions")
    assert (report.table, report.added, report.rows, report.created) == ("transactions", 2, 2, True)
    assert report.columns == {
        "source_file": "VARCHAR",
        "page": "INTEGER",
        "source_row": "INTEGER",
        "date": "DATE",
        "description": "VARCHAR",
        "amount": "DOUBLE",
    }
    assert report.renamed == {"Date": "date", "Description": "description", "Amount ($)": "amount"}
    frame = Scratchpad(db, folder=folder).df("transactions")
    assert frame["source_file"].tolist() == ["01.pdf", "01.pdf"]
    assert frame["page"].tolist() == [1, 1]
    assert frame["source_row"].tolist() == [1, 2]
    assert frame["amount"].tolist() == [12.5, 1234.5]
    assert frame["date"][1] == pd.Timestamp("2025-01-02")
    assert report.summary().startswith("Created table transactions: 2 rows from 01.pdf, page 1")


def test_a_table_of_the_same_shape_is_appended(folder, db, fake_extraction):
    load_table(db, folder, "01.pdf", 0, "transactions")
    report = load_table(db, folder, "02.pdf", 0, "transactions")
    assert (report.added, report.rows, report.created) == (3, 5, False)
    pad = Scratchpad(db, folder=folder)
    total = pad.query("SELECT source_file, count(*) AS n, sum(amount) AS s FROM transactions "
                      "GROUP BY source_file ORDER BY source_file")  # fmt: skip
    assert total["n"].tolist() == [2, 3]
    assert total["s"].round(2).tolist() == [1247.0, 19.79]
    missing_page = pad.query("SELECT count(*) AS n FROM transactions WHERE page IS NULL")
    assert missing_page["n"][0] == 3


def test_another_shape_names_the_columns_that_differ(folder, db, fake_extraction):
    load_table(db, folder, "01.pdf", 0, "transactions")
    other = statement(2, [1.0])
    other.frame = other.frame.drop(columns=["Description"]).assign(
        Category="food", **{"Amount ($)": "one"}
    )
    fake_extraction["02.pdf"] = [other]
    with pytest.raises(ScratchpadError) as caught:
        load_table(db, folder, "02.pdf", 0, "transactions")
    message = str(caught.value)
    assert "\n" not in message
    assert "missing: description" in message and "extra: category" in message
    assert "other type: amount (VARCHAR, the table has DOUBLE)" in message
    assert Scratchpad(db, folder=folder).rows("transactions") == 2  # nothing changed


def test_widening_types_append_and_narrowing_ones_do_not():
    have = {"n": "DOUBLE", "d": "TIMESTAMP"}
    assert shape_difference(have, {"n": "BIGINT", "d": "DATE"}) is None
    assert shape_difference({"n": "BIGINT"}, {"n": "DOUBLE"}) == (
        "other type: n (DOUBLE, the table has BIGINT)"
    )


def test_column_names_are_clean_unique_identifiers():
    names = ["Amount ($)", "amount", "", "Page", "Order", "Réf. n°", 3]
    assert column_names(names) == [
        "amount",
        "amount_2",
        "column_3",
        "page_2",
        "order_",
        "ref_n",
        "t_3",
    ]


def test_a_missing_table_or_a_path_outside_the_root_is_refused(folder, db, fake_extraction):
    with pytest.raises(
        ScratchpadError, match=r"01\.pdf has no table 7; its tables are 0: transactions date"
    ):
        load_table(db, folder, "01.pdf", 7, "t")
    fake_extraction["02.pdf"] = []
    with pytest.raises(ScratchpadError, match=r"02\.pdf has no tables to load"):
        load_table(db, folder, "02.pdf", 0, "t")
    with pytest.raises(AccessDenied):
        load_table(db, folder, "../outside.pdf", 0, "t")
    assert "t" not in Scratchpad(db, folder=folder)


def test_a_row_that_does_not_fit_leaves_no_new_table(folder, db, fake_extraction):
    pad = Scratchpad(db, folder=folder, max_rows=2)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(load, "Scratchpad", lambda *a, **k: pad)
        with pytest.raises(ScratchpadError, match="at most 2 rows"):
            load_table(db, folder, "02.pdf", 0, "big")
    assert "big" not in pad


def test_the_tools_through_the_registry(folder, db, fake_extraction):
    registry = agent_registry()
    listed = registry.call("extract_tables", {"path": "01.pdf"}, root=folder, db=db)
    assert listed.ok, listed.text
    assert listed.text.startswith("2 tables in 01.pdf:")
    assert 'Table 0, page 1 "Transactions": 2 rows x 3 columns' in listed.text
    assert "$1,234.50" in listed.text  # the first rows as the document wrote them
    first = listed.data["tables"][0]
    assert first["columns"] == {"Date": "DATE", "Description": "VARCHAR", "Amount ($)": "DOUBLE"}
    assert first["head"][1] == {
        "Date": "2025-01-02T00:00:00",
        "Description": "SHOP 1",
        "Amount ($)": 1234.5,
    }
    loaded = registry.call(
        "load_table", {"path": "02.pdf", "table": 0, "name": "spend"}, root=folder, db=db
    )
    assert loaded.ok and loaded.data["rows"] == 3 and loaded.data["source_file"] == "02.pdf"
    assert loaded.text.startswith("Created table spend: 3 rows from 02.pdf (now 3 rows")
    outside = registry.call(
        "load_table", {"path": "../outside.pdf", "table": 0, "name": "x"}, root=folder, db=db
    )
    assert not outside.ok and "\n" not in outside.text and "outside" in outside.text
    bad = registry.call("load_table", {"path": "01.pdf", "table": "first"}, root=folder, db=db)
    assert not bad.ok and "\n" not in bad.text
    answer = registry.call("query_data", {"sql": "SELECT sum(amount) AS s FROM spend"},
                           root=folder, db=db)  # fmt: skip
    assert "19.79" in answer.text


def test_a_real_csv_is_extracted_and_loaded(folder, db):
    (folder / "fees.csv").write_text(
        'Date,Fee,Amount\n2025-01-03,Legal,"$12,500.00"\n2025-01-04,Refund,"(12.00)"\n'
    )
    report = load_table(db, folder, "fees.csv", 0, "fees")
    assert (report.added, report.page) == (2, None)
    assert list(report.columns)[3:] == ["date", "fee", "amount"]
    frame = Scratchpad(db, folder=folder).df("fees")
    assert frame["amount"].tolist() == [12500.0, -12.0]
    assert frame["source_row"].tolist() == [1, 2]


def _csv(path: Path, rows: list[tuple[str, str, str]]) -> None:
    lines = ["Date,Vendor,Amount", *(",".join(r) for r in rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_one_table_of_many_documents_by_glob_and_caption_words(tmp_path, db):
    root = tmp_path / "books"
    (root / "2024").mkdir(parents=True)
    _csv(root / "2024" / "jan.csv", [("2024-01-03", "Acme", "10.50"), ("2024-01-09", "Beta", "4")])
    _csv(root / "2024" / "feb.csv", [("2024-02-01", "Acme", "7.25")])
    (root / "2024" / "notes.csv").write_text("Topic,Owner\nbudget,Kim\n", encoding="utf-8")
    (root / "readme.md").write_text("# Books\n", encoding="utf-8")
    loaded = agent_registry().call(
        "load_table",
        {"path": "2024/*.csv", "table": "vendor amount", "name": "spend"},
        root=root,
        db=db,
    )
    assert loaded.ok, loaded.text
    assert loaded.data["added"] == 3 and loaded.data["read"] == ["2024/feb.csv", "2024/jan.csv"]
    assert loaded.data["failed"] == [
        {"path": "2024/notes.csv", "error": loaded.data["failed"][0]["error"]}
    ]
    assert "has no table 'vendor amount'" in loaded.data["failed"][0]["error"]
    assert "- 2024/notes.csv: not loaded:" in loaded.text
    pad = Scratchpad(db, folder=root)
    frame = pad.query("SELECT source_file, source_row, vendor, amount FROM spend ORDER BY 1, 2")
    assert frame.values.tolist() == [
        ["2024/feb.csv", 1, "Acme", 7.25],
        ["2024/jan.csv", 1, "Acme", 10.5],
        ["2024/jan.csv", 2, "Beta", 4.0],
    ]
    # loading a document again replaces its rows; a changed file brings its new rows
    _csv(root / "2024" / "feb.csv", [("2024-02-01", "Acme", "7.25"), ("2024-02-20", "Cora", "1")])
    again = agent_registry().call(
        "load_table",
        {"path": "2024/feb.csv, 2024/jan.csv", "table": 0, "name": "spend"},
        root=root,
        db=db,
    )
    assert again.ok and "replacing 1 loaded before" in again.text
    assert pad.rows("spend") == 4


def test_paths_outside_the_folder_or_matching_nothing_are_refused(tmp_path, db):
    root = tmp_path / "books"
    root.mkdir()
    _csv(root / "jan.csv", [("2024-01-03", "Acme", "10.50")])
    call = agent_registry().call
    for path, error in [
        ("../*.csv", "must stay inside the root"),
        ("jan.csv, ../outside.csv", "access denied"),
        ("*.xlsx", "no files match '*.xlsx'"),
        (" , ", "no paths given"),
    ]:
        outcome = call("load_table", {"path": path, "table": 0, "name": "t"}, root=root, db=db)
        assert not outcome.ok and error in outcome.text, (path, outcome.text)
    assert "t" not in Scratchpad(db, folder=root)
