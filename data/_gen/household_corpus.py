"""Build data/household: one renter's household paperwork in nested folders (tax forms from
several payers, monthly utility bills, insurance, a lease, receipts, Downloads, a medical EOB).

A development corpus for the offline answerer (fitted on, unlike data/personal): its
questions were written before the answerer was run on it.
"""

from __future__ import annotations

from pathlib import Path

from . import household_docs as docs
from .common import CorpusResult
from .household_docs import money
from .paraphrase import with_paraphrases

NAME = "household"
YEAR = 2024

#: (payer, file name, tax year, interest income in cents).
INTEREST = (
    ("Cedar Valley Credit Union", "1099-INT_CedarValleyCU.pdf", 2024, 31827),
    ("Harbor Savings Bank", "1099-INT_HarborSavings.pdf", 2024, 114690),
    ("Northgate National Bank", "1099-INT_NorthgateBank.pdf", 2024, 5712),
    ("Cedar Valley Credit Union", "1099-INT_CedarValleyCU_2023.pdf", 2023, 21240),
)
#: Month -> (kWh used, amount due in cents).
ELECTRIC = {1: (812, 11864), 2: (745, 10927), 3: (690, 10183), 4: (538, 8145), 5: (471, 7290)}
ELECTRIC[6] = (603, 9316)
#: Quarter -> total amount due in cents.
WATER = {1: 6420, 2: 7185}
#: (file name, store, date as printed, total in cents, format).
RECEIPTS = (
    ("2024-02-14_florist.md", "Petal & Stem Florist", "February 14, 2024", 5500, "md"),
    ("2024-03-02_hardware.txt", "Alder Street Hardware", "03/02/2024", 8743, "txt"),
    ("2024-03-18_pharmacy.md", "Riverbend Pharmacy", "March 18, 2024", 2316, "md"),
    ("2024-03-29_bookshop.pdf", "Lantern Books", "March 29, 2024", 4170, "pdf"),
    ("2024-04-11_garden_center.txt", "Greenway Garden Center", "04/11/2024", 6499, "txt"),
)

W2 = "Taxes/2024/forms/W-2_BrightlineLogistics.pdf"
DIV = "Taxes/2024/forms/1099-DIV_LakemontFunds.pdf"
LEASE = "Housing/lease.docx"
HOME = "Insurance/home_policy.docx"
AUTO = "Insurance/auto_policy.pdf"
EOB = "Medical/EOB_2024-04-09.pdf"
BUDGET = "Downloads/household_budget_2024.xlsx"


def _interest_path(file: str, year: int) -> str:
    return f"Taxes/2023/{file}" if year == 2023 else f"Taxes/2024/forms/{file}"


def _taxes(out: Path, texts: dict[str, str]) -> None:
    for payer, file, year, cents in INTEREST:
        rel = _interest_path(file, year)
        boxes = (
            ("1 Interest income", money(cents)),
            ("2 Early withdrawal penalty", "$0.00"),
            ("3 Interest on U.S. Savings Bonds and Treasury obligations", "$0.00"),
            ("4 Federal income tax withheld", "$0.00"),
        )
        lines = ("PAYER'S name, street address, city, state, ZIP code", "Member services")
        texts[rel] = docs.tax_form(out / rel, "1099-INT", year, payer, lines, boxes)
    div_boxes = (
        ("1a Total ordinary dividends", "$864.55"),
        ("1b Qualified dividends", "$702.10"),
        ("2a Total capital gain distr.", "$131.08"),
        ("4 Federal income tax withheld", "$0.00"),
    )
    lines = ("PAYER'S name: fund distributor", "Account 55-201877")
    texts[DIV] = docs.tax_form(out / DIV, "1099-DIV", YEAR, "Lakemont Funds", lines, div_boxes)
    w2_boxes = (
        ("1 Wages, tips, other compensation", "$78,450.00"),
        ("2 Federal income tax withheld", "$9,136.22"),
        ("3 Social security wages", "$81,200.00"),
        ("4 Social security tax withheld", "$5,034.40"),
        ("5 Medicare wages and tips", "$81,200.00"),
        ("6 Medicare tax withheld", "$1,177.40"),
    )
    lines = ("Employer's name, address and ZIP code", "EIN 93-4410276")
    texts[W2] = docs.tax_form(out / W2, "W-2", YEAR, "Brightline Logistics Inc.", lines, w2_boxes)
    texts["Taxes/2023/federal_return_summary_2023.txt"] = docs.text_file(
        out / "Taxes/2023/federal_return_summary_2023.txt",
        "2023 federal return - summary (prepared with TaxTrail Online)\n"
        "Filed: April 2, 2024. Filing status: single.\n"
        "Adjusted gross income: $74,918.00\n"
        "Refund: $1,204.00, deposited April 19, 2024.\n",
    )
    texts["Taxes/2024/checklist.md"] = docs.text_file(
        out / "Taxes/2024/checklist.md",
        "# 2024 taxes - checklist\n\n- [x] W-2 from work\n- [x] 1099-INT forms from the banks\n"
        "- [x] 1099-DIV from the fund company\n- [ ] Renters insurance is not deductible\n"
        "- [ ] Book an appointment with the preparer before April 1, 2025\n",
    )


