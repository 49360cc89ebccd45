"""Build data/vetclinic: the shared office drive of a small veterinary clinic (three vets,
about ten staff): supplier invoices, equipment service contracts and a maintenance log, the
premises registration and the vets' DEA registrations, the staff roster, schedule and
handbook, the controlled-drug procedure and fee schedule, revenue, budget and bank deposit
summaries, de-identified client estimates, staff meeting notes and a Downloads folder.

A development corpus for the offline answerer (fitted on, unlike data/personal): its
questions (data/_gen/vetclinic_questions.py) were written before the answerer was run on it.
Distractors: last year's X-ray contract, handbook, fee schedule and budget in Archive folders,
a DRAFT of the May meeting notes, a December 2023 drug invoice in Downloads, an April meeting
note that quotes the X-ray contract's old fee in passing, a relief vet with a state licence
but no DEA registration, a quote from a similarly named vendor, and three labels for the
invoice total ("Amount due", "Invoice total", "Amount payable").
"""

from __future__ import annotations

import calendar
import random
from pathlib import Path

from . import smallorg_docs as office
from . import vetclinic_docs as records
from .common import CorpusResult
from .household_docs import flow_pdf, text_file
from .smallorg_docs import cents

NAME = "vetclinic"
CLINIC = records.CLINIC
ADDRESS = records.ADDRESS


#: Northfield Veterinary Supply products: key -> (description, unit price in cents).
PRODUCTS = {
    "carprofen": ("Carprofen 100 mg, 180 ct", 14250),
    "cefazolin": ("Cefazolin 1 g vials, 25 ct", 8960),
    "iso": ("Isoflurane 250 mL", 6875),
    "rabies": ("Rabies vaccine 1-yr, 10 ds", 9450),
    "dhpp": ("DHPP vaccine, 25 doses", 18900),
    "bup": ("Buprenorphine 10 mL (C-III)", 4290),
    "maropitant": ("Maropitant inj. 20 mL", 11620),
    "gloves": ("Nitrile gloves, case of 10", 7480),
    "fvrcp": ("FVRCP vaccine, 25 doses", 16350),
    "oclacitinib": ("Oclacitinib 16 mg, 100 ct", 21480),
    "chew": ("Heartworm/flea chews, 10 pk", 42600),
}
#: (year, month) -> (invoice number, date as printed, [(product, quantity)], shipping in
#: cents, credit as (text, cents) or None). The amount due is lines + shipping - credit.
NORTHFIELD = {
    (2023, 12): (
        "NVS-238817",
        "12/28/2023",
        [("carprofen", 5), ("rabies", 8), ("gloves", 4)],
        1850,
        None,
    ),
    (2024, 1): (
        "NVS-240142",
        "01/30/2024",
        [("carprofen", 8), ("cefazolin", 5), ("iso", 10), ("rabies", 14), ("oclacitinib", 6)],
        4500,
        None,
    ),
    (2024, 2): (
        "NVS-240587",
        "02/27/2024",
        [
            ("dhpp", 5),
            ("bup", 8),
            ("gloves", 6),
            ("maropitant", 3),
            ("oclacitinib", 5),
            ("chew", 4),
        ],
        4500,
        None,
    ),
    (2024, 3): (
        "NVS-241036",
        "03/28/2024",
        [
            ("carprofen", 6),
            ("rabies", 18),
            ("fvrcp", 5),
            ("iso", 8),
            ("chew", 6),
            ("oclacitinib", 5),
        ],
        4500,
        None,
    ),
    (2024, 4): (
        "NVS-241493",
        "04/29/2024",
        [("cefazolin", 6), ("dhpp", 6), ("maropitant", 4), ("gloves", 5), ("chew", 8)],
        4500,
        ("Credit memo CM-2231 (cefazolin return)", 8960),
    ),
    (2024, 5): (
        "NVS-241950",
        "05/30/2024",
        [("rabies", 16), ("carprofen", 9), ("bup", 6), ("chew", 9), ("oclacitinib", 6)],
        4500,
        None,
    ),
    (2024, 6): (
        "NVS-242411",
        "06/27/2024",
        [("iso", 9), ("fvrcp", 3), ("gloves", 8), ("maropitant", 3), ("chew", 7)],
        1850,
        None,
    ),
}
NORTHFIELD_OLD = "Downloads/Northfield_invoice_2023-12.pdf"

