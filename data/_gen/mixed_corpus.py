"""Build data/mixed: Northwind Analytics acquiring Bluefin Robotics ("Project Marlin").

Many formats in nested folders, plus deliberately awkward files (empty, binary, latin-1, corrupt
PDF, symlink leaving the corpus, fake secrets).
"""

from __future__ import annotations

import datetime as dt
import io
import random
from pathlib import Path

from docx import Document
from openpyxl import Workbook
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen.canvas import Canvas

from .common import CorpusResult
from .office import save_office, write_pptx
from .paraphrase import with_paraphrases
from .questions import Question, absent, q

NAME = "mixed"
FIXED_DATE = dt.datetime(2025, 6, 1, 9, 0, 0)

DOCX = "memos/integration_plan.docx"
PPTX = "deck/board_update.pptx"
XLSX = "finance/valuation_model.xlsx"
CSV = "finance/customers.csv"
HTML = "web/press_release.html"
MD = "notes/diligence_notes.md"
TXT = "notes/call_log.txt"
LATIN1 = "notes/legacy_memo_latin1.txt"

WORKSTREAMS = (
    ("Workstream", "Lead", "Deadline", "Budget"),
    ("Engineering", "Priya Raman", "September 30, 2025", "$1,150,000"),
    ("Sales and Channel", "Marcus Lindgren", "August 29, 2025", "$380,000"),
    ("IT and Security", "Omar Haddad", "October 15, 2025", "$420,000"),
    ("HR and Payroll", "Grace Okonkwo", "August 1, 2025", "$210,000"),
    ("Facilities", "Ben Carter", "December 19, 2025", "$640,000"),
    ("Total", "", "", "$2,800,000"),
)

SLIDES = (
    (
        "Project Marlin: Board Update",
        [
            "Northwind Analytics acquisition of Bluefin Robotics",
            "Board of Directors meeting, June 10, 2025",
        ],
        "Opening remarks by Elena Vasquez. Ask the board to note the signing on May 12, 2025.",
    ),
    (
        "Deal Terms",
        [
            "Enterprise value: $62 million",
            "Consideration: 85% cash, 15% Northwind common stock",
            "Escrow: 10% of the price, held for 15 months",
            "Target closing date: July 31, 2025",
        ],
        "Context for the board: Harborline Capital submitted a competing bid of $58.5 million, "
        "which the Bluefin board rejected on April 22, 2025. Do not put this on the slide.",
    ),
    (
        "Diligence Highlights",
        [
            "ARR: $14.8 million, up 38% year over year",
            "Gross margin: 61%",
            "Three customers each above 10% of ARR",
            "140 employees, headquartered in Portland, Oregon",
        ],
        "Customer detail is in the finance folder customer list.",
    ),
    (
        "Open Risks",
        [
            "Export classification of the Scout inspection drone for EU customers",
            "Single battery supplier for the Crawler robot",
            "Retention of the perception engineering team",
        ],
        "Retention pool proposed at $1.9 million for 12 engineers; HR to confirm by July 1.",
    ),
)

CUSTOMERS = (
    ("customer", "segment", "arr_usd", "renewal_date", "consent_required"),
    ("Cascade Freight", "Logistics", "2,310,000", "2026-03-31", "yes"),
    ("Harbor Cold Storage", "Cold chain", "1,760,000", "2025-12-31", "no"),
    ("Pinecrest Grocers", "Retail", "1,540,000", "2026-06-30", "no"),
    ("Summit Parcel", "Logistics", "1,120,000", "2025-11-30", "no"),
    ("Redwood Pharma Logistics", "Healthcare", "980,000", "2027-01-31", "yes"),
    ("Lakeside Distributors", "Wholesale", "860,000", "2026-09-30", "no"),
    ("Ironbridge Auto Parts", "Manufacturing", "740,000", "2026-02-28", "no"),
    ("All other customers (63)", "Various", "5,490,000", "", "no"),
)


