"""The questions of data/lab, written before the offline answerer was run on it.

Computed answers (`answer.value`) come from the same tables the documents were written from,
and folder answers from the files written under ``out``.
"""

from __future__ import annotations

from pathlib import Path

from .household_questions import _answer, _files
from .lab_corpus import (
    ALDER,
    BRAMWELL,
    FREEZER_LOG,
    RIVERBEND,
    TRAVEL,
    alder_path,
    alder_total,
    bramwell_due,
    bramwell_path,
    riverbend_due,
    riverbend_path,
    travel_path,
    travel_total,
)
from .lab_docs import (
    CONFOCAL,
    DMS,
    FREEZER_INVOICE,
    FREEZER_QUOTE,
    IACUC,
    IBC,
    MANUAL,
    MARR_LETTER,
    NOA,
    RPPR,
    SEQ,
    SEQ_OLD,
    dollars,
    nih_direct,
    nih_total,
)
from .lab_records import MEETINGS, RNA, ROSTER, TRAINING
from .questions import Question, absent, q
from .smallorg_docs import cents


def _dollars(question: Question, amount: int) -> Question:
    return _answer(question, cents(amount), round(amount / 100, 2))


def _trip(name: str, year: int = 2024) -> tuple:
    return next(t for t in TRAVEL if t[2] == name and t[1] == year)


def _single() -> list[Question]:
    asante = travel_path(_trip("Kwame Asante"))
    return [
        q(
            "lab-01",
            "What's the number of our zebrafish animal protocol, and until when is it approved?",
            "single",
            ("A2023-0418", IACUC),
            ("May 15, 2026", IACUC),
        ),
        q(
            "lab-02",
            "When does the biosafety committee's approval for our lentivirus work run out?",
            "single",
            ("September 30, 2025", IBC),
        ),
        q(
            "lab-03",
            "What will the sequencer's service plan cost us for 2024-25, and how fast does "
            "Corvane have to get an engineer to us when runs can't go ahead?",
            "single",
            ("$11,400.00", SEQ),
            ("within 2 business days", SEQ),
        ),
        q(
            "lab-04",
            "How much a year is the confocal maintenance contract, and which laser does it "
            "leave out?",
            "single",
            ("$8,250.00", CONFOCAL),
            ("405 nm", CONFOCAL),
        ),
        q(
            "lab-05",
            "What did NIH approve in direct costs for the second year of the R01?",
            "single",
            (dollars(nih_direct(2)), NOA[2]),
        ),
        q(
            "lab-06",
            "What's the grant number for Hannah's foundation grant, and how much is it for in "
            "total?",
            "single",
            ("EMF-2024-031", MARR_LETTER),
            ("$180,000", MARR_LETTER),
        ),
        q(
            "lab-07",
            "When is Tomas Echeverria's postdoc appointment due to end?",
            "single",
            ("2025-08-31", ROSTER),
        ),
        q(
            "lab-08",
            "How often are we supposed to run the eyewash stations, and for how long each time?",
            "single",
            ("flushed for 3 minutes every week", MANUAL),
        ),
        q(
            "lab-09",
            "When does Yuki have to redo her zebrafish animal-use training?",
            "single",
            ("2026-10-12", TRAINING),
        ),
        q(
            "lab-10",
            "Which day in June did the -80 go into alarm, and how warm did it get?",
            "single",
            ("2024-06-17", FREEZER_LOG),
            ("-58", FREEZER_LOG),
        ),
        q(
            "lab-11",
            "In our TRIzol RNA prep, how hard and how long do we spin the samples right after "
            "the chloroform goes in?",
            "single",
            ("12,000 x g for 15 minutes at 4 °C", RNA),
        ),
        q(
            "lab-12",
            "Where do we have to put the sequencing data for the R01, and how long do we keep "
            "raw data afterwards?",
            "single",
            ("Gene Expression Omnibus", DMS),
            ("at least 7 years after the end of the award", DMS),
        ),
        q(
            "lab-13",
            "How much did Kwame claim for his hotel on the Portland trip?",
            "single",
            ("$704.00", asante),
        ),
        q(
            "lab-14",
            "According to the year 1 progress report, how many lncRNAs went up after cryoinjury?",
            "single",
            ("37 lncRNAs", RPPR),
        ),
    ]


def _cross() -> list[Question]:
    return [
        q(
            "lab-15",
            "Which grant pays Hannah Bly's salary, and when does that grant's funding period end?",
            "cross",
            ("EMF-2024-031", ROSTER),
            ("December 31, 2025", MARR_LETTER),
        ),
        q(
            "lab-16",
            "When is Kwame's thesis defense, and when does his appointment in the lab end?",
            "cross",
            ("November 18, 2024", MEETINGS[5]),
            ("2024-12-31", ROSTER),
        ),
        q(
            "lab-17",
            "What was Arctis's quote for the new -80 freezer, and what did the invoice finally "
            "come to?",
            "cross",
            ("$14,992.00", FREEZER_QUOTE),
            ("$15,522.00", FREEZER_INVOICE),
        ),
        q(
            "lab-18",
            "How much more are we paying Corvane for the sequencer service plan this year than "
            "under last year's agreement?",
            "cross",
            ("$11,400.00", SEQ),
            ("$10,650.00", SEQ_OLD),
        ),
    ]


