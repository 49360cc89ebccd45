"""Build data/large_acquisition: 25 interlinked PDFs (3-6 pages) and their questions."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from . import large_docs_1, large_docs_2, large_docs_3
from .common import CorpusResult
from .filler import FillerContext, filler_sections
from .large_meta import BY_KEY, LARGE_DOCS, D, LargeDocMeta
from .paraphrase import with_paraphrases
from .pdf import Block, PdfDoc, write_pdf
from .questions import Question, absent, q

NAME = "large_acquisition"
BodyFn = Callable[[], tuple[list[str], list[Block]]]


def _body_fn(key: str) -> BodyFn:
    """The ``doc_<key>`` content function from the content modules."""
    for module in (large_docs_1, large_docs_2, large_docs_3):
        fn = getattr(module, f"doc_{key}", None)
        if fn is not None:
            return fn
    raise KeyError(key)


def _pdf_doc(meta: LargeDocMeta) -> PdfDoc:
    """Document spec with a filler generator seeded by the file name."""
    header, blocks = _body_fn(meta.key)()
    ctx = FillerContext(
        key=meta.filename,
        noun=meta.noun,
        topics=meta.topics,
        refs=tuple(D[r] for r in meta.refs),
        party=meta.party,
        other=meta.other,
        date=meta.date,
        disclosure=meta.disclosure,
    )
    return PdfDoc(
        filename=meta.filename,
        title=meta.title,
        header_lines=header,
        blocks=blocks,
        min_pages=max(3, min(meta.pages, 6)),
        max_pages=6,
        footer="GlobalTech / InnovateTech - Confidential",
        filler=filler_sections(ctx),
    )


def cross_references(texts: dict[str, str]) -> tuple[set[tuple[str, str]], list[str]]:
    """Find every (citing file, cited file) pair written as 'Document: <Title>'.

    Returns the pairs and a list of citations that match no known title.
    """
    by_title = {m.ref_name: m.filename for m in LARGE_DOCS}
    titles = sorted(by_title, key=len, reverse=True)
    pairs: set[tuple[str, str]] = set()
    unknown: list[str] = []
    for filename, text in texts.items():
        flat = " ".join(text.split())
        for match in re.finditer(r"Document: ", flat):
            tail = flat[match.end() :]
            title = next((t for t in titles if tail.startswith(t)), None)
            if title is None:
                unknown.append(f"{filename}: {tail[:50]}")
            elif by_title[title] != filename:
                pairs.add((filename, by_title[title]))
    return pairs, unknown


def build(root: Path) -> CorpusResult:
    """Write the 25 PDFs and return pages, texts and questions."""
    out = root / NAME
    out.mkdir(parents=True, exist_ok=True)
    result = CorpusResult(NAME)
    for meta in LARGE_DOCS:
        pages, text = write_pdf(_pdf_doc(meta), out)
        result.pages[meta.filename] = pages
        result.texts[meta.filename] = text
    pairs, unknown = cross_references(result.texts)
    declared = {(m.filename, BY_KEY[r].filename) for m in LARGE_DOCS for r in m.refs}
    missing = declared - pairs
    if unknown or missing:
        raise ValueError(f"bad citations {unknown}; declared but not written {sorted(missing)}")
    result.notes.append(
        f"cross-references declared: {len(declared)}, distinct citation pairs in text: {len(pairs)}"
    )
    result.questions = questions()
    return result


def _f(key: str) -> str:
    return BY_KEY[key].filename


def _originals() -> list[Question]:
    """Evaluation questions for the large corpus."""
    return [
        q(
            "large-01",
            "What is the total purchase price for the acquisition of InnovateTech?",
            "single",
            ("$125,000,000", _f("01")),
        ),
        q(
            "large-02",
            "Who is InnovateTech's CTO, and what retention bonus will that person receive?",
            "single",
            ("Sarah Chen", _f("07")),
            ("$1,200,000", _f("07")),
        ),
        q(
            "large-03",
            "Which patents and patent applications does InnovateTech hold?",
            "single",
            ("10,123,456", _f("06")),
            ("10,234,567", _f("06")),
            ("10,345,678", _f("06")),
            ("17/456,789", _f("06")),
        ),
        q(
            "large-04",
            "Which customers must consent to, or be notified of, the change of "
            "control, and what is the status of each?",
            "cross",
            ("MegaCorp", _f("08")),
            ("February 8, 2025", _f("21")),
            ("GlobalBank", _f("08")),
            ("January 15, 2025", _f("21")),
        ),
        q(
            "large-05",
            "What is InnovateTech's total exposure from pending litigation, and how "
            "much of it is insured?",
            "cross",
            ("$150,000", _f("12")),
            ("$350,000", _f("12")),
            ("$500,000", _f("12")),
            ("$2,000,000", _f("12")),
            ("Smith", _f("12")),
            ("DataTech", _f("12")),
        ),
        q(
            "large-06",
            "How will the purchase price be paid, and how does the escrow work?",
            "cross",
            ("$80,000,000", _f("01")),
            ("$30,000,000", _f("01")),
            ("$15,000,000", _f("09")),
            ("First National Trust Company", _f("09")),
            ("18 months", _f("09")),
            ("$5,000,000", _f("09")),
        ),
        q(
            "large-07",
            "List the conditions that must be met before closing and the current status of each.",
            "multi",
            ("Hart-Scott-Rodino", _f("01")),
            ("four of the five key employees", _f("01")),
            ("February 1, 2025", _f("25")),
            ("February 8, 2025", _f("25")),
            ("February 12, 2025", _f("25")),
            ("March 15, 2025", _f("21")),
        ),
        q(
            "large-08",
            "Describe MegaCorp's relationship with InnovateTech: revenue, contract "
            "terms, consent status and risks.",
            "multi",
            ("$12,576,000", _f("11")),
            ("24%", _f("11")),
            ("December 2027", _f("08")),
            ("February 8, 2025", _f("21")),
            ("8%", _f("21")),
        ),
        q(
            "large-09",
            "Summarize all financial terms of the deal: price, adjustments, escrow, "
            "earnout and stock.",
            "multi",
            ("$125,000,000", _f("01")),
            ("$8,500,000", _f("01")),
            ("$650,000", _f("02")),
            ("$15,000,000", _f("09")),
            ("$10,000,000", _f("03")),
            ("1,500,000", _f("10")),
            ("$20.00", _f("10")),
        ),
        q(
            "large-10",
            "Which documents refer to the Legal Opinion Letter, and what opinions does it give?",
            "multi",
            ("Schedule 3.9", _f("12")),
            ("Major Customer Contract Summaries", _f("21")),
            ("Closing Checklist", _f("25")),
            ("Master Acquisition Agreement", _f("24")),
            ("duly incorporated", _f("24")),
            ("DataTech", _f("24")),
        ),
        q(
            "large-11",
            "Give a complete picture of InnovateTech's IP: patents, trademarks, "
            "assignments and related risks or litigation.",
            "multi",
            ("10,123,456", _f("06")),
            ("DATAFLOW PRO", _f("18")),
            ("FLOWSENTRY", _f("18")),
            ("Lumen Data Labs", _f("17")),
            ("9,876,543", _f("12")),
        ),
        q(
            "large-12",
            "What obligations continue after closing, and when are they due?",
            "multi",
            ("September 30, 2025", _f("16")),
            ("Exhibit C", _f("25")),
            ("$4,000,000", _f("03")),
            ("October 1, 2025", _f("09")),
            ("January 1, 2026", _f("20")),
            ("April 1, 2027", _f("19")),
        ),
        q(
            "large-13",
            "How much is the founder paid for consulting after the acquisition, and for how long?",
            "single",
            ("Robert Okafor", _f("15")),
            ("$35,000", _f("15")),
            ("12 months", _f("15")),
        ),
        q(
            "large-14",
            "How long do the non-compete restrictions last and where do they apply?",
            "single",
            ("36 months", _f("14")),
            ("24 months", _f("14")),
            ("Canada", _f("14")),
            ("European Union", _f("14")),
        ),
        q(
            "large-15",
            "Who provides transition services after closing, and what do they cost per month?",
            "single",
            ("Meridian Shared Services", _f("16")),
            ("$89,000", _f("16")),
            ("six months", _f("16")),
        ),
        q(
            "large-16",
            "How many GlobalTech shares do the sellers receive and at what per-share value?",
            "single",
            ("1,500,000", _f("10")),
            ("$20.00", _f("10")),
        ),
        q(
            "large-17",
            "Which firm audited InnovateTech's 2024 financial statements, and what "
            "kind of opinion did it give?",
            "single",
            ("Crandall Pierce LLP", _f("23")),
            ("unmodified", _f("23")),
        ),
        q(
            "large-18",
            "When was the confidentiality agreement between the parties signed, and "
            "how long does it last?",
            "single",
            ("November 4, 2024", _f("13")),
            ("two years", _f("13")),
        ),
        q(
            "large-19",
            "Which vendor has the largest annual commitment, and how much is it?",
            "single",
            ("Stratus Cloud Services", _f("22")),
            ("$3,400,000", _f("22")),
        ),
        q(
            "large-20",
            "What is the registration number of the DATAFLOW PRO trademark and when "
            "is its renewal due?",
            "single",
            ("5,345,678", _f("18")),
            ("November 13, 2027", _f("18")),
        ),
        q(
            "large-21",
            "What happens to InnovateTech's 401(k) plan after the deal closes?",
            "single",
            ("January 1, 2026", _f("20")),
            ("4%", _f("20")),
            ("5%", _f("20")),
        ),
        q(
            "large-22",
            "Beyond the purchase price, can the sellers earn additional "
            "consideration? On what targets?",
            "cross",
            ("$10,000,000", _f("03")),
            ("$58,000,000", _f("03")),
            ("$68,000,000", _f("03")),
        ),
        q(
            "large-23",
            "When are the key employee retention bonuses paid, and what do they total?",
            "single",
            ("April 1, 2026", _f("19")),
            ("April 1, 2027", _f("19")),
            ("$3,500,000", _f("19")),
        ),
        absent("large-24", "What is InnovateTech's annual employee turnover rate?"),
        absent("large-25", "What did the cybersecurity penetration test of InnovateTech find?"),
        absent("large-26", "Who is InnovateTech's Chief Marketing Officer?"),
        absent(
            "large-27",
            "What does the environmental impact study say about InnovateTech's data centers?",
        ),
    ]


def questions() -> list[Question]:
    """The original questions and their paraphrases."""
    return with_paraphrases(_originals(), PARAPHRASES)


#: Paraphrases of the questions above (the same facts asked in other words), written
#: before the offline answerer was run on them.
PARAPHRASES = (
    ("large-p01", "large-01", "How much is GlobalTech paying for InnovateTech overall?"),
    (
        "large-p02",
        "large-02",
        "What retention bonus is InnovateTech's chief technology officer getting, and who is that?",
    ),
    ("large-p03", "large-03", "List InnovateTech's patents, including any pending applications."),
    (
        "large-p04",
        "large-04",
        "Where does each customer consent or change-of-control notice stand? Which customers need "
        "one?",
    ),
    (
        "large-p05",
        "large-05",
        "How much could InnovateTech's open lawsuits cost in total, and how much of that would "
        "insurance cover?",
    ),
    (
        "large-p06",
        "large-06",
        "Explain the escrow arrangement and how the payment for InnovateTech is structured.",
    ),
    ("large-p07", "large-07", "What are the conditions to closing, and has each one been met yet?"),
    (
        "large-p08",
        "large-08",
        "Tell me about MegaCorp as an InnovateTech customer: how much revenue it brings in, its "
        "contract terms, whether it has consented, and the risks.",
    ),
    (
        "large-p09",
        "large-09",
        "Give me an overview of the deal's money terms: purchase price, adjustments, escrow, "
        "earnout and share consideration.",
    ),
    (
        "large-p10",
        "large-10",
        "What does the legal opinion letter conclude, and which documents cite it?",
    ),
    (
        "large-p11",
        "large-11",
        "I need everything on InnovateTech's intellectual property: patents, trademarks, "
        "assignments, plus any IP risks or lawsuits.",
    ),
    (
        "large-p12",
        "large-12",
        "What do the parties still owe once the deal has closed, and by when?",
    ),
    (
        "large-p13",
        "large-13",
        "What consulting fee does the founder get post-closing, and how long does the arrangement "
        "run?",
    ),
    ("large-p14", "large-14", "What territory do the non-competes cover, and for how many months?"),
    (
        "large-p15",
        "large-15",
        "What's the monthly fee for post-closing transition services, and which company provides "
        "them?",
    ),
    (
        "large-p16",
        "large-16",
        "How much GlobalTech stock goes to the sellers, and what is each share valued at?",
    ),
    (
        "large-p17",
        "large-17",
        "Who audited InnovateTech's 2024 financials, and what audit opinion did they issue?",
    ),
    (
        "large-p18",
        "large-18",
        "What's the term of the NDA between GlobalTech and InnovateTech, and when was it signed?",
    ),
    (
        "large-p19",
        "large-19",
        "Who's InnovateTech's biggest supplier by yearly commitment, and what's the amount?",
    ),
    (
        "large-p20",
        "large-20",
        "When does the DATAFLOW PRO trademark need renewing, and what's its registration number?",
    ),
    (
        "large-p21",
        "large-21",
        "How will InnovateTech's retirement plan be handled once the acquisition closes?",
    ),
    (
        "large-p22",
        "large-22",
        "Can the sellers get paid more than the purchase price later on? What milestones would "
        "they have to hit?",
    ),
    (
        "large-p23",
        "large-23",
        "How much are the key employee retention bonuses in total, and on what dates are they paid "
        "out?",
    ),
    ("large-p24", "large-24", "What percentage of InnovateTech's employees quit each year?"),
    ("large-p25", "large-25", "What were the results of InnovateTech's pen test?"),
    ("large-p26", "large-26", "Who is the head of marketing at InnovateTech?"),
    (
        "large-p27",
        "large-27",
        "Tell me the findings of the environmental assessment of InnovateTech's data centers.",
    ),
)