def _docx(path: Path) -> str:
    """Integration plan with headings and a workstream table."""
    doc = Document()
    props = doc.core_properties
    props.author = props.last_modified_by = "Northwind Integration Office"
    props.title = "Project Marlin Integration Plan"
    props.created = props.modified = FIXED_DATE
    props.revision = 1
    doc.add_heading("Project Marlin Integration Plan", 0)
    paragraphs = [
        (
            "Purpose",
            "This plan sets out how Northwind Analytics will integrate Bluefin Robotics "
            "after the closing targeted for July 31, 2025. Dana Whitfield, Northwind's integration "
            "director, owns the plan and reports to the steering committee every two weeks.",
        ),
        (
            "Workstreams",
            "Each workstream has one accountable lead, a completion deadline and a "
            "one-time budget approved by the steering committee on June 5, 2025.",
        ),
    ]
    texts = ["Project Marlin Integration Plan"]
    for heading, body in paragraphs:
        doc.add_heading(heading, 1)
        doc.add_paragraph(body)
        texts += [heading, body]
    table = doc.add_table(rows=len(WORKSTREAMS), cols=4)
    table.style = "Table Grid"
    for r, row in enumerate(WORKSTREAMS):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
        texts.append(" | ".join(row))
    tail = [
        (
            "Day-One Priorities",
            "Keep Bluefin's support line and customer portal unchanged, "
            "issue Northwind badges to all Portland staff, and freeze changes to the robot fleet "
            "software for the first 30 days.",
        ),
        (
            "Reporting",
            "Workstream leads submit a one-page status note every second Friday; red "
            "items go to the steering committee chaired by Elena Vasquez.",
        ),
    ]
    for heading, body in tail:
        doc.add_heading(heading, 1)
        doc.add_paragraph(body)
        texts += [heading, body]
    save_office(doc, path)
    return "\n".join(texts)


def _pptx(path: Path) -> str:
    """Board deck; one fact (the competing bid) appears only in speaker notes."""
    title = "Project Marlin Board Update"
    return write_pptx(path, title, SLIDES, "Northwind Corporate Development", FIXED_DATE)


def _xlsx(path: Path) -> str:
    """Valuation model; the synergy breakdown is only on the second sheet."""
    wb = Workbook()
    wb.properties.creator = "Northwind FP&A"
    wb.properties.created = wb.properties.modified = FIXED_DATE
    summary = wb.active
    summary.title = "Summary"
    summary_rows = [
        ("Item", "Value (USD)", "Comment"),
        ("Enterprise value", 62000000, "Signed May 12, 2025"),
        ("Bluefin ARR", 14800000, "As of April 30, 2025"),
        ("Cash consideration", 52700000, "85% of enterprise value"),
        ("Stock consideration", 9300000, "15%, Northwind common stock"),
        ("Escrow", 6200000, "10%, released after 15 months"),
    ]
    synergies = wb.create_sheet("Synergies")
    synergy_rows = [
        ("Synergy", "Annual savings (USD)", "Timing and notes"),
        ("Close Tacoma overflow warehouse", 780000, "By March 2026; largest single item"),
        ("Sales team overlap", 410000, "By December 2025"),
        ("Cloud contract renegotiation", 240000, "At renewal, January 2026"),
        ("Duplicate SaaS tools", 165000, "By October 2025"),
        ("Total run-rate cost synergies", 1595000, "About $1.6 million a year from 2026"),
    ]
    texts = []
    for sheet, rows in ((summary, summary_rows), (synergies, synergy_rows)):
        for row in rows:
            sheet.append(row)
            texts.append(" | ".join(str(v) for v in row))
        for cell in sheet["B"][1:]:
            cell.number_format = "#,##0"
        sheet.column_dimensions["A"].width = 34
        sheet.column_dimensions["B"].width = 22
        sheet.column_dimensions["C"].width = 30
    save_office(wb, path)
    return "\n".join(texts)


def _csv(path: Path) -> str:
    """Customer list with quoted, comma-formatted amounts."""
    lines = []
    for row in CUSTOMERS:
        lines.append(",".join(f'"{v}"' if "," in v else v for v in row))
    text = "\n".join(lines) + "\n"
    path.write_text(text, encoding="utf-8", newline="")
    return "\n".join(" | ".join(row) for row in CUSTOMERS)


