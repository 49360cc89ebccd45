"""The grant records of data/lab (NIH notices of award, the proposed R01 budget, a progress
report, a data-sharing plan, the foundation's award letter, budget and interim report), the
paths of the lab's other documents, and the form renderer the lab corpus shares (key-value
grids and multi-column tables between paragraphs, flowing onto more pages as needed).

Long documents go through ``pdf.write_pdf``; Word files and workbooks through
``smallorg_docs.docx`` and ``xlsx``. Every writer returns the text it wrote (for the
generator's fact check).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

from . import smallorg_docs as office
from .household_docs import text_file
from .pdf import PdfDoc, h, letter_template, p, ul, write_pdf

LAB = "Halvorsen Lab"
PI = "Ingrid Halvorsen"
DEPT = "Department of Molecular and Cellular Biology"
UNIV = "Northgate State University"
ADDRESS = "Bergstrom Hall 412, 1200 University Avenue, Lindale, WI 53590"
R01 = "R01HL168214"
MARR_NO = "EMF-2024-031"
MARR = "Elsbeth Marr Foundation for Cardiovascular Research"

NOA = {
    1: "Grants/NIH_R01/NoA_R01HL168214_budget_period_1.pdf",
    2: "Grants/NIH_R01/NoA_R01HL168214_budget_period_2.pdf",
}
R01_BUDGET = "Grants/NIH_R01/R01_proposed_budget_years_1-5.xlsx"
RPPR = "Grants/NIH_R01/RPPR_year1_progress_report.pdf"
DMS = "Grants/NIH_R01/data_management_and_sharing_plan.docx"
MARR_LETTER = "Grants/Marr_Foundation/Marr_award_letter_EMF-2024-031.pdf"
MARR_BUDGET = "Grants/Marr_Foundation/Marr_budget_2024-2025.xlsx"
MARR_REPORT = "Grants/Marr_Foundation/Marr_interim_report_2024-07_draft.docx"
OVERVIEW = "Grants/grants_overview.md"
FREEZER_QUOTE = "Equipment/Freezer/Arctis_quote_AQ-24-0917.pdf"
FREEZER_INVOICE = "Equipment/Freezer/Arctis_invoice_INV-A-55102.pdf"
SEQ = "Equipment/Sequencer/Corvane_Assure_service_2024-25.pdf"
SEQ_OLD = "Equipment/Sequencer/Archive/Corvane_Assure_service_2023-24.pdf"
CONFOCAL = "Equipment/Microscope/Lumera_CF-900_service_agreement_2024.docx"
INVENTORY = "Equipment/equipment_inventory.xlsx"
IACUC = "Compliance/IACUC_approval_A2023-0418.pdf"
IACUC_OLD = "Compliance/Archive/IACUC_approval_A2020-0233.pdf"
IBC = "Compliance/IBC_registration_IBC-22-117.pdf"
MANUAL = "Safety/Lab_Safety_Manual_rev2024.pdf"

#: NIH award calculation by budget period, whole dollars: (category, period 1, period 2).
#: Direct costs are the categories added up; F&A is 55.5% of them less equipment (MTDC).
NIH_LINES = (
    ("Salaries and Wages", 142300, 146570),
    ("Fringe Benefits", 44113, 45437),
    ("Equipment", 15600, 0),
    ("Supplies", 29800, 33800),
    ("Travel Costs", 5400, 5400),
    ("Other Costs", 12787, 11193),
)
FA_RATE = 0.555


def dollars(amount: int) -> str:
    """'$242,400' from whole dollars."""
    return f"${amount:,}"


def nih_direct(period: int) -> int:
    return sum(line[period] for line in NIH_LINES)


def nih_fa(period: int) -> int:
    mtdc = nih_direct(period) - NIH_LINES[2][period]
    return round(mtdc * FA_RATE)


def nih_total(period: int) -> int:
    """The period's approved budget (total costs), whole dollars."""
    return nih_direct(period) + nih_fa(period)


# --- the form renderer ---------------------------------------------------------------------

