"""The questions of data/contractor, written before the offline answerer was ever run on the
corpus, by a writer who did not read the answerer's rules: asked the way the staff of a small
contractor would ask about their shared drive. Held out: never tuned on.

Computed answers (`answer.value`) come from the same tables the documents were written from.
"""

from __future__ import annotations

from .contractor_bids import BID_LOG, BID_NORTHLAKE, BID_PELLETIER, NORTHLAKE_BID, PELLETIER_BID
from .contractor_inspect import INSPECTIONS, PERMITS
from .contractor_jobs import CHANGE_ORDERS, co_amounts
from .contractor_money import INVOICES, RECEIPTS, TIMESHEETS, hours, invoice_due, receipt_total
from .contractor_office import COI, RENTAL
from .contractor_render import money
from .contractor_safety import PROGRAM, TRENCHING
from .contractor_site import COST_PELLETIER, DECK, EMAIL_COUNTERTOPS, EMAIL_WINDOWS
from .contractor_subs import SUB_CLEARWATER, SUB_VOLT, SUBCONTRACTS
from .household_questions import _answer, _files
from .questions import Question, absent, q

#: The levels of this corpus's questions, in the order they are written.
LEVELS = ("single", "cross", "aggregate", "files")


def _path(fragment: str, paths) -> str:
    """The one path among ``paths`` that contains ``fragment``."""
    found = [p for p in paths if fragment in p]
    if len(found) != 1:
        raise ValueError(f"{fragment!r} matches {found}")
    return found[0]


CO_PATHS = [c[0] for c in CHANGE_ORDERS]
INSPECTION_PATHS = [i[0] for i in INSPECTIONS]
ELECTRICAL_FAIL = _path("2025-06-17_electrical", INSPECTION_PATHS)
FOOTING = _path("2025-04-24_footing", INSPECTION_PATHS)
NL_CO2 = _path("J-2507_Northlake_Dental/Change_Orders/CO-02", CO_PATHS)
PELLETIER_CO2 = _path("J-2503_Pelletier/Change_Orders/CO-02", CO_PATHS)


def _single() -> list[Question]:
    adeyemi_permit = PERMITS[1][0]
    return [
        q(
            "ct-01",
            "Who's doing the plumbing on the Pelletier job, and what's their subcontract price?",
            "single",
            ("Clearwater Plumbing & Heating", SUB_CLEARWATER),
            ("$18,375.00", SUB_CLEARWATER),
        ),
        q(
            "ct-02",
            "What's our general liability policy number, and when does it expire?",
            "single",
            ("CGL-7731-0458", COI),
            ("03/01/2026", COI),
        ),
        q(
            "ct-03",
            "What does Summit charge per week for the mini excavator?",
            "single",
            ("$1,150.00", RENTAL),
        ),
        q(
            "ct-04",
            "How much retainage are we holding back on Volt Brothers' subcontract for "
            "the Pelletier job?",
            "single",
            ("10%", SUB_VOLT),
        ),
        q(
            "ct-05",
            "What was change order 2 on the dental office job for, and how much was it?",
            "single",
            ("reception counter", NL_CO2),
            (money(dict(co_amounts("J-2507"))[NL_CO2]), NL_CO2),
        ),
        q(
            "ct-06",
            "What's the building permit number for the Adeyemi basement?",
            "single",
            ("BP-2025-0212", adeyemi_permit),
        ),
        q(
            "ct-07",
            "Who ran the trenching safety talk in May, and how deep does a trench have "
            "to be before it needs a protective system?",
            "single",
            ("Luis Ferreira", TRENCHING),
            ("5 feet", TRENCHING),
        ),
        q(
            "ct-08",
            "What price did we bid for the Northlake Dental fit-out?",
            "single",
            (f"${NORTHLAKE_BID:,}.00", BID_NORTHLAKE),
        ),
        q(
            "ct-09",
            "When did we tell the Pelletiers their project would be substantially complete?",
            "single",
            ("September 26, 2025", DECK),
        ),
        q(
            "ct-10",
            "When are the windows for the Pelletier job supposed to show up now?",
            "single",
            ("June 3, 2025", EMAIL_WINDOWS),
        ),
        q(
            "ct-11",
            "How much have we spent so far on drywall and taping at the Pelletier job?",
            "single",
            ("6420", COST_PELLETIER),
        ),
        q(
            "ct-12",
            "Why did the electrical rough-in at the Pelletier house fail inspection?",
            "single",
            ("nail plates", ELECTRICAL_FAIL),
            ("GFCI", ELECTRICAL_FAIL),
            ("Box fill", ELECTRICAL_FAIL),
        ),
        q(
            "ct-13",
            "Who got the library restroom job we bid on?",
            "single",
            ("Brightwater Construction", BID_LOG),
        ),
        q(
            "ct-14",
            "How soon after someone gets hurt does the office have to file the written "
            "incident report?",
            "single",
            ("within 24 hours", PROGRAM),
        ),
    ]


