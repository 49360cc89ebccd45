"""The questions of data/household, written before the offline answerer was run on it.

Computed answers (`answer.value`) come from the same tables the documents were written from.
"""

from __future__ import annotations

from .household_corpus import (
    AUTO,
    DIV,
    ELECTRIC,
    EOB,
    HOME,
    INTEREST,
    LEASE,
    RECEIPTS,
    W2,
    WATER,
    YEAR,
    _interest_path,
)
from .household_docs import money
from .questions import Question, absent, q


def _answer(question: Question, text: str, value: object) -> Question:
    question["answer"] = {"text": text, "value": value}
    return question


def _files(qid: str, question: str, text: str, value: object) -> Question:
    """A question about the files of a folder: no facts, a computed answer."""
    item = {"id": qid, "question": question, "level": "files", "facts": [], "sources": []}
    return _answer(item, text, value)


def _electric(month: int) -> str:
    return f"Bills/Electric/{YEAR}-{month:02d}.pdf"


def _single() -> list[Question]:
    hardware = next(r for r in RECEIPTS if "Hardware" in r[1])
    return [
        q(
            "hh-01",
            "What is the monthly rent in my lease, and how much is the security deposit?",
            "single",
            ("$2,150.00", LEASE),
            ("$3,225.00", LEASE),
        ),
        q(
            "hh-02",
            "Who is the landlord on my lease, and when does the lease end?",
            "single",
            ("Pinegrove Property Management LLC", LEASE),
            ("July 31, 2025", LEASE),
        ),
        q("hh-03", "What is the deductible on my home insurance policy?", "single", ("$750", HOME)),
        q(
            "hh-04",
            "How many kWh did I use according to my March 2024 electric bill?",
            "single",
            (str(ELECTRIC[3][0]), _electric(3)),
        ),
        q(
            "hh-05",
            "How much federal income tax was withheld on my W-2?",
            "single",
            ("$9,136.22", W2),
        ),
        q(
            "hh-06",
            "What is my patient responsibility on the explanation of benefits, and what "
            "service was it for?",
            "single",
            ("$146.35", EOB),
            ("MRI of the left knee", EOB),
        ),
        q(
            "hh-07",
            "What is the premium on my auto insurance policy?",
            "single",
            ("$1,122.60", AUTO),
        ),
        q(
            "hh-08",
            "What were the total ordinary dividends on my 1099-DIV?",
            "single",
            ("$864.55", DIV),
        ),
        q(
            "hh-09",
            "What was the total on my receipt from Alder Street Hardware?",
            "single",
            (money(hardware[3]), f"Receipts/{hardware[0]}"),
        ),
    ]


def _aggregate() -> list[Question]:
    banks = [(f, c) for _, f, y, c in INTEREST if y == YEAR]
    interest = sum(c for _, c in banks)
    electric = sum(c for _, c in ELECTRIC.values())
    kwh = sum(k for k, _ in ELECTRIC.values())
    top = max(ELECTRIC, key=lambda m: ELECTRIC[m][1])
    march = [r for r in RECEIPTS if r[0].startswith(f"{YEAR}-03")]
    return [
        _answer(
            q(
                "hh-10",
                f"What was my total interest income for {YEAR} across all banks?",
                "aggregate",
                *((money(c), _interest_path(f, YEAR)) for f, c in banks),
            ),
            money(interest),
            round(interest / 100, 2),
        ),
        _answer(
            q(
                "hh-11",
                f"How much did I pay for electricity in {YEAR} in total?",
                "aggregate",
                *((money(c), _electric(m)) for m, (_, c) in ELECTRIC.items()),
            ),
            money(electric),
            round(electric / 100, 2),
        ),
        _answer(
            q(
                "hh-12",
                f"What was the highest electricity bill in {YEAR}?",
                "aggregate",
                (money(ELECTRIC[top][1]), _electric(top)),
            ),
            f"{money(ELECTRIC[top][1])} ({YEAR}-{top:02d})",
            round(ELECTRIC[top][1] / 100, 2),
        ),
        _answer(
            q(
                "hh-13",
                f"How many receipts are from March {YEAR}?",
                "aggregate",
                *((money(r[3]), f"Receipts/{r[0]}") for r in march),
            ),
            f"{len(march)} receipts",
            len(march),
        ),
        _answer(
            q(
                "hh-14",
                f"How many kWh of electricity did I use in total across all my {YEAR} "
                "electric bills?",
                "aggregate",
                *((str(k), _electric(m)) for m, (k, _) in ELECTRIC.items()),
            ),
            f"{kwh:,} kWh",
            kwh,
        ),
        _answer(
            q(
                "hh-15",
                f"How much did I pay for water across all my {YEAR} water bills?",
                "aggregate",
                *((money(c), f"Bills/Water/{YEAR}-Q{n}.pdf") for n, c in WATER.items()),
            ),
            money(sum(WATER.values())),
            round(sum(WATER.values()) / 100, 2),
        ),
    ]


def _files_and_cross() -> list[Question]:
    cedar = [(f, y, c) for p, f, y, c in INTEREST if p.startswith("Cedar")]
    return [
        _files(
            "hh-16",
            "How many PDF files are in my Bills folder, including subfolders?",
            "8: six electric bills and two water bills",
            len(ELECTRIC) + len(WATER),
        ),
        _files(
            "hh-17",
            "Which files in Downloads are spreadsheets?",
            "household_budget_2024.xlsx (and the CSV export of card transactions)",
            "household_budget_2024.xlsx",
        ),
        _files(
            "hh-18",
            "How many PDF files are in my Taxes folder, including all subfolders?",
            "6: five 2024 forms and the 2023 1099-INT",
            len(INTEREST) + 2,
        ),
        _files("hh-19", "How many files are in my Receipts folder?", "5", len(RECEIPTS)),
        q(
            "hh-20",
            "What are the premiums of my home insurance and of my auto insurance?",
            "cross",
            ("$246.00", HOME),
            ("$1,122.60", AUTO),
        ),
        q(
            "hh-21",
            "How much interest did Cedar Valley Credit Union pay me in 2023 and in 2024?",
            "cross",
            *((money(c), _interest_path(f, y)) for f, y, c in sorted(cedar, key=lambda t: t[1])),
        ),
    ]


def questions() -> list[Question]:
    """Single facts, aggregates, folder-scoped file questions, cross-document and absent."""
    return [
        *_single(),
        *_aggregate(),
        *_files_and_cross(),
        absent("hh-22", "What is the pet deposit in my lease?"),
        absent(
            "hh-23",
            f"What was my total interest income for {YEAR} across all Redstone Bank accounts?",
        ),
        absent("hh-24", f"How much did I pay for natural gas in {YEAR}?"),
        absent("hh-25", "What is the VIN of my insured car?"),
    ]
