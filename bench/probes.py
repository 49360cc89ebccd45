"""Probe the offline answerer with question forms the corpora's questions.json lack; prints
one JSON object.

Each probe asks one of the development corpora (never a held-out one) about its files, a
labelled value across documents of one kind, a table's rows, one fact of one document, or
something it does not hold (the answer must say so), in a wording the benchmark
(`bench/quality.py`) does not use. They were written, with their answers counted by `find`
or read off the documents and CSVs, before the changes that answer them (2026-11-29:
files 12 of 14 right, and a 13th only by the score, its answer counting the subfolders it
was asked to leave out; one document kind 6 of 11; tables 5 of 9; single facts 9 of 14),
so they measured how the rules carried to the next wording; now that they have been fixed
against, they are development data like the rest. Later batches were added the same way:
ten file probes (a folder's size or contents, folder counts, one format's extreme), 1 of
10 right when written, that one by luck; five files named by what they are ("How many
receipts do I have?"), 0 of 5; five more (the folder taking the most space, files "from"
a folder), 0 of 5; ten questions the folders cannot answer, 9 of 10. A probe
is right as `quality.score_question` scores it: the answer states its value (a number to
the cent, or a file name), quotes every fact, or says the documents do not hold it.

    .venv/bin/python bench/probes.py [--kind files|kind|tables|single|absent]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before fsnb: nothing may reach the model hub
sys.path.insert(0, str(Path(__file__).resolve().parent))

from quality import DATA, HELD_OUT, sandbox, score_question

#: (kind, corpus, question, value): a file count or name, a figure, the facts a single
#: document's answer must quote, or None for a question the folder cannot answer.
PROBES: tuple[tuple[str, str, str, float | str | tuple[str, ...] | None], ...] = (
    ("files", "household", "How many files are there in the Medical folder?", 2),
    ("files", "household", "How many .txt files are in Receipts?", 2),
    ("files", "household", "List the Markdown files under Taxes.", "checklist.md"),
    (
        "files",
        "household",
        "Which files in the Insurance folder are Word documents?",
        "home_policy.docx",
    ),
    ("files", "smallorg", "How many Word documents are in Board/Minutes?", 5),
    (
        "files",
        "smallorg",
        "How many files does the HR folder contain, including the Archive subfolder?",
        4,
    ),
    ("files", "smallorg", "Which CSV file is in the Finance folder?", "donors_2024.csv"),
    ("files", "smallorg", "How many PDF invoices are under Finance/Invoices?", 7),
    ("files", "vetclinic", "How many CSV files are in the whole folder?", 3),
    (
        "files",
        "vetclinic",
        "How many spreadsheets are in the Policies folder, counting its Archive?",
        2,
    ),
    (
        "files",
        "vetclinic",
        "Which files in Equipment are PDFs?",
        "Radiant_xray_service_2024-25.pdf",
    ),
    ("files", "vetclinic", "How many Markdown files are in the Licenses folder?", 1),
    ("files", "vetclinic", "How many PDF files are there in total?", 24),
    ("files", "vetclinic", "How many files are in Suppliers, not counting subfolders?", 1),
    # folder sizes, folder counts, a folder's contents, one format's extreme (2026-11-29,
    # written with their answers from find before the changes that answer them)
    ("files", "household", "How much space does the Receipts folder take up?", 2146),
    ("files", "household", "How big is the Insurance folder?", 39096),
    ("files", "vetclinic", "What is the total size of the Equipment folder?", 49071),
    ("files", "household", "How many subfolders does Bills have?", 3),
    ("files", "vetclinic", "How many folders are there?", 19),
    ("files", "household", "What's in the Medical folder?", "vaccination_record.txt"),
    ("files", "household", "Show me the contents of the Housing folder.", "lease.docx"),
    ("files", "smallorg", "What is the smallest PDF?", "chromebook_quote_Tekvalley.pdf"),
    ("files", "vetclinic", "Which is the largest Word document?", "employee_handbook_2024.docx"),
    ("files", "household", "Is there a spreadsheet in Downloads?", "household_budget_2024.xlsx"),
    # a size threshold over one format named by its plural, no "files" (3,113 bytes; the
    # next PDF, 3,064)
    ("files", "vetclinic", "How many PDFs are larger than 3 KB?", 1),
    # a folder named by the first word of its name (Suppliers/Bluestem_Diagnostics: 4)
    ("files", "vetclinic", "How many documents are in the Bluestem folder?", 4),
    # files named by what they are (2026-11-29, written before the change, 0 of 5 right):
    # the files of a folder so named, of the tree itself, or named so; where one is kept
    ("files", "household", "How many receipts do I have?", 5),
    ("files", "household", "How many tax forms are in Taxes/2024/forms?", 5),
    ("files", "household", "Where is my lease stored?", "lease.docx"),
    ("files", "vetclinic", "How many DEA registrations do we have on file?", 3),
    ("files", "statements", "How many statements are there?", 12),
    # a second batch (2026-11-29): 10 of 15 right when written; the five that were not
    ("files", "household", "Which folder takes up the most space?", "Insurance"),
    ("files", "household", "Which folder has the most files?", "Bills"),
    ("files", "vetclinic", "Name the files in Clients.", "visit_summary_2024-06-20_K-3012.txt"),
    ("files", "vetclinic", "What documents do we have from Clearwater?", "Clearwater_2024-Q1.txt"),
    ("files", "smallorg", "How many reimbursement forms are there?", 5),
    # one value from each document of a kind: water bills $64.20 and $71.85; receipts
    # $55.00 (February), $87.43, $23.16, $41.70 (March), $64.99 (April); six electric bills
    # $577.25; Copperline $1,150.00, $1,150.00, $1,411.25; reimbursements $884.04 over 5;
    # Bluestem $2,612.75, $2,266.15, $3,094.95, $2,858.40; Northfield $36,589.65 over
    # January to June, $17,439.40 of it in the first quarter
    ("kind", "household", "What was the smallest water bill in 2024?", 64.20),
    ("kind", "household", "How much did I spend across all my receipts from March 2024?", 152.29),
    ("kind", "household", "What was the average electric bill in 2024?", 577.25 / 6),
    ("kind", "household", "What was the total of all my receipts?", 272.28),
    ("kind", "smallorg", "What was the largest Copperline invoice?", 1411.25),
    (
        "kind",
        "smallorg",
        "What is the average amount payable on the Copperline invoices?",
        3711.25 / 3,
    ),
    ("kind", "smallorg", "What was the average reimbursement claimed by staff?", 884.04 / 5),
    (
        "kind",
        "vetclinic",
        "Which Bluestem invoice was the smallest, and what was its total?",
        2266.15,
    ),
    ("kind", "vetclinic", "What was the average Bluestem invoice total?", 10832.25 / 4),
    # what holds the values named as the subject of the verb ("did my savings accounts pay"),
    # which describes the documents (2026-11-29: written while trying a rule that no label
    # need hold those words; it made a held-out aggregate wrong and is not in. "cost" as a
    # verb of paying, tried too, summed a category's rows of two CSVs: not in either; 1 of 4.
    # 2026-11-29: "cost" is in, now that a label found in several rows of a document's
    # table is a category of its rows, not that document's one value: 2 of 4)
    ("kind", "household", "How much interest did my savings accounts pay me in 2024?", 1522.29),
    ("kind", "household", "What did my electric bills cost me in total in 2024?", 577.25),
    ("kind", "smallorg", "How much did our Copperline invoices charge us altogether?", 3711.25),
    ("kind", "vetclinic", "How much did our Bluestem lab invoices cost in total?", 10832.25),
    (
        "kind",
        "vetclinic",
        "How much did Northfield Vet Supply bill us in the second quarter of 2024?",
        19150.25,
    ),
    (
        "kind",
        "vetclinic",
        "How much did Bluestem charge us for January and February 2024 together?",
        4878.90,
    ),
    # table rows: vetclinic/Finance/revenue_2024.csv, smallorg/Finance/donors_2024.csv,
    # data/_truth/statements.csv
    ("tables", "vetclinic", "What was our total surgery revenue in 2024?", 144400.0),
    ("tables", "vetclinic", "What was total revenue for the first quarter of 2024?", 390896.5),
    ("tables", "vetclinic", "What was the average monthly total revenue?", 825668.75 / 6),
    ("tables", "smallorg", "How many donor gifts did we receive in 2024?", 11),
    ("tables", "smallorg", "What did all donor gifts in 2024 add up to?", 12495.0),
    ("tables", "smallorg", "How much was given for general operating, in total?", 2900.0),
    ("tables", "smallorg", "What was the largest single donation in 2024?", 5000.0),
    ("tables", "statements", "How much did I spend on groceries in March 2025?", 403.62),
    ("tables", "statements", "What was my total dining spending in 2025?", 5545.59),
    # one fact of one document, some asked of a folder (9 of 14 right when written)
    ("single", "household", "In my Housing folder, what is the late fee on the rent?", ("$75.00",)),
    ("single", "household", "When does my apartment lease end?", ("July 31, 2025",)),
    ("single", "household", "What car is insured on my auto policy?", ("2019 Subaru Outback",)),
    ("single", "household", "What is the collision deductible on the car insurance?", ("$1,000",)),
    ("single", "household", "Who is my landlord?", ("Pinegrove Property Management LLC",)),
    ("single", "smallorg", "On what date is the office closed for Juneteenth?", ("Wed 19 Jun",)),
    ("single", "smallorg", "How many days a year is the office closed for holidays?", ("11 days",)),
    (
        "single",
        "smallorg",
        "What is the monthly base rent for the Quarry Street office?",
        ("$3,480.00",),
    ),
    (
        "single",
        "smallorg",
        "Under Operations/Contracts, when does the office lease end?",
        ("June 30, 2027",),
    ),
    (
        "single",
        "smallorg",
        "How big a security deposit did we pay on the office lease?",
        ("$6,960.00",),
    ),
    (
        "single",
        "vetclinic",
        "Where should clients go for an emergency after hours?",
        ("Green Mountain Animal Emergency",),
    ),
    ("single", "vetclinic", "When does Mei Tanaka need to renew her licence?", ("2025-03-31",)),
    (
        "single",
        "vetclinic",
        "How many continuing education hours do vets need per cycle?",
        ("30 hours",),
    ),
    ("single", "vetclinic", "What is Tobias Fenwick's licence number?", ("038.0014420",)),
    # questions the folder cannot answer (2026-11-29, 9 of 10 right when written): the
    # answer must say it is not found (value None)
    ("absent", "household", "What is my passport number?", None),
    ("absent", "household", "How much was my gas bill in March 2024?", None),
    ("absent", "household", "What is the policy number of my life insurance?", None),
    ("absent", "household", "When is my next dentist appointment?", None),
    ("absent", "smallorg", "How much did we spend on catering for the spring gala?", None),
    ("absent", "smallorg", "How many volunteers attended the spring gala?", None),
    ("absent", "vetclinic", "What is the clinic's Wi-Fi password?", None),
    ("absent", "vetclinic", "Who is the clinic's landlord?", None),
    ("absent", "statements", "What was the mortgage interest rate?", None),
    ("absent", "statements", "How much was withdrawn from the savings account in March?", None),
    # Written 2026-11-29 before any change they judge: near misses, each about a thing of a
    # kind the folder holds (bills, fees, insurance), not about that thing.
    ("absent", "household", "How much was my phone bill in April 2024?", None),
    ("absent", "household", "When does my gym membership renew?", None),
    ("absent", "household", "What is the warranty period of my refrigerator?", None),
    ("absent", "household", "How much did I pay the veterinarian in 2024?", None),
    ("absent", "household", "What was my 1099-NEC income for 2024?", None),
    ("absent", "household", "What is my employer's 401(k) match?", None),
    ("absent", "statements", "How much did I spend at Starbucks in 2025?", None),
    ("absent", "statements", "What is the card's annual fee?", None),
    ("absent", "statements", "What was the credit limit on the card?", None),
    ("absent", "smallorg", "Who is the organization's auditor?", None),
    ("absent", "smallorg", "What is the office fax number?", None),
    ("absent", "smallorg", "How much does the office internet service cost per month?", None),
    ("absent", "vetclinic", "What does the clinic charge for an ultrasound?", None),
    ("absent", "vetclinic", "How many horses did the clinic treat in May 2024?", None),
    ("absent", "vetclinic", "Who is the clinic's insurance carrier?", None),
)


def run(kinds: set[str] | None = None) -> dict[str, object]:
    """Explore every probe (of `kinds`) offline; the figures and each probe's answer line."""
    import fsnb

    rows = []
    for kind, corpus, question, value in PROBES:
        if (kinds and kind not in kinds) or corpus in HELD_OUT:
            continue
        facts = [{"text": f} for f in value] if isinstance(value, tuple) else []
        item = {"question": question, "facts": facts, "sources": [], "level": kind}
        item["answer"] = {} if facts or value is None else {"value": value}
        if value is None:
            item |= {"level": "absent", "expect": "not_found"}
        result = fsnb.explore(question, folder=DATA / corpus, llm="offline")
        right = score_question(item, result)["right"]
        first = next((line for line in result.answer.splitlines() if line.strip()), "")
        rows.append({"kind": kind, "corpus": corpus, "question": question, "right": right,
                     "first_line": first[:200]})  # fmt: skip
    by_kind = {
        k: {"right": sum(r["right"] for r in rows if r["kind"] == k),
            "n": sum(r["kind"] == k for r in rows)}
        for k in dict.fromkeys(r["kind"] for r in rows)
    }  # fmt: skip
    return {"right": sum(r["right"] for r in rows), "n": len(rows), "by_kind": by_kind,
            "probes": rows}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--kind", action="append", choices=("files", "kind", "tables", "single", "absent")
    )
    args = parser.parse_args()
    with sandbox(warm=True):
        report = run(set(args.kind) if args.kind else None)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
