"""Build data/lab: the shared drive of a university molecular-biology lab (a PI, a lab
manager, a technician, two postdocs, four graduate students and an undergraduate) that
studies heart regeneration in zebrafish: NIH and foundation grant awards with budget
periods, a progress report and a data-sharing plan, equipment quotes, invoices and service
agreements (a -80 freezer, a benchtop sequencer, a confocal microscope), reagent and
consumables invoices from three vendors, a safety manual and training records, IACUC and
biosafety approvals, protocols, lab meeting notes, a roster, travel reimbursement forms, a
manuscript draft, archives and a Downloads folder.

A development corpus for the offline answerer (fitted on, unlike data/personal): its
questions (data/_gen/lab_questions.py) were written before the answerer was run on it.
Distractors: last year's sequencer service agreement, roster, training records, IACUC
approval and manuscript draft in Archive folders; a DRAFT of the May lab meeting with other
dates; an April meeting note quoting the old sequencer fee, and a February one quoting the
freezer quote rather than the invoice; the NIH year 1 notice's recommended year 2 amount,
which the year 2 award cut; a December 2023 Bramwell invoice in Downloads and a 2023 travel
form; a camera quote from Lumira Optics beside the Lumera microscope contract; a research
technician and a department grants administrator beside the lab manager; and three labels
for an invoice total ("Amount due", "Total", "Balance payable").
"""

from __future__ import annotations

import calendar
import random
from pathlib import Path

from . import lab_docs as docs
from . import lab_equipment as equipment
from . import lab_records as records
from .common import CorpusResult
from .household_docs import text_file
from .lab_docs import ADDRESS, LAB, MARR_NO, UNIV, form_pdf
from .smallorg_docs import cents

NAME = "lab"

#: Bramwell Scientific catalog: key -> (item no., description, unit price in cents).
BRAMWELL_ITEMS = {
    "tips10": ("BS-TF0010", "Filter tips 10 uL, 10 racks", 6480),
    "tips200": ("BS-TF0200", "Filter tips 200 uL, 10 racks", 6120),
    "tips1000": ("BS-TF1000", "Filter tips 1000 uL, 8 racks", 5890),
    "tubes": ("BS-MT1500", "Microtubes 1.5 mL RNase-free, 500/pk", 4275),
    "plates": ("BS-PP9600", "qPCR plates 96-well, 25/cs", 11850),
    "gloves": ("BS-NG2200", "Nitrile gloves size M, 10 bx", 8950),
    "ethanol": ("BS-EA4000", "Ethanol 200 proof, 4 L", 15320),
    "agarose": ("BS-AG0500", "Agarose LE, 500 g", 38900),
    "conical": ("BS-CT5000", "Conical tubes 50 mL, 500/cs", 16740),
    "pipets": ("BS-SP1000", "Serological pipets 10 mL, 200/cs", 7460),
}
BRAMWELL_FREIGHT = 1850
BRAMWELL_HAZMAT = 3200  # per invoice that ships ethanol
#: (year, month) -> (invoice no., date as printed, [(item, qty)], credit (text, cents) or
#: None). The amount due is lines + freight (+ hazmat fee) - credit.
BRAMWELL = {
    (2023, 12): (
        "BSI-2318840",
        "12/19/2023",
        [("tips200", 4), ("gloves", 3), ("ethanol", 1)],
        None,
    ),
    (2024, 1): (
        "BSI-2401127",
        "01/24/2024",
        [("tips10", 3), ("tips200", 5), ("tubes", 4), ("plates", 2), ("gloves", 4)],
        None,
    ),
    (2024, 2): (
        "BSI-2402213",
        "02/22/2024",
        [("tips1000", 4), ("conical", 2), ("pipets", 3), ("ethanol", 2)],
        None,
    ),
    (2024, 3): (
        "BSI-2403350",
        "03/27/2024",
        [
            ("tips10", 4),
            ("tips200", 6),
            ("agarose", 1),
            ("plates", 3),
            ("gloves", 5),
            ("tubes", 3),
        ],
        None,
    ),
    (2024, 4): (
        "BSI-2404418",
        "04/25/2024",
        [("tips200", 5), ("conical", 3), ("ethanol", 2), ("pipets", 4)],
        ("Credit: damaged case, 50 mL tubes", 16740),
    ),
    (2024, 5): (
        "BSI-2405529",
        "05/23/2024",
        [("tips10", 3), ("tips1000", 5), ("plates", 4), ("gloves", 4), ("agarose", 1)],
        None,
    ),
    (2024, 6): (
        "BSI-2406601",
        "06/26/2024",
        [("tips200", 6), ("tubes", 5), ("ethanol", 3), ("conical", 2), ("pipets", 2)],
        None,
    ),
}
BRAMWELL_OLD = "Downloads/Bramwell_invoice_2023-12.pdf"