_TITLE = ParagraphStyle("LabTitle", fontName="Helvetica-Bold", fontSize=14, leading=18)
_SMALL = ParagraphStyle("LabSmall", fontName="Helvetica", fontSize=9, leading=11.5, spaceAfter=1)
_HEAD = ParagraphStyle(
    "LabHead", fontName="Helvetica-Bold", fontSize=11, leading=14, spaceBefore=8, spaceAfter=4
)
_BODY = ParagraphStyle("LabBody", fontName="Times-Roman", fontSize=11, leading=15, spaceAfter=6)
_CELL = ParagraphStyle("LabCell", fontName="Helvetica", fontSize=9, leading=11)
_MONEY = ParagraphStyle("LabMoney", parent=_CELL, alignment=2)
_LABEL = ParagraphStyle("LabLabel", parent=_CELL, fontName="Helvetica-Bold")
_GRID = [
    ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
    ("VALIGN", (0, 0), (-1, -1), "TOP"),
]

#: A form block: ("h", heading), ("p", paragraph), ("s", small line), ("kv", [(label,
#: value)]) or ("t", rows, column widths in inches); a table's first row is its header.
FormBlock = tuple


def _cell(text: str, header: bool = False) -> Paragraph:
    style = _LABEL if header else _MONEY if text.lstrip("-").startswith("$") else _CELL
    return Paragraph(escape(text), style)


def form_pdf(path: Path, title: str, blocks: Sequence[FormBlock], footer: str = "") -> tuple:
    """A PDF form, letter or invoice; returns (pages, text written)."""
    buf = io.BytesIO()
    template = letter_template(buf, title, side=0.9 * inch, top=0.8 * inch, bottom=0.8 * inch)
    story: list = [Paragraph(escape(title), _TITLE), Spacer(1, 6)]
    texts = [title]
    for block in blocks:
        kind = block[0]
        if kind in ("h", "p", "s"):
            style = {"h": _HEAD, "p": _BODY, "s": _SMALL}[kind]
            story.append(Paragraph(escape(block[1]), style))
            texts.append(block[1])
            continue
        if kind == "kv":
            rows = [[_cell(k, header=True), _cell(v)] for k, v in block[1]]
            widths = [2.5 * inch, 4.2 * inch]
            style = [*_GRID, ("BACKGROUND", (0, 0), (0, -1), colors.whitesmoke)]
            texts += [f"{k} {v}" for k, v in block[1]]
        else:
            rows = [[_cell(v, header=r == 0) for v in row] for r, row in enumerate(block[1])]
            widths = [w * inch for w in block[2]]
            style = [*_GRID, ("BACKGROUND", (0, 0), (-1, 0), colors.whitesmoke)]
            texts += [" ".join(row) for row in block[1]]
        table = Table(rows, colWidths=widths, hAlign="LEFT")
        table.setStyle(TableStyle(style))
        story += [Spacer(1, 4), table, Spacer(1, 8)]

    def _footer(canvas, doc) -> None:
        if footer:
            canvas.saveState()
            canvas.setFont("Helvetica", 8)
            canvas.drawCentredString(letter[0] / 2, 0.45 * inch, f"{footer} - page {doc.page}")
            canvas.restoreState()

    template.build(story, onFirstPage=_footer, onLaterPages=_footer)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.getvalue())
    return template.page, "\n".join(texts)


def long_pdf(out: Path, doc: PdfDoc, pages: dict[str, int]) -> str:
    """A multi-page document through ``pdf.write_pdf``; records its page count."""
    (out / doc.filename).parent.mkdir(parents=True, exist_ok=True)
    count, text = write_pdf(doc, out)
    pages[doc.filename] = count
    return text


def form_file(out: Path, rel: str, title: str, blocks, pages: dict[str, int], footer="") -> str:
    count, text = form_pdf(out / rel, title, blocks, footer)
    pages[rel] = count
    return text


# --- grants ---------------------------------------------------------------------------------

_NOA_HEAD = (
    ("Federal Award Date", {1: "06/21/2023", 2: "06/14/2024"}),
    ("Award Number", {1: "1R01HL168214-01", 2: "5R01HL168214-02"}),
    ("Budget Period", {1: "07/01/2023 - 06/30/2024", 2: "07/01/2024 - 06/30/2025"}),
)


