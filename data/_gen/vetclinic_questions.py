"""The questions of data/vetclinic, written before the offline answerer was run on it.

Computed answers (`answer.value`) come from the same tables the documents were written from.
"""

from __future__ import annotations

from .household_questions import _answer, _files
from .questions import Question, absent, q
from .smallorg_docs import cents
from .vetclinic_corpus import (
    BLUESTEM,
    CLEARWATER,
    DEPOSIT_MONTHS,
    NORTHFIELD,
    REVENUE_CSV,
    bluestem_path,
    bluestem_total,
    clearwater_due,
    clearwater_path,
    deposit_path,
    deposit_total,
    month_revenue,
    northfield_due,
    northfield_path,
)
from .vetclinic_docs import (
    AUTOCLAVE,
    CD_PROCEDURE,
    DEA,
    DECK,
    ESTIMATE,
    FEES,
    HANDBOOK,
    LOG,
    MANUAL,
    MEETINGS,
    PREMISES,
    QUOTE,
    ROSTER,
    XRAY,
)


def _dollars(question: Question, amount: int) -> Question:
    return _answer(question, cents(amount), round(amount / 100, 2))


def _single() -> list[Question]:
    march = month_revenue(3)
    return [
        q(
            "vet-01",
            "Who services our X-ray machine, and what do we pay them a year under the current "
            "contract?",
            "single",
            ("Radiant Imaging Services", XRAY),
            ("$3,840.00", XRAY),
        ),
        q(
            "vet-02",
            "When does Dr. Fenwick's DEA registration run out?",
            "single",
            (DEA["Fenwick"][4], DEA["Fenwick"][0]),
        ),
        q(
            "vet-03",
            "What's the number on the clinic's state premises registration, and when do we "
            "need to renew it?",
            "single",
            ("VP-0419", PREMISES),
            ("June 30, 2025", PREMISES),
        ),
        q(
            "vet-04",
            "How many paid sick days does a full-time employee get each year?",
            "single",
            ("7 days of paid sick leave", HANDBOOK),
        ),
        q(
            "vet-05",
            "How much do we charge to spay a big dog, one that's 50 pounds or more?",
            "single",
            ("465", FEES),
        ),
        q(
            "vet-06",
            "If the controlled drug count doesn't add up, how soon does the medical director "
            "have to be told?",
            "single",
            ("within 24 hours", CD_PROCEDURE),
        ),
        q(
            "vet-07",
            "How many maintenance visits a year do we get on the autoclave, and what does that "
            "agreement cost us annually?",
            "single",
            ("Two preventive maintenance visits per year", AUTOCLAVE),
            ("$1,260.00", AUTOCLAVE),
        ),
        q(
            "vet-08",
            "What's the most Biscuit's owner could end up paying for the dental, going by our "
            "estimate?",
            "single",
            ("$948.00", ESTIMATE),
        ),
        q(
            "vet-09",
            "When did Ryan Petrakis start working here?",
            "single",
            ("2020-07-13", ROSTER),
        ),
        q(
            "vet-10",
            "What did the clinic bring in altogether in March 2024?",
            "single",
            (f"{march // 100}.{march % 100:02d}", REVENUE_CSV),
        ),
        q(
            "vet-11",
            "When was the autoclave's heating element swapped out, and what did it cost us?",
            "single",
            ("2024-05-29", LOG),
            ("412.5", LOG),
        ),
        q(
            "vet-12",
            "When do we start opening on Saturdays, and what are the Saturday hours?",
            "single",
            ("June 8", MEETINGS[5]),
            ("8 a.m. to 12 p.m.", MEETINGS[5]),
        ),
        q(
            "vet-13",
            "How much money does each vet get a year for continuing education?",
            "single",
            ("$2,000", HANDBOOK),
        ),
        q(
            "vet-14",
            "How long does the autoclave sterilize for when the instruments are in pouches?",
            "single",
            ("132 °C for 5 minutes", MANUAL),
        ),
    ]


def _cross() -> list[Question]:
    return [
        q(
            "vet-15",
            "Whose DEA registration did the May staff meeting say needs renewing, and what "
            "expiry date is on that certificate?",
            "cross",
            ("Dr. Redcloud", MEETINGS[5]),
            (DEA["Redcloud"][4], DEA["Redcloud"][0]),
        ),
        q(
            "vet-16",
            "Which company does the maintenance log show doing the X-ray calibration, and how "
            "quickly does our current contract with them say they must be on site when the "
            "machine can't take pictures?",
            "cross",
            ("Radiant Imaging Services", LOG),
            ("within 8 business hours", XRAY),
        ),
        q(
            "vet-17",
            "What spending limit did we agree in April for the dental X-ray sensor, and what "
            "was the total on the vendor's quote?",
            "cross",
            ("$7,500", MEETINGS[4]),
            ("$6,985.00", QUOTE),
        ),
        q(
            "vet-18",
            "How many days of PTO a year does Mei Tanaka get under the current handbook?",
            "cross",
            ("2018-03-05", ROSTER),
            ("20 days", HANDBOOK),
        ),
    ]