def _aggregate() -> list[Question]:
    year = [k for k in BRAMWELL if k[0] == 2024]
    spring = [k for k in year if 4 <= k[1] <= 6]
    top = max(year, key=lambda k: bramwell_due(*k))
    trips = [t for t in TRAVEL if t[1] == 2024]

    def bramwell(keys: list[tuple[int, int]]) -> tuple[tuple[str, str], ...]:
        return tuple((cents(bramwell_due(*k)), bramwell_path(*k)) for k in keys)

    nih = nih_total(1) + nih_total(2)
    return [
        _dollars(
            q(
                "lab-19",
                "What did we pay Bramwell Scientific altogether for January through June 2024?",
                "aggregate",
                *bramwell(year),
            ),
            sum(bramwell_due(*k) for k in year),
        ),
        _dollars(
            q(
                "lab-20",
                "How much did Bramwell bill us for the second quarter of 2024?",
                "aggregate",
                *bramwell(spring),
            ),
            sum(bramwell_due(*k) for k in spring),
        ),
        _answer(
            q(
                "lab-21",
                "Which month of 2024 had the largest Bramwell invoice, and how much was it?",
                "aggregate",
                (cents(bramwell_due(*top)), bramwell_path(*top)),
            ),
            f"{cents(bramwell_due(*top))} ({top[0]}-{top[1]:02d})",
            round(bramwell_due(*top) / 100, 2),
        ),
        _dollars(
            q(
                "lab-22",
                "What do the Alder Biosciences invoices for 2024 come to in total?",
                "aggregate",
                *((cents(alder_total(m)), alder_path(m)) for m in ALDER),
            ),
            sum(alder_total(m) for m in ALDER),
        ),
        _dollars(
            q(
                "lab-23",
                "How much have we spent on fish-room supplies from Riverbend so far this year?",
                "aggregate",
                *((cents(riverbend_due(r[2])), riverbend_path(r[0])) for r in RIVERBEND),
            ),
            sum(riverbend_due(r[2]) for r in RIVERBEND),
        ),
        _answer(
            q(
                "lab-24",
                "Adding up both budget periods, how much has NIH awarded on the R01 so far, "
                "indirect costs included?",
                "aggregate",
                *((dollars(nih_total(p)), NOA[p]) for p in NOA),
            ),
            dollars(nih),
            nih,
        ),
        _dollars(
            q(
                "lab-25",
                "How much have we reimbursed people for conference travel in 2024 in total?",
                "aggregate",
                *((cents(travel_total(t)), travel_path(t)) for t in trips),
            ),
            sum(travel_total(t) for t in trips),
        ),
        _answer(
            q(
                "lab-26",
                "How many conference trips in 2024 did lab members file reimbursement forms for?",
                "aggregate",
                *((t[0], travel_path(t)) for t in trips),
            ),
            f"{len(trips)} trips",
            len(trips),
        ),
    ]


def _largest(folder: Path) -> tuple[str, int]:
    files = [p for p in folder.rglob("*") if p.is_file()]
    sizes = sorted(((p.stat().st_size, p) for p in files), reverse=True)
    if sizes[0][0] == sizes[1][0]:
        raise ValueError(f"{folder}: two largest files tie")
    size, path = sizes[0]
    return path.relative_to(folder).as_posix(), size


def _files_questions(out: Path) -> list[Question]:
    bramwell = len([k for k in BRAMWELL if k[0] == 2024])
    order_pdfs = bramwell + len(ALDER)
    grant_files = len([p for p in (out / "Grants").rglob("*") if p.is_file()])
    largest, size = _largest(out / "Equipment")
    return [
        _files(
            "lab-27",
            "How many PDFs are there under Orders, vendor subfolders included?",
            f"{order_pdfs}: six Bramwell invoices and four Alder invoices",
            order_pdfs,
        ),
        _files(
            "lab-28",
            "How many files does the Grants folder hold, counting everything in its subfolders?",
            str(grant_files),
            grant_files,
        ),
        _files(
            "lab-29",
            "How many of the protocols in the Protocols folder are Word documents?",
            "2: zebrafish_ventricle_cryoinjury.docx and lentivirus_production_BSL2.docx",
            2,
        ),
        _files(
            "lab-30",
            "What's the biggest file in the Equipment folder, subfolders included?",
            f"{largest} ({size:,} bytes)",
            largest,
        ),
        _files(
            "lab-31",
            "Which vendor's folder under Orders has the most files in it?",
            f"Bramwell_Scientific ({bramwell} invoices)",
            "Bramwell_Scientific",
        ),
        _files(
            "lab-32",
            "How many PDF files are sitting in Downloads?",
            "3: the December 2023 Bramwell invoice, the Lumira Optics camera quote and the "
            "NovaRead 200 quick reference",
            3,
        ),
    ]


def questions(out: Path) -> list[Question]:
    """Single facts, cross-references, aggregates, folder questions and absent ones."""
    return [
        *_single(),
        *_cross(),
        *_aggregate(),
        *_files_questions(out),
        absent("lab-33", "What's the IRB approval number for our human subjects study?"),
        absent("lab-34", "How much did Bramwell Scientific bill us for July 2024?"),
        absent("lab-35", "When does Dr. Nikhil Varga's appointment in the lab end?"),
        absent(
            "lab-36",
            "What hourly rate does Corvane charge for sequencer repairs the service plan "
            "doesn't cover?",
        ),
        absent("lab-37", "How much has the American Heart Association awarded the lab?"),
        absent("lab-38", "When was the biosafety cabinet last certified?"),
        absent("lab-39", "What did Alder Biosciences invoice us for April 2024?"),
        absent("lab-40", "How much does the service contract on the -80 freezer cost per year?"),
    ]