def _noa(out: Path, period: int, texts: dict[str, str], pages: dict[str, int]) -> None:
    rel = NOA[period]
    head = [(label, values[period]) for label, values in _NOA_HEAD]
    total = nih_total(period)
    calc = [["Award Calculation (U.S. Dollars)", "Amount"]]
    for line in NIH_LINES:
        calc.append([line[0], dollars(line[period])])
        if line[0] == "Fringe Benefits":
            personnel = NIH_LINES[0][period] + NIH_LINES[1][period]
            calc.append(["Personnel Costs (Subtotal)", dollars(personnel)])
    calc += [
        ["Federal Direct Costs", dollars(nih_direct(period))],
        ["Federal F&A Costs", dollars(nih_fa(period))],
        ["Approved Budget", dollars(total)],
        ["Total Amount of Federal Award", dollars(total)],
    ]
    # Year 1 committed the requested $250,000 direct a year; year 2 was cut (see reduction).
    later = nih_total(2) if period == 2 else 250000 + round(250000 * FA_RATE)
    future = [["Year", "Total costs (recommended)"]]
    future += [[f"{year:02d}", dollars(later)] for year in range(period + 1, 6)]
    reduction = (
        "This award reflects a reduction from the committed level for this budget period, in "
        "line with NIH fiscal policy for continuing awards; recommended future years are "
        "adjusted to match."
        if period == 2
        else "Recommended future years are subject to the availability of funds and to "
        "satisfactory progress of the project."
    )
    blocks = [
        ("s", "Department of Health and Human Services - National Institutes of Health"),
        ("s", "National Heart, Lung, and Blood Institute"),
        (
            "kv",
            [
                *head,
                ("Recipient", f"{UNIV}, Office of Sponsored Programs"),
                ("Principal Investigator", f"{PI}, PhD"),
                (
                    "Project Title",
                    "Long noncoding RNAs that control cardiomyocyte proliferation in the "
                    "regenerating zebrafish heart",
                ),
                ("Project Period", "07/01/2023 - 06/30/2028"),
                ("Grants Management Specialist", "Carla Dunmore"),
                ("Program Official", "Steven Ocampo, PhD"),
            ],
        ),
        ("h", "SECTION I - AWARD DATA"),
        (
            "p",
            "Dear Business Official: The National Institutes of Health hereby awards a grant in "
            f"the amount of {dollars(total)} (see Award Calculation in Section I and Terms and "
            f"Conditions in Section III) to {UNIV.upper()} in support of the above referenced "
            "project. Acceptance of this award, including the terms and conditions, is "
            "acknowledged by the recipient when funds are drawn down.",
        ),
        ("t", calc, [4.2, 2.0]),
        (
            "p",
            "Facilities and administrative costs are awarded at 55.5% of modified total direct "
            f"costs (MTDC base {dollars(nih_direct(period) - NIH_LINES[2][period])}).",
        ),
        ("t", future, [1.2, 2.4]),
        ("p", reduction),
        ("h", "SECTION III - TERMS AND CONDITIONS"),
        (
            "p",
            "This award is subject to the NIH Grants Policy Statement and to the terms and "
            "conditions incorporated by reference. Carryover of unobligated balances is "
            "automatic under expanded authorities. Salaries charged to this award may not exceed "
            "the Executive Level II rate in effect when the salary is paid.",
        ),
        (
            "p",
            "The Research Performance Progress Report (RPPR) for each non-competing year is "
            "due by the 15th of the month before the next budget period begins. Progress on the "
            "approved Data Management and Sharing Plan is reported in the RPPR.",
        ),
        (
            "p",
            "Animal research under this award must be covered by a current IACUC approval; "
            "research with recombinant or synthetic nucleic acids is subject to the NIH "
            "Guidelines and institutional biosafety committee review.",
        ),
        ("h", "SECTION IV - CONTACTS"),
        (
            "p",
            "Questions about the administration of this award go to the Grants Management "
            "Specialist; scientific questions to the Program Official. The recipient's "
            f"business contact is Maureen Tallis, Grants Administrator, {DEPT}.",
        ),
    ]
    texts[rel] = form_file(out, rel, "NOTICE OF AWARD", blocks, pages, f"{head[1][1]} - NoA")


