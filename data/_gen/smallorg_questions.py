"""The questions of data/smallorg, written before the offline answerer was run on it.

Computed answers (`answer.value`) come from the same tables the documents were written from.
"""

from __future__ import annotations

from .household_questions import _answer, _files
from .questions import Question, absent, q
from .smallorg_corpus import (
    BLUE_HERON,
    BUDGET,
    COPPERLINE,
    DONORS,
    PINECREST,
    REIMBURSEMENTS,
    copperline_due,
    copperline_path,
    pinecrest_due,
    pinecrest_path,
    reimbursement_path,
    reimbursement_total,
)
from .smallorg_docs import cents
from .smallorg_records import (
    AGREEMENT,
    CITY,
    CITY_AMOUNT,
    HANDBOOK,
    INTERIM,
    LEASE,
    LINDQVIST,
    LINDQVIST_AMOUNT,
    MINUTES,
    QUOTE,
    ROSTER,
    WHITCOMBE,
    WHITCOMBE_GRANTS,
)


def _single() -> list[Question]:
    number, _, _, interim, _ = WHITCOMBE_GRANTS[2024]
    return [
        q(
            "so-01",
            "How many vacation days a year do full-time staff get?",
            "single",
            ("18 days of paid vacation", HANDBOOK),
        ),
        q(
            "so-02",
            "Who signed the IT services agreement for Harborlight, and what is the monthly fee?",
            "single",
            ("Renata Osei", AGREEMENT),
            ("$1,150.00", AGREEMENT),
        ),
        q(
            "so-03",
            "What is the meal per diem for out-of-state travel?",
            "single",
            ("$74 per day", HANDBOOK),
        ),
        q(
            "so-04",
            "How much is the security deposit on our office lease?",
            "single",
            ("$6,960.00", LEASE),
        ),
        q(
            "so-05",
            "What is the grant number of the Whitcombe Foundation's 2024 award?",
            "single",
            (number, WHITCOMBE[2024]),
        ),
        q(
            "so-06",
            "When is the interim report for the 2024 Whitcombe grant due?",
            "single",
            (interim, WHITCOMBE[2024]),
        ),
        q(
            "so-07",
            "How did the board vote on adopting the revised staff handbook at the March 2024 "
            "meeting?",
            "single",
            ("5 in favour, 1 opposed", MINUTES[3]),
        ),
        q(
            "so-08",
            "According to the Whitcombe interim report, how many learners completed at least "
            "40 instructional hours?",
            "single",
            ("158", INTERIM),
        ),
        q(
            "so-09",
            "What is the approved FY2024 budget for instructional materials?",
            "single",
            ("18500", BUDGET),
        ),
        q(
            "so-10",
            "How much did Blue Heron Print Shop charge us for the spring term flyers and posters?",
            "single",
            ("$386.40", BLUE_HERON),
        ),
        q(
            "so-11",
            "When did Priya Raman start working at Harborlight?",
            "single",
            ("2019-08-12", ROSTER),
        ),
        q(
            "so-12",
            "How much did Dr. Kenji Sato-Whitfield donate, and what was the gift designated for?",
            "single",
            ("2500.00", DONORS),
            ("Family Literacy Nights", DONORS),
        ),
    ]


def _cross() -> list[Question]:
    return [
        q(
            "so-13",
            "Which IT company did the board decide to keep in February 2024, and how many "
            "support hours a month does the agreement it refers to include?",
            "cross",
            ("Copperline Technology Services", MINUTES[2]),
            ("12 support hours", AGREEMENT),
        ),
        q(
            "so-14",
            "On which evenings are the ESL classes mentioned in the March 2024 minutes, and "
            "what building access hours apply under the lease exhibit the minutes cite?",
            "cross",
            ("Tuesday and Thursday", MINUTES[3]),
            ("6:30 a.m. to 10:00 p.m.", LEASE),
        ),
        q(
            "so-15",
            "What spending cap did the board set in April 2024 for the Chromebooks, and what "
            "was the total of the vendor quote it was based on?",
            "cross",
            ("$3,200", MINUTES[4]),
            ("$2,936.00", QUOTE),
        ),
    ]