HTML_TEXT = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Northwind Analytics to Acquire Bluefin Robotics</title>
</head>
<body>
<article>
<h1>Northwind Analytics to Acquire Bluefin Robotics</h1>
<p><em>Seattle, Washington - May 13, 2025</em></p>
<p>Northwind Analytics, Inc. today announced a definitive agreement to acquire Bluefin Robotics,
Inc., a Portland, Oregon maker of autonomous inspection robots for warehouses, for an enterprise
value of $62 million in cash and stock.</p>
<p>Bluefin's Scout inspection drone and Crawler floor robot collect inventory and safety data
that Northwind's analytics platform will turn into daily operating reports for logistics
customers. Bluefin has 140 employees and will operate as a business unit of Northwind.</p>
<blockquote>"Bluefin gives our customers eyes on the warehouse floor," said Elena Vasquez, chief
executive officer of Northwind Analytics.</blockquote>
<h2>Transaction details</h2>
<ul>
<li>The transaction is expected to close in the third quarter of 2025, subject to customary
conditions.</li>
<li>Pike Street Partners is acting as financial advisor to Northwind, and Lindqvist Hart LLP as
its legal counsel.</li>
<li>Bluefin was advised by Cobalt Ridge Securities.</li>
</ul>
<p>Media contact: press@northwind.example</p>
</article>
</body>
</html>
"""

MD_TEXT = """# Bluefin Robotics - Diligence Notes

Working notes of the Northwind deal team. Last updated June 6, 2025.

## Open items

1. **Battery supply.** The Crawler robot depends on a single supplier, Voltaic Cells, whose
   supply contract expires on November 30, 2025. Procurement is negotiating a two-year renewal.
2. **Export control.** Counsel is confirming the classification of the Scout drone before any
   shipment to EU customers.
3. **Customer consents.** Two contracts in `finance/customers.csv` require consent to the change
   of control. Consent letters were requested on June 2, 2025.

## Closed items

| Item | Outcome | Closed on |
|------|---------|-----------|
| Quality of earnings | ARR confirmed at $14.8 million | May 30, 2025 |
| Patent review | 9 issued patents, no liens | May 28, 2025 |
| Tax review | No exposures above $50,000 | June 4, 2025 |

## Contacts

- Deal lead: Dana Whitfield
- Bluefin CFO: Miguel Santos
"""

TXT_TEXT = """Project Marlin - call log (UTF-8)
===================================

2025-06-03 10:30 — Call with Zoë Lindqvist (Kestrel Ventures)
  • Kestrel Ventures led Bluefin's Series C and holds a consent right over any sale.
  • Approval of the sale to Northwind was received on June 3, 2025, by email from Zoë.
  • Kestrel asked that its board observer seat end at closing.

2025-06-04 15:00 — Call with José Álvarez (Bluefin, São Paulo pilot)
  • The São Paulo pilot with a retail customer ends in August; no renewal is planned.
  • Two robots will be shipped back to Portland — cost about $18,000.

2025-06-05 09:15 — Internal sync (Dana Whitfield, Omar Haddad)
  • IT cut-over rehearsal planned for September 8, 2025.
"""

LATIN1_TEXT = """MEMO (ancien système - encodage Latin-1)
De : François Lefèvre, directeur des opérations, Bluefin Robotique Québec Inc.
À : Équipe d'intégration Northwind
Date : 2 juin 2025
Objet : Bail du bureau de Montréal

Le bureau de Montréal (rue Saint-Urbain) est loué jusqu'au 31 août 2027.
Loyer annuel : CAD 410,000, payable mensuellement.
Le propriétaire, Immeubles Côté et Frères, doit être avisé du changement de contrôle
dans les 30 jours suivant la clôture.
Personne-ressource au bureau : Hélène Gagné.

English summary: the Montreal office lease runs until August 31, 2027 at an annual rent of
CAD 410,000; the landlord must be notified within 30 days after closing.
"""

ENV_TEXT = """# Fake values for tests only - not real credentials.
GOOGLE_API_KEY=fake-key-for-tests-only
NORTHWIND_DB_PASSWORD=not-a-real-password
"""

FAKE_KEY = """-----BEGIN OPENSSH PRIVATE KEY-----
FAKE KEY FOR TESTS
This is not a real key. It exists so tools can be tested on files that look sensitive.
-----END OPENSSH PRIVATE KEY-----
"""


def _firmware() -> bytes:
    """Deterministic pseudo-random bytes with NULs."""
    rng = random.Random("bluefin-firmware-v2.4.1")
    header = b"BFW\x00\x02\x04\x01\x00" + b"\x00" * 8
    return header + rng.randbytes(4080)


def _corrupt_pdf() -> bytes:
    """A real PDF cut short and garbled at the end."""
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=letter, invariant=1)
    canvas.setFont("Helvetica", 12)
    canvas.drawString(72, 700, "Bluefin Robotics - Portland site inspection report")
    canvas.drawString(72, 680, "Inspection date: May 20, 2025. Findings: see appendix.")
    canvas.showPage()
    canvas.save()
    good = buf.getvalue()
    cut = good[: len(good) * 3 // 5]
    return cut + b"\n\x00\xff\xfe garbled stream data \x00\x13\x37 endobj\n%%EO"


def _write(path: Path, data: bytes | str, encoding: str = "utf-8") -> None:
    """Write text or bytes, creating parent folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode(encoding)
    path.write_bytes(data)