#: Bluestem Diagnostics: month of 2024 -> (invoice number, date as printed,
#: [(test, count, price in cents)], courier pickups). Courier is $12.00 a pickup.
LAB_TESTS = {
    "cbc": "CBC with differential",
    "chem": "Chemistry panel, 24 analytes",
    "t4": "Total T4",
    "ua": "Urinalysis with sediment",
    "histo": "Histopathology, 1-3 tissues",
}
LAB_PRICES = {"cbc": 1850, "chem": 2975, "t4": 1640, "ua": 1420, "histo": 6800}
COURIER = 1200
BLUESTEM = {
    1: (
        "BD-24-0131",
        "January 31, 2024",
        [("cbc", 38), ("chem", 41), ("t4", 9), ("ua", 12), ("histo", 3)],
        14,
    ),
    2: (
        "BD-24-0229",
        "February 29, 2024",
        [("cbc", 33), ("chem", 35), ("t4", 11), ("ua", 10), ("histo", 2)],
        13,
    ),
    3: (
        "BD-24-0329",
        "March 29, 2024",
        [("cbc", 45), ("chem", 47), ("t4", 8), ("ua", 15), ("histo", 5)],
        15,
    ),
    4: (
        "BD-24-0430",
        "April 30, 2024",
        [("cbc", 40), ("chem", 44), ("t4", 13), ("ua", 11), ("histo", 4)],
        14,
    ),
}
#: Clearwater Medical Waste: (file, invoice number, date, quarter, pickups, sharps boxes).
CLEARWATER = (
    ("Clearwater_2024-Q1.txt", "CMW-7731", "03/29/2024", "Q1 2024", 6, 4),
    ("Clearwater_2024-Q2.txt", "CMW-8064", "06/28/2024", "Q2 2024", 7, 5),
)
CLEARWATER_PICKUP = 4850
CLEARWATER_SHARPS = 1675
VENDORS = "Suppliers/vendor_contacts.csv"

#: Monthly revenue by category (dollars), January to June 2024.
REVENUE_COLUMNS = (
    "exams",
    "vaccines",
    "surgery",
    "dental",
    "diagnostics",
    "pharmacy",
    "boarding_grooming",
)
REVENUE = {
    1: ("38420.00", "14210.50", "22875.00", "9640.00", "17330.25", "21905.75", "3120.00"),
    2: ("36115.00", "13480.00", "20410.00", "12385.00", "16240.50", "20118.25", "2760.00"),
    3: ("41280.00", "17925.50", "25660.00", "10920.00", "19085.75", "23470.00", "3545.00"),
    4: ("40675.00", "19340.00", "24130.00", "8815.00", "18760.25", "24015.50", "4180.00"),
    5: ("42910.00", "20115.75", "27345.00", "9270.00", "20140.00", "25380.25", "5215.00"),
    6: ("41035.00", "16890.00", "23980.00", "11460.00", "19425.50", "24760.00", "6930.00"),
}
REVENUE_CSV = "Finance/revenue_2024.csv"
BUDGET = "Finance/budget_2024.xlsx"
BUDGET_2023 = "Finance/Archive/budget_2023.xlsx"
#: (line, 2024 budget, 2023 budget), whole dollars.
BUDGET_LINES = (
    ("Drugs and medical supplies", 168000, 154000),
    ("Reference laboratory", 46000, 41500),
    ("Salaries and wages", 742000, 701500),
    ("Payroll taxes and benefits", 133560, 126270),
    ("Rent, 415 Mill Street", 54000, 52800),
    ("Equipment service contracts", 5100, 4860),
    ("Medical waste disposal", 1900, 1750),
    ("Utilities", 14400, 13900),
    ("Insurance", 11200, 10650),
    ("Continuing education", 9500, 8000),
    ("Marketing and client reminders", 4200, 3900),
)
#: Bank deposit summaries: month of 2024 -> number of deposits.
DEPOSIT_MONTHS = {4: 9, 5: 10, 6: 9}
BANK = "Ashford Savings & Trust"


def northfield_path(year: int, month: int) -> str:
    if (year, month) == (2023, 12):
        return NORTHFIELD_OLD
    return f"Suppliers/Northfield_Vet_Supply/NVS_invoice_{year}-{month:02d}.pdf"


def northfield_due(year: int, month: int) -> int:
    _, _, lines, shipping, credit = NORTHFIELD[(year, month)]
    total = sum(PRODUCTS[key][1] * qty for key, qty in lines) + shipping
    return total - (credit[1] if credit else 0)


def bluestem_path(month: int) -> str:
    return f"Suppliers/Bluestem_Diagnostics/Bluestem_{BLUESTEM[month][0]}.pdf"


def bluestem_total(month: int) -> int:
    _, _, tests, pickups = BLUESTEM[month]
    return sum(LAB_PRICES[key] * count for key, count in tests) + pickups * COURIER