def _rppr() -> PdfDoc:
    return PdfDoc(
        RPPR,
        "Research Performance Progress Report - Year 1",
        [
            f"Award 1R01HL168214-01 | PI: {PI}, PhD | {UNIV}",
            "Reporting period 07/01/2023 - 03/31/2024 | Submitted April 29, 2024",
        ],
        [
            h("B.1 Major goals"),
            p(
                "Aim 1: catalogue the long noncoding RNAs (lncRNAs) whose expression changes in "
                "the ventricle after cryoinjury. Aim 2: test whether the strongest candidates "
                "are needed for cardiomyocyte proliferation. Aim 3: find the proteins and genes "
                "they act on."
            ),
            h("B.2 Accomplishments"),
            p(
                "Aim 1. We sequenced ventricles at 3, 7 and 14 days post-cryoinjury (dpci) and "
                "from sham-operated fish, four biological replicates per time point. Of 2,860 "
                "annotated and novel lncRNAs detected, 37 lncRNAs were induced more than "
                "fourfold after injury, most of them peaking at 7 dpci. Twelve are conserved in "
                "position with a mouse transcript."
            ),
            p(
                "Aim 2. We made a CRISPR deletion of the lnc-hrr1 promoter; homozygous mutants "
                "are viable and fertile. In a first cohort, EdU labelling showed 38% fewer "
                "proliferating cardiomyocytes near the wound at 7 dpci than in wild-type "
                "siblings. A second cohort is under way."
            ),
            p(
                "Aim 3. Pull-down of biotinylated lnc-hrr1 from regenerating ventricles is being "
                "optimized; the first mass spectrometry run is planned for summer 2024."
            ),
            h("B.3 Training and professional development"),
            p(
                "Two graduate students and one postdoctoral fellow were trained on this project. "
                "Dr. Echeverria presented the Aim 1 data as a poster at a regional zebrafish "
                "meeting in October 2023; Kwame Asante passed his thesis committee meeting in "
                "January 2024."
            ),
            h("C. Products"),
            ul(
                "One preprint in preparation (lnc-hrr1 and cardiomyocyte proliferation).",
                "RNA-seq data set (sham, 3, 7 and 14 dpci) to be deposited on publication.",
                "Zebrafish line lnc-hrr1 promoter deletion (allele nsu41).",
            ),
            h("D. Participants"),
            ul(
                f"{PI}, PI: 3.0 calendar months",
                "Tomas Echeverria, postdoctoral fellow: 12.0 calendar months",
                "Priya Raman, lab manager: 6.0 calendar months",
                "Kwame Asante, graduate student: 12.0 calendar months",
                "Lena Fischer, graduate student: 6.0 calendar months",
            ),
            h("F. Changes and problems"),
            p(
                "The benchtop sequencer was down for three weeks in November 2023 (a failed "
                "fluidics board, repaired under the service plan), which delayed the 14 dpci "
                "libraries by about a month. No change in scope or approach."
            ),
            h("G. Budget"),
            p(
                "The new -80 °C freezer was bought under the equipment line as budgeted. The "
                "estimated unobligated balance at the end of the budget period is about $9,800, "
                "less than 25% of the year's award; it will be carried over to sequencing in "
                "year 2."
            ),
        ],
        max_pages=4,
        footer="RPPR 1R01HL168214-01",
    )


