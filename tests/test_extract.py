"""The offline strategy's text analysis: tokens, segments, BM25 ranking, references,
passage choice."""

from __future__ import annotations

import pytest

from fsnb.documents.model import Document, PageSpan
from fsnb.offline import Tuning
from fsnb.offline.compose import Reading, extractive_answer
from fsnb.offline.passages import features, score_unit
from fsnb.offline.question import analyze
from fsnb.offline.quotes import quote_spans
from fsnb.offline.ranking import BM25, rank_documents, tokens
from fsnb.offline.references import Target, find_references, resolve, similarity
from fsnb.offline.units import units
from fsnb.text.segments import Span, blocks, paragraphs, pieces, sentences
from fsnb.text.words import stem

TUNING = Tuning()

# -- tokens ---------------------------------------------------------------------------------


def test_tokens_lowercase_strip_punctuation_and_stopwords():
    assert tokens("The Buyer, and the SELLER!") == ["buyer", "seller"]


def test_tokens_fold_plurals_ing_and_ed():
    assert len(set(tokens("closing closed closes close"))) == 1
    assert tokens("payments payment") == tokens("payment payments")
    assert stem("restrictions") == stem("restricted") == "restrict"
    assert stem("agreements") == stem("agreement")
    assert stem("companies") == stem("company")


def test_tokens_keep_numbers_and_normalize_amounts():
    assert tokens("$1,200,000 on 2025-03-01 under Schedule 3.12") == [
        "1200000",
        "2025",
        "03",
        "01",
        "schedul",
        "3.12",
    ]
    assert "20" in tokens("at $20.00 per share")
    assert "45000000" in tokens("the original $45M price")
    assert "2500000" in tokens("$2.5 million")


def test_blocks_rejoin_lines_a_pdf_split_and_find_unmarked_headings():
    text = (
        "1. RESTRICTED PERIOD\n\nFor the Founder, 36 months after the Closing Date and for\n\n"
        "each key employee 24 months.\n\n• Item one.\n\n• Item two that runs on\n\nto a second line."
    )
    found = [(b.kind, text[b.start : b.end]) for b in blocks(text)]
    assert found[0] == ("heading", "1. RESTRICTED PERIOD")
    assert found[1][0] == "text" and found[1][1].endswith("24 months.")
    assert [k for k, _ in found[2:]] == ["item", "item"]
    assert found[3][1].endswith("to a second line.")


def test_sentences_respect_abbreviations():
    text = "Dr. Sarah Chen is the CTO. Reg. No. 5,345,678 expires in 2027. Done."
    block = blocks(text)[0]
    pieces = [text[s.start : s.end] for s in sentences(text, block)]
    assert pieces == ["Dr. Sarah Chen is the CTO.", "Reg. No. 5,345,678 expires in 2027.", "Done."]


def test_paragraphs_are_the_runs_between_blank_lines():
    text = "First one.\n\n  Second, longer. It has two sentences.\n\n\nThird\nline two."
    assert [text[p.start : p.end] for p in paragraphs(text)] == [
        "First one.",
        "Second, longer. It has two sentences.",
        "Third\nline two.",
    ]


def test_pieces_cut_a_span_over_budget_at_sentences_then_lines_then_the_limit():
    def cut(text: str, limit: int) -> list[str]:
        return [text[p.start : p.end] for p in pieces(text, Span(0, len(text)), limit)]

    prose = "Dr. Chen signed first. The escrow holds $900,000 for 12 months after the Closing."
    assert cut(prose, 40) == [
        "Dr. Chen signed first. ",
        "The escrow holds $900,000 for 12 months ",
        "after the Closing.",
    ]
    table = "| Room | Seats |\n|---|---|\n| Atlas | 12 |\n| Boreal | 30 |\n| Cedar | 8 |"
    assert cut(table, 30) == [
        "| Room | Seats |\n|---|---|\n",
        "| Atlas | 12 |\n",
        "| Boreal | 30 |\n| Cedar | 8 |",
    ]
    assert [len(p) for p in cut("a" * 70, 30)] == [30, 30, 10]
    assert cut(prose, 200) == [prose]


