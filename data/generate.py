"""Regenerate the fsnb sample corpora under data/.

Usage: ``python data/generate.py``. Output is deterministic (byte-identical on rerun):

- ``data/test_acquisition/``  10 short interlinked PDFs (TechCorp acquires StartupXYZ)
- ``data/large_acquisition/`` 25 interlinked PDFs of 3-6 pages (GlobalTech acquires InnovateTech)
- ``data/mixed/``             DOCX, PPTX, XLSX, HTML, MD, CSV, TXT and awkward files
                               (Northwind Analytics acquires Bluefin Robotics)
- ``data/statements/``        12 monthly credit-card statement PDFs (a year of spending); their
                               ground-truth transactions go to ``data/_truth/statements.csv``
- ``data/household/``         a renter's household paperwork (tax forms from several payers,
                               monthly bills, insurance, a lease, receipts, Downloads); a
                               development corpus for aggregates and folder-scoped questions
- ``data/smallorg/``          a 12-person literacy nonprofit's shared drive (board minutes,
                               grant letters, vendor invoices, reimbursement forms, a staff
                               handbook, budgets, a lease, an IT agreement, drafts); a
                               development corpus
- ``data/vetclinic/``         a small veterinary clinic's office drive (supplier invoices,
                               equipment service contracts, premises and DEA registrations,
                               a staff handbook and roster, fee schedules, revenue, deposits,
                               meeting notes, drafts and archives); a development corpus
- ``data/lab/``               a university research lab's shared drive (grant awards and
                               budgets, equipment quotes and service agreements, reagent
                               invoices, safety manual and training records, IACUC and
                               biosafety approvals, protocols, lab meetings, a roster, travel
                               forms, a manuscript, archives, Downloads); a development corpus
- ``data/personal/``          a home folder of paperwork (tax forms, receipts, statements,
                               contracts, Downloads); held out: never tuned on
- ``data/contractor/``        a small building contractor's project drive (bids, subcontracts,
                               change orders, permits, inspections, supplier invoices,
                               timesheets, job costs, safety notes, an archive); held out too

Each corpus gets a ``questions.json`` whose facts are checked against the text written.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(DATA_DIR))

from _gen import (  # noqa: E402
    contractor_corpus,
    household_corpus,
    lab_corpus,
    large_corpus,
    mixed_corpus,
    personal_corpus,
    smallorg_corpus,
    statements_corpus,
    test_corpus,
    vetclinic_corpus,
)
from _gen.common import CorpusResult  # noqa: E402
from _gen.questions import check_facts, write_questions  # noqa: E402

BUILDERS: tuple[Callable[[Path], CorpusResult], ...] = (
    test_corpus.build,
    large_corpus.build,
    mixed_corpus.build,
    statements_corpus.build,
    household_corpus.build,
    smallorg_corpus.build,
    vetclinic_corpus.build,
    lab_corpus.build,
    personal_corpus.build,
    contractor_corpus.build,
)


def _summary(result: CorpusResult, root: Path) -> str:
    folder = root / result.name
    files = sorted(p for p in folder.rglob("*") if p.is_file() or p.is_symlink())
    data_files = [p for p in files if p.name != "questions.json"]
    levels = Counter(item["level"] for item in result.questions)
    lines = [f"{result.name}/: {len(data_files)} files"]
    pdf_pages = {name: n for name, n in result.pages.items() if n}
    if pdf_pages:
        lines.append(
            f"  PDFs: {len(pdf_pages)}, pages: {sum(pdf_pages.values())} "
            f"(min {min(pdf_pages.values())}, max {max(pdf_pages.values())})"
        )
    level_text = ", ".join(
        f"{lvl} {levels[lvl]}"
        for lvl in ("single", "cross", "multi", "aggregate", "files", "absent")
    )
    lines.append(f"  questions: {len(result.questions)} ({level_text})")
    lines += [f"  {note}" for note in result.notes]
    return "\n".join(lines)


def main(root: Path = DATA_DIR) -> int:
    """Build every corpus, write its questions and print a summary. Returns an exit code."""
    problems: list[str] = []
    summaries = []
    for build in BUILDERS:
        result = build(root)
        write_questions(result.name, result.questions, root / result.name)
        problems += [f"{result.name}: {msg}" for msg in check_facts(result.questions, result.texts)]
        summaries.append(_summary(result, root))
    print("\n".join(summaries))
    if problems:
        print("FACT CHECK FAILED:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1
    print("fact check: all question facts found in their source text")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
