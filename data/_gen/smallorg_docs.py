"""Writers for data/smallorg: Word files with tables between paragraphs, workbooks with number
formats, a slide deck. PDFs go through the shared helpers (``pdf.write_pdf`` for long
documents, ``household_docs.flow_pdf`` for one-page letters and invoices); office files are
saved byte-stably with ``office.save_office``.

Every writer returns the text it wrote (for the generator's fact check).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from docx import Document
from openpyxl import Workbook

from .office import save_office, write_pptx

ORG = "Harborlight Literacy Project"
ADDRESS = "212 Quarry Street, Suite 4, Harborview, ME 04112"
FIXED_DATE = dt.datetime(2024, 7, 15, 9, 30, 0)

#: A Word block: ("h", heading), ("p", paragraph) or ("t", rows of a table).
Block = tuple[str, object]


def cents(amount: int) -> str:
    """'$1,234.50' from cents."""
    return f"${amount // 100:,}.{amount % 100:02d}"


def docx(path: Path, title: str, blocks: list[Block], author: str = ORG) -> str:
    """A Word document: a title, then headings, paragraphs and tables in the order given."""
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
            doc.add_paragraph(str(body))
            texts.append(str(body))
        else:
            rows = list(body)  # type: ignore[call-overload]
            grid = doc.add_table(rows=len(rows), cols=len(rows[0]))
            grid.style = "Table Grid"
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    grid.cell(r, c).text = value
                texts.append(" | ".join(row))
    save_office(doc, path)
    return "\n".join(texts)


def xlsx(
    path: Path,
    sheets: dict[str, list[tuple]],
    money_columns: tuple[int, ...] = (),
    author: str = ORG,
) -> str:
    """A workbook, one sheet per entry; the 1-based ``money_columns`` get a currency format
    (the stored values stay plain numbers)."""
    wb = Workbook()
    wb.properties.creator = author
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
                cell.number_format = '"$"#,##0.00'
        sheet.column_dimensions["A"].width = 34
    save_office(wb, path)
    return "\n".join(texts)


def pptx(path: Path, title: str, slides: list[tuple[str, list[str], str]]) -> str:
    """A slide deck: (title, bullets, speaker notes) per slide."""
    return write_pptx(path, title, slides, ORG, FIXED_DATE)