def _aggregate() -> list[Question]:
    q1 = [(y, m) for y, m in PINECREST if y == 2024 and m <= 3]
    year = [(y, m) for y, m in PINECREST if y == 2024]
    top = max(year, key=lambda k: pinecrest_due(*k))
    march = [r for r in REIMBURSEMENTS if r[3].startswith("03/")]
    copper = sum(copperline_due(m) for m in COPPERLINE)
    awards = [
        (cents(WHITCOMBE_GRANTS[2024][1] * 100), WHITCOMBE[2024]),
        (cents(LINDQVIST_AMOUNT * 100), LINDQVIST),
        (cents(CITY_AMOUNT * 100), CITY),
    ]
    award_total = WHITCOMBE_GRANTS[2024][1] + LINDQVIST_AMOUNT + CITY_AMOUNT

    def total(question: Question, amount: int) -> Question:
        return _answer(question, cents(amount), round(amount / 100, 2))

    def claims(rows) -> tuple[tuple[str, str], ...]:
        return tuple((cents(reimbursement_total(r[4])), reimbursement_path(r[0])) for r in rows)

    return [
        total(
            q(
                "so-16",
                "How much did we pay Pinecrest Janitorial in total in the first quarter of 2024?",
                "aggregate",
                *((cents(pinecrest_due(*k)), pinecrest_path(*k)) for k in q1),
            ),
            sum(pinecrest_due(*k) for k in q1),
        ),
        total(
            q(
                "so-17",
                "What is the total of all reimbursements claimed by staff in March 2024?",
                "aggregate",
                *claims(march),
            ),
            sum(reimbursement_total(r[4]) for r in march),
        ),
        total(
            q(
                "so-18",
                "What is the total amount payable across all Copperline invoices?",
                "aggregate",
                *((cents(copperline_due(m)), copperline_path(m)) for m in COPPERLINE),
            ),
            copper,
        ),
        _answer(
            q(
                "so-19",
                "How much were we awarded in total across all the grant award letters and "
                "notices dated 2024?",
                "aggregate",
                *awards,
            ),
            f"${award_total:,}",
            award_total,
        ),
        total(
            q(
                "so-20",
                "What is the total balance due on Pinecrest Janitorial's 2024 invoices?",
                "aggregate",
                *((cents(pinecrest_due(*k)), pinecrest_path(*k)) for k in year),
            ),
            sum(pinecrest_due(*k) for k in year),
        ),
        _answer(
            q(
                "so-21",
                "Which 2024 Pinecrest invoice had the highest balance due?",
                "aggregate",
                (cents(pinecrest_due(*top)), pinecrest_path(*top)),
            ),
            f"{cents(pinecrest_due(*top))} ({top[0]}-{top[1]:02d})",
            round(pinecrest_due(*top) / 100, 2),
        ),
        total(
            q(
                "so-22",
                "How much have staff claimed in total across all the expense reimbursement forms?",
                "aggregate",
                *claims(REIMBURSEMENTS),
            ),
            sum(reimbursement_total(r[4]) for r in REIMBURSEMENTS),
        ),
    ]


def _files_questions() -> list[Question]:
    return [
        _files(
            "so-23",
            "How many Excel workbooks are in the Finance folder, including its subfolders?",
            "2: budget_FY2024.xlsx and Archive/budget_FY2023.xlsx",
            2,
        ),
        _files(
            "so-24",
            "How many PDFs are in the Grants folder, including subfolders?",
            "3: the two Whitcombe Foundation letters and the Lindqvist Family Fund letter",
            3,
        ),
        _files(
            "so-25",
            "How many files are in the Reimbursements folder?",
            str(len(REIMBURSEMENTS)),
            len(REIMBURSEMENTS),
        ),
        _files(
            "so-26",
            "Which file in Downloads is a PowerPoint presentation?",
            "annual_appeal_2023.pptx",
            "annual_appeal_2023.pptx",
        ),
    ]


def questions() -> list[Question]:
    """Single facts, cross-references, aggregates, folder questions and absent ones."""
    return [
        *_single(),
        *_cross(),
        *_aggregate(),
        *_files_questions(),
        absent("so-27", "How many days of bereavement leave does the staff handbook allow?"),
        absent(
            "so-28",
            "How much did we pay Pinecrest Janitorial in total in the third quarter of 2024?",
        ),
        absent("so-29", "How much did the Ellsworth Community Trust award us?"),
        absent("so-30", "What fee does our auditor charge for the annual financial audit?"),
    ]