#: Alder Biosciences catalog: key -> (catalog no., description, unit price in cents).
ALDER_ITEMS = {
    "sybr": ("AB-2210", "SYBR Green qPCR master mix, 5 x 1 mL", 28900),
    "cdna": ("AB-1045", "cDNA synthesis kit, 100 rxn", 41200),
    "pcna": ("AB-3308", "Anti-PCNA antibody, 100 uL", 36500),
    "mef2": ("AB-3312", "Anti-Mef2 antibody, 100 uL", 39800),
    "cleanup": ("AB-5020", "RNA cleanup columns, 50 preps", 22450),
    "edu": ("AB-6001", "EdU proliferation kit, 50 assays", 51800),
    "lenti": ("AB-7110", "Lentiviral packaging mix, 20 rxn", 64500),
}
ALDER_DRY_ICE = 4800
#: Month of 2024 -> (invoice no., date as printed, [(item, qty)], discount or None).
ALDER = {
    2: ("ALD-104883", "February 15, 2024", [("sybr", 2), ("cdna", 1), ("cleanup", 2)], None),
    3: ("ALD-105217", "March 19, 2024", [("pcna", 1), ("mef2", 1), ("edu", 1)], None),
    5: (
        "ALD-106042",
        "May 8, 2024",
        [("sybr", 3), ("lenti", 2), ("cdna", 1)],
        ("Promotion SPRING10: 10% off packaging mix", 12900),
    ),
    6: ("ALD-106590", "June 12, 2024", [("edu", 2), ("cleanup", 3), ("mef2", 1)], None),
}

#: Riverbend Aquatics Supply (fish room): key -> (description, unit price in cents).
RIVERBEND_ITEMS = {
    "larval": ("Larval diet, 300 micron, 500 g", 6450),
    "flake": ("Adult flake diet, 1 kg", 5230),
    "cysts": ("Brine shrimp cysts, 425 g can", 8975),
    "pads": ("Carbon filter pads, 12 pk", 4460),
    "salt": ("Sea salt mix, 50 lb pail", 7890),
}
RIVERBEND_SHIPPING = 2200
#: (invoice no., date as printed, [(item, qty)]).
RIVERBEND = (
    ("RAS-24-0214", "02/14/2024", [("larval", 2), ("flake", 1), ("cysts", 4), ("pads", 2)]),
    ("RAS-24-0411", "04/11/2024", [("larval", 2), ("cysts", 6), ("salt", 2), ("pads", 1)]),
    ("RAS-24-0613", "06/13/2024", [("larval", 3), ("flake", 2), ("cysts", 4), ("salt", 1)]),
)
ORDERS = "Orders/order_requests_2024.csv"
FREEZER_LOG = "Equipment/Freezer/ULT_freezer_temp_log_2024-06.csv"
ALARM_DAY = 17