def _aggregate() -> list[Question]:
    year = [k for k in NORTHFIELD if k[0] == 2024]
    q1 = [k for k in year if k[1] <= 3]
    spring = [k for k in year if 3 <= k[1] <= 5]
    top = max(year, key=lambda k: northfield_due(*k))
    first_quarter_lab = [m for m in BLUESTEM if m <= 3]

    def northfield(keys: list[tuple[int, int]]) -> tuple[tuple[str, str], ...]:
        return tuple((cents(northfield_due(*k)), northfield_path(*k)) for k in keys)

    return [
        _dollars(
            q(
                "vet-19",
                "How much did we spend with Northfield Vet Supply in total from January through "
                "June 2024?",
                "aggregate",
                *northfield(year),
            ),
            sum(northfield_due(*k) for k in year),
        ),
        _dollars(
            q(
                "vet-20",
                "What did Northfield's invoices come to for the first quarter of 2024?",
                "aggregate",
                *northfield(q1),
            ),
            sum(northfield_due(*k) for k in q1),
        ),
        _dollars(
            q(
                "vet-21",
                "What's the combined total of Northfield's bills for March, April and May 2024?",
                "aggregate",
                *northfield(spring),
            ),
            sum(northfield_due(*k) for k in spring),
        ),
        _answer(
            q(
                "vet-22",
                "In which month of 2024 did we get the biggest drug invoice from Northfield, and "
                "how much was it?",
                "aggregate",
                (cents(northfield_due(*top)), northfield_path(*top)),
            ),
            f"{cents(northfield_due(*top))} ({top[0]}-{top[1]:02d})",
            round(northfield_due(*top) / 100, 2),
        ),
        _dollars(
            q(
                "vet-23",
                "What do all the Bluestem lab invoices add up to?",
                "aggregate",
                *((cents(bluestem_total(m)), bluestem_path(m)) for m in BLUESTEM),
            ),
            sum(bluestem_total(m) for m in BLUESTEM),
        ),
        _answer(
            q(
                "vet-24",
                "How many invoices did Bluestem send us for the first quarter of 2024?",
                "aggregate",
                *((BLUESTEM[m][0], bluestem_path(m)) for m in first_quarter_lab),
            ),
            f"{len(first_quarter_lab)} invoices",
            len(first_quarter_lab),
        ),
        _dollars(
            q(
                "vet-25",
                "How much did we put in the bank altogether from April to June 2024, going by "
                "the deposit summaries?",
                "aggregate",
                *((cents(deposit_total(m)), deposit_path(m)) for m in DEPOSIT_MONTHS),
            ),
            sum(deposit_total(m) for m in DEPOSIT_MONTHS),
        ),
        _dollars(
            q(
                "vet-26",
                "How much has Clearwater billed us in total for medical waste pickups this year?",
                "aggregate",
                *((cents(clearwater_due(*c[4:])), clearwater_path(c[0])) for c in CLEARWATER),
            ),
            sum(clearwater_due(*c[4:]) for c in CLEARWATER),
        ),
    ]


def _files_questions() -> list[Question]:
    pdfs = len([k for k in NORTHFIELD if k[0] == 2024]) + len(BLUESTEM)
    return [
        _files(
            "vet-27",
            "How many PDFs are in the Suppliers folder, subfolders included?",
            f"{pdfs}: six Northfield invoices and four Bluestem invoices",
            pdfs,
        ),
        _files(
            "vet-28",
            "How many Excel files are there in Finance, counting the Archive subfolder?",
            "2: budget_2024.xlsx and Archive/budget_2023.xlsx",
            2,
        ),
        _files(
            "vet-29",
            "How many files are in the DEA folder under Licenses?",
            str(len(DEA)),
            len(DEA),
        ),
        _files(
            "vet-30",
            "Which file in the Meetings folder is a PowerPoint?",
            DECK.split("/")[-1],
            DECK.split("/")[-1],
        ),
        _files(
            "vet-31",
            "How many Word documents does the Staff folder have, including its subfolders?",
            "2: employee_handbook_2024.docx and Archive/employee_handbook_2021.docx",
            2,
        ),
        _files(
            "vet-32",
            "How many PDF files are in Downloads?",
            "3: the autoclave manual, the Northbrook quote and the December 2023 Northfield "
            "invoice",
            3,
        ),
    ]


def questions() -> list[Question]:
    """Single facts, cross-references, aggregates, folder questions and absent ones."""
    return [
        *_single(),
        *_cross(),
        *_aggregate(),
        *_files_questions(),
        absent("vet-33", "How much did we pay Bluestone Labs for March 2024?"),
        absent(
            "vet-34",
            "What did Northfield Vet Supply bill us in total for July through September 2024?",
        ),
        absent("vet-35", "When does Dr. Quist's DEA registration expire?"),
        absent(
            "vet-36",
            "What does Radiant charge per hour for an after-hours service call on the X-ray?",
        ),
        absent("vet-37", "How much do we charge for a rabies titer test?"),
        absent("vet-38", "What was our total revenue in August 2024?"),
        absent("vet-39", "What price did Northbrook quote us for the portable ultrasound machine?"),
        absent("vet-40", "What late fee does Bluestem charge if we pay an invoice late?"),
    ]
