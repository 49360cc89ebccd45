"""PDF tables continued on the next page: one table, each row with its own page."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from fsnb.db.scratchpad import Scratchpad
from fsnb.extract import extract_tables
from fsnb.extract.load import load_table
from fsnb.security import Sandbox

DATA = Path(__file__).resolve().parents[1] / "data"
HEADER = ["Posted", "Payee", "Value"]
ROWS = [[f"2024-03-{1 + i % 28:02d}", f"Payee {i}", f"${10 + i:,.2f}"] for i in range(60)]


def _grid(rows: list[list[str]], *, repeat: int = 0):
    from reportlab.lib import colors
    from reportlab.platypus import Table, TableStyle

    grid = Table(rows, repeatRows=repeat)
    grid.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black)]))
    return grid


def _build(path: Path, story: list) -> None:
    from reportlab.platypus import SimpleDocTemplate

    SimpleDocTemplate(str(path)).build(story)


def _title(text: str):
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph

    return Paragraph(text, getSampleStyleSheet()["Normal"])


@pytest.mark.parametrize("repeat", [1, 0], ids=["header-repeated", "header-once"])
def test_a_table_split_over_two_pages_is_one_table(tmp_path: Path, repeat: int) -> None:
    _build(tmp_path / "long.pdf", [_title("Payments"), _grid([HEADER, *ROWS], repeat=repeat)])
    tables = extract_tables(tmp_path / "long.pdf")
    assert len(tables) == 1
    table = tables[0]
    assert (table.page, table.caption) == (1, "Payments")
    assert list(table.raw.columns) == HEADER
    assert table.raw.values.tolist() == ROWS  # no repeated header among the rows
    assert table.pages is not None and len(table.pages) == len(ROWS)
    assert table.pages == sorted(table.pages) and set(table.pages) == {1, 2}
    assert table.where == "pages 1-2"
    assert table.frame["Value"].sum() == pytest.approx(sum(10 + i for i in range(60)))


def test_a_new_table_on_the_next_page_stays_separate(tmp_path: Path) -> None:
    from reportlab.platypus import PageBreak

    other = [["Name", "Role", "Team"], *[[f"N{i}", "Analyst", "Ops"] for i in range(3)]]
    story = [_grid([HEADER, *ROWS[:3]]), PageBreak(), _title("Staff"), _grid(other)]
    _build(tmp_path / "two.pdf", story)
    tables = extract_tables(tmp_path / "two.pdf")
    assert [(t.page, t.caption, t.frame.shape) for t in tables] == [
        (1, None, (3, 3)),
        (2, "Staff", (3, 3)),
    ]
    assert [t.pages for t in tables] == [[1, 1, 1], [2, 2, 2]]
    assert [t.where for t in tables] == ["page 1", "page 2"]


def test_loaded_rows_keep_their_own_page(tmp_path: Path) -> None:
    _build(tmp_path / "long.pdf", [_grid([HEADER, *ROWS], repeat=1)])
    table = extract_tables(tmp_path / "long.pdf")[0]
    report = load_table(tmp_path / "index.duckdb", tmp_path, "long.pdf", 0, "payments")
    assert (report.added, report.page) == (60, 1)
    pad = Scratchpad(tmp_path / "index.duckdb", folder=tmp_path)
    result = pad.query("SELECT page, count(*) AS n FROM payments GROUP BY page ORDER BY page")
    assert result.values.tolist() == [[1, table.pages.count(1)], [2, table.pages.count(2)]]


def test_statements_continued_tables_match_the_truth() -> None:
    with (DATA / "_truth" / "statements.csv").open(newline="") as handle:
        truth = list(csv.DictReader(handle))
    box = Sandbox(DATA / "statements")
    for name in sorted({row["source_file"] for row in truth}):
        tables = extract_tables(name, sandbox=box)
        assert len(tables) == 2, name  # the summary and one transactions table
        table = tables[1]
        expected = [(r["date"], float(r["amount"]), int(r["page"])) for r in truth]
        expected = [e for e, r in zip(expected, truth, strict=True) if r["source_file"] == name]
        got = [
            (d.date().isoformat(), a, p)
            for d, a, p in zip(table.frame["Date"], table.frame["Amount"], table.pages, strict=True)
        ]
        assert got == expected, name
