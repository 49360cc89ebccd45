"""The paraphrases of the smallorg questions: the same facts asked in another user's
words (`data/_gen/paraphrase.py`), written before the offline answerer was run on them."""

from __future__ import annotations

from .paraphrase import Rewording

#: (paraphrase id, original id, the paraphrase's wording)
PARAPHRASES: tuple[Rewording, ...] = (
    ("so-p01", "so-01", "How much paid vacation does a full-time employee earn per year?"),
    (
        "so-p02",
        "so-03",
        "What daily meal allowance do staff get when travelling outside the state?",
    ),
    ("so-p03", "so-04", "How much security deposit did we hand over for the Quarry Street office?"),
    (
        "so-p04",
        "so-06",
        "What's the deadline for the Whitcombe Foundation's interim report on the 2024 grant?",
    ),
    ("so-p05", "so-10", "What was Blue Heron's bill for printing our spring flyers and posters?"),
    ("so-p06", "so-11", "When was Priya Raman hired?"),
    ("so-p07", "so-16", "What did Pinecrest Janitorial bill us for Q1 2024 altogether?"),
    ("so-p08", "so-17", "How much did staff claim in expense reimbursements during March 2024?"),
    ("so-p09", "so-18", "What do the Copperline invoices add up to?"),
    ("so-p10", "so-19", "How much grant money were we awarded in 2024 altogether?"),
    ("so-p11", "so-20", "What do Pinecrest's 2024 invoices come to altogether?"),
    ("so-p12", "so-21", "Which month in 2024 was Pinecrest's largest invoice, and for how much?"),
    ("so-p13", "so-22", "What do the staff expense claims on the reimbursement forms add up to?"),
    (
        "so-p14",
        "so-23",
        "How many .xlsx files does the Finance folder contain, counting subfolders?",
    ),
    ("so-p15", "so-24", "How many PDF documents are there under Grants, subfolders included?"),
    ("so-p16", "so-25", "How many docs are stored in Reimbursements?"),
    ("so-p17", "so-26", "Which file in the Downloads folder is a slide deck?"),
    (
        "so-p18",
        "so-27",
        "How many days off does the handbook give staff after a death in the family?",
    ),
    ("so-p19", "so-28", "What did Pinecrest Janitorial bill us in Q3 2024?"),
    ("so-p20", "so-29", "What grant amount did we receive from the Ellsworth Community Trust?"),
    ("so-p21", "so-30", "How much does the audit firm charge us for the yearly financial audit?"),
)