#: Travel reimbursement forms: (form no., year, traveller, position, event, destination,
#: dates, funding, [(expense, detail, cents)]).
TRAVEL = (
    (
        "TR-24-0117",
        2024,
        "Tomas Echeverria",
        "Postdoctoral Fellow",
        "Cardiac Regeneration Symposium 2024 (oral presentation)",
        "Boston, MA",
        "April 14-17, 2024",
        f"NIH {docs.R01}, account 4-21877",
        [
            ("Airfare", "Round trip MSN-BOS, economy", 41260),
            ("Lodging", "3 nights @ $219.00", 65700),
            ("Registration", "Early-bird, postdoc rate", 45000),
            ("Meals and incidentals", "4 days @ $64.00 (per diem)", 25600),
            ("Ground transportation", "Airport taxis", 8640),
        ],
    ),
    (
        "TR-24-0092",
        2024,
        "Lena Fischer",
        "Graduate Student",
        "Great Lakes Developmental Biology Symposium (poster)",
        "Ann Arbor, MI",
        "March 7-9, 2024",
        f"NIH {docs.R01}, account 4-21877",
        [
            ("Airfare", "None (drove)", 0),
            ("Lodging", "2 nights @ $149.00", 29800),
            ("Registration", "Student rate", 9500),
            ("Meals and incidentals", "3 days @ $64.00 (per diem)", 19200),
            ("Personal car mileage", "612 miles @ $0.67", 41004),
        ],
    ),
    (
        "TR-24-0154",
        2024,
        "Hannah Bly",
        "Postdoctoral Research Associate",
        "RNA Biology Midwest Meeting (talk)",
        "Chicago, IL",
        "May 19-22, 2024",
        f"Marr Foundation {MARR_NO}, account 4-22310",
        [
            ("Airfare", "None (train)", 0),
            ("Lodging", "3 nights @ $189.00", 56700),
            ("Registration", "Regular rate", 38000),
            ("Meals and incidentals", "4 days @ $71.00 (per diem)", 28400),
            ("Ground transportation", "Train, round trip", 6200),
        ],
    ),
    (
        "TR-24-0171",
        2024,
        "Kwame Asante",
        "Graduate Student",
        "Zebrafish Development and Genetics Conference (poster)",
        "Portland, OR",
        "June 10-14, 2024",
        f"NIH {docs.R01}, account 4-21877",
        [
            ("Airfare", "Round trip MSN-PDX, economy", 52880),
            ("Lodging", "4 nights @ $176.00", 70400),
            ("Registration", "Student rate", 32500),
            ("Meals and incidentals", "5 days @ $69.00 (per diem)", 34500),
            ("Ground transportation", "Light rail and taxis", 7450),
        ],
    ),
    (
        "TR-23-0388",
        2023,
        "Tomas Echeverria",
        "Postdoctoral Fellow",
        "Midwest Zebrafish Meeting (poster)",
        "Minneapolis, MN",
        "October 5-7, 2023",
        "Start-up, account 1-09934",
        [
            ("Airfare", "None (drove)", 0),
            ("Lodging", "2 nights @ $165.00", 33000),
            ("Registration", "Postdoc rate", 27500),
            ("Meals and incidentals", "3 days @ $59.00 (per diem)", 17700),
            ("Personal car mileage", "540 miles @ $0.655", 35370),
        ],
    ),
)


def bramwell_path(year: int, month: int) -> str:
    if (year, month) == (2023, 12):
        return BRAMWELL_OLD
    return f"Orders/Bramwell_Scientific/Bramwell_{year}-{month:02d}.pdf"


def bramwell_due(year: int, month: int) -> int:
    _, _, lines, credit = BRAMWELL[(year, month)]
    total = sum(BRAMWELL_ITEMS[k][2] * n for k, n in lines) + BRAMWELL_FREIGHT
    if any(k == "ethanol" for k, _ in lines):
        total += BRAMWELL_HAZMAT
    return total - (credit[1] if credit else 0)


def alder_path(month: int) -> str:
    return f"Orders/Alder_Biosciences/Alder_{ALDER[month][0]}.pdf"


def alder_total(month: int) -> int:
    _, _, lines, discount = ALDER[month]
    total = sum(ALDER_ITEMS[k][2] * n for k, n in lines) + ALDER_DRY_ICE
    return total - (discount[1] if discount else 0)


def riverbend_path(number: str) -> str:
    return f"Orders/Riverbend_Aquatics/Riverbend_{number}.txt"


def riverbend_due(lines: list[tuple[str, int]]) -> int:
    return sum(RIVERBEND_ITEMS[k][1] * n for k, n in lines) + RIVERBEND_SHIPPING


def travel_path(form: tuple) -> str:
    number, year, name = form[0], form[1], form[2]
    city = form[5].split(",")[0].replace(" ", "")
    return f"Travel/{year}/{number}_{name.split()[-1]}_{city}.pdf"


def travel_total(form: tuple) -> int:
    return sum(amount for _, _, amount in form[8])


