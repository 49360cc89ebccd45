"""Render simple block-structured documents to byte-stable PDFs with reportlab."""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, KeepTogether, Paragraph, SimpleDocTemplate, Spacer


@dataclass(frozen=True)
class Heading:
    """A section heading."""

    text: str


@dataclass(frozen=True)
class Para:
    """A body paragraph, optionally introduced by a bold lead-in (e.g. a clause number)."""

    text: str
    lead: str = ""


@dataclass(frozen=True)
class Bullets:
    """A bulleted list; each item is one paragraph."""

    items: tuple[str, ...]


Block = Heading | Para | Bullets


def h(text: str) -> Heading:
    """Shorthand for a heading."""
    return Heading(text)


def p(text: str, lead: str = "") -> Para:
    """Shorthand for a paragraph."""
    return Para(" ".join(text.split()), lead)


def ul(*items: str) -> Bullets:
    """Shorthand for a bulleted list."""
    return Bullets(tuple(" ".join(i.split()) for i in items))


@dataclass
class PdfDoc:
    """One PDF document: a title block, body blocks and the page range it must land in."""

    filename: str
    title: str
    header_lines: Sequence[str]
    blocks: list[Block]
    min_pages: int = 1
    max_pages: int = 3
    footer: str = "Confidential"
    filler: Iterator[list[Block]] | None = field(default=None, repr=False)


_TITLE = ParagraphStyle(
    "DocTitle", fontName="Helvetica-Bold", fontSize=15, leading=19, alignment=1, spaceAfter=6
)
_META = ParagraphStyle(
    "DocMeta", fontName="Helvetica", fontSize=9.5, leading=12.5, alignment=1, spaceAfter=1
)
_HEAD = ParagraphStyle(
    "Head",
    fontName="Helvetica-Bold",
    fontSize=12,
    leading=16,
    spaceBefore=10,
    spaceAfter=5,
    keepWithNext=1,
)
_BODY = ParagraphStyle(
    "Body", fontName="Times-Roman", fontSize=12, leading=18, spaceAfter=8, alignment=0
)
_BULLET = ParagraphStyle("Bullet", parent=_BODY, leftIndent=18, bulletIndent=6, spaceAfter=3)


def _block_flowables(block: Block) -> list[Flowable]:
    if isinstance(block, Heading):
        return [Paragraph(escape(block.text), _HEAD)]
    if isinstance(block, Para):
        lead = f"<b>{escape(block.lead)}</b> " if block.lead else ""
        return [Paragraph(lead + escape(block.text), _BODY)]
    items = [Paragraph(escape(i), _BULLET, bulletText="\u2022") for i in block.items]
    return [*items, Spacer(1, 4)]


def _flowables(blocks: Sequence[Block]) -> list[Flowable]:
    """Each block is kept on one page; a heading is kept with the block after it."""
    out: list[Flowable] = []
    pending: list[Flowable] = []
    for block in blocks:
        pending += _block_flowables(block)
        if not isinstance(block, Heading):
            out.append(KeepTogether(pending))
            pending = []
    if pending:
        out.append(KeepTogether(pending))
    return out


class _FooterCanvas(Canvas):
    """Canvas that writes a footer as the last text of each page (after the body text)."""

    footer = ""

    def showPage(self) -> None:
        self.saveState()
        self.setFont("Helvetica", 8)
        self.drawCentredString(
            letter[0] / 2, 0.5 * inch, f"{self.footer} - Page {self.getPageNumber()}"
        )
        self.restoreState()
        super().showPage()


def letter_template(
    buf: io.BytesIO,
    title: str,
    *,
    side: float = inch,
    top: float = inch,
    bottom: float = inch,
    **metadata: str,
) -> SimpleDocTemplate:
    """A letter-size page template with the sample data's fixed metadata (`invariant`: the
    same bytes on every run), margins in points."""
    return SimpleDocTemplate(
        buf,
        pagesize=letter,
        invariant=1,
        title=title,
        author="fsnb sample data",
        creator="fsnb data/generate.py",
        producer="reportlab",
        leftMargin=side,
        rightMargin=side,
        topMargin=top,
        bottomMargin=bottom,
        **metadata,
    )


def _render(doc: PdfDoc, blocks: Sequence[Block]) -> tuple[bytes, int]:
    buf = io.BytesIO()
    template = letter_template(buf, doc.title.title(), side=1.15 * inch, subject=doc.footer)
    canvas_cls = type("DocCanvas", (_FooterCanvas,), {"footer": doc.footer})
    story: list[Flowable] = [Paragraph(escape(doc.title), _TITLE)]
    story += [Paragraph(escape(line), _META) for line in doc.header_lines]
    story.append(Spacer(1, 12))
    story += _flowables(blocks)
    template.build(story, canvasmaker=canvas_cls)
    return buf.getvalue(), template.page


def plain_text(doc: PdfDoc, blocks: Sequence[Block]) -> str:
    """The document's text as written (used for cheap fact checks before extraction)."""
    parts = [doc.title, *doc.header_lines]
    for block in blocks:
        if isinstance(block, Heading):
            parts.append(block.text)
        elif isinstance(block, Para):
            parts.append(f"{block.lead} {block.text}".strip())
        else:
            parts.extend(block.items)
    return "\n".join(parts)


def _filler_position(blocks: Sequence[Block]) -> int:
    """Filler goes before a trailing signature block, otherwise at the end."""
    for index in range(len(blocks) - 1, -1, -1):
        block = blocks[index]
        if isinstance(block, Heading) and block.text.startswith("SIGNATURE"):
            return index
    return len(blocks)


def write_pdf(doc: PdfDoc, out_dir: Path) -> tuple[int, str]:
    """Write ``doc`` to ``out_dir``, padding with filler sections until ``min_pages``.

    Filler sections are inserted before any signature block. Once the target is reached, one
    more section is added if it still fits on the last page. Returns the page count and the
    plain text of everything rendered.
    """
    head = list(doc.blocks)
    at = _filler_position(head)
    extra: list[Block] = []
    data, pages = _render(doc, head)
    while pages < doc.min_pages:
        if doc.filler is None:
            raise ValueError(f"{doc.filename}: {pages} pages < {doc.min_pages} and no filler")
        section = next(doc.filler, None)
        if section is None:
            raise ValueError(f"{doc.filename}: filler exhausted at {pages} pages")
        extra += section
        data, pages = _render(doc, head[:at] + extra + head[at:])
    if extra and doc.filler is not None:
        section = next(doc.filler, None)
        if section is not None:
            more, more_pages = _render(doc, head[:at] + extra + section + head[at:])
            if more_pages == pages:
                extra += section
                data = more
    if pages > doc.max_pages:
        raise ValueError(f"{doc.filename}: {pages} pages > {doc.max_pages}")
    (out_dir / doc.filename).write_bytes(data)
    return pages, plain_text(doc, head[:at] + extra + head[at:])
