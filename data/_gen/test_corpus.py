"""Build data/test_acquisition: 10 short interlinked PDFs and their questions."""

from __future__ import annotations

from pathlib import Path

from .common import CorpusResult
from .paraphrase import with_paraphrases
from .pdf import PdfDoc, write_pdf
from .questions import Question, absent, q
from .test_docs import DOCS

NAME = "test_acquisition"


def build(root: Path) -> CorpusResult:
    """Write the 10 PDFs and return pages, texts and questions."""
    out = root / NAME
    out.mkdir(parents=True, exist_ok=True)
    result = CorpusResult(NAME)
    for filename, title, body in DOCS:
        header, blocks = body()
        doc = PdfDoc(
            filename=filename,
            title=title,
            header_lines=header,
            blocks=blocks,
            min_pages=1,
            max_pages=3,
            footer="TechCorp / StartupXYZ - Confidential",
        )
        pages, text = write_pdf(doc, out)
        result.pages[filename] = pages
        result.texts[filename] = text
    result.questions = questions()
    return result


AGR = "01_acquisition_agreement.pdf"
DD = "02_due_diligence_report.pdf"
IPL = "03_ip_certification_letter.pdf"
RISK = "04_risk_assessment_memo.pdf"
ADJ = "05_financial_adjustments_memo.pdf"
OPN = "06_legal_opinion_letter.pdf"
NDA = "07_nda.pdf"
HSR = "08_regulatory_approval_letter.pdf"
CONS = "09_customer_consent_letters.pdf"
CHK = "10_closing_checklist.pdf"


def _originals() -> list[Question]:
    """Evaluation questions for the small corpus (after the original Q1-Q13)."""
    return [
        q(
            "test-01",
            "What is the total purchase price for the StartupXYZ acquisition?",
            "single",
            ("$45,000,000", AGR),
        ),
        q(
            "test-02",
            "When was the Non-Disclosure Agreement between TechCorp and StartupXYZ signed?",
            "single",
            ("October 1, 2024", NDA),
        ),
        q("test-03", "How many patents does StartupXYZ own?", "single", ("12", IPL)),
        q(
            "test-04",
            "What are the key risks of this acquisition, and how are they being mitigated?",
            "cross",
            ("MegaCorp", RISK),
            ("28%", RISK),
            ("2.5", RISK),
            ("February 10, 2025", CONS),
        ),
        q(
            "test-05",
            "The original price was $45M. Was it adjusted, and what is the final amount?",
            "cross",
            ("$43,330,000", ADJ),
            ("$220,000", ADJ),
            ("$175,000", ADJ),
            ("$1,275,000", ADJ),
        ),
        q(
            "test-06",
            "Which customers had to consent to the acquisition, and did all of them consent?",
            "cross",
            ("MegaCorp", CONS),
            ("DataFlow Systems", CONS),
            ("CloudTech Partners", CONS),
            ("February 5, 2025", CONS),
        ),
        q(
            "test-07",
            "Give a complete picture of StartupXYZ's intellectual property: what it "
            "owns, whether it is certified, and any pending matters or risks.",
            "multi",
            ("12", IPL),
            ("PatentWatch", IPL),
            ("17/456,789", IPL),
            ("85%", RISK),
            ("IP Assignment Agreement", CHK),
        ),
        q(
            "test-08",
            "What did due diligence uncover, and how were the issues resolved before closing?",
            "multi",
            ("28%", DD),
            ("$340,000", DD),
            ("$1,275,000", ADJ),
            ("February 10, 2025", CONS),
        ),
        q(
            "test-09",
            "Build a timeline of the deal from the NDA to closing, with the status of "
            "each milestone.",
            "multi",
            ("October 1, 2024", NDA),
            ("December 20, 2024", DD),
            ("January 15, 2025", AGR),
            ("January 28, 2025", HSR),
            ("March 1, 2025", CHK),
        ),
        q(
            "test-10",
            "Is the acquisition ready to close? What is complete and what is still open?",
            "multi",
            ("CloudTech", CHK),
            ("good standing", CHK),
            ("$39,630,000", CHK),
            ("January 28, 2025", HSR),
            ("MegaCorp", CONS),
        ),
        q(
            "test-11",
            "The Acquisition Agreement refers to 'Exhibit A - Financial Terms'. What "
            "are those detailed financial terms?",
            "cross",
            ("$43,330,000", ADJ),
            ("$28,330,000", ADJ),
            ("$1,300,000", ADJ),
            ("$220,000", ADJ),
        ),
        q(
            "test-12",
            "How does the Legal Opinion Letter relate to the other documents in this deal?",
            "cross",
            ("Due Diligence Report", OPN),
            ("IP Certification Letter", OPN),
            ("Customer Consent Letters", OPN),
            ("Regulatory Approval Letter", OPN),
            ("Legal due diligence", CHK),
        ),
        q(
            "test-13",
            "Is MegaCorp mentioned in these documents? Why does it matter to the deal?",
            "multi",
            ("28%", DD),
            ("3.4", RISK),
            ("February 10, 2025", CONS),
        ),
        q(
            "test-14",
            "When did the FTC end the HSR waiting period early, and what filing fee was paid?",
            "single",
            ("January 28, 2025", HSR),
            ("$30,000", HSR),
        ),
        q(
            "test-15",
            "Which firm performed due diligence on StartupXYZ, and how many people "
            "does StartupXYZ employ?",
            "single",
            ("Morrison", DD),
            ("47", DD),
        ),
        absent(
            "test-16",
            "What termination fee does TechCorp owe if it walks away from the StartupXYZ deal?",
        ),
        absent("test-17", "What are StartupXYZ's annual carbon emissions?"),
        absent("test-18", "When does StartupXYZ's Berlin office lease expire?"),
    ]


