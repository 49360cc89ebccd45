"""Build data/contractor: the shared project drive of Ridgeline Builders LLC, an 8-person
building and renovation contractor in Ashby Falls, Vermont.

Bids/ holds the 2025 proposals and the bid log; Jobs/ one folder per job (J-2503 Pelletier
kitchen and addition, J-2507 Northlake Dental fit-out, J-2511 Adeyemi basement) with
subcontracts, change orders, permits, inspection reports, job cost workbooks, a client deck,
emails saved as text and a site log; Admin/ the insurance certificate and an equipment
rental agreement; Accounting/ monthly lumber-yard invoices, hardware store receipts and
weekly timesheets; Safety/ the safety program and toolbox-talk notes; Archive/ a superseded
draft proposal, a change order never issued and 2024 documents (certificate, invoice, a
failed inspection) as distractors.

This corpus is held out, like data/personal: its questions (contractor_questions.py) were
written before the offline answerer was ever run on it, by someone who did not read the
answerer's rules, and must never be tuned on.
"""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

from . import (
    contractor_bids,
    contractor_inspect,
    contractor_jobs,
    contractor_money,
    contractor_office,
    contractor_safety,
    contractor_subs,
)
from . import contractor_site as site
from .common import CorpusResult

NAME = "contractor"


def build(root: Path) -> CorpusResult:
    """Write the project drive under root/contractor; return its texts and questions."""
    out = root / NAME
    if out.exists():  # a rebuilt corpus holds exactly what is written now
        shutil.rmtree(out)
    out.mkdir(parents=True)
    result = CorpusResult(NAME)
    texts = result.texts
    contractor_bids.write(out, texts)
    contractor_subs.write(out, texts)
    contractor_jobs.change_orders(out, texts)
    contractor_inspect.permits(out, texts)
    contractor_inspect.inspections(out, texts)
    site.cost_books(out, texts)
    site.deck(out, texts)
    site.emails(out, texts)
    site.site_log(out, texts)
    contractor_office.certificates(out, texts)
    contractor_office.rental(out, texts)
    contractor_money.invoices(out, texts)
    contractor_money.receipts(out, texts)
    contractor_money.timesheets(out, texts)
    contractor_safety.write(out, texts)
    result.pages = dict.fromkeys(texts, 0)
    from .contractor_questions import questions

    result.questions = questions()
    kinds = Counter(Path(p).suffix for p in texts)
    result.notes.append("formats: " + ", ".join(f"{k[1:]} {n}" for k, n in sorted(kinds.items())))
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    result.notes.append(f"size: {size / 1024:.0f} KiB; held out (never tuned on)")
    return result