def clearwater_path(file: str) -> str:
    return f"Suppliers/Clearwater_Medical_Waste/{file}"


def clearwater_due(pickups: int, sharps: int) -> int:
    return pickups * CLEARWATER_PICKUP + sharps * CLEARWATER_SHARPS


def deposit_path(month: int) -> str:
    return f"Finance/Deposits/deposit_summary_2024-{month:02d}.pdf"


def deposits(month: int) -> list[tuple[str, str, int]]:
    """The month's deposits: (date as printed, description, cents), from a seeded generator."""
    rng = random.Random(f"vetclinic-deposits-{month}")
    rows = []
    days = sorted(rng.sample(range(1, 29), DEPOSIT_MONTHS[month]))
    for index, day in enumerate(days):
        if index % 3 == 2:
            what, amount = "Check deposit, branch", rng.randrange(80000, 420000)
        elif index % 4 == 3:
            what, amount = "CareCredit merchant payout", rng.randrange(150000, 620000)
        else:
            what, amount = "Card settlement batch (Worldline)", rng.randrange(1900000, 3300000)
        rows.append((f"{month:02d}/{day:02d}/2024", what, amount))
    return rows


def deposit_total(month: int) -> int:
    return sum(amount for _, _, amount in deposits(month))


def _northfield(out: Path, texts: dict[str, str]) -> None:
    for (year, month), (number, date, lines, shipping, credit) in NORTHFIELD.items():
        rel = northfield_path(year, month)
        table = [["Item", "Amount"]]
        for key, qty in lines:
            name, price = PRODUCTS[key]
            table.append([f"{name} x {qty} @ {cents(price)}", cents(price * qty)])
        table.append(
            ["Cold-chain shipping" if shipping == 4500 else "Ground shipping", cents(shipping)]
        )
        if credit:
            table.append([credit[0], f"-{cents(credit[1])}"])
        table.append(["Amount due", cents(northfield_due(year, month))])
        paragraphs = [
            f"Invoice {number}   Invoice date: {date}   Customer no. C-40917",
            f"Ship to: {CLINIC}, {ADDRESS}",
            f"Order month: {calendar.month_name[month]} {year}. Sold to a licensed veterinary "
            "practice; prescription and controlled items ship to the DEA-registered address only.",
            "Terms: net 30. Remit to Northfield Veterinary Supply Co., PO Box 5520, "
            "Worcester, MA 01615.",
        ]
        texts[rel] = flow_pdf(out / rel, "Northfield Veterinary Supply Co.", paragraphs, table)


def _bluestem(out: Path, texts: dict[str, str]) -> None:
    for month, (number, date, tests, pickups) in BLUESTEM.items():
        rel = bluestem_path(month)
        table = [["Test (count @ price)", "Charge"]]
        for key, count in tests:
            price = LAB_PRICES[key]
            table.append([f"{LAB_TESTS[key]} ({count} @ {cents(price)})", cents(count * price)])
        table.append([f"Courier pickups ({pickups} @ {cents(COURIER)})", cents(pickups * COURIER)])
        table.append(["Invoice total", cents(bluestem_total(month))])
        paragraphs = [
            f"Clinic account 2207-CB ({CLINIC})",
            f"Invoice number: {number}. Date of invoice: {date}.",
            f"Testing performed: {calendar.month_name[month]} 1-{date.split()[1].rstrip(',')}, "
            "2024. "
            "Itemized accession list available in the Bluestem clinic portal.",
            "Payment is due within 30 days. Pay online through the clinic portal or by check to "
            "Bluestem Diagnostics Laboratory, 90 Quarry Hill Road, Barre, VT 05641.",
        ]
        texts[rel] = flow_pdf(out / rel, "Bluestem Diagnostics Laboratory", paragraphs, table)