def questions() -> list[Question]:
    """The original questions and their paraphrases."""
    return with_paraphrases(_originals(), PARAPHRASES)


#: Paraphrases of the questions above (the same facts asked in other words), written
#: before the offline answerer was run on them.
PARAPHRASES = (
    ("test-p01", "test-01", "How much is TechCorp paying in total to buy StartupXYZ?"),
    (
        "test-p02",
        "test-02",
        "What date did TechCorp and StartupXYZ sign their confidentiality agreement?",
    ),
    ("test-p03", "test-03", "Tell me how many patents StartupXYZ holds."),
    (
        "test-p04",
        "test-04",
        "What's being done to deal with the biggest dangers in buying StartupXYZ, and what are "
        "they?",
    ),
    (
        "test-p05",
        "test-05",
        "Did the $45M headline price change? I need the final amount and what moved it.",
    ),
    (
        "test-p06",
        "test-06",
        "Did every customer whose approval the deal needed actually sign off? Which customers were "
        "they?",
    ),
    (
        "test-p07",
        "test-07",
        "I need a full rundown of StartupXYZ's intellectual property: its holdings, whether "
        "they've been certified, and anything pending or risky.",
    ),
    (
        "test-p08",
        "test-08",
        "What problems turned up in the due diligence review, and how were they fixed before the "
        "deal closed?",
    ),
    (
        "test-p09",
        "test-09",
        "Walk me through the key dates of the deal, from the NDA through closing, and where each "
        "step stands.",
    ),
    (
        "test-p10",
        "test-10",
        "What's done and what's still outstanding before the deal can close? Are we ready?",
    ),
    (
        "test-p11",
        "test-11",
        "Tell me what's in the financial terms exhibit (Exhibit A) that the acquisition agreement "
        "points to.",
    ),
    (
        "test-p12",
        "test-12",
        "Which other deal documents does the legal opinion letter rely on or tie into?",
    ),
    (
        "test-p13",
        "test-13",
        "Why is MegaCorp important to this acquisition? Do the documents talk about it?",
    ),
    (
        "test-p14",
        "test-14",
        "How much was the HSR filing fee, and on what date did the FTC grant early termination of "
        "the waiting period?",
    ),
    ("test-p15", "test-15", "What's StartupXYZ's headcount, and who did the due diligence on it?"),
    (
        "test-p16",
        "test-16",
        "If TechCorp backs out of buying StartupXYZ, what break fee does it have to pay?",
    ),
    ("test-p17", "test-17", "How much CO2 does StartupXYZ put out each year?"),
    ("test-p18", "test-18", "When does the lease on StartupXYZ's Berlin office run out?"),
)