def build(root: Path) -> CorpusResult:
    """Write all mixed-format files and return texts and questions."""
    out = root / NAME
    out.mkdir(parents=True, exist_ok=True)
    result = CorpusResult(NAME)
    for rel in (DOCX, PPTX, XLSX, CSV):
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
    result.texts[DOCX] = _docx(out / DOCX)
    result.texts[PPTX] = _pptx(out / PPTX)
    result.texts[XLSX] = _xlsx(out / XLSX)
    result.texts[CSV] = _csv(out / CSV)
    for rel, text in ((HTML, HTML_TEXT), (MD, MD_TEXT), (TXT, TXT_TEXT)):
        _write(out / rel, text)
        result.texts[rel] = text
    _write(out / LATIN1, LATIN1_TEXT, encoding="latin-1")
    result.texts[LATIN1] = LATIN1_TEXT
    _write(out / "notes/empty.md", b"")
    _write(out / "misc/firmware.bin", _firmware())
    _write(out / "reports/corrupt_report.pdf", _corrupt_pdf())
    _write(out / ".env", ENV_TEXT)
    _write(out / "keys/id_rsa", FAKE_KEY)
    link = out / "links/outside.txt"
    link.parent.mkdir(parents=True, exist_ok=True)
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to("../../../pyproject.toml")
    _check_awkward(out)
    result.pages = dict.fromkeys(result.texts, 0)
    result.questions = questions()
    return result


def _check_awkward(out: Path) -> None:
    """Guard the properties tests rely on."""
    try:
        (out / LATIN1).read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        raise ValueError("latin-1 memo must not be valid UTF-8")
    if b"\x00" not in (out / "misc/firmware.bin").read_bytes():
        raise ValueError("firmware.bin must contain NUL bytes")


def _originals() -> list[Question]:
    """Evaluation questions for the mixed corpus."""
    return [
        q(
            "mixed-01",
            "Who leads the IT and security integration workstream for Bluefin, and "
            "what budget does it have?",
            "single",
            ("Omar Haddad", DOCX),
            ("$420,000", DOCX),
        ),
        q(
            "mixed-02",
            "Did anyone else bid for Bluefin Robotics? What happened to that bid?",
            "single",
            ("Harborline Capital", PPTX),
            ("$58.5 million", PPTX),
        ),
        q(
            "mixed-03",
            "When is the Bluefin deal expected to close, and how long is the escrow held?",
            "single",
            ("July 31, 2025", PPTX),
            ("15 months", PPTX),
        ),
        q(
            "mixed-04",
            "Which single cost synergy is expected to save the most per year?",
            "single",
            ("Tacoma", XLSX),
        ),
        q(
            "mixed-05",
            "Which firm is Northwind's financial advisor on the acquisition?",
            "single",
            ("Pike Street Partners", HTML),
        ),
        q(
            "mixed-06",
            "Who supplies batteries for the Crawler robot, and when does that supply "
            "contract expire?",
            "single",
            ("Voltaic Cells", MD),
            ("November 30, 2025", MD),
        ),
        q("mixed-07", "How much ARR does Cascade Freight represent?", "single", ("2,310,000", CSV)),
        q(
            "mixed-08",
            "Which investor had to approve the sale of Bluefin, and when was approval received?",
            "single",
            ("Kestrel Ventures", TXT),
            ("June 3, 2025", TXT),
        ),
        q(
            "mixed-09",
            "What is the annual rent of Bluefin's Montreal office, and who wrote the "
            "memo about the lease?",
            "single",
            ("CAD 410,000", LATIN1),
            ("François Lefèvre", LATIN1),
        ),
        q(
            "mixed-10",
            "Which customer contracts require consent to the change of control, and "
            "when were consent letters requested?",
            "cross",
            ("June 2, 2025", MD),
            ("Cascade Freight", CSV),
            ("Redwood Pharma Logistics", CSV),
        ),
        q(
            "mixed-11",
            "Summarize the price, payment structure and expected cost synergies of the "
            "Bluefin acquisition.",
            "multi",
            ("$62 million", HTML),
            ("85% cash", PPTX),
            ("15 months", PPTX),
            ("$1.6 million", XLSX),
        ),
        absent("mixed-12", "What warranty period applies to the Crawler robot's batteries?"),
        absent("mixed-13", "Which firm audits Bluefin's financial statements?"),
        absent("mixed-14", "What interest rate is charged on Northwind's acquisition loan?"),
    ]