def _clearwater(out: Path, texts: dict[str, str]) -> None:
    for file, number, date, quarter, pickups, sharps in CLEARWATER:
        rel = clearwater_path(file)
        texts[rel] = text_file(
            out / rel,
            "CLEARWATER MEDICAL WASTE SERVICES\n"
            "Regulated medical waste - pickup and disposal\n\n"
            f"Invoice: {number}          Date: {date}\n"
            f"Customer: {CLINIC}, {ADDRESS}\n"
            f"Service period: {quarter}\n\n"
            f"Scheduled pickups, 32-gal container   {pickups} x {cents(CLEARWATER_PICKUP)}"
            f"   {cents(pickups * CLEARWATER_PICKUP)}\n"
            f"Sharps mail-back boxes                {sharps} x {cents(CLEARWATER_SHARPS)}"
            f"   {cents(sharps * CLEARWATER_SHARPS)}\n\n"
            f"Amount payable: {cents(clearwater_due(pickups, sharps))}\n"
            "Keep your manifests for 3 years. Thank you for your business.\n",
        )
    texts[VENDORS] = text_file(
        out / VENDORS,
        "vendor,what_they_supply,account_no,rep,phone,ordering\n"
        "Northfield Veterinary Supply Co.,Drugs vaccines and consumables,C-40917,Dana Whitcomb,"
        "800-555-0143,Online portal; order by Tuesday for Thursday delivery\n"
        "Bluestem Diagnostics Laboratory,Reference lab testing,2207-CB,Marco Lindahl,"
        "802-555-0188,Courier pickup weekdays at 4:30 p.m.\n"
        "Clearwater Medical Waste Services,Medical waste pickup,CMW-3318,Rhonda Pelletier,"
        "802-555-0121,Pickups every other Wednesday\n"
        "Radiant Imaging Services Inc.,X-ray service and calibration,RIS-1190,Victor Amsel,"
        "888-555-0170,Service calls by phone\n"
        "SteriPro Equipment Services LLC,Autoclave service,SP-5527,Janelle Ortiz,802-555-0109,"
        "Service calls by phone or email\n",
    )


def _finance(out: Path, texts: dict[str, str]) -> None:
    lines = ["month," + ",".join(REVENUE_COLUMNS) + ",total"]
    for month, values in REVENUE.items():
        total = sum(int(v.replace(".", "")) for v in values)
        lines.append(f"2024-{month:02d}," + ",".join(values) + f",{total // 100}.{total % 100:02d}")
    texts[REVENUE_CSV] = text_file(out / REVENUE_CSV, "\n".join(lines) + "\n")
    current = [("Expense line", "2024 budget")] + [(n, v) for n, v, _ in BUDGET_LINES]
    current.append(("Total expenses", sum(v for _, v, _ in BUDGET_LINES)))
    revenue = [
        ("Revenue line", "2024 budget"),
        ("Professional services (exams, surgery, dental)", 792000),
        ("Vaccines", 196000),
        ("Diagnostics", 221000),
        ("Pharmacy and food sales", 268000),
        ("Boarding and grooming", 52000),
    ]
    revenue.append(("Total revenue", sum(v for _, v in revenue[1:])))
    texts[BUDGET] = office.xlsx(
        out / BUDGET,
        {"Expenses": current, "Revenue": revenue},
        money_columns=(2,),
        author=CLINIC,
    )
    old = [("Expense line", "2023 budget")] + [(n, v) for n, _, v in BUDGET_LINES]
    old.append(("Total expenses", sum(v for _, _, v in BUDGET_LINES)))
    texts[BUDGET_2023] = office.xlsx(
        out / BUDGET_2023, {"Expenses": old}, money_columns=(2,), author=CLINIC
    )
    for month in DEPOSIT_MONTHS:
        rel = deposit_path(month)
        table = [["Date / description", "Amount"]]
        table += [[f"{d} {what}", cents(amount)] for d, what, amount in deposits(month)]
        table.append(["Total deposits", cents(deposit_total(month))])
        paragraphs = [
            f"Business deposit summary - {calendar.month_name[month]} 2024",
            f"Account holder: {CLINIC}. Business checking, account ending 3308.",
            "Deposits are listed by posting date. Card settlements are net of processing fees.",
        ]
        texts[rel] = flow_pdf(out / rel, BANK, paragraphs, table)


def build(root: Path) -> CorpusResult:
    """Write the vetclinic folder and return its texts and questions."""
    out = root / NAME
    out.mkdir(parents=True, exist_ok=True)
    result = CorpusResult(NAME)
    _northfield(out, result.texts)
    _bluestem(out, result.texts)
    _clearwater(out, result.texts)
    _finance(out, result.texts)
    records.equipment(out, result.texts)
    records.licenses(out, result.texts)
    records.staff_and_policies(out, result.texts)
    records.clients_meetings_downloads(out, result.texts, revenue_q1=q1_revenue())
    result.pages = dict.fromkeys(result.texts, 0)
    result.questions = questions()
    return result


def month_revenue(month: int) -> int:
    """The month's total revenue in cents."""
    return sum(int(v.replace(".", "")) for v in REVENUE[month])


def q1_revenue() -> int:
    return sum(month_revenue(m) for m in (1, 2, 3))


def questions() -> list:
    """The corpus's questions (data/_gen/vetclinic_questions.py)."""
    from .vetclinic_questions import questions as build_questions

    return build_questions()