def _marr(out: Path, texts: dict[str, str], pages: dict[str, int]) -> None:
    letter_blocks = [
        ("s", f"{MARR} - 77 Harrow Street, Suite 900, Chicago, IL 60606"),
        ("s", "December 4, 2023"),
        ("p", f"{PI}, PhD, {DEPT}, {UNIV}, {ADDRESS}"),
        (
            "p",
            f"Dear Dr. Halvorsen: On behalf of the trustees of the {MARR}, I am pleased to tell "
            "you that your proposal, Regeneration-induced lncRNAs as entry points to heart "
            "repair, has been selected for a Marr Innovator Grant.",
        ),
        (
            "kv",
            [
                ("Grant number", MARR_NO),
                ("Award amount", "$180,000 for the full grant period"),
                ("Grant period", "January 1, 2024 to December 31, 2025"),
                ("Year 1", "January 1 - December 31, 2024: $90,000"),
                ("Year 2", "January 1 - December 31, 2025: $90,000"),
                ("Payments", "Four semiannual installments of $45,000, in January and July"),
                ("Key personnel", "Hannah Bly, PhD (postdoctoral research associate)"),
            ],
        ),
        (
            "p",
            "Indirect costs may not exceed 8% of the award and are included in the amounts "
            "above. Moving more than 10% of any budget line to another line needs the "
            "Foundation's written approval; unspent Year 1 funds may be used in Year 2.",
        ),
        (
            "p",
            "Reports: a short interim report is due July 31, 2024, a Year 1 report with an "
            "expenditure statement by January 31, 2025, and a final scientific and financial "
            "report within 90 days after the grant period ends. Publications must acknowledge "
            "the Foundation and the grant number.",
        ),
        ("p", "With warm congratulations, Helen Castellano, Director of Research Programs"),
    ]
    texts[MARR_LETTER] = form_file(out, MARR_LETTER, "Notice of Grant Award", letter_blocks, pages)
    lines = [
        ("Budget line", "Year 1 (2024)", "Year 2 (2025)", "Total"),
        ("Postdoctoral salary (H. Bly)", 56000, 57680),
        ("Fringe benefits (24.3%)", 13608, 14016),
        ("Sequencing, genomics core", 6500, 5000),
        ("Zebrafish husbandry per diem", 4200, 4200),
        ("Laboratory supplies", 3022, 2434),
        ("Indirect costs (8% cap)", 6670, 6670),
    ]
    rows: list[tuple] = [lines[0]] + [(n, a, b, a + b) for n, a, b in lines[1:]]
    rows.append(
        ("Total", *(sum(r[i] for r in rows[1:]) for i in (1, 2, 3))),  # type: ignore[misc]
    )
    texts[MARR_BUDGET] = office.xlsx(
        out / MARR_BUDGET, {"Budget": rows}, money_columns=(2, 3, 4), author=LAB
    )
    spent = [
        ["Budget line", "Year 1 budget", "Spent to 6/30/2024"],
        ["Postdoctoral salary", "$56,000", "$28,000"],
        ["Fringe benefits", "$13,608", "$6,804"],
        ["Sequencing", "$6,500", "$3,250"],
        ["Husbandry", "$4,200", "$2,100"],
        ["Supplies", "$3,022", "$1,226"],
        ["Indirect (charged at year end)", "$6,670", "$0"],
        ["Total", "$90,000", "$41,380"],
    ]
    texts[MARR_REPORT] = office.docx(
        out / MARR_REPORT,
        f"Marr Innovator Grant {MARR_NO} - Interim Report (July 2024)",
        [
            ("p", "DRAFT for Ingrid to review - Hannah wrote the science, Priya the numbers."),
            ("h", "Progress"),
            (
                "p",
                "Since January we have knocked down six of the injury-induced lncRNAs in "
                "regenerating hearts with antisense oligonucleotides. Two of them, lnc-hrr1 and "
                "lnc-hrr7, reduce cardiomyocyte proliferation when knocked down; lnc-hrr7 is "
                "new to this award. A lentiviral reporter for lnc-hrr7 is being built in the "
                "BSL-2 room.",
            ),
            ("h", "Spending"),
            ("t", spent),
            (
                "p",
                "Spending is on plan. Sequencing for Year 1 is half done; the remaining "
                "libraries go to the genomics core in August.",
            ),
        ],
        author="Hannah Bly",
    )


