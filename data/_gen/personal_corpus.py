"""Build data/personal: a home folder of someone's paperwork (Jamie R. Castellano, who rents
an apartment, owns a six-unit building at 87 Maple Street and freelances on the side).

Taxes/2023 and Taxes/2024 hold W-2s, 1099-NEC and 1099-INT forms from several payers (one
labelled amount each), property-tax bills, an estimated-payment spreadsheet and notes;
Receipts/ store receipts (one in a "Home Office" subfolder); Bank/ six monthly checking
statements of the same layout; Contracts/ a lease and, under 87_Maple_St/, an elevator
maintenance agreement, its amendment (which raises the fee) and a boiler service agreement;
Insurance/, Medical/; Downloads/ a manual, a copy of a statement, an unrelated brochure and
a CSV export.

This corpus is held out: its questions (personal_questions.py) were written before any
fitting of the offline answerer and must never be tuned on; bench/quality.py reports it
apart from the fitted corpora.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import shutil
from collections import Counter
from pathlib import Path

from docx import Document
from openpyxl import Workbook

from . import personal_bank as b
from . import personal_docs as docs
from . import personal_misc as misc
from . import personal_money as m
from .common import CorpusResult
from .office import save_office
from .personal_docs import COPY, ESTIMATED, EXPORT
from .personal_pdf import Doc, write
from .personal_questions import LEVELS, questions

NAME = "personal"
FIXED_DATE = dt.datetime(2025, 1, 20, 9, 0, 0)


def _boiler(path: Path) -> str:
    doc = Document()
    props = doc.core_properties
    props.author = props.last_modified_by = docs.BOILER_CO
    props.title = "Boiler Service Agreement"
    props.created = props.modified = FIXED_DATE
    props.revision = 1
    doc.add_heading("Boiler Service Agreement", 0)
    texts = ["Boiler Service Agreement"]
    for heading, body in docs.BOILER_PARAS:
        doc.add_heading(heading, 1)
        doc.add_paragraph(body)
        texts += [heading, body]
    doc.add_heading("Scheduled visits", 1)
    table = doc.add_table(rows=len(docs.BOILER_VISITS), cols=3)
    table.style = "Table Grid"
    for r, row in enumerate(docs.BOILER_VISITS):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    texts += ["Scheduled visits", *(" | ".join(row) for row in docs.BOILER_VISITS)]
    save_office(doc, path)
    return "\n".join(texts)


def _estimated(path: Path) -> str:
    wb = Workbook()
    wb.properties.creator = m.OWNER
    wb.properties.created = wb.properties.modified = FIXED_DATE
    sheet = wb.active
    sheet.title = "2024 estimates"
    rows = [("Quarter", "Due date", "Date paid", "Amount (USD)", "Confirmation"), *m.ESTIMATED]
    for row in rows:
        sheet.append(row)
    for col, width in zip("ABCDE", (10, 20, 20, 14, 18), strict=True):
        sheet.column_dimensions[col].width = width
    path.parent.mkdir(parents=True, exist_ok=True)
    save_office(wb, path)
    return "\n".join(" | ".join(str(v) for v in row) for row in rows)


def _export(path: Path) -> str:
    rows = b.export_rows()
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8", newline="")
    return "\n".join(" | ".join(row) for row in rows)


def _text_file(root: Path, rel: str, text: str) -> str:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text, encoding="utf-8")
    return text


def _pdfs() -> list[Doc]:
    out = [m.nec_doc(*row) for row in m.NEC] + [m.int_doc(*row) for row in m.INT]
    out += [m.w2_doc(year) for year in m.W2] + [m.property_tax_doc(year) for year in m.PROPERTY_TAX]
    out += [b.receipt_doc(r) for r in b.RECEIPTS]
    out += [b.statement_doc(s) for s in b.statements()]
    out += [docs.lease(), docs.elevator(), docs.amendment(), docs.renters(), docs.landlord()]
    out += [misc.eob(*row) for row in misc.EOBS]
    return [*out, misc.manual(), misc.brochure()]


def build(root: Path) -> CorpusResult:
    """Write the home folder under root/personal; return pages, texts and questions."""
    out = root / NAME
    if out.exists():  # a rebuilt corpus holds exactly what is written now
        shutil.rmtree(out)
    out.mkdir(parents=True)
    result = CorpusResult(NAME)
    for doc in _pdfs():
        result.pages[doc.path], result.texts[doc.path] = write(doc, out)
    shutil.copyfile(out / b.statement_path(3), out / COPY)
    result.pages[COPY], result.texts[COPY] = (
        result.pages[b.statement_path(3)],
        result.texts[b.statement_path(3)],
    )
    (out / docs.BOILER).parent.mkdir(parents=True, exist_ok=True)
    result.texts[docs.BOILER] = _boiler(out / docs.BOILER)
    result.texts[ESTIMATED] = _estimated(out / ESTIMATED)
    result.texts[EXPORT] = _export(out / EXPORT)
    for rel, text in (
        (docs.MEDICATIONS, misc.medications()),
        (docs.IMMUNIZATIONS, misc.immunizations()),
        (docs.TAX_NOTES, misc.tax_notes()),
    ):
        result.texts[rel] = _text_file(out, rel, text)
    for rel in result.texts:
        result.pages.setdefault(rel, 0)
    result.questions = questions(out)
    levels = Counter(item["level"] for item in result.questions)
    result.notes.append("levels: " + ", ".join(f"{k} {levels[k]}" for k in (*LEVELS, "absent")))
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    result.notes.append(f"size: {size / 1024:.0f} KiB; held out (never tuned on)")
    return result
