"""Build data/smallorg: the shared drive of a 12-person adult-literacy nonprofit (board
minutes, grant letters and a grant report, vendor invoices, staff reimbursement forms, a staff
handbook, budgets, a donor list, an equipment inventory, a lease and an IT services agreement,
a Downloads folder), in nested folders and mixed formats.

A development corpus for the offline answerer (fitted on, unlike data/personal): its
questions (data/_gen/smallorg_questions.py) were written before the answerer was run on it.
Distractors: a 2023 grant letter beside the 2024 one, a superseded draft of the March minutes
and of the services agreement, the 2021 handbook in an archive folder, last year's budget, a
December 2023 invoice in Downloads, "Balance due" beside "Amount payable" and "Amount due".
"""

from __future__ import annotations

import calendar
from pathlib import Path

from . import smallorg_docs as docs
from . import smallorg_records as records
from .common import CorpusResult
from .household_docs import flow_pdf, text_file
from .paraphrase import with_paraphrases
from .smallorg_docs import ADDRESS, ORG, cents

NAME = "smallorg"

#: (year, month) -> (invoice number, invoice date as printed, visits, rate per visit in cents,
#: other lines as (description, cents)). The balance due is the sum of the lines.
PINECREST = {
    (2023, 12): (
        "PJ-2312-HLP",
        "29 Dec 2023",
        12,
        7200,
        (("Restroom and kitchen supplies", 9600), ("Holiday deep clean, kitchen", 8000)),
    ),
    (2024, 1): (
        "PJ-2401-HLP",
        "31 Jan 2024",
        13,
        7500,
        (("Restroom and kitchen supplies", 11000),),
    ),
    (2024, 2): (
        "PJ-2402-HLP",
        "29 Feb 2024",
        12,
        7500,
        (("Restroom and kitchen supplies", 9750), ("Interior window washing", 12500)),
    ),
    (2024, 3): (
        "PJ-2403-HLP",
        "29 Mar 2024",
        13,
        7500,
        (("Restroom and kitchen supplies", 10500), ("Carpet extraction, classroom B", 11000)),
    ),
    (2024, 4): (
        "PJ-2404-HLP",
        "30 Apr 2024",
        13,
        7500,
        (("Restroom and kitchen supplies", 11000),),
    ),
}
#: Month of 2024 -> (invoice number, date as printed, additional support hours in quarters).
COPPERLINE = {1: ("CTS-10482", "2024-01-05", 0), 2: ("CTS-10517", "2024-02-05", 0)}
COPPERLINE[3] = ("CTS-10561", "2024-03-05", 11)
COPPERLINE_FEE = 115000
COPPERLINE_HOURLY = 9500
#: (file stem, claimant, position, date submitted, lines (date, description, category, cents),
#: advance in cents). The reimbursement total is the sum of the lines.
REIMBURSEMENTS = (
    (
        "2024-02-27_Park",
        "Jun-ho Park",
        "ESL Instructor",
        "02/27/2024",
        (
            ("02/09/2024", "Mileage to Eastside branch library, 84 mi @ $0.67", "Mileage", 5628),
            ("02/09/2024", "Parking, Commercial Street garage", "Parking", 1200),
        ),
        0,
    ),
    (
        "2024-03-12_Mensah",
        "Abena Mensah",
        "ESL Instructor",
        "03/12/2024",
        (
            ("03/04/2024", "Whiteboard markers, index cards (Office Depot)", "Supplies", 4319),
            ("03/06/2024", "Graded readers, set of 6 (Second Story Books)", "Books", 6150),
        ),
        0,
    ),
    (
        "2024-03-19_Arreola",
        "Luis Arreola",
        "Digital Literacy Instructor",
        "03/19/2024",
        (
            ("03/14/2024", "Maine Adult Education conference registration", "Training", 14900),
            ("03/15/2024", "Mileage to Augusta and back, 120 mi @ $0.67", "Mileage", 8040),
        ),
        10000,
    ),
    (
        "2024-03-28_Fontaine",
        "Mireille Fontaine",
        "Volunteer Coordinator",
        "03/28/2024",
        (("03/26/2024", "Refreshments, volunteer appreciation evening", "Volunteers", 8735),),
        0,
    ),
    (
        "2024-04-09_Kowalczyk",
        "Hannah Kowalczyk",
        "Family Literacy Lead",
        "04/09/2024",
        (
            ("04/02/2024", "Per diem, 2 days @ $59 (family literacy summit)", "Meals", 11800),
            ("04/02/2024", "Hotel, 1 night, Bangor", "Lodging", 21200),
            ("04/03/2024", "Mileage, 96 mi @ $0.67", "Mileage", 6432),
        ),
        0,
    ),
)

PINECREST_DEC = "Downloads/Pinecrest_invoice_2023-12.pdf"
BLUE_HERON = "Finance/Invoices/BlueHeron_5531.txt"
BUDGET = "Finance/budget_FY2024.xlsx"
BUDGET_2023 = "Finance/Archive/budget_FY2023.xlsx"
DONORS = "Finance/donors_2024.csv"


