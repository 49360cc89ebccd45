"""Tables out of files: CSV/TSV (pandas), XLSX sheets (openpyxl), DOCX/PPTX/HTML (Docling's
table items) and born-digital PDFs (pdfplumber), each with text cells and typed columns."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from fsnb.errors import EMPTY_FILE, ParseError
from fsnb.extract.budget import ROW_BATCH, Budget, TableLimits, size_text
from fsnb.extract.columns import parse_number, typed

if TYPE_CHECKING:
    from fsnb.security import Sandbox

#: Suffix -> reader kind.
FORMATS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".xlsx": "xlsx",
    ".xlsm": "xlsx",
    ".docx": "docling",
    ".pptx": "docling",
    ".html": "docling",
    ".htm": "docling",
    ".xhtml": "docling",
    ".pdf": "pdf",
}


@dataclass
class ExtractedTable:
    """One table of a file: `frame` has typed columns, `raw` the same cells as text.

    `page` is the (first) page; `pages`, when known, has each row's page (a PDF table
    continued on the next pages is one table).
    """

    path: str
    index: int
    page: int | None
    caption: str | None
    frame: pd.DataFrame
    raw: pd.DataFrame
    pages: list[int] | None = None

    @property
    def where(self) -> str:
        """'page 3', 'pages 3-4' (a table across pages) or '' (no pages, as in a sheet)."""
        if self.page is None:
            return ""
        last = max(self.pages) if self.pages else self.page
        return f"page {self.page}" if last == self.page else f"pages {self.page}-{last}"


class Tables(list[ExtractedTable]):
    """A document's tables, and `notes`: one line for each limit that left something out
    (`fsnb.extract.budget`)."""

    def __init__(self, tables: Sequence[ExtractedTable] = (), notes: Sequence[str] = ()) -> None:
        super().__init__(tables)
        self.notes = list(notes)


def extract_tables(
    path: str | Path, *, sandbox: Sandbox | None = None, limits: TableLimits | None = None
) -> Tables:
    """Every table in `path`, in document order (an empty list when it has none).

    With a `sandbox`, `path` is resolved inside it (paths outside are refused) and the
    tables carry the relative path. Raises `ParseError` with a one-line reason for an
    unsupported, corrupt or encrypted file. Reading stops at the `limits` (default
    `TableLimits()`: PDF pages, cells, CSV bytes, the parse time limit), keeping the tables
    read so far, with a note for each limit hit in `Tables.notes`.
    """
    file = sandbox.existing(path, "file") if sandbox else Path(path)
    name = sandbox.relative(file) if sandbox else str(path)
    kind = FORMATS.get(file.suffix.lower())
    if kind is None:
        accepted = ", ".join(sorted(FORMATS))
        raise ParseError(name, f"no tables in '{file.suffix or file.name}' files ({accepted})")
    from fsnb.documents.parse import opened

    budget = Budget(limits or TableLimits())
    # Read once through the checked descriptor: no reader opens the path again.
    with opened(file, name, sandbox.root if sandbox else None) as handle:
        # delimited text is read no further than its byte limit (and a byte to know it)
        data = handle.read(budget.limits.text_bytes + 1 if kind in ("csv", "tsv") else -1)
    if not data:
        raise ParseError(name, EMPTY_FILE)
    found = _READERS[kind](file, data, name, budget)
    # typing is bounded by the cells read, and the tables read are all kept
    tables = [
        ExtractedTable(name, i, page, caption, typed(raw), raw, pages)
        for i, (page, caption, raw, pages) in enumerate(found)
    ]
    return Tables(tables, budget.notes)


#: (page, caption, text cells, each row's page) per table, as the readers return them.
Found = list[tuple[int | None, str | None, pd.DataFrame, list[int] | None]]


def _frame(rows: Sequence[Sequence[Any]], header: Sequence[Any] | None) -> pd.DataFrame:
    """Rows of cells as text, with unique, non-empty column names."""
    width = max([len(header or ())] + [len(r) for r in rows]) if rows or header else 0
    cells = [[_text(c) for c in r] + [""] * (width - len(r)) for r in rows]
    names: list[str] = []
    taken: set[str] = set()  # not `in names`: quadratic over a table 10,000 columns wide
    for i in range(width):
        base = _text(header[i]) if header and i < len(header) else ""
        base = " ".join(base.split()) or f"column_{i + 1}"
        name, n = base, 2
        while name in taken:
            name, n = f"{base}_{n}", n + 1
        names.append(name)
        taken.add(name)
    return pd.DataFrame(cells, columns=names, dtype=object)


def _text(cell: Any) -> str:
    if cell is None:
        return ""
    if isinstance(cell, dt.datetime):
        return cell.date().isoformat() if cell.time() == dt.time() else cell.isoformat(sep=" ")
    if isinstance(cell, (dt.date, dt.time)):
        return cell.isoformat()
    if isinstance(cell, float) and cell.is_integer():
        return str(int(cell))
    return str(cell).strip()


def _useful(rows: list[list[Any]]) -> list[list[Any]]:
    """Rows with a value, and columns that have one somewhere."""
    rows = [r for r in rows if any(_text(c) for c in r)]
    keep = [i for i in range(max(map(len, rows), default=0)) if any(_cell(r, i) for r in rows)]
    return [[r[i] if i < len(r) else None for i in keep] for r in rows]


def _cell(row: Sequence[Any], i: int) -> str:
    return _text(row[i]) if i < len(row) else ""


def _looks_like_header(rows: list[list[Any]]) -> bool:
    """A first row of distinct, non-empty labels that are not numbers."""
    if len(rows) < 2:
        return False
    first = [_text(c) for c in rows[0]]
    return all(first) and len(set(first)) == len(first) and not any(parse_number(c) for c in first)


def _split_header(rows: list[list[Any]]) -> pd.DataFrame:
    if _looks_like_header(rows):
        return _frame(rows[1:], rows[0])
    return _frame(rows, None)


def _delimited(data: bytes, name: str, sep: str | None, budget: Budget) -> Found:
    from fsnb.documents.text import decode, looks_binary

    if looks_binary(data[:8192]):
        raise ParseError(name, "binary content, not a text table")
    if len(data) > (cap := budget.limits.text_bytes):  # at the last line break that fits
        data = data[: data.rfind(b"\n", 0, cap) + 1 or cap]
        budget.note(f"read the first {size_text(cap)} of {name} (the limit for delimited text)")
    text, _ = decode(data, name)
    if sep is None:
        try:
            sep = csv.Sniffer().sniff(text[:65536], delimiters=",;\t|").delimiter
        except csv.Error:
            sep = ","
    rows: list[list[str]] = []
    try:
        for row in csv.reader(io.StringIO(text), delimiter=sep):
            if not len(rows) % ROW_BATCH and budget.expired():
                budget.overtime(f"the first {len(rows):,} rows of {name}")
                break
            if not budget.take(max(len(row), 1)):
                budget.over_cells(f"the first {len(rows):,} rows of {name}")
                break
            rows.append(row)
    except csv.Error as exc:
        raise ParseError(name, f"malformed delimited text ({exc})") from None
    rows = _useful(rows)
    if not rows:
        return []
    return [(None, None, _frame(rows[1:], rows[0]), None)]


def _csv(file: Path, data: bytes, name: str, budget: Budget) -> Found:
    return _delimited(data, name, None, budget)


def _tsv(file: Path, data: bytes, name: str, budget: Budget) -> Found:
    return _delimited(data, name, "\t", budget)


def _xlsx(file: Path, data: bytes, name: str, budget: Budget) -> Found:
    import zipfile

    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError) as exc:
        raise ParseError(name, f"corrupt or unreadable workbook ({_short(exc)})") from None
    found: Found = []
    try:
        for sheet in book.worksheets:
            rows, stopped = _sheet_rows(sheet, name, budget)
            if rows := _useful(rows):
                found.append((None, sheet.title, _split_header(rows), None))
            if stopped:
                break
    finally:
        book.close()
    return found


def _sheet_rows(sheet: Any, name: str, budget: Budget) -> tuple[list[list[Any]], bool]:
    """A read-only sheet's rows, read one at a time within the budget, without the empty
    cells that end them (a sheet's declared size pads every row to its width); and
    whether a limit stopped the reading."""
    rows: list[list[Any]] = []
    for values in sheet.iter_rows(values_only=True):
        if not len(rows) % ROW_BATCH and budget.expired():
            budget.overtime(f"the first {len(rows):,} rows of sheet {sheet.title!r} of {name}")
            return rows, True
        cells = list(values)
        while cells and cells[-1] is None:
            cells.pop()
        if not budget.take(max(len(cells), 1)):
            budget.over_cells(f"the first {len(rows):,} rows of sheet {sheet.title!r} of {name}")
            return rows, True
        rows.append(cells)
    return rows, False


def _docling(file: Path, data: bytes, name: str, budget: Budget) -> Found:
    from docling_core.types.doc import SectionHeaderItem, TableItem, TitleItem

    from fsnb.documents.limits import Limits, within
    from fsnb.documents.parse import convert

    # as `parse` does: the same content limit (zip bombs) and time limit, which Docling's
    # office backends do not honour themselves (a DOCX ran past 500 s here)
    Limits.from_env().check_size(io.BytesIO(data), file.suffix.lower()[1:], len(data), name)
    doc = within(budget.left(), name, convert, file, data, name, "office")  # in a worker
    heading: str | None = None
    found: Found = []
    tables = [i for i, _ in doc.iterate_items() if isinstance(i, TableItem)]
    for item, _level in doc.iterate_items():
        if isinstance(item, (SectionHeaderItem, TitleItem)):
            heading = item.text.strip() or heading
        elif isinstance(item, TableItem):
            if budget.expired():
                budget.overtime(f"{len(found)} of the {len(tables)} tables of {name}")
                break
            if not budget.take(item.data.num_rows * item.data.num_cols):
                budget.over_cells(f"{len(found)} of the {len(tables)} tables of {name}")
                break
            raw = _docling_frame(item.export_to_dataframe(doc=doc))
            if raw is None:
                continue
            page = item.prov[0].page_no if item.prov else None
            found.append((page, item.caption_text(doc).strip() or heading, raw, None))
    return found


def _docling_frame(frame: pd.DataFrame) -> pd.DataFrame | None:
    """Docling's table as text cells; its column labels are the header unless numbers."""
    names = [c.strip() if isinstance(c, str) else "" for c in frame.columns]
    header = any(names) and not any(parse_number(n) for n in names if n)
    rows = _useful([*([names] if any(names) else []), *frame.astype(object).values.tolist()])
    if not rows:
        return None
    return _frame(rows[1:], rows[0]) if header else _frame(rows, None)


def _pdf(file: Path, data: bytes, name: str, budget: Budget) -> Found:
    from fsnb.extract.pdf_tables import pdf_tables

    found: Found = []
    for table in pdf_tables(io.BytesIO(data), name, budget):
        raw = _split_header(table.rows)
        pages = table.pages[len(table.rows) - len(raw) :]  # without a header row's page
        found.append((table.page, table.caption, raw, pages))
    return found


def _short(exc: Exception) -> str:
    return " ".join(str(exc).split())[:160] or type(exc).__name__


_READERS = {"csv": _csv, "tsv": _tsv, "xlsx": _xlsx, "docling": _docling, "pdf": _pdf}
