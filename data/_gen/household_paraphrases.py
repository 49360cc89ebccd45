"""The paraphrases of the household questions: the same facts asked in another user's
words (`data/_gen/paraphrase.py`), written before the offline answerer was run on them."""

from __future__ import annotations

from .paraphrase import Rewording

#: (paraphrase id, original id, the paraphrase's wording)
PARAPHRASES: tuple[Rewording, ...] = (
    (
        "hh-p01",
        "hh-01",
        "What's my apartment's rent per month, and how much deposit did I pay when I signed?",
    ),
    ("hh-p02", "hh-03", "What deductible do I have on the renters insurance for my apartment?"),
    ("hh-p03", "hh-05", "How much federal tax did my employer take out of my pay in 2024?"),
    ("hh-p04", "hh-07", "How much does my car insurance cost?"),
    ("hh-p05", "hh-09", "How much did I spend at Alder Street Hardware?"),
    ("hh-p06", "hh-10", "How much interest did my bank accounts earn in 2024 altogether?"),
    ("hh-p07", "hh-11", "How much did the electric company bill me over 2024?"),
    ("hh-p08", "hh-12", "Which month of 2024 had my biggest power bill, and how much was it?"),
    ("hh-p09", "hh-13", "How many of my receipts are dated March 2024?"),
    ("hh-p10", "hh-14", "What was my combined electricity usage in kWh on the 2024 power bills?"),
    ("hh-p11", "hh-15", "What did my 2024 water bills add up to?"),
    ("hh-p12", "hh-16", "How many PDFs are there under Bills, counting subfolders?"),
    ("hh-p13", "hh-17", "What spreadsheet files do I have in Downloads?"),
    ("hh-p14", "hh-18", "How many PDF docs does the Taxes folder hold, subfolders included?"),
    ("hh-p15", "hh-19", "How many documents are stored in Receipts?"),
    ("hh-p16", "hh-22", "How much does my lease charge as a deposit for pets?"),
    ("hh-p17", "hh-23", "How much interest did my Redstone Bank accounts pay me in 2024?"),
    ("hh-p18", "hh-24", "What did my gas bills come to in 2024?"),
    ("hh-p19", "hh-25", "What's the vehicle identification number on my auto policy?"),
)