def _cross() -> list[Question]:
    pelletier_cos = sum(a for _, a in co_amounts("J-2503"))
    revised = round(PELLETIER_BID + pelletier_cos / 100, 2)
    return [
        q(
            "ct-15",
            "What was our original bid on the Pelletier job, and what does the job cost "
            "sheet show as the revised contract now?",
            "cross",
            (f"${PELLETIER_BID:,}.00", BID_PELLETIER),
            (str(revised), COST_PELLETIER),
        ),
        q(
            "ct-16",
            "Where did the Summit mini excavator get delivered, and what day was the "
            "footing inspection at that job?",
            "cross",
            ("14 Birch Hollow Road", RENTAL),
            ("April 24, 2025", FOOTING),
        ),
        q(
            "ct-17",
            "Anne Pelletier emailed us about countertops in May. Which quartz did she "
            "pick, and what did the change order for it add to the contract?",
            "cross",
            ("Calacatta Laza", EMAIL_COUNTERTOPS),
            (money(dict(co_amounts("J-2503"))[PELLETIER_CO2]), PELLETIER_CO2),
        ),
        q(
            "ct-18",
            "How much umbrella coverage does the Northlake Dental lease require us to "
            "carry, and what umbrella limit is on our current insurance certificate?",
            "cross",
            ("$2,000,000", BID_NORTHLAKE),
            ("$3,000,000", COI),
        ),
        q(
            "ct-19",
            "When did the electrical rough-in fail at the Pelletier job, and what is the "
            "license number of the master electrician on that job's electrical subcontract?",
            "cross",
            ("June 17, 2025", ELECTRICAL_FAIL),
            ("EM-04417", SUB_VOLT),
        ),
    ]


def _total(question: Question, cents: int) -> Question:
    return _answer(question, money(cents), round(cents / 100, 2))


