"""Resource limits against hostile inputs: table extraction (pages, cells, bytes, a
deadline), scratchpad width, query results handed to pandas, linear chunking of long
text without blank lines, out-of-range dates, and one grep time limit per call.

Each limit is lowered through a parameter or a module constant, so the inputs stay small;
deadlines run on fake clocks, never on the wall clock.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import random
import re
from pathlib import Path

import pandas as pd
import pytest

from fsnb.db import Database, guard
from fsnb.db.database import database
from fsnb.db.scratchpad import Scratchpad, ScratchpadLimit
from fsnb.documents.model import Document, PageSpan
from fsnb.extract import budget as budget_module
from fsnb.extract import tables as tables_module
from fsnb.extract.budget import TableLimits
from fsnb.extract.load import load_table
from fsnb.extract.tables import extract_tables
from fsnb.index.chunking import chunk_document
from fsnb.security import Sandbox
from fsnb.text.segments import Span, blocks, pieces
from fsnb.tools import agent_registry, matching


def _grid_pdf(path: Path, widths: list[int]) -> Path:
    """A PDF with one ruled table a page, of `widths[i]` columns on page i + 1 (different
    widths, so that no table reads as the continuation of the one before)."""
    from reportlab.lib import colors
    from reportlab.platypus import PageBreak, SimpleDocTemplate, Table, TableStyle

    story: list = []
    for page, width in enumerate(widths, 1):
        rows = [[f"H{page}{c}" for c in range(width)]] + [
            [str(page * 100 + r * 10 + c) for c in range(width)] for r in range(3)
        ]
        grid = Table(rows)
        grid.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black)]))
        story += [grid, PageBreak()]
    SimpleDocTemplate(str(path)).build(story[:-1])
    return path


def _csv(path: Path, rows: int, columns: int) -> Path:
    header = ",".join(f"c{i}" for i in range(columns))
    body = [",".join(str(r * columns + c) for c in range(columns)) for r in range(rows)]
    path.write_text("\n".join([header, *body]) + "\n")
    return path


# --- 1. table extraction: pages, cells, bytes, deadline --------------------------------


def test_pdf_tables_stop_at_the_page_limit(tmp_path: Path) -> None:
    pdf = _grid_pdf(tmp_path / "long.pdf", [2, 3, 4])
    assert len(extract_tables(pdf)) == 3  # the whole document, with the default limits
    found = extract_tables(pdf, limits=TableLimits(pages=2))
    assert [t.page for t in found] == [1, 2]
    assert found.notes == ["tables from the first 2 pages of 3 (the 2-page limit for PDF tables)"]


def test_a_deadline_on_a_fake_clock_stops_between_pdf_pages(tmp_path, monkeypatch) -> None:
    pdf = _grid_pdf(tmp_path / "slow.pdf", [2, 3, 4])
    from fsnb.extract import pdf_tables

    now = [0.0]
    monkeypatch.setattr(budget_module, "_clock", lambda: now[0])
    scan = pdf_tables._page_tables

    def slow_page(page):  # each page "takes" 10 s
        now[0] += 10
        return scan(page)

    monkeypatch.setattr(pdf_tables, "_page_tables", slow_page)
    found = extract_tables(pdf, limits=TableLimits(seconds=15))
    assert [t.page for t in found] == [1, 2]  # checked before page 3, at 20 s
    assert found.notes == [
        "stopped after 15 s (FSNB_PARSE_TIMEOUT raises it): tables from the first 2 pages of 3"
    ]


def test_a_deadline_stops_between_the_tables_of_a_docx(tmp_path, monkeypatch) -> None:
    import docx

    document = docx.Document()
    for n in range(3):
        document.add_heading(f"Table {n}", level=1)
        grid = document.add_table(rows=2, cols=2)
        for r, row in enumerate([["Name", "Value"], [f"item {n}", str(n)]]):
            for c, text in enumerate(row):
                grid.cell(r, c).text = text
    document.save(tmp_path / "three.docx")
    now = [0.0]
    monkeypatch.setattr(budget_module, "_clock", lambda: now[0])
    frame_of = tables_module._docling_frame

    def slow_table(frame):  # each table "takes" 60 s
        now[0] += 60
        return frame_of(frame)

    monkeypatch.setattr(tables_module, "_docling_frame", slow_table)
    found = extract_tables(tmp_path / "three.docx", limits=TableLimits(seconds=100))
    assert [t.caption for t in found] == ["Table 0", "Table 1"]
    assert found.notes == [
        "stopped after 100 s (FSNB_PARSE_TIMEOUT raises it): 2 of the 3 tables of "
        f"{tmp_path / 'three.docx'}"
    ]


def test_a_csv_over_the_cell_limit_keeps_its_first_rows_and_says_so(tmp_path) -> None:
    csv = _csv(tmp_path / "many.csv", rows=100, columns=3)
    (table,) = extract_tables(csv, limits=TableLimits(cells=50))
    # 16 rows of 3 cells fit in 50: the header and 15 data rows
    assert table.frame["c0"].tolist() == [r * 3 for r in range(15)]
    (note,) = extract_tables(csv, limits=TableLimits(cells=50)).notes
    assert note == f"cut at the 50-cell limit: the first 16 rows of {csv}"


def test_a_csv_over_the_byte_limit_is_read_to_a_line_break(tmp_path) -> None:
    csv = _csv(tmp_path / "long.csv", rows=100, columns=3)
    found = extract_tables(csv, limits=TableLimits(text_bytes=100))
    kept = csv.read_bytes()[:100].rsplit(b"\n", 1)[0].decode().splitlines()
    assert len(found[0].frame) == len(kept) - 1  # whole lines only, less the header
    assert found.notes == [f"read the first 100 bytes of {csv} (the limit for delimited text)"]


def test_an_xlsx_over_the_cell_limit_stops_within_its_sheets(tmp_path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    first = book.active
    first.title = "First"
    for r in range(40):
        first.append([f"row {r}", r])
    book.create_sheet("Second").append(["never", "read"])
    book.save(tmp_path / "big.xlsx")
    found = extract_tables(tmp_path / "big.xlsx", limits=TableLimits(cells=21))
    assert [t.caption for t in found] == ["First"]
    assert len(found[0].frame) == 10  # 10 rows of 2 cells fit in 21
    assert found.notes == [
        f"cut at the 21-cell limit: the first 10 rows of sheet 'First' of {tmp_path / 'big.xlsx'}"
    ]


def test_the_tools_say_what_a_limit_left_out(tmp_path, monkeypatch) -> None:
    _csv(tmp_path / "many.csv", rows=100, columns=3)
    monkeypatch.setattr(budget_module, "MAX_CELLS", 30)
    registry, db = agent_registry(), tmp_path / "index.duckdb"
    listed = registry.call("extract_tables", {"path": "many.csv"}, root=tmp_path, db=db)
    assert listed.ok and "[cut at the 30-cell limit: the first 10 rows of many.csv]" in listed.text
    loaded = registry.call(
        "load_table", {"path": "many.csv", "table": 0, "name": "many"}, root=tmp_path, db=db
    )
    assert loaded.ok and loaded.text.startswith("Created table many: 9 rows")
    assert loaded.text.endswith("[cut at the 30-cell limit: the first 10 rows of many.csv]")


def test_a_table_wider_than_the_scratchpad_limit_is_refused(tmp_path, monkeypatch) -> None:
    _csv(tmp_path / "wide.csv", rows=2, columns=8)
    db = tmp_path / "index.duckdb"
    monkeypatch.setattr("fsnb.db.scratchpad.MAX_COLUMNS", 10)  # 8 columns and 3 of provenance
    with pytest.raises(ScratchpadLimit) as refused:
        load_table(db, tmp_path, "wide.csv", 0, "wide")
    assert str(refused.value) == (
        "table 0 of wide.csv has 8 columns, more than a scratchpad table may have (10, with "
        "source_file, page, source_row); nothing was loaded"
    )
    pad = Scratchpad(db, folder=tmp_path)
    assert "wide" not in pad
    with pytest.raises(ScratchpadLimit, match="at most 10 columns per table; t would have 11"):
        pad.create_table("t", {f"c{i}": "INTEGER" for i in range(11)})
    pad.create_table("t", {f"c{i}": "INTEGER" for i in range(10)})
    with pytest.raises(ScratchpadLimit, match="t would have 11"):
        pad.add_columns("t", {"extra": "VARCHAR"})
    assert len(pad.schema("t")) == 10


# --- 2. query results are bounded before pandas ---------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Database:
    store = database(tmp_path / "index.duckdb")
    with store.write():
        pass
    return store


def test_a_long_wide_result_is_cut_by_bytes_and_says_so(store: Database) -> None:
    sql = "SELECT i, repeat('x', 100000) AS s FROM range(1000) t(i)"
    frame = guard.run_select(store, sql, max_bytes=2**20)
    assert 0 < len(frame) < 20  # about ten 100 KB rows in 1 MB
    assert frame["i"].tolist() == list(range(len(frame)))
    assert guard.result_note(frame) == (
        f"first {len(frame)} rows of at least 1,000: the result is cut at 1 MB "
        "(aggregate, filter or select fewer columns)"
    )
    whole = guard.run_select(store, "SELECT i FROM range(1000) t(i)")
    assert len(whole) == 1000 and guard.result_note(whole) is None


def test_a_cross_join_is_cut_by_cells(store: Database) -> None:
    sql = "SELECT a.i, b.i AS j FROM range(100) a(i), range(100) b(i)"
    frame = guard.run_select(store, sql, max_cells=1_000)
    assert len(frame) == 500  # 1,000 cells of 2 columns
    note = guard.result_note(frame) or ""
    seen = re.fullmatch(
        r"first 500 rows of at least ([\d,]+): the result is cut at 1,000 cells .*", note
    )
    assert seen and 500 < int(seen[1].replace(",", "")) <= 10_000, note


def test_query_data_and_fsnb_sql_report_the_cut(tmp_path, store, monkeypatch, capsys) -> None:
    from fsnb.cli import main

    monkeypatch.setattr(guard, "MAX_RESULT_CELLS", 40)
    sql = "SELECT i FROM range(100) t(i)"
    outcome = agent_registry().call("query_data", {"sql": sql}, root=tmp_path, db=store.path)
    assert outcome.ok
    assert outcome.text.startswith("first 40 rows of at least 100: the result is cut at 40 cells")
    assert outcome.data["more_rows"] and outcome.data["note"].startswith("first 40 rows")
    assert main(["sql", sql, "--db", str(store.path), "--limit", "90"]) == 0
    out, err = capsys.readouterr()
    assert "[first 40 rows of at least 91: the result is cut at 40 cells" in err  # --limit + 1
    assert out.split() == ["i", *map(str, range(40))]


# --- 3. chunking long text without blank lines is linear ------------------------------


@functools.cache
def _log(megabytes: float) -> str:
    """Short log lines with no blank line between them, some ending sentences."""
    rng = random.Random(7)
    words = ["get", "/api/items", "user=42", "took=12ms", "Retrying.", "Timeout.", "ok", "e.g."]
    lines, size = [], 0
    while size < megabytes * 2**20:
        line = f"2024-01-01T00:00:{len(lines) % 60:02d} " + " ".join(rng.choices(words, k=6))
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)


def test_a_long_paragraph_is_cut_into_bounded_pieces_in_order() -> None:
    text = _log(2)
    cut = pieces(text, Span(0, len(text)), 3200)
    assert all(0 < p.end - p.start <= 3200 for p in cut)
    assert cut[0].start == 0 and cut[-1].end == len(text)
    for before, after in itertools.pairwise(cut):  # in order, only space between
        assert before.end <= after.start and not text[before.end : after.start].strip()
    assert all(text[p.end - 1].isspace() for p in cut[:-1])  # at a line or sentence end


def test_a_long_log_chunks_and_blocks_within_bounds() -> None:
    text = _log(1)
    doc = Document("log.txt", text, "log", "txt", 1, [PageSpan(1, 0, len(text))], "text")
    chunks = chunk_document(doc, chunk_chars=3200, overlap_chars=400)
    assert all(c.text and len(c.text) <= 3200 for c in chunks)
    assert all(c.text == text[c.start : c.end] for c in chunks)
    assert [c.start for c in chunks] == sorted(c.start for c in chunks)
    assert chunks[0].start == 0 and chunks[-1].end == len(text)
    for before, after in itertools.pairwise(chunks):  # overlapping or adjacent
        assert after.start <= before.end or not text[before.end : after.start].strip()
    (block,) = blocks(text)  # one run of prose lines: one block, read in one pass
    assert (block.start, block.end) == (0, len(text))


# --- 4. dates pandas cannot hold --------------------------------------------------------


def test_out_of_range_dates_keep_their_table_in_csv_and_xlsx(tmp_path) -> None:
    from openpyxl import Workbook

    (tmp_path / "dates.csv").write_text(
        "Paid on,Amount\n9999-12-31,1\n1000-01-01,2\n2024-02-29,3\n"
    )
    book = Workbook()
    book.active.append(["Paid on", "Amount"])
    for row in [(dt.date(9999, 12, 31), 1), (dt.date(1000, 1, 1), 2), (dt.date(2024, 2, 29), 3)]:
        book.active.append(row)
    book.save(tmp_path / "dates.xlsx")
    db = tmp_path / "index.duckdb"
    wanted = [dt.date(9999, 12, 31), dt.date(1000, 1, 1), dt.date(2024, 2, 29)]
    for name in ("dates.csv", "dates.xlsx"):
        (table,) = extract_tables(name, sandbox=Sandbox(tmp_path))
        assert pd.api.types.is_datetime64_any_dtype(table.frame["Paid on"]), name
        assert [d.date() for d in table.frame["Paid on"]] == wanted, name
        report = load_table(db, tmp_path, name, 0, name.replace(".", "_"))
        assert report.columns["paid_on"] == "DATE", name
        loaded = Scratchpad(db, folder=tmp_path).query(
            f"SELECT CAST(paid_on AS VARCHAR) AS w FROM {name.replace('.', '_')} ORDER BY source_row"
        )
        assert loaded["w"].tolist() == ["9999-12-31", "1000-01-01", "2024-02-29"], name


# --- 5. one grep time limit per call --------------------------------------------------


def test_grep_has_one_time_limit_per_call(tmp_path, monkeypatch) -> None:
    for n in range(5):
        (tmp_path / f"{n}.txt").write_text(f"needle in file {n}\n")
    now = [0.0]
    parsed: list[str] = []
    parse = matching.parse

    def slow_parse(file, **kwargs):  # each file "takes" 1 s to read
        now[0] += 1
        parsed.append(Path(file).name)
        return parse(file, **kwargs)

    monkeypatch.setattr(matching, "_clock", lambda: now[0])
    monkeypatch.setattr(matching, "parse", slow_parse)
    monkeypatch.setattr(matching, "GREP_SECONDS", 2.5)
    out = matching.grep("needle", root=str(tmp_path))
    assert parsed == ["0.txt", "1.txt", "2.txt"]  # checked before 3.txt, at 3 s
    assert "file 2" in out and "file 3" not in out
    assert out.endswith("[searched 3 of 5 files before the 2.5 s time limit: narrow the path]")
