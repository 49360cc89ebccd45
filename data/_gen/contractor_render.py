"""Writers for data/contractor: PDFs with headings, paragraphs, bullets and ruled tables of
any width; Word files, workbooks, a slide deck and plain text. Every writer is byte-stable
(fixed dates, reportlab's invariant mode, ``office.save_office``) and returns the text it
wrote, for the generator's fact check.

A document is a list of blocks: ("h", heading), ("p", paragraph), ("b", [bullet, ...]),
("t", [header row, row, ...]) or ("kv", [(label, value), ...]) for a two-column form.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from docx import Document
from openpyxl import Workbook
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from .office import save_office, write_pptx
from .pdf import letter_template

COMPANY = "Ridgeline Builders LLC"
COMPANY_LINE = (
    "410 Depot Street, Ashby Falls, VT 05661 | (802) 555-0143 | office@ridgelinebuilds.example"
)
FIXED_DATE = dt.datetime(2025, 10, 6, 8, 0, 0)

Block = tuple[str, object]

_TITLE = ParagraphStyle("CTitle", fontName="Helvetica-Bold", fontSize=15, leading=19, spaceAfter=4)
_SUB = ParagraphStyle("CSub", fontName="Helvetica", fontSize=9, leading=12, spaceAfter=1)
_HEAD = ParagraphStyle(
    "CHead", fontName="Helvetica-Bold", fontSize=11.5, leading=15, spaceBefore=9, spaceAfter=4
)
_BODY = ParagraphStyle("CBody", fontName="Times-Roman", fontSize=11, leading=15, spaceAfter=6)
_BULLET = ParagraphStyle("CBullet", parent=_BODY, leftIndent=16, bulletIndent=5, spaceAfter=2)
_CELL = ParagraphStyle("CCell", fontName="Helvetica", fontSize=9, leading=11.5)
_CELL_B = ParagraphStyle("CCellB", parent=_CELL, fontName="Helvetica-Bold")
_WIDTH = 6.5 * inch


def money(cents: int) -> str:
    """'$1,234.50' from cents; a credit is '-$750.00'."""
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}${cents // 100:,}.{cents % 100:02d}"


def _widths(rows: Sequence[Sequence[str]]) -> list[float]:
    """Column widths: every column fits its longest word (no number or code is broken
    across lines); the space left goes to the columns with longer text."""
    char, pad = 5.3, 13.0
    columns = range(len(rows[0]))
    least = [max(len(w) for row in rows for w in str(row[c]).split() or [""]) for c in columns]
    most = [max(len(str(row[c])) for row in rows) for c in columns]
    low = [n * char + pad for n in least]
    high = [max(n * char + pad, lo) for n, lo in zip(most, low, strict=True)]
    if sum(high) <= _WIDTH:
        return [w * _WIDTH / sum(high) for w in high]
    spare = max(_WIDTH - sum(low), 0.0)
    want = sum(h - lo for h, lo in zip(high, low, strict=True))
    return [lo + spare * (h - lo) / want for h, lo in zip(high, low, strict=True)]


def _table(rows: Sequence[Sequence[str]], header: bool) -> Table:
    widths = _widths(rows)
    cells = [
        [
            Paragraph(
                escape(str(v)), _CELL_B if (header and r == 0) or (not header and c == 0) else _CELL
            )
            for c, v in enumerate(row)
        ]
        for r, row in enumerate(rows)
    ]
    grid = Table(cells, colWidths=widths, hAlign="LEFT", repeatRows=1 if header else 0)
    style = [
        ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]
    if header:
        style.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#E6E6E6")))
    grid.setStyle(TableStyle(style))
    return grid


def _flowables(blocks: Sequence[Block]) -> tuple[list[Flowable], list[str]]:
    story: list[Flowable] = []
    texts: list[str] = []
    for kind, body in blocks:
        if kind == "h":
            story.append(Paragraph(escape(str(body)), _HEAD))
            texts.append(str(body))
        elif kind == "p":
            text = " ".join(str(body).split())
            story.append(Paragraph(escape(text), _BODY))
            texts.append(text)
        elif kind == "b":
            items = [" ".join(str(i).split()) for i in body]  # type: ignore[attr-defined]
            story += [Paragraph(escape(i), _BULLET, bulletText="\u2022") for i in items]
            story.append(Spacer(1, 4))
            texts += items
        else:
            rows = [[str(v) for v in row] for row in body]  # type: ignore[attr-defined]
            story += [_table(rows, header=kind == "t"), Spacer(1, 8)]
            texts += [" | ".join(row) for row in rows]
    return story, texts


def pdf(path: Path, title: str, header: Sequence[str], blocks: Sequence[Block]) -> str:
    """A letter-size PDF: a title, a few header lines under it, then the blocks."""
    buf = io.BytesIO()
    template = letter_template(buf, title, top=0.8 * inch, bottom=0.8 * inch)
    story: list[Flowable] = [Paragraph(escape(title), _TITLE)]
    story += [Paragraph(escape(line), _SUB) for line in header]
    story.append(Spacer(1, 10))
    body, texts = _flowables(blocks)
    template.build(story + body)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.getvalue())
    return "\n".join([title, *header, *texts])


def docx(path: Path, title: str, blocks: Sequence[Block], author: str = COMPANY) -> str:
    """A Word document: a title, then the blocks (a "kv" block is a two-column table)."""
    doc = Document()
    props = doc.core_properties
    props.author = props.last_modified_by = author
    props.title = title
    props.created = props.modified = FIXED_DATE
    props.revision = 1
    doc.add_heading(title, 0)
    texts = [title]
    for kind, body in blocks:
        if kind == "h":
            doc.add_heading(str(body), 1)
            texts.append(str(body))
        elif kind == "p":
            text = " ".join(str(body).split())
            doc.add_paragraph(text)
            texts.append(text)
        elif kind == "b":
            for item in body:  # type: ignore[attr-defined]
                text = " ".join(str(item).split())
                doc.add_paragraph(text, style="List Bullet")
                texts.append(text)
        else:
            rows = [[str(v) for v in row] for row in body]  # type: ignore[attr-defined]
            grid = doc.add_table(rows=len(rows), cols=len(rows[0]))
            grid.style = "Table Grid"
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    grid.cell(r, c).text = value
                texts.append(" | ".join(row))
    path.parent.mkdir(parents=True, exist_ok=True)
    save_office(doc, path)
    return "\n".join(texts)


def xlsx(path: Path, sheets: dict[str, list[tuple]], money_columns: tuple[int, ...] = ()) -> str:
    """A workbook, one sheet per entry; the 1-based ``money_columns`` get a currency format
    (the stored values stay plain numbers)."""
    wb = Workbook()
    wb.properties.creator = COMPANY
    wb.properties.created = wb.properties.modified = FIXED_DATE
    texts = []
    for index, (name, rows) in enumerate(sheets.items()):
        sheet = wb.active if index == 0 else wb.create_sheet(name)
        sheet.title = name
        for row in rows:
            sheet.append(row)
            texts.append(" | ".join(str(v) for v in row))
        for column in money_columns:
            for cell in next(sheet.iter_cols(min_col=column, max_col=column, min_row=2)):
                if isinstance(cell.value, int | float):
                    cell.number_format = '"$"#,##0.00'
        sheet.column_dimensions["A"].width = 30
        sheet.column_dimensions["B"].width = 34
    path.parent.mkdir(parents=True, exist_ok=True)
    save_office(wb, path)
    return "\n".join(texts)


def pptx(path: Path, title: str, slides: list[tuple[str, list[str], str]]) -> str:
    """A slide deck: (title, bullets, speaker notes) per slide."""
    return write_pptx(path, title, slides, COMPANY, FIXED_DATE)


def text(path: Path, content: str) -> str:
    """A UTF-8 text file (TXT, MD, CSV) written as given."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8", newline="\n")
    return content