def _bills(out: Path, texts: dict[str, str]) -> None:
    previous = 10452
    for month, (kwh, cents) in ELECTRIC.items():
        rel = f"Bills/Electric/{YEAR}-{month:02d}.pdf"
        table = [
            ["Account summary", ""],
            ["Previous balance", money(previous)],
            ["Payment received - thank you", f"-{money(previous)}"],
            ["kWh used", f"{kwh}"],
            ["Energy charge", money(cents - 1250)],
            ["Basic service charge", "$12.50"],
            ["Amount due", money(cents)],
        ]
        paragraphs = [
            f"Account holder: {docs.HOLDER}, {docs.ADDRESS}",
            f"Billing month: {YEAR}-{month:02d}. Account number 7730-1942-06.",
            f"Please pay the amount due by the 20th of the month after {YEAR}-{month:02d}.",
        ]
        texts[rel] = docs.flow_pdf(out / rel, "Fairhaven Public Power", paragraphs, table)
        previous = cents
    for quarter, cents in WATER.items():
        rel = f"Bills/Water/{YEAR}-Q{quarter}.pdf"
        table = [
            ["Water use (gallons)", f"{4100 + 350 * quarter:,}"],
            ["Water charge", money(cents - 2200)],
            ["Sewer charge", "$22.00"],
            ["Total amount due", money(cents)],
        ]
        paragraphs = [f"Service address: {docs.ADDRESS}", f"Quarter {quarter} of {YEAR}."]
        texts[rel] = docs.flow_pdf(out / rel, "Fairhaven Water & Sewer", paragraphs, table)
    rel = "Bills/Internet/autopay_confirmation.txt"
    texts[rel] = docs.text_file(
        out / rel,
        "Lumen Fiber autopay confirmation\nPlan: Fiber 500\n"
        "Monthly charge: $65.00, charged to the card ending 4417 on the 3rd of each month.\n",
    )


def _insurance_and_housing(out: Path, texts: dict[str, str]) -> None:
    texts[HOME] = docs.docx(
        out / HOME,
        "Bellweather Mutual - Renters Home Policy Declarations",
        [
            ("Policy", f"Policy number RH-4471902. Named insured: {docs.HOLDER}."),
            ("Policy period", "September 1, 2024 to September 1, 2025."),
            ("Coverages", "Personal property: $40,000. Personal liability: $300,000."),
        ],
        [["Item", "Amount"], ["Annual premium", "$246.00"], ["Deductible", "$750"]],
    )
    texts[AUTO] = docs.flow_pdf(
        out / AUTO,
        "Tidewater Auto Insurance Co. - Auto Policy",
        [
            f"Policy number TA-88120-4. Named insured: {docs.HOLDER}.",
            "Insured vehicle: 2019 Subaru Outback.",
            "Policy term: six months, January 15, 2024 to July 15, 2024.",
        ],
        [
            ["Coverage", "Limit / amount"],
            ["Bodily injury liability", "$100,000 / $300,000"],
            ["Collision deductible", "$1,000"],
            ["Comprehensive deductible", "$250"],
            ["Six-month premium", "$1,122.60"],
        ],
    )
    texts[LEASE] = docs.docx(
        out / LEASE,
        "Residential Lease Agreement",
        [
            (
                "1. Parties",
                f"This lease is made between Pinegrove Property Management LLC (the Landlord) "
                f"and {docs.HOLDER} (the Tenant) for the premises at {docs.ADDRESS}.",
            ),
            (
                "2. Term",
                "The term is twelve months, beginning on August 1, 2024 and ending on "
                "July 31, 2025.",
            ),
            (
                "3. Rent",
                "The Tenant shall pay a monthly rent of $2,150.00, due on the first day of "
                "each month. A late fee of $75.00 applies to rent received after the 5th.",
            ),
            (
                "4. Security deposit",
                "On signing, the Tenant pays a security deposit of $3,225.00, returned within "
                "31 days after the Tenant moves out, less any lawful deductions.",
            ),
            ("5. Utilities", "The Tenant pays for electricity, water and internet."),
        ],
    )


