"""A PDF's opening text from PDFium, shaped like the full native parse (`reflow`).

PDFium gives each page's text with its line breaks and a box per character; a printed line
becomes one `Line` (split where a wide horizontal gap separates table cells, as the native
parser's cells are), with the loose (font-height) boxes the native parser also reports, so
`reflow` finds the same paragraphs, headings and table rows. Only the first pages are read.
"""

from __future__ import annotations

import re
import threading
from typing import Any, BinaryIO

from fsnb.documents.reflow import Line, reflow
from fsnb.errors import ParseError

#: A gap wider than this share of the line's height separates two cells (not a bullet
#: from its item).
_CELL_GAP = 0.5
_BREAK = re.compile(r"\r\n|[\r\n]")
#: PDFium is not thread-safe: one PDF is read at a time in this process (openings, scanned
#: pages rendered for OCR, and the evidence pages of `fsnb.notebook.evidence`).
PDFIUM_LOCK = threading.Lock()


def corrupt_pdf(exc: BaseException) -> str:
    """Why PDFium could not read a PDF (or one of its pages), as a `ParseError` says it."""
    return f"corrupt PDF: {str(exc).rstrip('.')}"


def open_pdf(file: BinaryIO | bytes, name: str) -> Any:
    """The `pypdfium2.PdfDocument` of the PDF in `file`; `ParseError` when PDFium cannot
    open it. The caller closes it."""
    import pypdfium2

    try:
        return pypdfium2.PdfDocument(file)
    except pypdfium2.PdfiumError as exc:
        raise ParseError(name, corrupt_pdf(exc)) from None


def pdf_opening(file: BinaryIO, name: str, chars: int) -> tuple[dict[int, str], int]:
    """({page: markdown} for the first pages holding at least `chars` characters, page count)
    of the PDF open in `file`, read by PDFium through the handle.

    Raises `ParseError` for a file PDFium cannot open."""
    import pypdfium2

    pdf = open_pdf(file, name)
    try:
        count = len(pdf)
        lines: list[Line] = []
        held = 0
        for index in range(count):
            try:
                page = pdf[index]
            except pypdfium2.PdfiumError as exc:  # a page tree that loops, a missing page
                raise ParseError(name, corrupt_pdf(exc)) from None
            textpage = page.get_textpage()
            try:
                found = _page_lines(textpage, index + 1)
            finally:
                textpage.close()
                page.close()
            lines += found
            held += sum(len(line.text) for line in found)
            if held > chars:
                break
    finally:
        pdf.close()
    return {n: "\n\n".join(blocks) for n, blocks in reflow(lines).items()}, count


def _page_lines(textpage: object, page: int) -> list[Line]:
    text: str = textpage.get_text_range()  # type: ignore[attr-defined]
    out: list[Line] = []
    start = 0
    for brk in [*_BREAK.finditer(text), None]:
        end = brk.start() if brk else len(text)
        out += _cells(textpage, text, start, end, page)
        start = brk.end() if brk else end
    return out


def _cells(textpage: object, text: str, start: int, end: int, page: int) -> list[Line]:
    """The line `text[start:end]` as one `Line` per cell."""
    cells: list[Line] = []
    chars: list[str] = []
    box: list[float] = []
    for i in range(start, end):
        char = text[i]
        if char.isspace():
            if chars:
                chars.append(char)
            continue
        left, bottom, right, top = textpage.get_charbox(i, loose=True)  # type: ignore[attr-defined]
        wide = box and left - box[2] > _CELL_GAP * (box[3] - box[1])
        if wide and any(c.isalnum() for c in chars):  # a bullet keeps its item
            cells.append(Line("".join(chars).strip(), page, *box[:1], box[3], box[2], box[1]))
            chars, box = [], []
        chars.append(char)
        box = (
            [min(box[0], left), min(box[1], bottom), max(box[2], right), max(box[3], top)]
            if box
            else [left, bottom, right, top]
        )
    if box:
        cells.append(Line("".join(chars).strip(), page, box[0], box[3], box[2], box[1]))
    return cells
