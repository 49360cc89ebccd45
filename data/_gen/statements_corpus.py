"""Build data/statements: twelve monthly credit-card statements, their hidden ground truth
(data/_truth/statements.csv) and questions whose answers are computed from that truth."""

from __future__ import annotations

import calendar
import csv
import io
from collections import defaultdict
from pathlib import Path

from .common import CorpusResult
from .paraphrase import with_paraphrases
from .questions import Question, absent, q
from .statements_data import OPENING_BALANCE, YEAR, Txn, filename, money, transactions
from .statements_pdf import Summary, header_lines, render, transaction_rows

NAME = "statements"
TRUTH = Path("_truth") / "statements.csv"
TRUTH_COLUMNS = ("month", "date", "merchant", "category", "amount", "source_file", "page")
# Hides the ground truth and every corpus's answers from an exploration rooted at data/.
DATA_IGNORE = "# Evaluation data with the answers: not in any corpus.\n_truth\nquestions.json\n"
PARTIAL_PAYMENTS = {3: 40_000, 8: 25_000}  # months paid short of the previous balance (cents)


def _summaries(months: dict[int, list[Txn]]) -> dict[int, Summary]:
    out = {}
    previous = OPENING_BALANCE
    for month, txns in months.items():
        payment = previous - PARTIAL_PAYMENTS.get(month, 0)
        purchases = sum(t.cents for t in txns if not t.refund)
        credits = sum(t.cents for t in txns if t.refund)
        out[month] = Summary(previous, payment, purchases, credits)
        previous = out[month].new_balance
    return out