def _bramwell(out: Path, texts: dict[str, str], pages: dict[str, int]) -> None:
    for (year, month), (number, date, lines, credit) in BRAMWELL.items():
        rel = bramwell_path(year, month)
        rows = [["Item no.", "Description", "Qty", "Unit price", "Extended"]]
        for key, qty in lines:
            item, name, price = BRAMWELL_ITEMS[key]
            rows.append([item, name, str(qty), cents(price), cents(price * qty)])
        merchandise = sum(BRAMWELL_ITEMS[k][2] * n for k, n in lines)
        rows.append(["", "Merchandise subtotal", "", "", cents(merchandise)])
        rows.append(["", "Freight", "", "", cents(BRAMWELL_FREIGHT)])
        if any(k == "ethanol" for k, _ in lines):
            rows.append(["", "Hazardous materials fee", "", "", cents(BRAMWELL_HAZMAT)])
        if credit:
            rows.append(["", credit[0], "", "", f"-{cents(credit[1])}"])
        rows.append(["", "Amount due", "", "", cents(bramwell_due(year, month))])
        blocks = [
            ("s", "Bramwell Scientific, 2750 Commerce Park Drive, Naperville, IL 60563"),
            (
                "kv",
                [
                    ("Invoice no.", number),
                    ("Invoice date", date),
                    ("Account", "NSU-44107 (Halvorsen Lab)"),
                    ("Bill to", f"{UNIV} Accounts Payable, PO Box 1800, Lindale, WI 53590"),
                    ("Ship to", f"{LAB}, {ADDRESS}"),
                    ("Orders shipped", f"{calendar.month_name[month]} {year}"),
                ],
            ),
            ("t", rows, [1.2, 2.7, 0.8, 1.0, 1.0]),
            (
                "p",
                "Tax exempt: certificate on file. Terms net 30. Please quote the invoice number "
                "with your payment. Questions: customer care, 800-555-0161.",
            ),
        ]
        count, texts[rel] = form_pdf(out / rel, "Bramwell Scientific - Invoice", blocks)
        pages[rel] = count


def _alder(out: Path, texts: dict[str, str], pages: dict[str, int]) -> None:
    for month, (number, date, lines, discount) in ALDER.items():
        rel = alder_path(month)
        rows = [["Cat. no.", "Product", "Qty", "Price"]]
        for key, qty in lines:
            cat, name, price = ALDER_ITEMS[key]
            rows.append([cat, name, str(qty), cents(price * qty)])
        rows.append(["", "Dry ice shipping", "1", cents(ALDER_DRY_ICE)])
        if discount:
            rows.append(["", discount[0], "", f"-{cents(discount[1])}"])
        rows.append(["", "Total", "", cents(alder_total(month))])
        blocks = [
            ("s", "Alder Biosciences Inc. - 18 Harbor Point Road, Worcester, MA 01605"),
            ("p", f"Invoice {number}, dated {date}. Customer: {LAB}, {UNIV}."),
            ("p", f"Ship to: Priya Raman, {ADDRESS}. Shipped on dry ice; store as labelled."),
            ("t", rows, [0.9, 3.3, 0.8, 1.2]),
            (
                "p",
                "Payment within 30 days of the invoice date. Pay by card through your Alder "
                "account or by check to the address above.",
            ),
        ]
        count, texts[rel] = form_pdf(out / rel, "ALDER BIOSCIENCES - INVOICE", blocks)
        pages[rel] = count


def _riverbend(out: Path, texts: dict[str, str]) -> None:
    for number, date, lines in RIVERBEND:
        rel = riverbend_path(number)
        body = "".join(
            f"{RIVERBEND_ITEMS[k][0]:<34}{n:>3} x {cents(RIVERBEND_ITEMS[k][1]):>8}"
            f"   {cents(RIVERBEND_ITEMS[k][1] * n):>9}\n"
            for k, n in lines
        )
        texts[rel] = text_file(
            out / rel,
            "RIVERBEND AQUATICS SUPPLY\n"
            "Research aquaculture supplies - 640 River Road, La Crosse, WI 54601\n\n"
            f"Invoice {number}            Date {date}\n"
            f"Customer: {LAB} fish room (B010), {UNIV}\n"
            "Customer no. RB-2219\n\n"
            f"{body}"
            f"{'Shipping (ground)':<50}{cents(RIVERBEND_SHIPPING):>9}\n\n"
            f"Balance payable: {cents(riverbend_due(lines))}\n"
            "Live and perishable goods are not returnable. Thank you!\n",
        )