def pinecrest_path(year: int, month: int) -> str:
    if (year, month) == (2023, 12):
        return PINECREST_DEC
    return f"Finance/Invoices/Pinecrest/{year}-{month:02d}_Pinecrest.pdf"


def pinecrest_due(year: int, month: int) -> int:
    _, _, visits, rate, lines = PINECREST[(year, month)]
    return visits * rate + sum(c for _, c in lines)


def copperline_path(month: int) -> str:
    return f"Finance/Invoices/Copperline/{COPPERLINE[month][0]}.pdf"


def copperline_due(month: int) -> int:
    return COPPERLINE_FEE + COPPERLINE[month][2] * COPPERLINE_HOURLY // 4


def reimbursement_path(stem: str) -> str:
    return f"Finance/Reimbursements/{stem}.docx"


def reimbursement_total(lines: tuple) -> int:
    return sum(line[3] for line in lines)


def _invoices(out: Path, texts: dict[str, str]) -> None:
    for (year, month), (number, date, visits, rate, lines) in PINECREST.items():
        rel = pinecrest_path(year, month)
        table = [["Description", "Amount"]]
        table.append([f"Office cleaning, {visits} visits @ {cents(rate)}", cents(visits * rate)])
        table += [[name, cents(c)] for name, c in lines]
        table.append(["Balance due", cents(pinecrest_due(year, month))])
        paragraphs = [
            f"Invoice no. {number}. Invoice date: {date}.",
            f"Bill to: {ORG}, {ADDRESS}",
            f"Service period: {calendar.month_name[month]} {year} (Mon/Wed/Fri evening cleaning).",
            "Terms: net 15 days. Please make checks payable to Pinecrest Janitorial Services LLC "
            "or pay by ACH (details on file).",
        ]
        texts[rel] = flow_pdf(out / rel, "Pinecrest Janitorial Services LLC", paragraphs, table)
    for month, (number, date, quarters) in COPPERLINE.items():
        rel = copperline_path(month)
        hours = f"{quarters / 4:.2f}"
        table = [
            ["Item", "Charge"],
            ["Managed IT support, monthly fee", cents(COPPERLINE_FEE)],
            [
                f"Additional support hours ({hours} h @ {cents(COPPERLINE_HOURLY)})",
                cents(quarters * COPPERLINE_HOURLY // 4),
            ],
            ["Amount payable", cents(copperline_due(month))],
        ]
        paragraphs = [
            f"INVOICE {number}",
            f"Date: {date}   Customer account: HLP-22 ({ORG})",
            f"Billing period: {calendar.month_name[month]} 2024",
            "Payment due within 30 days of the invoice date. Questions about this invoice: "
            "billing@copperline-tech.example",
        ]
        texts[rel] = flow_pdf(out / rel, "Copperline Technology Services, LLC", paragraphs, table)
    texts[BLUE_HERON] = text_file(
        out / BLUE_HERON,
        "BLUE HERON PRINT SHOP\n14 Wharf Lane, Harborview ME\n\n"
        "Invoice #5531                         Date: 03/08/2024\n"
        f"Customer: {ORG}\n\n"
        "Qty   Item                                   Price\n"
        "500   Spring term flyers, 2-sided, color      $310.00\n"
        " 40   Posters, 11x17                          $76.40\n\n"
        "Amount due: $386.40\nPaid by check #2207 on 03/15/2024. Thank you!\n",
    )


def _reimbursements(out: Path, texts: dict[str, str]) -> None:
    for stem, claimant, position, submitted, lines, advance in REIMBURSEMENTS:
        rel = reimbursement_path(stem)
        total = reimbursement_total(lines)
        rows = [["Date", "What was purchased", "Category", "Amount"]]
        rows += [[d, what, cat, cents(c)] for d, what, cat, c in lines]
        blocks: list[docs.Block] = [
            ("p", f"{ORG}, Form F-3 (rev. 2022). Attach itemized receipts."),
            ("p", f"Claimant: {claimant}"),
            ("p", f"Position: {position}"),
            ("p", f"Date submitted: {submitted}"),
            ("t", rows),
            ("p", f"Reimbursement total: {cents(total)}"),
            ("p", f"Less travel advance: {cents(advance)}"),
            ("p", f"Net payable to claimant: {cents(total - advance)}"),
            ("p", "Approved by: Priya Raman, Finance & Operations Manager"),
        ]
        texts[rel] = docs.docx(out / rel, "Expense Reimbursement Request", blocks)


#: FY2024 approved expense budget, (line item, dollars, note). The total is their sum.
BUDGET_LINES = (
    ("Salaries and wages", 684000, "12 staff, 10.4 FTE"),
    ("Payroll taxes and benefits", 123120, "18% of salaries"),
    ("Rent, Suite 4", 41760, "$3,480 x 12"),
    ("Janitorial", 13400, "Pinecrest, renews July"),
    ("IT support", 13800, "Copperline"),
    ("Instructional materials", 18500, "Books, workbooks, test fees"),
    ("Printing and outreach", 9400, ""),
    ("Staff travel and mileage", 6200, ""),
    ("Professional development", 7200, "$600 per full-time employee"),
    ("Insurance", 8950, "General liability, D&O"),
    ("Equipment and technology", 9300, "Includes Chromebook refresh"),
    ("Volunteer program", 4870, "Training, background checks, recognition"),
)
BUDGET_2023_LINES = (
    ("Salaries and wages", 651500, ""),
    ("Payroll taxes and benefits", 117270, ""),
    ("Rent, Suite 4", 41760, ""),
    ("Janitorial", 12480, ""),
    ("IT support", 13200, ""),
    ("Instructional materials", 16500, ""),
    ("Printing and outreach", 8800, ""),
    ("Staff travel and mileage", 5400, ""),
    ("Professional development", 4800, ""),
    ("Insurance", 8420, ""),
    ("Equipment and technology", 6100, ""),
    ("Volunteer program", 4200, ""),
)
REVENUE_LINES = (
    ("State adult education contract", 312000),
    ("Foundation grants", 238000),
    ("Individual giving", 142000),
    ("United Way allocation", 85000),
    ("Government grants (city, county)", 96500),
    ("Special events", 61000),
    ("Learner fees (HiSET testing)", 18000),
)
BUDGET_TOTAL = sum(v for _, v, _ in BUDGET_LINES)
DONOR_ROWS = (
    ("donor", "gift_date", "amount_usd", "designation", "thank_you_sent"),
    ("Margaret Aldous", "2024-01-08", "1000.00", "General operating", "yes"),
    ("Harborview Rotary Club", "2024-01-22", "1500.00", "Digital literacy lab", "yes"),
    ("Anonymous", "2024-02-03", "250.00", "General operating", "n/a"),
    ("Dr. Kenji Sato-Whitfield", "2024-03-14", "2500.00", "Family Literacy Nights", "yes"),
    ("Okafor, Chidi and Lena", "2024-03-18", "300.00", "General operating", "yes"),
    ("Quarry Street Coffee Co.", "2024-03-20", "420.00", "Volunteer program", "yes"),
    ("Vikram Desai", "2024-03-29", "750.00", "General operating", "yes"),
    ("Bellamy, Ruth", "2024-04-02", "100.00", "Books for learners", "no"),
    ("Casco Credit Union", "2024-04-15", "5000.00", "ESL evening classes", "yes"),
    ("Ines Carvalho", "2024-04-30", "600.00", "General operating", "no"),
    ("Tran, Minh", "2024-05-06", "75.00", "Books for learners", "no"),
)


def _budgets(out: Path, texts: dict[str, str]) -> None:
    expenses = [("Line item", "FY2024 approved", "Notes")]
    expenses += list(BUDGET_LINES)
    expenses.append(("Total expenses", BUDGET_TOTAL, "Approved by the board January 18, 2024"))
    revenue = [("Source", "FY2024 budget")]
    revenue += list(REVENUE_LINES)
    revenue.append(("Total revenue", sum(v for _, v in REVENUE_LINES)))
    texts[BUDGET] = docs.xlsx(
        out / BUDGET, {"Expenses": expenses, "Revenue": revenue}, money_columns=(2,)
    )
    old = [("Line item", "FY2023 budget", "Notes"), *BUDGET_2023_LINES]
    old.append(("Total expenses", sum(v for _, v, _ in BUDGET_2023_LINES), ""))
    texts[BUDGET_2023] = docs.xlsx(out / BUDGET_2023, {"Expenses": old}, money_columns=(2,))
    csv = "\n".join(",".join(f'"{v}"' if "," in v else v for v in row) for row in DONOR_ROWS)
    texts[DONORS] = text_file(out / DONORS, csv + "\n")


def build(root: Path) -> CorpusResult:
    """Write the smallorg folder and return its texts and questions."""
    out = root / NAME
    out.mkdir(parents=True, exist_ok=True)
    result = CorpusResult(NAME)
    _invoices(out, result.texts)
    _reimbursements(out, result.texts)
    _budgets(out, result.texts)
    records.board(out, result.texts, BUDGET_TOTAL)
    records.grants(out, result.texts)
    records.people_and_places(out, result.texts)
    records.downloads(out, result.texts)
    result.pages = dict.fromkeys(result.texts, 0)
    result.questions = questions()
    return result


def questions() -> list:
    """The corpus's questions (data/_gen/smallorg_questions.py), then their paraphrases
    (data/_gen/smallorg_paraphrases.py)."""
    from .smallorg_paraphrases import PARAPHRASES
    from .smallorg_questions import questions as build_questions

    return with_paraphrases(build_questions(), PARAPHRASES)