def _aggregates() -> list[Question]:
    """Figures over the customer list's rows: one over three named customers, and two whose
    named customer or period no row holds (a confident figure would be wrong)."""
    combined = q(
        "mixed-15",
        "What is the combined ARR of Cascade Freight, Summit Parcel and Lakeside Distributors?",
        "aggregate",
        ("2,310,000", CSV),
        ("1,120,000", CSV),
        ("860,000", CSV),
    )
    combined["answer"] = {"text": "$4,290,000", "value": 4290000}
    unmatched = [
        (
            "mixed-16",
            "What is the total ARR of Cascade Freight, Harbor Cold Storage and Bluewater Marine?",
        ),
        ("mixed-17", "What is the total ARR of the customers whose contracts renew in 2024?"),
    ]
    return [combined] + [absent(qid, text) for qid, text in unmatched]


def questions() -> list[Question]:
    """The original questions and their paraphrases."""
    return with_paraphrases([*_originals(), *_aggregates()], PARAPHRASES)


#: Paraphrases of the questions above (the same facts asked in other words), written
#: before the offline answerer was run on them.
PARAPHRASES = (
    (
        "mixed-p01",
        "mixed-01",
        "How much money is set aside for Bluefin's IT and security integration, and who's in "
        "charge of it?",
    ),
    (
        "mixed-p02",
        "mixed-02",
        "Was there a competing offer for Bluefin Robotics, and how did it turn out?",
    ),
    (
        "mixed-p03",
        "mixed-03",
        "How many months does the escrow last on the Bluefin deal, and what's the target closing "
        "date?",
    ),
    ("mixed-p04", "mixed-04", "What's the biggest annual cost saving expected from the deal?"),
    ("mixed-p05", "mixed-05", "Who is acting as Northwind's financial adviser for the deal?"),
    (
        "mixed-p06",
        "mixed-06",
        "When does the Crawler battery supply agreement end, and who's the supplier?",
    ),
    ("mixed-p07", "mixed-07", "What's Cascade Freight's annual recurring revenue?"),
    (
        "mixed-p08",
        "mixed-08",
        "When did Bluefin get investor sign-off on the sale, and which investor gave it?",
    ),
    (
        "mixed-p09",
        "mixed-09",
        "Who authored the Montreal lease memo, and how much does Bluefin pay per year for that "
        "office?",
    ),
    (
        "mixed-p10",
        "mixed-10",
        "When did Bluefin send out the consent requests, and which customers' contracts need "
        "consent for the change of control?",
    ),
    (
        "mixed-p11",
        "mixed-11",
        "Give me a quick overview of what Northwind is paying for Bluefin, how it's paying, and "
        "the savings it expects.",
    ),
    ("mixed-p12", "mixed-12", "How long are the Crawler's batteries under warranty?"),
    ("mixed-p13", "mixed-13", "Who is Bluefin's auditor?"),
    (
        "mixed-p14",
        "mixed-14",
        "What's the rate on the loan Northwind took out to fund the acquisition?",
    ),
    (
        "mixed-p15",
        "mixed-15",
        "Add up the annual recurring revenue from Lakeside Distributors, Summit Parcel and Cascade "
        "Freight.",
    ),
    (
        "mixed-p16",
        "mixed-16",
        "How much ARR do Bluewater Marine, Harbor Cold Storage and Cascade Freight bring in "
        "together?",
    ),
    (
        "mixed-p17",
        "mixed-17",
        "Summed up, what ARR comes from customers with 2024 contract renewals?",
    ),
)
