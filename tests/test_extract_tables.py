"""fsnb.extract: tables out of CSV, TSV, XLSX, DOCX, PPTX, HTML and PDF files, typed columns."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd
import pytest

from fsnb.errors import AccessDenied, ParseError
from fsnb.extract import extract_tables, typed
from fsnb.extract.columns import parse_number
from fsnb.security import Sandbox

DATA = Path(__file__).resolve().parents[1] / "data"
ROWS = [["Item", "Amount", "Share"], ["Rent", "$1,200.00", "40%"], ["Food", "(350.50)", "12.5%"]]


def _only(tables: list) -> pd.DataFrame:
    assert len(tables) == 1
    return tables[0]


# --- column typing -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1,234", 1234),
        ("$1,234.50", 1234.5),
        ("(12.00)", -12.0),
        ("-€3.20", -3.2),
        ("£7", 7.0),
        ("USD 1,000", 1000.0),
        ("1,000.25 EUR", 1000.25),
        ("12.5%", 0.125),
        ("-0.5", -0.5),
    ],
)
def test_numbers_parse(text: str, value: float) -> None:
    parsed = parse_number(text)
    assert parsed is not None
    assert parsed[0] == pytest.approx(value)


@pytest.mark.parametrize("text", ["abc", "02139", "1,23,4", "$", "(12", "12-34"])
def test_non_numbers_do_not_parse(text: str) -> None:
    assert parse_number(text) is None


def test_typed_columns_of_each_kind() -> None:
    raw = pd.DataFrame(
        {
            "count": ["1", "2,000", "", "4"],
            "amount": ["$1.00", "(2.50)", "-€3.20", "1,000"],
            "pct": ["10%", "12.5%", "1%", "-"],
            "iso": ["2026-01-31", "2026-02-01", "2026-03-01", ""],
            "us": ["01/31/2026", "12/01/2026", "02/15/2026", "03/01/2026"],
            "long": ["31 Jan 2026", "1 Feb 2026", "5 Mar 2026", "9 Apr 2026"],
            "prose": ["Jan 31, 2026", "September 30, 2025", "Feb 1, 2026", "Mar 3, 2026"],
            "text": ["a", "b", "3", "d"],
            "zip": ["02139", "10001", "94105", "00501"],
        }
    )
    frame = typed(raw)
    assert frame["count"].dtype == "Int64"
    assert frame["count"].tolist()[:2] == [1, 2000]
    assert frame["amount"].tolist() == pytest.approx([1.0, -2.5, -3.2, 1000.0])
    assert frame["pct"].tolist()[:3] == pytest.approx([0.1, 0.125, 0.01])
    assert pd.isna(frame["pct"].iloc[3])
    for name in ("iso", "us", "long", "prose"):
        assert str(frame[name].dtype).startswith("datetime64"), name
    assert frame["us"].iloc[1] == pd.Timestamp(2026, 12, 1)
    assert frame["long"].iloc[3] == pd.Timestamp(2026, 4, 9)
    assert frame["prose"].iloc[1] == pd.Timestamp(2025, 9, 30)
    assert frame["text"].tolist() == ["a", "b", "3", "d"]
    assert frame["zip"].tolist() == ["02139", "10001", "94105", "00501"]
    assert raw["amount"].tolist() == ["$1.00", "(2.50)", "-€3.20", "1,000"]


def test_day_first_dates_when_month_first_cannot_read_them() -> None:
    frame = typed(pd.DataFrame({"d": ["31/01/2026", "15/02/2026", "01/03/2026"]}))
    assert frame["d"].tolist() == [
        pd.Timestamp(2026, 1, 31),
        pd.Timestamp(2026, 2, 15),
        pd.Timestamp(2026, 3, 1),
    ]


def test_a_column_below_the_share_stays_text() -> None:
    frame = typed(pd.DataFrame({"mixed": ["1", "2", "x", "y", "z"]}))
    assert frame["mixed"].tolist() == ["1", "2", "x", "y", "z"]


# --- formats ---------------------------------------------------------------------------


def _check_rows(table) -> None:
    assert list(table.raw.columns) == ["Item", "Amount", "Share"]
    assert table.raw.values.tolist() == ROWS[1:]
    assert table.frame["Amount"].tolist() == pytest.approx([1200.0, -350.5])
    assert table.frame["Share"].tolist() == pytest.approx([0.4, 0.125])


def test_csv_sniffs_delimiter_and_encoding(tmp_path: Path) -> None:
    people = "Zoë;Málaga;1.234\nRenée;Köln;5\n" + "André;Zürich;7\nJosé;Córdoba;8\n" * 5
    text = "name;city;amount\n" + people
    (tmp_path / "people.csv").write_bytes(text.encode("cp1252"))
    table = _only(extract_tables("people.csv", sandbox=Sandbox(tmp_path)))
    assert table.path == "people.csv"
    assert (table.page, table.caption) == (None, None)
    assert table.raw["name"].tolist()[:4] == ["Zoë", "Renée", "André", "José"]
    assert table.raw["city"].tolist()[:2] == ["Málaga", "Köln"]
    assert table.frame["amount"].tolist()[:3] == pytest.approx([1.234, 5.0, 7.0])


def test_csv_and_tsv(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text("\n".join(",".join(f'"{c}"' for c in r) for r in ROWS))
    (tmp_path / "a.tsv").write_text("\n".join("\t".join(r) for r in ROWS) + "\n\n")
    _check_rows(_only(extract_tables(tmp_path / "a.csv")))
    _check_rows(_only(extract_tables(tmp_path / "a.tsv")))


def test_xlsx_gives_one_table_per_sheet(tmp_path: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    first = book.active
    first.title = "Budget"
    for row in ROWS:
        first.append(row)
    second = book.create_sheet("Payments")
    second.append(["Date", "Paid"])
    second.append([dt.datetime(2026, 1, 31), 1200])
    second.append([dt.datetime(2026, 2, 28), 1150.5])
    book.create_sheet("Empty")
    book.save(tmp_path / "book.xlsx")
    tables = extract_tables(tmp_path / "book.xlsx")
    assert [(t.index, t.caption, t.page) for t in tables] == [
        (0, "Budget", None),
        (1, "Payments", None),
    ]
    _check_rows(tables[0])
    assert tables[1].raw.values.tolist() == [["2026-01-31", "1200"], ["2026-02-28", "1150.5"]]
    assert tables[1].frame["Date"].tolist() == [
        pd.Timestamp(2026, 1, 31),
        pd.Timestamp(2026, 2, 28),
    ]
    assert tables[1].frame["Paid"].tolist() == pytest.approx([1200.0, 1150.5])


def test_docx_table_takes_its_heading_as_caption(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_heading("Monthly budget", level=1)
    document.add_paragraph("The figures below are estimates.")
    grid = document.add_table(rows=len(ROWS), cols=3)
    for r, row in enumerate(ROWS):
        for c, cell in enumerate(row):
            grid.cell(r, c).text = cell
    document.save(tmp_path / "budget.docx")
    table = _only(extract_tables(tmp_path / "budget.docx"))
    assert table.caption == "Monthly budget"
    _check_rows(table)


def test_docx_table_of_numbers_has_no_header(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    grid = document.add_table(rows=3, cols=2)
    for r, row in enumerate([["1", "2"], ["3", "4"], ["5", ""]]):
        for c, cell in enumerate(row):
            grid.cell(r, c).text = cell
    document.save(tmp_path / "numbers.docx")
    table = _only(extract_tables(tmp_path / "numbers.docx"))
    assert list(table.frame.columns) == ["column_1", "column_2"]
    assert table.frame["column_1"].tolist() == [1, 3, 5]
    assert table.caption is None


def test_pptx_table_has_its_slide_number(tmp_path: Path) -> None:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    deck.slides.add_slide(deck.slide_layouts[5]).shapes.title.text = "Intro"
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Spending"
    shape = slide.shapes.add_table(3, 3, Inches(1), Inches(2), Inches(6), Inches(2))
    for r, row in enumerate(ROWS):
        for c, cell in enumerate(row):
            shape.table.cell(r, c).text = cell
    deck.save(tmp_path / "deck.pptx")
    table = _only(extract_tables(tmp_path / "deck.pptx"))
    assert table.page == 2
    _check_rows(table)


def test_html_table_with_caption(tmp_path: Path) -> None:
    body = "".join(
        "<tr>"
        + "".join(f"<{'th' if i == 0 else 'td'}>{c}</{'th' if i == 0 else 'td'}>" for c in row)
        + "</tr>"
        for i, row in enumerate(ROWS)
    )
    (tmp_path / "page.html").write_text(
        f"<html><body><h2>Costs</h2><table><caption>Household costs</caption>{body}</table>"
        "</body></html>"
    )
    table = _only(extract_tables(tmp_path / "page.html"))
    assert table.caption == "Household costs"
    _check_rows(table)


def _pdf(path: Path, **kwargs) -> None:
    from reportlab.lib import colors
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Table, TableStyle

    styles = getSampleStyleSheet()
    grid = Table(ROWS)
    grid.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black)]))
    story = [
        Paragraph("Statement", styles["Title"]),
        Paragraph("Nothing tabular on this page.", styles["Normal"]),
        PageBreak(),
        Paragraph("Table 1: Monthly spending", styles["Normal"]),
        grid,
    ]
    SimpleDocTemplate(str(path), **kwargs).build(story)


def test_pdf_table_has_page_and_caption(tmp_path: Path) -> None:
    _pdf(tmp_path / "statement.pdf")
    table = _only(extract_tables("statement.pdf", sandbox=Sandbox(tmp_path)))
    assert (table.path, table.index, table.page) == ("statement.pdf", 0, 2)
    assert table.caption == "Table 1: Monthly spending"
    _check_rows(table)


def test_pdf_without_tables_gives_none(tmp_path: Path) -> None:
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(str(tmp_path / "letter.pdf"))
    canvas.drawString(72, 720, "Dear reader, no tables here.")
    canvas.save()
    assert extract_tables(tmp_path / "letter.pdf") == []


def test_corrupt_pdf_is_one_clear_line(tmp_path: Path) -> None:
    _pdf(tmp_path / "good.pdf")
    data = (tmp_path / "good.pdf").read_bytes()
    (tmp_path / "broken.pdf").write_bytes(data[: len(data) // 3])
    (tmp_path / "junk.pdf").write_bytes(b"this is not a pdf at all")
    for name in ("broken.pdf", "junk.pdf"):
        with pytest.raises(ParseError) as info:
            extract_tables(tmp_path / name)
        assert "\n" not in str(info.value)
        assert name in str(info.value)
    assert (tmp_path / "junk.pdf").read_bytes() == b"this is not a pdf at all"


def test_encrypted_pdf_is_refused(tmp_path: Path) -> None:
    _pdf(tmp_path / "locked.pdf", encrypt="secret")
    with pytest.raises(ParseError, match="encrypted"):
        extract_tables(tmp_path / "locked.pdf")


def test_corrupt_office_files(tmp_path: Path) -> None:
    for name in ("bad.xlsx", "bad.docx"):
        (tmp_path / name).write_bytes(b"PK\x03\x04 not really a zip")
        with pytest.raises(ParseError) as info:
            extract_tables(tmp_path / name)
        assert "\n" not in str(info.value)


def test_paths_go_through_the_sandbox(tmp_path: Path) -> None:
    (tmp_path / "inside").mkdir()
    (tmp_path / "secret.csv").write_text("a,b\n1,2\n")
    with pytest.raises(AccessDenied):
        extract_tables("../secret.csv", sandbox=Sandbox(tmp_path / "inside"))


def test_unsupported_and_empty_files(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    (tmp_path / "empty.csv").write_bytes(b"")
    with pytest.raises(ParseError, match=r"\.csv"):
        extract_tables(tmp_path / "notes.txt")
    with pytest.raises(ParseError, match="empty"):
        extract_tables(tmp_path / "empty.csv")


# --- the sample corpora ----------------------------------------------------------------


def test_sample_corpus_tables() -> None:
    box = Sandbox(DATA / "mixed")
    shapes = {
        f: [(t.caption, t.frame.shape) for t in extract_tables(f, sandbox=box)]
        for f in (
            "finance/valuation_model.xlsx",
            "memos/integration_plan.docx",
            "finance/customers.csv",
        )
    }
    assert shapes["finance/valuation_model.xlsx"] == [("Summary", (5, 3)), ("Synergies", (5, 3))]
    assert shapes["memos/integration_plan.docx"] == [("Workstreams", (6, 4))]
    assert shapes["finance/customers.csv"] == [(None, (8, 5))]
    plan = extract_tables("memos/integration_plan.docx", sandbox=box)[0].frame
    assert plan["Budget"].iloc[0] == pytest.approx(1_150_000.0)
    assert plan["Deadline"].iloc[0] == pd.Timestamp(2025, 9, 30)