# -- BM25 -----------------------------------------------------------------------------------


def test_bm25_relevant_document_outranks_irrelevant():
    docs = {
        "lease.md": (
            "Office Lease",
            "The annual rent for the office is $410,000.\n\nRent is due monthly.",
        ),
        "menu.md": ("Cafeteria", "Lunch is served from noon. Soup of the day costs $4."),
        "memo.md": ("Memo", "The board met on Monday to discuss hiring plans."),
    }
    ranking = rank_documents(tokens("What is the annual rent of the office?"), docs, tuning=TUNING)
    assert ranking[0].path == "lease.md"
    assert ranking[-1].score < ranking[0].score / 2


def test_bm25_rare_terms_matter_more_than_common_ones():
    common = "The agreement covers the deal. " * 3
    docs = {
        "a.md": ("A", common + "The agreement is signed."),
        "b.md": ("B", common + "An earnout of $5,000,000 applies."),
        "c.md": ("C", common),
        "d.md": ("D", common),
    }
    ranking = rank_documents(tokens("agreement earnout"), docs, tuning=TUNING)
    assert ranking[0].path == "b.md"
    bm25 = BM25([tokens(t) for _, t in docs.values()])
    assert bm25.idf(stem("earnout")) > bm25.idf(stem("agreement"))


def test_bm25_scores_documents_by_their_best_passages_not_their_length():
    filler = "\n\n".join(
        f"Section {n}. General provisions on the escrow apply to this part of the agreement."
        for n in range(200)
    )
    docs = {
        "long.md": ("Long", filler),
        "short.md": ("Short", "The escrow amount is $900,000."),
    }
    assert rank_documents(tokens("escrow amount"), docs, tuning=TUNING)[0].path == "short.md"


def test_bm25_title_matches_count_extra():
    docs = {
        "x.md": ("Escrow Agreement", "Funds are held for 18 months."),
        "y.md": ("Notes", "Funds are held for 18 months by the escrow."),
    }
    ranking = rank_documents(tokens("escrow agreement funds"), docs, tuning=TUNING)
    assert ranking[0].path == "x.md" and ranking[0].title_score > 0


# -- references -----------------------------------------------------------------------------

TARGETS = [
    Target("01_agreement.pdf", "SHARE PURCHASE AGREEMENT", "# SHARE PURCHASE AGREEMENT\n\nTerms."),
    Target(
        "05_financial_adjustments_memo.pdf",
        "FINANCIAL ADJUSTMENTS MEMO",
        "# FINANCIAL ADJUSTMENTS MEMO\n\nThis memo constitutes Exhibit A - Financial Terms of "
        "the Agreement.",
    ),
    Target(
        "06_exhibits.pdf",
        "EXHIBITS TO THE AGREEMENT",
        "# EXHIBITS TO THE AGREEMENT\n\nThe exhibits follow.\n\n"
        + "Filler text. " * 60
        + "\n\n## EXHIBIT B - STOCK VALUATION\n\nShares at $40.\n\n"
        "## EXHIBIT C - EARNOUT TERMS\n\nUp to $5,000,000.",
    ),
    Target(
        "12_consents.pdf",
        "CUSTOMER CONSENT LETTERS",
        "# CUSTOMER CONSENT LETTERS\n\n" + "Letters. " * 80 + "\n\n## EXHIBIT B - DATAFLOW "
        "CONSENT LETTER\n\nConsent given.",
    ),
    Target("07_ip_schedule.pdf", "SCHEDULE 3.12 - INTELLECTUAL PROPERTY", "Patents."),
    Target("08_organization.pdf", "SCHEDULE 3.1 - ORGANIZATION", "Good standing."),
    Target("11_transition.pdf", "SCHEDULE 3 - EMPLOYEE TRANSITION PLAN", "Retention."),
    Target("09_escrow.pdf", "ESCROW AGREEMENT", "# ESCROW AGREEMENT\n\nEscrow terms."),
    Target("10_escrow_letter.pdf", "ESCROW LETTER", "# ESCROW LETTER\n\nA letter."),
    Target("15_consulting.pdf", "CONSULTING AGREEMENT - FOUNDER", "Consulting."),
    Target("finance/customers.csv", "customers", "name,revenue"),
]


