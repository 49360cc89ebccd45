"""Renderers for data/household: boxed tax forms, utility bills, a policy, a lease, receipts.

Every renderer writes a byte-stable file and returns the text it wrote (for fact checks).
"""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path
from xml.sax.saxutils import escape

from docx import Document
from openpyxl import Workbook
from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

from .office import save_office
from .pdf import letter_template

FIXED_DATE = dt.datetime(2025, 2, 1, 9, 0, 0)
HOLDER = "Jordan T. Whitaker"
ADDRESS = "48 Larkspur Lane, Apt 3B, Fairhaven, OR 97402"

_TITLE = ParagraphStyle("T", fontName="Helvetica-Bold", fontSize=14, leading=18, spaceAfter=4)
_BODY = ParagraphStyle("B", fontName="Helvetica", fontSize=10, leading=13, spaceAfter=5)
_GRID = [
    ("FONTNAME", (0, 0), (-1, -1), "Helvetica"),
    ("FONTSIZE", (0, 0), (-1, -1), 9.5),
    ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
    ("ALIGN", (-1, 0), (-1, -1), "RIGHT"),
]


def money(cents: int) -> str:
    """'$1,234.50'."""
    return f"${cents // 100:,}.{cents % 100:02d}"


def _canvas(buf: io.BytesIO, title: str) -> Canvas:
    canvas = Canvas(buf, pagesize=letter, invariant=1)
    canvas.setTitle(title)
    canvas.setAuthor("fsnb sample data")
    canvas.setCreator("fsnb data/generate.py")
    return canvas


def tax_form(
    path: Path, form: str, year: int, payer: str, payer_lines: tuple[str, ...], boxes
) -> str:
    """A 1099/W-2-like form: the payer's name at the top, then boxes, each with its label on
    one line and its amount on the line below, in a grid of two columns."""
    buf = io.BytesIO()
    canvas = _canvas(buf, f"Form {form} {year}")
    width, height = letter
    texts = [payer, *payer_lines]
    y = height - 0.9 * inch
    canvas.setFont("Helvetica-Bold", 13)
    canvas.drawString(0.8 * inch, y, payer)
    canvas.setFont("Helvetica", 9)
    for line in payer_lines:
        y -= 13
        canvas.drawString(0.8 * inch, y, line)
    canvas.setFont("Helvetica-Bold", 16)
    canvas.drawRightString(width - 0.8 * inch, height - 0.9 * inch, f"Form {form}")
    canvas.setFont("Helvetica", 10)
    canvas.drawRightString(width - 0.8 * inch, height - 0.9 * inch - 15, f"Tax year {year}")
    texts += [f"Form {form}", f"Tax year {year}"]
    y -= 30
    canvas.setFont("Helvetica", 9)
    for label, value in (("RECIPIENT'S name", HOLDER), ("Street address", ADDRESS)):
        canvas.drawString(0.8 * inch, y, label)
        canvas.drawString(2.4 * inch, y, value)
        texts.append(f"{label} {value}")
        y -= 13
    y -= 12
    box_w, box_h = 3.3 * inch, 0.6 * inch
    for index, (label, amount) in enumerate(boxes):
        col, row = index % 2, index // 2
        x = 0.8 * inch + col * (box_w + 0.2 * inch)
        top = y - row * (box_h + 0.1 * inch)
        canvas.rect(x, top - box_h, box_w, box_h)
        canvas.setFont("Helvetica", 8)
        canvas.drawString(x + 5, top - 12, label)
        canvas.setFont("Helvetica-Bold", 11)
        canvas.drawRightString(x + box_w - 8, top - box_h + 9, amount)
        texts += [label, amount]
    canvas.setFont("Helvetica", 7.5)
    note = "This is important tax information and is being furnished to the IRS."
    canvas.drawString(0.8 * inch, 0.7 * inch, note)
    texts.append(note)
    canvas.showPage()
    canvas.save()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.getvalue())
    return "\n".join(texts)


def flow_pdf(path: Path, title: str, paragraphs: list[str], table: list[list[str]] | None) -> str:
    """A one-page PDF: a title, paragraphs and an optional two-column grid after them."""
    buf = io.BytesIO()
    template = letter_template(buf, title, top=0.8 * inch, bottom=0.8 * inch)
    story = [Paragraph(escape(title), _TITLE)]
    story += [Paragraph(escape(p), _BODY) for p in paragraphs]
    texts = [title, *paragraphs]
    if table:
        grid = Table(table, colWidths=[3.0 * inch, 1.8 * inch], hAlign="LEFT")
        grid.setStyle(TableStyle(_GRID))
        story += [Spacer(1, 6), grid]
        texts += [" ".join(row) for row in table]
    template.build(story)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.getvalue())
    return "\n".join(texts)


def docx(path: Path, title: str, sections: list[tuple[str, str]], table=None) -> str:
    """A Word document: a title, headed paragraphs and an optional table at the end."""
    doc = Document()
    props = doc.core_properties
    props.author = props.last_modified_by = HOLDER
    props.title = title
    props.created = props.modified = FIXED_DATE
    props.revision = 1
    doc.add_heading(title, 0)
    texts = [title]
    for heading, body in sections:
        if heading:
            doc.add_heading(heading, 1)
            texts.append(heading)
        doc.add_paragraph(body)
        texts.append(body)
    if table:
        grid = doc.add_table(rows=len(table), cols=len(table[0]))
        grid.style = "Table Grid"
        for r, row in enumerate(table):
            for c, value in enumerate(row):
                grid.cell(r, c).text = value
            texts.append(" | ".join(row))
    save_office(doc, path)
    return "\n".join(texts)


def xlsx(path: Path, sheets: dict[str, list[tuple]]) -> str:
    """A workbook with one sheet per entry."""
    wb = Workbook()
    wb.properties.creator = HOLDER
    wb.properties.created = wb.properties.modified = FIXED_DATE
    texts = []
    first = True
    for name, rows in sheets.items():
        sheet = wb.active if first else wb.create_sheet(name)
        sheet.title = name
        first = False
        for row in rows:
            sheet.append(row)
            texts.append(" | ".join(str(v) for v in row))
    save_office(wb, path)
    return "\n".join(texts)


def text_file(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return text