def _truth_csv(rows: list[tuple[Txn, int]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(TRUTH_COLUMNS)
    for t, page in rows:
        writer.writerow(
            [
                f"{YEAR}-{t.month:02d}",
                f"{YEAR}-{t.month:02d}-{t.day:02d}",
                t.merchant,
                t.category,
                f"{t.cents / 100:.2f}",
                filename(t.month),
                page,
            ]
        )
    return buf.getvalue()


def build(root: Path) -> CorpusResult:
    """Write the 12 PDFs and the ground-truth CSV; return pages, texts and questions."""
    out = root / NAME
    out.mkdir(parents=True, exist_ok=True)
    result = CorpusResult(NAME)
    months = transactions()
    summaries = _summaries(months)
    truth: list[tuple[Txn, int]] = []
    for month, txns in months.items():
        data, pages = render(month, txns, summaries[month])
        name = filename(month)
        (out / name).write_bytes(data)
        result.pages[name] = max(pages)
        cells = header_lines(month) + [
            " ".join(row) for row in summaries[month].rows(month) + transaction_rows(month, txns)
        ]
        result.texts[name] = "\n".join(cells)
        truth += zip(txns, pages, strict=True)
    (root / TRUTH).parent.mkdir(exist_ok=True)
    (root / TRUTH).write_text(_truth_csv(truth), encoding="utf-8")
    (root / ".fsnbignore").write_text(DATA_IGNORE, encoding="utf-8")
    result.questions = questions(months, summaries)
    two = sorted(n for n, p in result.pages.items() if p > 1)
    result.notes.append(f"transactions: {len(truth)}; over two pages: {', '.join(two)}")
    result.notes.append(f"ground truth: data/{TRUTH.as_posix()} (outside the corpus)")
    return result


def _answer(question: Question, text: str, value: object) -> Question:
    question["answer"] = {"text": text, "value": value}
    return question


def _dollars(cents: int) -> float:
    return round(cents / 100, 2)


def _originals(months: dict[int, list[Txn]], summaries: dict[int, Summary]) -> list[Question]:
    """Questions on the year; each carries `answer` computed from the ground truth."""
    every = [t for txns in months.values() for t in txns]
    mar, jun, dec = filename(3), filename(6), filename(12)
    dining = [t for t in months[3] if t.category == "Dining"]
    dining_total = sum(t.cents for t in dining)
    biggest = max((t for t in every if not t.refund), key=lambda t: t.cents)
    refunds = [t for t in every if t.refund]
    by_amount: dict[tuple[str, int], set[int]] = defaultdict(set)
    for t in every:
        by_amount[(t.merchant, t.cents)].add(t.month)
    recurring = sorted((m, c, len(ms)) for (m, c), ms in by_amount.items() if len(ms) >= 3)
    purchases = {m: s.purchases for m, s in summaries.items()}
    usual = sum(purchases[m] for m in range(1, 11)) // 10
    groceries = sum(t.cents for t in every if t.category == "Groceries")
    return [
        _answer(
            q(
                "stmt-01",
                "How much did I spend on dining in March?",
                "single",
                *((money(t.cents, 3), mar) for t in dining),
            ),
            f"{money(dining_total)} over {len(dining)} dining transactions",
            _dollars(dining_total),
        ),
        _answer(
            q(
                "stmt-02",
                "How many transactions are on the December statement?",
                "single",
                (f"Statement period: {header_lines(12)[2].split(': ')[1]}", dec),
            ),
            f"{len(months[12])} transactions",
            len(months[12]),
        ),
        _answer(
            q(
                "stmt-03",
                "What was the new balance on my June statement?",
                "single",
                (money(summaries[6].new_balance), jun),
            ),
            money(summaries[6].new_balance),
            _dollars(summaries[6].new_balance),
        ),
        _answer(
            q(
                "stmt-04",
                "What was my largest single purchase of the year, and where was it?",
                "multi",
                (biggest.merchant, filename(biggest.month)),
                (money(biggest.cents), filename(biggest.month)),
            ),
            f"{money(biggest.cents)} at {biggest.merchant} on "
            f"{calendar.month_name[biggest.month]} {biggest.day}, {YEAR}",
            _dollars(biggest.cents),
        ),
        _answer(
            q(
                "stmt-05",
                "Which subscriptions charge me the same amount every month, and what do they "
                "cost me per year?",
                "multi",
                *((m, filename(12)) for m, _, _ in recurring),
                *((money(c), filename(12)) for _, c, _ in recurring),
            ),
            "; ".join(f"{m} {money(c)} x {n} = {money(c * n)}" for m, c, n in recurring),
            {m: _dollars(c * n) for m, c, n in recurring},
        ),
        _answer(
            q(
                "stmt-06",
                "Which purchases were refunded during the year, and how much was refunded in "
                "total?",
                "multi",
                *((money(t.cents, t.month), filename(t.month)) for t in refunds),
            ),
            ", ".join(f"{t.merchant} {money(-t.cents)}" for t in refunds)
            + f"; total {money(-sum(t.cents for t in refunds))}",
            _dollars(-sum(t.cents for t in refunds)),
        ),
        _answer(
            q(
                "stmt-07",
                "How much more did I spend on purchases in November and December than in a "
                "typical month from January to October?",
                "cross",
                (money(purchases[11]), filename(11)),
                (money(purchases[12]), filename(12)),
            ),
            f"November {money(purchases[11])} and December {money(purchases[12])} against "
            f"an average of {money(usual)} in January-October",
            {
                "november": _dollars(purchases[11]),
                "december": _dollars(purchases[12]),
                "average_jan_oct": _dollars(usual),
            },
        ),
        _answer(
            q(
                "stmt-08",
                "How much did I spend on groceries over the whole year?",
                "multi",
                *(("Groceries", filename(m)) for m in months),
            ),
            money(groceries),
            _dollars(groceries),
        ),
        *_sameness(summaries),
        absent("stmt-09", "How much did I spend on pet supplies in 2025?"),
        absent("stmt-10", "What is the credit limit on my card?"),
        absent("stmt-11", "What interest rate does my card charge on purchases?"),
    ]


def _sameness(summaries: dict[int, Summary]) -> list[Question]:
    """Questions on one line of every statement's account summary, added up or averaged:
    each month's value is a fact (the answer quotes them all)."""
    months = sorted(summaries)
    purchases = [summaries[m].purchases for m in months]
    payments = [summaries[m].payments for m in months]
    balances = [summaries[m].new_balance for m in months]
    average = round(sum(balances) / len(balances))
    return [
        _answer(
            q(
                "stmt-12",
                f"What were my total purchases across all my {YEAR} statements?",
                "aggregate",
                *((money(c), filename(m)) for m, c in zip(months, purchases, strict=True)),
            ),
            money(sum(purchases)),
            _dollars(sum(purchases)),
        ),
        _answer(
            q(
                "stmt-13",
                "How much did I pay in total across all twelve monthly statements?",
                "aggregate",
                *((money(-c, m), filename(m)) for m, c in zip(months, payments, strict=True)),
            ),
            money(sum(payments)),
            _dollars(sum(payments)),
        ),
        _answer(
            q(
                "stmt-14",
                "What was the average new balance across each of my monthly statements?",
                "aggregate",
                *((money(c), filename(m)) for m, c in zip(months, balances, strict=True)),
            ),
            money(average),
            _dollars(average),
        ),
    ]


def questions(months: dict[int, list[Txn]], summaries: dict[int, Summary]) -> list[Question]:
    """The original questions and their paraphrases."""
    return with_paraphrases(_originals(months, summaries), PARAPHRASES)


#: Paraphrases of the questions above (the same facts asked in other words), written
#: before the offline answerer was run on them.
PARAPHRASES = (
    ("stmt-p01", "stmt-01", "What did restaurants cost me in March?"),
    ("stmt-p02", "stmt-02", "How many line items does my December card statement have?"),
    ("stmt-p03", "stmt-03", "How much did my June statement say I owed?"),
    ("stmt-p04", "stmt-04", "Where did I make my biggest purchase this year, and how much was it?"),
    (
        "stmt-p05",
        "stmt-05",
        "What are my recurring monthly subscriptions with a fixed price, and how much does each "
        "cost annually?",
    ),
    (
        "stmt-p06",
        "stmt-06",
        "How much money did I get back in refunds this year, and for which purchases?",
    ),
    (
        "stmt-p07",
        "stmt-07",
        "Compared with an average month from January through October, how much extra did I spend "
        "in November and December?",
    ),
    ("stmt-p08", "stmt-08", "What was my total grocery spending for the year?"),
    ("stmt-p09", "stmt-12", "Add up all the purchases on my 2025 card statements."),
    ("stmt-p10", "stmt-13", "How much have I paid toward the card over all twelve statements?"),
    ("stmt-p11", "stmt-14", "On average, what was the statement balance at the end of each month?"),
    ("stmt-p12", "stmt-09", "What did I spend on stuff for my pets in 2025?"),
    ("stmt-p13", "stmt-10", "What's my card's spending limit?"),
    ("stmt-p14", "stmt-11", "What's the purchase APR on my card?"),
)