def _resolved(text: str, source: str = "01_agreement.pdf") -> list[tuple[str, str | None]]:
    return [
        (r.name, resolve(r, TARGETS, source=source, tuning=TUNING)) for r in find_references(text)
    ]


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("as set out in Document: Escrow Agreement.", "09_escrow.pdf"),
        ("see Document: Escrow Letter for details", "10_escrow_letter.pdf"),
        ("under Document: Consulting Agreement - Founder and", "15_consulting.pdf"),
        ("described in Document: Schedule 3.12 - Intellectual Property.", "07_ip_schedule.pdf"),
        ("adjusted as provided in Exhibit A.", "05_financial_adjustments_memo.pdf"),
        ("paid under Exhibit C - Earnout Terms.", "06_exhibits.pdf"),
        ("valued as described in Exhibit B - Stock Valuation;", "06_exhibits.pdf"),
        ("paid under Exhibit C (Earnout Terms).", "06_exhibits.pdf"),
        ("listed in Schedule 3.12.", "07_ip_schedule.pdf"),
        ("listed in Schedule 3.1, not elsewhere", "08_organization.pdf"),
        ("governed by Schedule 3 - Employee Transition Plan.", "11_transition.pdf"),
        ("held per the Escrow Agreement until release", "09_escrow.pdf"),
        ("(see 05_financial_adjustments_memo.pdf)", "05_financial_adjustments_memo.pdf"),
        ("two contracts in `finance/customers.csv` need consent", "finance/customers.csv"),
    ],
)
def test_reference_styles_resolve_to_the_right_file(text: str, target: str):
    found = _resolved(text)
    assert len(found) == 1, found
    assert found[0][1] == target


def test_reference_title_stops_at_the_end_of_the_name():
    refs = find_references(
        "The schedules are in Document: Schedules to Acquisition Agreement and Document: "
        "Exhibits to Acquisition Agreement. See also the Escrow Agreement and Schedule 3."
    )
    assert [r.title or r.label for r in refs] == [
        "Schedules to Acquisition Agreement",
        "Exhibits to Acquisition Agreement",
        "Escrow Agreement",
        "Schedule 3",
    ]


def test_references_to_nothing_in_the_folder_resolve_to_none():
    assert _resolved("see Document: Board Minutes and Exhibit Q.") == [
        ("Board Minutes", None),
        ("Exhibit Q", None),
    ]


def test_a_document_does_not_refer_to_itself_and_headings_are_not_references():
    assert _resolved("See Document: Escrow Agreement.", source="09_escrow.pdf") == [
        ("Escrow Agreement", None)
    ]
    assert find_references("## EXHIBIT C - EARNOUT TERMS\n\nUp to $5,000,000.") == []
    assert find_references("EXHIBIT C - EARNOUT TERMS\n\nUp to $5,000,000.") == []
    assert len(find_references("Exhibit C sets the earnout at $5,000,000.")) == 1


def test_title_similarity():
    assert similarity("Escrow Agreement", "ESCROW AGREEMENT") == 1.0
    assert similarity("Escrow Agreement", "Escrow Letter") < 0.6
    assert similarity("Financial Adjustments Memo", "financial adjustments memo") == 1.0


# -- passages -------------------------------------------------------------------------------

EMPLOYEES = """# SCHEDULE - EMPLOYEE MATTERS

The Company has 127 employees in three offices.

### KEY EMPLOYEES

Each key employee signed a retention agreement.

• Dr. Sarah Chen - Chief Technology Officer - retention bonus of $1,200,000.

• Michael Rodriguez - VP Engineering - retention bonus of $800,000.

Retention bonuses are paid in two installments.

### AUDIT

The 2024 financial statements were audited by Crandall Pierce LLP, which gave an unmodified opinion.
The audit committee met twice.
"""


