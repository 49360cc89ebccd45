"""Tables of born-digital PDFs with pdfplumber (tables drawn with ruling lines), each with
the text line just above it as its caption; a table continued on the next page is one
table (`fsnb.extract.continued`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, BinaryIO

from fsnb.errors import ParseError
from fsnb.extract.budget import Budget, TableLimits
from fsnb.extract.continued import NEAR_TOP, PageTable, merge_continued

#: How far above a table (in points) its caption line may be.
CAPTION_GAP = 36.0


def pdf_tables(file: Path | BinaryIO, name: str, budget: Budget | None = None) -> list[PageTable]:
    """Each table, page by page, with its rows of cells and each row's page; within the
    `budget`'s pages and deadline (a note says which pages were searched)."""
    import pdfplumber
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
    from pdfplumber.utils.exceptions import PdfminerException

    budget = budget or Budget(TableLimits())
    found: list[PageTable] = []
    try:
        with pdfplumber.open(file) as pdf:
            total = len(pdf.pages)
            for number, page in enumerate(pdf.pages):
                if number >= budget.limits.pages:
                    budget.note(
                        f"tables from the first {number:,} pages of {total:,} (the "
                        f"{budget.limits.pages:,}-page limit for PDF tables)"
                    )
                    break
                if budget.expired():
                    budget.overtime(f"tables from the first {number:,} pages of {total:,}")
                    break
                found.extend(_page_tables(page))
                page.close()  # pdfplumber keeps each page's objects otherwise: ~10 MB a page
    except PdfminerException as exc:
        cause = exc.args[0] if exc.args else exc
        if isinstance(cause, (PDFPasswordIncorrect, PDFEncryptionError)):
            raise ParseError(name, "encrypted PDF (password required)") from None
        raise ParseError(name, f"corrupt PDF ({_short(cause)})") from None
    except (PDFPasswordIncorrect, PDFEncryptionError):
        raise ParseError(name, "encrypted PDF (password required)") from None
    except (ValueError, KeyError, TypeError, OSError) as exc:
        raise ParseError(name, f"corrupt PDF ({_short(exc)})") from None
    # A one-row table only counts as a continuation of the table before it.
    return [t for t in merge_continued(found) if len(t.rows) >= 2]


def _page_tables(page: Any) -> list[PageTable]:
    tables = sorted(page.find_tables(), key=lambda t: (t.bbox[1], t.bbox[0]))
    lines = page.extract_text_lines() if tables else []
    found = []
    for n, table in enumerate(tables):
        rows = [[c or "" for c in row] for row in table.extract()]
        rows = [r for r in rows if any(c.strip() for c in r)]
        if rows and max(map(len, rows)) >= 2:
            found.append(
                PageTable(
                    page.page_number,
                    _caption(lines, table.bbox),
                    rows,
                    [page.page_number] * len(rows),
                    first=n == 0,
                    last=n == len(tables) - 1,
                    near_top=table.bbox[1] <= NEAR_TOP * float(page.height),
                )
            )
    return found


def _caption(lines: list[dict[str, Any]], bbox: tuple[float, float, float, float]) -> str | None:
    """The nearest text line that ends at most `CAPTION_GAP` above the table's top."""
    top = bbox[1]
    above = [ln for ln in lines if ln["bottom"] <= top + 1 and top - ln["bottom"] <= CAPTION_GAP]
    if not above:
        return None
    text = " ".join(max(above, key=lambda ln: ln["bottom"])["text"].split())
    return text or None


def _short(exc: object) -> str:
    return " ".join(str(exc).split())[:160] or type(exc).__name__