def _receipts_downloads_medical(out: Path, texts: dict[str, str]) -> None:
    for file, store, date, cents, kind in RECEIPTS:
        rel = f"Receipts/{file}"
        lines = [f"Date: {date}", "Items: 3", f"Subtotal: {money(cents - 300)}"]
        lines += ["Tax: $3.00", f"Total: {money(cents)}", "Paid by card ending 4417"]
        if kind == "pdf":
            texts[rel] = docs.flow_pdf(out / rel, store, lines, None)
        else:
            head = f"# {store}\n\n" if kind == "md" else f"{store.upper()}\n"
            texts[rel] = docs.text_file(out / rel, head + "\n".join(lines) + "\n")
    rel = "Downloads/dishwasher_manual_DW500.pdf"
    texts[rel] = docs.flow_pdf(
        out / rel,
        "Norrland DW500 Dishwasher - Owner's Manual",
        [
            "Normal cycle: 2 hours 10 minutes. Quick cycle: 58 minutes.",
            "Clean the filter once a month. Use rinse aid for spot-free drying.",
            "Warranty: one year on parts and labor, five years on the stainless tub.",
        ],
        None,
    )
    rel = "Downloads/card_transactions_2024-05.csv"
    texts[rel] = docs.text_file(
        out / rel,
        "date,description,category,amount\n2024-05-02,Riverbend Pharmacy,Health,18.40\n"
        "2024-05-06,Fresh Basket Market,Groceries,92.17\n2024-05-11,Lumen Fiber,Utilities,65.00\n"
        "2024-05-19,Fresh Basket Market,Groceries,76.35\n2024-05-24,Cinema Nine,Entertainment,"
        "28.00\n",
    )
    texts[BUDGET] = docs.xlsx(
        out / BUDGET,
        {
            "Budget": [
                ("Category", "Monthly budget"),
                ("Rent", 2150),
                ("Groceries", 420),
                ("Utilities", 240),
                ("Savings", 600),
            ]
        },
    )
    rel = "Downloads/wifi_router_notes.txt"
    texts[rel] = docs.text_file(
        out / rel,
        "Router: Lumen Fiber gateway in the hall closet.\nNetwork name: Larkspur-3B.\n"
        "Restart it by holding the reset button for 10 seconds.\n",
    )
    texts[EOB] = docs.flow_pdf(
        out / EOB,
        "Summit Crest Health Plan - Explanation of Benefits",
        [
            f"Member: {docs.HOLDER}. Statement date: April 9, 2024. This is not a bill.",
            "Service: MRI of the left knee, on March 21, 2024, at Fairhaven Imaging Center.",
        ],
        [
            ["Amount billed", "$1,840.00"],
            ["Plan discount", "$912.50"],
            ["Plan paid", "$781.15"],
            ["Patient responsibility", "$146.35"],
        ],
    )
    rel = "Medical/vaccination_record.txt"
    texts[rel] = docs.text_file(
        out / rel, "Vaccination record\nInfluenza: October 3, 2024\nTetanus booster: 2019\n"
    )


def build(root: Path) -> CorpusResult:
    """Write the household folder and return its texts and questions."""
    out = root / NAME
    out.mkdir(parents=True, exist_ok=True)
    result = CorpusResult(NAME)
    _taxes(out, result.texts)
    _bills(out, result.texts)
    _insurance_and_housing(out, result.texts)
    _receipts_downloads_medical(out, result.texts)
    result.pages = dict.fromkeys(result.texts, 0)
    result.questions = questions()
    return result


def questions() -> list:
    """The corpus's questions (data/_gen/household_questions.py), then their paraphrases
    (data/_gen/household_paraphrases.py)."""
    from .household_paraphrases import PARAPHRASES
    from .household_questions import questions as build_questions

    return with_paraphrases(build_questions(), PARAPHRASES)