def _best(question: str, text: str = EMPLOYEES) -> str:
    q = analyze(question, [text], tuning=TUNING)
    found = units(text, tuning=TUNING)
    stats = BM25([tokens(text[u.span.start : u.span.end]) for u in found])
    scored = []
    for unit in found:
        if unit.parts:
            continue
        piece = text[unit.span.start : unit.span.end]
        scored.append((score_unit(q, piece, unit.context, stats.idf, tuning=TUNING)[0], piece))
    return max(scored)[1]


def test_question_analysis_finds_terms_wanted_values_and_acronyms():
    q = analyze("Who is the CTO and how much is the retention bonus?", [EMPLOYEES], tuning=TUNING)
    assert {"cto", stem("retention"), "bonus"} <= set(q.terms)
    assert {"entity", "amount"} <= q.wants
    assert q.aliases["cto"].search("Chief Technology Officer")
    assert features("paid $1,200,000 on April 1, 2026 for 12 months (4%)") >= {
        "amount",
        "date",
        "duration",
        "percent",
    }


def test_the_sentence_with_the_asked_for_amount_wins():
    assert "$1,200,000" in _best("What retention bonus does the CTO receive?")


def test_the_sentence_with_the_asked_for_name_wins():
    assert "Crandall Pierce LLP" in _best("Which firm audited the financial statements?")


def test_quotes_are_cut_at_word_boundaries_within_the_limit():
    text = "Alpha beta gamma; " * 40
    span = blocks(text)[0]
    pieces = quote_spans(text, span, lambda s: s.count("gamma"), max_chars=300)
    assert pieces and all(p.end - p.start <= 300 for p in pieces)
    for piece in pieces:
        assert text[piece.start] != " " and text[piece.end - 1] != " "
        assert piece.start == 0 or text[piece.start - 1] == " "


def test_extractive_answer_cites_exact_quotes_and_dedupes():
    text = (
        EMPLOYEES
        + "\n\nDr. Sarah Chen - Chief Technology Officer - retention bonus of $1,200,000.\n"
    )
    doc = Document("x.md", text, "Schedule", "md", 1, [PageSpan(1, 0, len(text))], "test")
    found = units(text, tuning=TUNING)
    stats = BM25([tokens(text[u.span.start : u.span.end]) for u in found])
    q = analyze("What retention bonus does the CTO receive?", [text], tuning=TUNING)
    reading = Reading("x.md", doc, found, [(0, len(text))], 1.0)
    action = extractive_answer(q, [reading], stats, tuning=TUNING)
    assert action.kind == "stop" and "$1,200,000" in (action.answer or "")
    for cited in action.citations:
        assert cited.quote in text and len(cited.quote) <= 300
        assert f"[{cited.id}]" in (action.answer or "")
    assert (action.answer or "").count("Sarah Chen") == 1


def test_a_label_and_its_value_printed_alone_after_it_are_one_unit():
    """A form's box as a PDF gives it: the label on one line, the amount alone (in a
    larger font, so marked as a heading) on the next."""
    from fsnb.offline.statements import statement

    text = (
        "## Lakemont Funds\n\n1a Total ordinary dividends\n\n## $864.55\n\n"
        "1b Qualified dividends\n\n## $702.10\n"
    )
    found = units(text, tuning=TUNING)
    pairs = [u for u in found if u.span.kind == "pair"]
    assert [statement(text, u.span, u.span) for u in pairs] == [
        "1a Total ordinary dividends: $864.55",
        "1b Qualified dividends: $702.10",
    ]
    assert all(u.context == "Lakemont Funds" for u in found)  # an amount is no heading
    # a sentence before an amount, or a label that holds a value, is not a label
    assert not [u for u in units("The rent is due monthly.\n\n$2,150.00\n", tuning=TUNING)
                if u.span.kind == "pair"]  # fmt: skip