def _orders_and_log(out: Path, texts: dict[str, str]) -> None:
    texts[ORDERS] = text_file(
        out / ORDERS,
        "requested,requested_by,vendor,item,qty,status\n"
        "2024-01-16,Tomas Echeverria,Bramwell Scientific,Filter tips 200 uL,5,received\n"
        "2024-01-18,Priya Raman,Bramwell Scientific,qPCR plates 96-well,2,received\n"
        "2024-02-05,Lena Fischer,Alder Biosciences,SYBR Green qPCR master mix,2,received\n"
        "2024-02-09,Daniel Kowalczyk,Riverbend Aquatics Supply,Brine shrimp cysts,4,received\n"
        "2024-03-11,Hannah Bly,Alder Biosciences,EdU proliferation kit,1,received\n"
        "2024-03-20,Marcus Oyelaran,Bramwell Scientific,Agarose LE 500 g,1,received\n"
        "2024-04-02,Daniel Kowalczyk,Riverbend Aquatics Supply,Sea salt mix,2,received\n"
        "2024-04-29,Hannah Bly,Alder Biosciences,Lentiviral packaging mix,2,received\n"
        "2024-05-14,Yuki Morimoto,Bramwell Scientific,Filter tips 1000 uL,5,received\n"
        "2024-06-04,Lena Fischer,Alder Biosciences,RNA cleanup columns,3,received\n"
        "2024-06-24,Kwame Asante,Alder Biosciences,Anti-PCNA antibody,1,on order\n"
        "2024-07-01,Priya Raman,Bramwell Scientific,Nitrile gloves size M,4,on order\n",
    )
    rng = random.Random("lab-freezer-log-2024-06")
    lines = ["date,checked_at,display_c,min_24h_c,max_24h_c,alarm,initials,note"]
    who = ("PR", "DK", "PR", "TE", "PR")
    for day in range(3, 29):
        weekday = calendar.weekday(2024, 6, day)
        if weekday >= 5:
            continue
        display = -80 + rng.choice((-1, 0, 0, 1))
        low = display - rng.randint(1, 2)
        high = display + rng.randint(1, 3)
        alarm, note = "no", ""
        if day == ALARM_DAY:
            high, alarm = -58, "YES"
            note = "door not latched after sample retrieval; closed and reset 10:40 by PR"
        lines.append(
            f"2024-06-{day:02d},{8 + weekday % 2}:{15 * (day % 4):02d},{display},{low},{high},"
            f"{alarm},{who[weekday]},{note}"
        )
    texts[FREEZER_LOG] = text_file(out / FREEZER_LOG, "\n".join(lines) + "\n")


def _travel(out: Path, texts: dict[str, str], pages: dict[str, int]) -> None:
    for form in TRAVEL:
        number, _, name, position, event, place, dates, funding, lines = form
        rel = travel_path(form)
        rows = [["Expense", "Detail", "Amount"]]
        rows += [[what, detail, cents(amount)] for what, detail, amount in lines]
        rows.append(["TOTAL REIMBURSEMENT", "", cents(travel_total(form))])
        blocks = [
            ("s", f"{UNIV} - Business Office - Form TR-1 (rev. 2022)"),
            (
                "kv",
                [
                    ("Form number", number),
                    ("Traveler", name),
                    ("Position", position),
                    ("Department", docs.DEPT),
                    ("Business purpose", event),
                    ("Destination", place),
                    ("Travel dates", dates),
                    ("Charge to", funding),
                ],
            ),
            ("t", rows, [1.9, 3.0, 1.3]),
            (
                "p",
                "I certify that these expenses were incurred on university business and have "
                "not been reimbursed from any other source. Itemized receipts are attached "
                "for lodging, airfare, registration and ground transportation.",
            ),
            (
                "kv",
                [
                    ("Traveler signature", name),
                    ("Approved by (PI)", f"{docs.PI}, PhD"),
                    ("Processed by", "Maureen Tallis, Grants Administrator"),
                ],
            ),
        ]
        count, texts[rel] = form_pdf(
            out / rel, "Travel Expense Reimbursement Request", blocks, footer=f"Form {number}"
        )
        pages[rel] = count


def build(root: Path) -> CorpusResult:
    """Write the lab folder and return its texts and questions."""
    out = root / NAME
    out.mkdir(parents=True, exist_ok=True)
    result = CorpusResult(NAME)
    texts, pages = result.texts, result.pages
    docs.grants(out, texts, pages)
    equipment.equipment(out, texts, pages)
    equipment.compliance_and_safety(out, texts, pages)
    _bramwell(out, texts, pages)
    _alder(out, texts, pages)
    _riverbend(out, texts)
    _orders_and_log(out, texts)
    _travel(out, texts, pages)
    records.people_and_training(out, texts)
    records.protocols(out, texts)
    records.meetings(out, texts)
    records.manuscripts(out, texts)
    records.downloads(out, texts, pages)
    for rel in texts:
        pages.setdefault(rel, 0)
    result.questions = questions(out)
    return result


def questions(out: Path) -> list:
    """The corpus's questions (data/_gen/lab_questions.py); folder answers read ``out``."""
    from .lab_questions import questions as build_questions

    return build_questions(out)
