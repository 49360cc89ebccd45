"""Tables of born-digital PDFs with pdfplumber (tables drawn with ruling lines), each with
the text line just above it as its caption."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fsnb.errors import ParseError

#: How far above a table (in points) its caption line may be.
CAPTION_GAP = 36.0


def pdf_tables(file: Path, name: str) -> list[tuple[int, str | None, list[list[Any]]]]:
    """(page number, caption, rows of cells) for each table, page by page."""
    import pdfplumber
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
    from pdfplumber.utils.exceptions import PdfminerException

    found = []
    try:
        with pdfplumber.open(file) as pdf:
            for page in pdf.pages:
                tables = page.find_tables()
                lines = page.extract_text_lines() if tables else []
                for table in tables:
                    rows = [[c or "" for c in row] for row in table.extract()]
                    rows = [r for r in rows if any(c.strip() for c in r)]
                    if len(rows) >= 2 and max(map(len, rows)) >= 2:
                        found.append((page.page_number, _caption(lines, table.bbox), rows))
    except PdfminerException as exc:
        cause = exc.args[0] if exc.args else exc
        if isinstance(cause, (PDFPasswordIncorrect, PDFEncryptionError)):
            raise ParseError(name, "encrypted PDF (password required)") from None
        raise ParseError(name, f"corrupt PDF ({_short(cause)})") from None
    except (PDFPasswordIncorrect, PDFEncryptionError):
        raise ParseError(name, "encrypted PDF (password required)") from None
    except (ValueError, KeyError, TypeError, OSError) as exc:
        raise ParseError(name, f"corrupt PDF ({_short(exc)})") from None
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
