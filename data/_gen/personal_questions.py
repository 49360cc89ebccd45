"""The held-out questions of data/personal, written before any fitting of the offline
answerer; every figure is computed from what the generator wrote.

Levels: "single" (one document), "files" (about the files of a folder, answered from the
listing), "aggregate" (the same labelled value collected from several documents of one kind
and added up, or compared), "cross" (two documents together) and "absent" (the folder does
not hold it: the right answer says it is not found). A computed answer carries
`answer.value`: a number (a total, a count, a difference) or a file name.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from . import personal_bank as b
from . import personal_docs as docs
from . import personal_misc as misc
from . import personal_money as m
from .questions import Question, absent

LEVELS = ("single", "files", "aggregate", "cross")


def ask(
    qid: str,
    question: str,
    level: str,
    *facts: tuple[str, str],
    value: Any = None,
    answer: str | None = None,
    sources: tuple[str, ...] = (),
) -> Question:
    """A question in the questions.json schema; `facts` are (literal text, source path).
    `value` is a computed answer (a total, a count, a file name) with `answer` its wording;
    `sources` adds sources that hold no fact (a spreadsheet whose rows are summed)."""
    if level not in LEVELS:
        raise ValueError(f"{qid}: bad level {level!r}")
    item: Question = {
        "id": qid,
        "question": question,
        "level": level,
        "facts": [{"text": text, "source": src} for text, src in facts],
        "sources": list(dict.fromkeys([*(src for _, src in facts), *sources])),
    }
    if answer is not None:
        item["answer"] = {"text": answer, "value": value}
    return item


def _files(folder: Path, pattern: str = "*") -> list[Path]:
    return sorted(p for p in folder.rglob(pattern) if p.is_file())


def _dollars(cents: int) -> float:
    return round(cents / 100, 2)


def questions(out: Path) -> list[Question]:
    """The held-out questions; every figure is computed from what was written."""
    nec24 = [r for r in m.NEC if r[0] == 2024]
    nec23 = [r for r in m.NEC if r[0] == 2023]
    int24 = [r for r in m.INT if r[0] == 2024]
    greenleaf = [r for r in b.RECEIPTS if r.store == "GreenLeaf Grocers"]
    hartwell = [r for r in b.RECEIPTS if r.store == "Hartwell Hardware"]
    months = b.statements()
    march = months[2]
    top = max(months, key=lambda s: s.end)
    owed = [sum(line[4] for line in row[4]) for row in misc.EOBS]
    tax23, tax24 = m.PROPERTY_TAX[2023][0], m.PROPERTY_TAX[2024][0]
    meridian = {r[0]: r[4] for r in m.INT if r[1].startswith("Meridian")}
    estimated = sum(row[3] for row in m.ESTIMATED)
    taxes_pdfs = _files(out / "Taxes", "*.pdf")
    tax24_files = _files(out / "Taxes" / "2024")
    receipts = _files(out / "Receipts", "*.pdf")
    downloads = _files(out / "Downloads")
    largest = max(downloads, key=lambda p: p.stat().st_size)
    if largest.name != Path(docs.MANUAL).name:
        raise ValueError(f"the manual must be the largest download, not {largest.name}")
    apex = [r for r in b.export_rows()[1:] if r[1].startswith("APEX")]
    apex_paid = -sum(round(float(r[2]) * 100) for r in apex)
    L, E, A = docs.LEASE, docs.ELEVATOR, docs.AMENDMENT

    def total(name: str, cents: int) -> dict[str, Any]:
        return {"value": _dollars(cents), "answer": f"{m.money(cents)} ({name})"}

    return [
        ask(
            "personal-01",
            "What is the monthly rent in my apartment lease?",
            "single",
            (m.money(docs.RENT), L),
        ),
        ask("personal-02", "When does my apartment lease end?", "single", ("August 31, 2025", L)),
        ask(
            "personal-03",
            "How much was the security deposit on my apartment lease?",
            "single",
            (m.money(docs.DEPOSIT), L),
        ),
        ask(
            "personal-04",
            "How much federal income tax was withheld on my 2024 W-2?",
            "single",
            (m.money(m.W2[2024][2]), m.w2_path(2024)),
        ),
        ask(
            "personal-05",
            "How much did Oakridge Dental Group pay me in 2024?",
            "single",
            (m.money(385_000), m.nec_path(2024, "Oakridge Dental Group, PC")),
        ),
        ask(
            "personal-06",
            "What is the total 2024 property tax on 87 Maple Street, and when is the second "
            "half due?",
            "single",
            (m.money(tax24), m.property_tax_path(2024)),
            (m.PROPERTY_TAX[2024][2], m.property_tax_path(2024)),
        ),
        ask(
            "personal-07",
            "What is the deductible on my renters insurance?",
            "single",
            ("$500", docs.RENTERS),
        ),
        ask(
            "personal-08",
            "What is the annual premium of the landlord insurance policy for 87 Maple Street?",
            "single",
            ("$3,940.00", docs.LANDLORD),
        ),
        ask(
            "personal-09",
            "What was the ending balance on my March 2024 checking statement?",
            "single",
            (m.money(march.end), b.statement_path(3)),
        ),
        ask(
            "personal-10",
            "Who prescribed my lisinopril, and what is the dose?",
            "single",
            ("Dr. Anita Rao", docs.MEDICATIONS),
            ("10 mg", docs.MEDICATIONS),
        ),
        ask(
            "personal-11",
            "Which toner cartridge does my Corvin LP-220 printer take?",
            "single",
            ("CT-220", docs.MANUAL),
        ),
        ask(
            "personal-12",
            "How much did I owe for the knee MRI at Lakeview Imaging?",
            "single",
            (m.money(owed[1]), misc.EOBS[1][0]),
        ),
        ask(
            "personal-13",
            "Who is my accountant for the 2024 taxes, and when is the appointment?",
            "single",
            ("Morales & Pike CPAs", docs.TAX_NOTES),
            ("March 12, 2025", docs.TAX_NOTES),
        ),
        ask(
            "personal-14",
            "What is the annual price of the boiler service agreement?",
            "single",
            (m.money(docs.BOILER_YEAR), docs.BOILER),
        ),
        ask(
            "personal-15",
            "On what date did I pay my third-quarter 2024 estimated tax?",
            "single",
            ("September 13, 2024", docs.ESTIMATED),
        ),
        ask(
            "personal-16",
            "How much did I pay in estimated taxes for 2024 in total?",
            "single",
            value=float(estimated),
            answer=f"${estimated:,}.00 over four quarterly payments",
            sources=(docs.ESTIMATED,),
        ),
        ask(
            "personal-17",
            "According to the checking export in Downloads, how much did I pay Apex Vertical "
            "Transport from July to September 2024?",
            "single",
            value=_dollars(apex_paid),
            answer=f"{m.money(apex_paid)} ({len(apex)} payments)",
            sources=(docs.EXPORT,),
        ),
        # -- files: answered from the listing of a folder -------------------------------
        ask(
            "personal-18",
            "How many PDF files are in my Taxes folder, including all subfolders?",
            "files",
            value=len(taxes_pdfs),
            answer=f"{len(taxes_pdfs)} PDF files (Taxes/2023 and Taxes/2024)",
        ),
        ask(
            "personal-19",
            "What is the largest file in Downloads?",
            "files",
            value=largest.name,
            answer=f"{largest.name} ({largest.stat().st_size:,} bytes)",
        ),
        ask(
            "personal-20",
            "How many receipts are in my Receipts folder, including the Home Office subfolder?",
            "files",
            value=len(receipts),
            answer=f"{len(receipts)} PDF receipts",
        ),
        ask(
            "personal-21",
            "Which file in Downloads is a copy of one of my bank statements?",
            "files",
            value=Path(docs.COPY).name,
            answer=f"{Path(docs.COPY).name}, the same bytes as {b.statement_path(3)}",
        ),
        ask(
            "personal-22",
            "How many files are in Taxes/2024?",
            "files",
            value=len(tax24_files),
            answer=f"{len(tax24_files)} files",
        ),
        ask(
            "personal-23",
            "Which spreadsheet is in my Taxes folder?",
            "files",
            value=Path(docs.ESTIMATED).name,
            answer=docs.ESTIMATED,
        ),
        # -- aggregates: one labelled value from each document of a kind ----------------
        ask(
            "personal-24",
            "What was my total 1099-NEC income for 2024, across all clients?",
            "aggregate",
            *((m.money(r[4]), m.nec_path(2024, r[1])) for r in nec24),
            **total("three 1099-NEC forms", sum(r[4] for r in nec24)),
        ),
        ask(
            "personal-25",
            "How much interest did the bank pay me in 2024 across all 1099-INT forms?",
            "aggregate",
            *((m.money(r[4]), m.int_path(2024, r[1])) for r in int24),
            **total("three 1099-INT forms", sum(r[4] for r in int24)),
        ),
        ask(
            "personal-26",
            "What did I spend in total at GreenLeaf Grocers across my receipts?",
            "aggregate",
            *((m.money(r.total), r.path) for r in greenleaf),
            **total("three receipts", sum(r.total for r in greenleaf)),
        ),
        ask(
            "personal-27",
            "How much did I spend at Hartwell Hardware in 2024, adding up all my receipts?",
            "aggregate",
            *((m.money(r.total), r.path) for r in hartwell),
            **total("two receipts", sum(r.total for r in hartwell)),
        ),
        ask(
            "personal-28",
            "How much interest did my checking account earn from January through June 2024, "
            "across the monthly statements?",
            "aggregate",
            *((m.money(s.interest), b.statement_path(s.month)) for s in months),
            **total(
                "six statements; the copy in Downloads is not counted",
                sum(s.interest for s in months),
            ),
        ),
        ask(
            "personal-29",
            "How much rent did I pay for my apartment from my checking account from January to "
            "June 2024?",
            "aggregate",
            *((b.plain(b.OLD_RENT), b.statement_path(s.month)) for s in months),
            **total("six payments to Harbor View Residences", b.OLD_RENT * len(months)),
        ),
        ask(
            "personal-30",
            "How much did I owe in total across my 2024 Explanation of Benefits statements?",
            "aggregate",
            *((m.money(o), row[0]) for o, row in zip(owed, misc.EOBS, strict=True)),
            **total("three claims", sum(owed)),
        ),
        ask(
            "personal-31",
            "What was my total 1099-NEC income for 2023?",
            "aggregate",
            *((m.money(r[4]), m.nec_path(2023, r[1])) for r in nec23),
            **total("two 1099-NEC forms", sum(r[4] for r in nec23)),
        ),
        ask(
            "personal-32",
            "In which month from January to June 2024 was my checking account's ending balance "
            "the highest?",
            "aggregate",
            (m.money(top.end), b.statement_path(top.month)),
            answer=f"{dt.date(2024, top.month, 1):%B} 2024 ({m.money(top.end)})",
            sources=tuple(b.statement_path(s.month) for s in months),
        ),
        # -- cross: two documents together --------------------------------------------
        ask(
            "personal-33",
            "Which company maintains the elevator at 87 Maple Street, and what is the monthly "
            "fee now?",
            "cross",
            ("Apex Vertical Transport Services", E),
            (m.money(m.NEW_ELEVATOR_FEE), A),
            answer=f"{docs.ELEVATOR_CO}; {m.money(m.NEW_ELEVATOR_FEE)} a month since January 1, "
            f"2025 (Amendment No. 1 raised it from {m.money(m.ELEVATOR_FEE)})",
        ),
        ask(
            "personal-34",
            "How much did the property tax on 87 Maple Street go up from 2023 to 2024?",
            "cross",
            (m.money(tax23), m.property_tax_path(2023)),
            (m.money(tax24), m.property_tax_path(2024)),
            value=_dollars(tax24 - tax23),
            answer=f"{m.money(tax24 - tax23)} (from {m.money(tax23)} to {m.money(tax24)})",
        ),
        ask(
            "personal-35",
            "How much more interest did Meridian Online Savings Bank pay me in 2024 than in 2023?",
            "cross",
            (m.money(meridian[2023]), m.int_path(2023, "Meridian Online Savings Bank")),
            (m.money(meridian[2024]), m.int_path(2024, "Meridian Online Savings Bank")),
            value=_dollars(meridian[2024] - meridian[2023]),
            answer=m.money(meridian[2024] - meridian[2023]),
        ),
        ask(
            "personal-36",
            "What do the elevator and boiler contracts for 87 Maple Street cost per month "
            "together, at the current elevator fee?",
            "cross",
            (m.money(m.NEW_ELEVATOR_FEE), A),
            (m.money(docs.BOILER_MONTH), docs.BOILER),
            value=_dollars(m.NEW_ELEVATOR_FEE + docs.BOILER_MONTH),
            answer=m.money(m.NEW_ELEVATOR_FEE + docs.BOILER_MONTH),
        ),
        ask(
            "personal-37",
            "Which insurance company covers my apartment, and which one covers the Maple Street "
            "building?",
            "cross",
            ("Northstar Mutual", docs.RENTERS),
            ("Keystone Property & Casualty", docs.LANDLORD),
        ),
        # -- absent: the folder does not hold the answer ------------------------------
        absent("personal-38", "What is the monthly fee for snow removal at 87 Maple Street?"),
        absent("personal-39", "How much mortgage interest did I pay in 2024?"),
        absent("personal-40", "What was the total of my 1099-MISC forms for 2024?"),
        absent("personal-41", "What is my car insurance premium?"),
        absent("personal-42", "How much did I spend at Sunrise Bakery?"),
        absent(
            "personal-43", "What was the ending balance on my September 2024 checking statement?"
        ),
        absent("personal-44", "What is the late fee in my elevator maintenance agreement?"),
        absent(
            "personal-45",
            "How long is the warranty on the docking station I bought at Pixel Point?",
        ),
    ]
