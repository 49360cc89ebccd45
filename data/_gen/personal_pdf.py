"""Byte-stable PDFs for data/personal: forms, receipts, statements and letters made of
paragraphs, headings, bullets and ruled tables, with the plain text written."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from .pdf import Bullets, Heading, Para, letter_template

_TITLE = ParagraphStyle("PTitle", fontName="Helvetica-Bold", fontSize=14, leading=18, spaceAfter=4)
_META = ParagraphStyle("PMeta", fontName="Helvetica", fontSize=9.5, leading=12.5)
_HEAD = ParagraphStyle(
    "PHead",
    fontName="Helvetica-Bold",
    fontSize=11.5,
    leading=14,
    spaceBefore=8,
    spaceAfter=4,
    keepWithNext=1,
)
_BODY = ParagraphStyle("PBody", fontName="Times-Roman", fontSize=11, leading=15, spaceAfter=6)
_BULLET = ParagraphStyle("PBullet", parent=_BODY, leftIndent=18, bulletIndent=6, spaceAfter=2)
#: The least room (points) left after the text of each table column, where the page allows.
GAP = 48
_GRID = [
    ("FONTNAME", (0, 0), (-1, -1), "Helvetica"),
    ("FONTSIZE", (0, 0), (-1, -1), 9),
    ("LEADING", (0, 0), (-1, -1), 11),
    ("TOPPADDING", (0, 0), (-1, -1), 2),
    ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
    ("VALIGN", (0, 0), (-1, -1), "TOP"),
]


@dataclass(frozen=True)
class Grid:
    """A ruled table; with ``header`` its first row is bold."""

    rows: tuple[tuple[str, ...], ...]
    header: bool = True


def grid(*rows: tuple[str, ...], header: bool = True) -> Grid:
    """Shorthand for a table."""
    return Grid(tuple(rows), header)


Block = Heading | Para | Bullets | Grid


@dataclass
class Doc:
    """One PDF: title, lines under it, body blocks and a footer on every page."""

    path: str
    title: str
    meta: list[str]
    blocks: list[Block] = field(default_factory=list)
    footer: str = ""


def _widths(rows: tuple[tuple[str, ...], ...]) -> list[float]:
    """Each column as wide as its longest cell plus a wide gap (up to GAP points, as the page
    allows), so that a parser reading the lines of the page keeps the cells apart."""
    widest = [
        max(stringWidth(row[i], "Helvetica-Bold", 9) for row in rows) + 12
        for i in range(len(rows[0]))
    ]
    spare = (letter[0] - 2 * inch - sum(widest)) / len(widest)
    return [w + max(0.0, min(GAP, spare)) for w in widest]


def _flowables(block: Block) -> list[Flowable]:
    if isinstance(block, Heading):
        return [Paragraph(escape(block.text), _HEAD)]
    if isinstance(block, Para):
        lead = f"<b>{escape(block.lead)}</b> " if block.lead else ""
        return [Paragraph(lead + escape(block.text), _BODY)]
    if isinstance(block, Bullets):
        items = [Paragraph(escape(i), _BULLET, bulletText="\u2022") for i in block.items]
        return [*items, Spacer(1, 4)]
    table = Table(
        [list(r) for r in block.rows],
        colWidths=_widths(block.rows),
        hAlign="LEFT",
        repeatRows=int(block.header),
    )
    style = list(_GRID)
    if block.header:
        style += [
            ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
            ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
        ]
    table.setStyle(TableStyle(style))
    return [table, Spacer(1, 8)]


def text_of(doc: Doc) -> str:
    """The text written: title, meta lines, then each block (table cells joined by " | ")."""
    parts = [doc.title, *doc.meta]
    for block in doc.blocks:
        if isinstance(block, Heading):
            parts.append(block.text)
        elif isinstance(block, Para):
            parts.append(f"{block.lead} {block.text}".strip())
        elif isinstance(block, Bullets):
            parts.extend(block.items)
        else:
            parts.extend(" | ".join(row) for row in block.rows)
    if doc.footer:
        parts.append(doc.footer)
    return "\n".join(parts)


def render(doc: Doc) -> tuple[bytes, int]:
    """The PDF bytes and page count (identical bytes on every run)."""
    buf = io.BytesIO()
    template = letter_template(buf, doc.title, top=0.75 * inch, bottom=0.85 * inch)
    footer = doc.footer

    class _Canvas(Canvas):
        def showPage(self) -> None:
            if footer:
                self.saveState()
                self.setFont("Helvetica", 8)
                text = f"{footer} - Page {self.getPageNumber()}"
                self.drawCentredString(letter[0] / 2, 0.5 * inch, text)
                self.restoreState()
            super().showPage()

    story: list[Flowable] = [Paragraph(escape(doc.title), _TITLE)]
    story += [Paragraph(escape(line), _META) for line in doc.meta]
    story.append(Spacer(1, 10))
    for block in doc.blocks:
        story += _flowables(block)
    template.build(story, canvasmaker=_Canvas)
    return buf.getvalue(), template.page


def write(doc: Doc, root: Path) -> tuple[int, str]:
    """Write ``doc`` under ``root``; return its page count and text."""
    data, pages = render(doc)
    path = root / doc.path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return pages, text_of(doc)