def _r01_budget(out: Path, texts: dict[str, str]) -> None:
    years = range(5)
    salaries = [round(142300 * 1.03**y) for y in years]
    fringe = [round(s * 0.31) for s in salaries]
    equipment = [15600, 0, 0, 0, 0]
    travel = [5400] * 5
    supplies = [29800, 33800, 30500, 28900, 24600]
    other = [250000 - sum(c[y] for c in (salaries, fringe, equipment, travel, supplies))
             for y in years]  # fmt: skip
    header = ("Category", *(f"Year {y + 1}" for y in years), "Total")
    rows: list[tuple] = [header]
    for name, values in (
        ("Salaries and wages", salaries),
        ("Fringe benefits (31%)", fringe),
        ("Equipment", equipment),
        ("Supplies", supplies),
        ("Travel", travel),
        ("Other (sequencing, animal per diem, publication)", other),
    ):
        rows.append((name, *values, sum(values)))
    rows.append(("Total direct costs (requested)", *([250000] * 5), 1250000))
    people = [
        ("Name", "Role", "Calendar months"),
        (PI, "PI", 3.0),
        ("Priya Raman", "Lab manager", 6.0),
        ("Tomas Echeverria", "Postdoctoral fellow", 12.0),
        ("Graduate student (Asante)", "Graduate research assistant", 12.0),
        ("Graduate student (TBD)", "Graduate research assistant", 6.0),
    ]
    texts[R01_BUDGET] = office.xlsx(
        out / R01_BUDGET,
        {"Proposed budget": rows, "Personnel": people},
        money_columns=(2, 3, 4, 5, 6, 7),
        author=LAB,
    )


def grants(out: Path, texts: dict[str, str], pages: dict[str, int]) -> None:
    for period in NOA:
        _noa(out, period, texts, pages)
    texts[RPPR] = long_pdf(out, _rppr(), pages)
    _r01_budget(out, texts)
    texts[DMS] = office.docx(
        out / DMS,
        f"Data Management and Sharing Plan - {R01}",
        [
            ("h", "Element 1: Data type"),
            (
                "p",
                "RNA-seq reads and gene-level counts from zebrafish ventricles (about 1.5 TB of "
                "raw reads over the award), confocal image stacks of heart sections, qPCR "
                "tables and the genotypes of mutant lines. No human participant data are "
                "generated.",
            ),
            ("h", "Element 2: Tools and software"),
            (
                "p",
                "Reads are processed with open-source tools (STAR, featureCounts, DESeq2); the "
                "analysis scripts are kept in the lab's version-controlled repository and "
                "released with each paper.",
            ),
            ("h", "Element 3: Standards"),
            ("p", "Sequencing metadata follow the MINSEQE checklist; images are kept as OME-TIFF."),
            ("h", "Element 4: Preservation, access and timelines"),
            (
                "p",
                "Sequencing reads and processed counts will be deposited in the Gene Expression "
                "Omnibus (GEO) no later than the date of publication or the end of the award, "
                "whichever comes first. Representative image sets go to the BioImage Archive "
                "with each paper. Mutant lines are offered to the zebrafish resource center.",
            ),
            (
                "p",
                "Raw and processed data are kept on the university's research storage for at "
                "least 7 years after the end of the award, with a second copy on tape.",
            ),
            ("h", "Element 5: Access, distribution or reuse"),
            ("p", "No restrictions: the data contain no human or otherwise sensitive information."),
            ("h", "Element 6: Oversight"),
            (
                "p",
                "The lab manager checks quarterly that new data sets are described and backed "
                "up; the PI is responsible for compliance with this plan.",
            ),
        ],
        author=PI,
    )
    _marr(out, texts, pages)
    texts[OVERVIEW] = text_file(
        out / OVERVIEW,
        "# Active grants\n\n"
        "Kept by Priya. Account numbers are what travel and purchasing forms need.\n\n"
        "| Sponsor | Number | Short title | Current budget period | Ends | Account |\n"
        "|---|---|---|---|---|---|\n"
        f"| NIH / NHLBI (R01) | {R01} | lncRNAs in heart regeneration | 07/01/2024-06/30/2025 "
        "(year 2) | 06/30/2028 | 4-21877 |\n"
        f"| Marr Foundation | {MARR_NO} | lncRNA targets (Hannah) | 01/01/2024-12/31/2024 "
        "(year 1) | 12/31/2025 | 4-22310 |\n"
        "| Start-up (department) | - | Halvorsen start-up | - | closed 06/30/2024 | 1-09934 |\n\n"
        "## Reports due\n\n"
        "- Marr interim report: July 31, 2024 (draft in the Marr_Foundation folder).\n"
        "- Marr Year 1 report and expenditure statement: January 31, 2025.\n"
        "- NIH RPPR for year 3: May 15, 2025.\n\n"
        "Business office contact for both grants: Maureen Tallis, Grants Administrator.\n"
        "She also processes our travel reimbursements.\n",
    )