def _aggregate() -> list[Question]:
    pelletier = co_amounts("J-2503")
    invoices_2025 = [(i[0], invoice_due(i[3])) for i in INVOICES if "/GML-2025-" in i[0]]
    q2 = [(p, due) for p, due in invoices_2025 if p[-6:-4] in ("04", "05", "06")]
    smallest = min(invoices_2025, key=lambda item: item[1])
    failed = [i for i in INSPECTIONS if i[8] == "FAILED" and i[6].endswith("2025")]
    june = [(t[0], hours(t[2], "Kenji Watanabe")) for t in TIMESHEETS if t[1][5:7] == "06"]
    issued = co_amounts("J-2503") + co_amounts("J-2507")
    largest = max(issued, key=lambda item: item[1])
    subs = [(s[1], s[6]) for s in SUBCONTRACTS]
    fees = [(p[0], p[8]) for p in PERMITS]
    may = [(rc[0], receipt_total(rc[2])) for rc in RECEIPTS if "/2025-05-" in rc[0]]

    def amounts(rows) -> tuple[tuple[str, str], ...]:
        return tuple((money(c), path) for path, c in rows)

    return [
        _total(
            q(
                "ct-20",
                "What do all the change orders on the Pelletier job add up to?",
                "aggregate",
                *amounts(pelletier),
            ),
            sum(c for _, c in pelletier),
        ),
        _total(
            q(
                "ct-21",
                "How much did Green Mountain Lumber bill us altogether in the second "
                "quarter of 2025?",
                "aggregate",
                *amounts(q2),
            ),
            sum(c for _, c in q2),
        ),
        _answer(
            q(
                "ct-22",
                "How many inspections did we fail in 2025?",
                "aggregate",
                *((i[6], i[0]) for i in failed),
            ),
            f"{len(failed)} (" + ", ".join(i[6] for i in failed) + ")",
            float(len(failed)),
        ),
        _answer(
            q(
                "ct-23",
                "Going by the June timesheets, how many hours did Kenji Watanabe put "
                "in altogether?",
                "aggregate",
                *((str(h), p) for p, h in june),
            ),
            f"{sum(h for _, h in june)} hours",
            float(sum(h for _, h in june)),
        ),
        _answer(
            q(
                "ct-24",
                "What was the biggest change order we issued in 2025, and how much was it for?",
                "aggregate",
                (money(largest[1]), largest[0]),
            ),
            f"{money(largest[1])} ({largest[0].rsplit('/', 1)[1]})",
            round(largest[1] / 100, 2),
        ),
        _total(
            q(
                "ct-25",
                "What do the subcontracts we signed in 2025 come to in total?",
                "aggregate",
                *amounts(subs),
            ),
            sum(c for _, c in subs),
        ),
        _total(
            q(
                "ct-26",
                "How much did we pay in building permit fees in 2025?",
                "aggregate",
                *amounts(fees),
            ),
            sum(c for _, c in fees),
        ),
        _total(
            q(
                "ct-27",
                "What did we spend at Ashby Falls Hardware in May 2025?",
                "aggregate",
                *amounts(may),
            ),
            sum(c for _, c in may),
        ),
        _answer(
            q(
                "ct-28",
                "Which of the 2025 Green Mountain Lumber invoices was the smallest, "
                "and what was its total?",
                "aggregate",
                (money(smallest[1]), smallest[0]),
            ),
            f"{money(smallest[1])} ({smallest[0].rsplit('/', 1)[1]})",
            round(smallest[1] / 100, 2),
        ),
    ]


def _files_questions() -> list[Question]:
    return [
        _files(
            "ct-29",
            "How many PDFs are in the Pelletier job's Inspections folder?",
            "3: the footing inspection and the two electrical rough-in reports",
            3,
        ),
        _files(
            "ct-30",
            "How many timesheets are saved under Accounting/Timesheets?",
            "4: 2025-W22.csv, 2025-W23.xlsx, 2025-W24.xlsx and 2025-W25.csv",
            4,
        ),
        _files(
            "ct-31",
            "Which file in the Pelletier job folder is a PowerPoint?",
            "Pelletier_design_review.pptx",
            "Pelletier_design_review.pptx",
        ),
        _files(
            "ct-32",
            "How many PDF invoices are in Accounting/Invoices, subfolders included?",
            "4: the Green Mountain Lumber invoices for April to July 2025",
            4,
        ),
        _files(
            "ct-33",
            "How many Word documents are there under Jobs, counting all the job subfolders?",
            "3: the Clearwater plumbing subcontract, Pelletier CO-03 and Northlake CO-02",
            3,
        ),
        _files(
            "ct-34",
            "What's the name of the spreadsheet in the Northlake Dental job folder?",
            "job_cost_J-2507.xlsx",
            "job_cost_J-2507.xlsx",
        ),
    ]


def questions() -> list[Question]:
    """Single facts, cross-references, aggregates, folder questions and absent ones."""
    return [
        *_single(),
        *_cross(),
        *_aggregate(),
        *_files_questions(),
        absent("ct-35", "What was the building permit fee for the Northlake Dental fit-out?"),
        absent("ct-36", "How much did Green Mountain Lumber bill us in September 2025?"),
        absent(
            "ct-37",
            "Who is the plumbing subcontractor on the Adeyemi basement, and what's their price?",
        ),
        absent("ct-38", "What's Summit's daily rate for a skid steer?"),
        absent("ct-39", "Who did the final inspection on the Pelletier job?"),
        absent("ct-40", "What's the annual premium on our general liability policy?"),
    ]
