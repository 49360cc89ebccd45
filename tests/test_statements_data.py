"""The spending-analysis sample data: twelve statement PDFs in data/statements, their hidden
ground truth in data/_truth/statements.csv, and questions whose answers match that truth."""

from __future__ import annotations

import calendar
import json
import sys
from pathlib import Path

import pandas as pd
import pytest
from conftest import DATA

from fsnb.documents import Document, parse
from fsnb.security import Sandbox

FOLDER = DATA / "statements"
TRUTH = DATA / "_truth" / "statements.csv"
NAMES = [f"{m.lower()}-2025.pdf" for m in calendar.month_abbr[1:]]


@pytest.fixture(scope="module")
def truth() -> pd.DataFrame:
    return pd.read_csv(TRUTH, parse_dates=["date"])


@pytest.fixture(scope="module")
def docs() -> dict[str, Document]:
    return {name: parse(FOLDER / name) for name in NAMES}


def _questions() -> dict[str, dict]:
    items = json.loads((FOLDER / "questions.json").read_text())["questions"]
    return {item["id"]: item for item in items}


def _shown(amount: float, month: int) -> str:
    """An amount as the statements print it: credits are -$x to June, ($x) from July."""
    text = f"${abs(amount):,.2f}"
    if amount >= 0:
        return text
    return f"-{text}" if month <= 6 else f"({text})"


def test_twelve_monthly_statements_and_their_truth(truth: pd.DataFrame):
    assert sorted(p.name for p in FOLDER.glob("*.pdf")) == sorted(NAMES)
    assert list(truth.columns) == [
        "month",
        "date",
        "merchant",
        "category",
        "amount",
        "source_file",
        "page",
    ]
    counts = truth.groupby("source_file").size()
    assert sorted(counts.index) == sorted(NAMES)
    assert counts.between(35, 65).all() and 500 <= counts.sum() <= 650
    assert (truth.date.dt.strftime("%Y-%m") == truth.month).all()
    assert (truth.source_file == [NAMES[d.month - 1] for d in truth.date]).all()


def test_the_year_holds_subscriptions_a_holiday_spike_and_refunds(truth: pd.DataFrame):
    months = truth.groupby(["merchant", "amount"]).month.nunique()
    recurring = set(months[months >= 3].index.get_level_values("merchant"))
    assert {"Netflix", "Spotify Premium", "PureFit Gym", "CloudVault Storage"} <= recurring
    spent = truth[truth.amount > 0].groupby("month").amount.sum()
    assert min(spent["2025-11"], spent["2025-12"]) > spent.drop(["2025-11", "2025-12"]).max()
    refunds = truth[truth.amount < 0]
    assert 3 <= len(refunds) <= 6 and refunds.month.nunique() == len(refunds)


def test_every_transaction_is_on_its_page(truth: pd.DataFrame, docs: dict[str, Document]):
    missing = []
    for row in truth.itertuples():
        page = " ".join(docs[row.source_file].page_text(row.page).split())
        amount = _shown(row.amount, row.date.month)
        if f"{row.merchant}" not in page or f"| {amount}" not in page:
            missing.append(f"{row.source_file} p{row.page}: {row.merchant} {amount}")
    assert not missing, "\n".join(missing[:20])


def test_some_statements_run_over_two_pages(truth: pd.DataFrame, docs: dict[str, Document]):
    pages = truth.groupby("source_file").page.max()
    assert {name: doc.pages for name, doc in docs.items()} == pages.to_dict()
    assert 1 in set(pages) and 2 in set(pages)
    for name, doc in docs.items():
        assert "Card holder: Jordan A. Rivera" in doc.text and "Account ending in 4821" in doc.text
        assert "Previous balance" in doc.text and "New balance" in doc.text, name


def test_answers_match_the_ground_truth(truth: pd.DataFrame):
    answers = {
        qid: item["answer"]["value"] for qid, item in _questions().items() if "answer" in item
    }
    march = truth[truth.month == "2025-03"]
    assert answers["stmt-01"] == round(march[march.category == "Dining"].amount.sum(), 2)
    assert answers["stmt-02"] == int((truth.month == "2025-12").sum())
    top = truth.loc[truth.amount.idxmax()]
    assert answers["stmt-04"] == top.amount and top.merchant == "Best Buy"
    monthly = truth.groupby(["merchant", "amount"]).month.nunique()
    yearly = {m: round(a * n, 2) for (m, a), n in monthly[monthly >= 3].items()}
    assert answers["stmt-05"] == yearly
    assert answers["stmt-06"] == round(-truth[truth.amount < 0].amount.sum(), 2)
    groceries = truth[truth.category == "Groceries"].amount.sum()
    assert answers["stmt-08"] == round(groceries, 2)


def test_question_facts_are_in_the_parsed_statements(docs: dict[str, Document]):
    questions = _questions()
    assert len(questions) >= 6
    for item in questions.values():
        if item.get("expect") == "not_found":
            assert not item["facts"] and not item["sources"], item["id"]
            continue
        assert item["facts"] and item["answer"]["text"]
        for fact in item["facts"]:
            text = " ".join(docs[fact["source"]].text.split())
            assert fact["text"] in text, (item["id"], fact)


def test_the_truth_and_the_answers_stay_out_of_sight():
    inside = Sandbox(FOLDER)
    assert inside.ignored("questions.json")
    assert not any(p.suffix == ".csv" for p in FOLDER.rglob("*"))
    above = Sandbox(DATA)
    assert above.ignored("_truth/statements.csv") and above.ignored("statements/questions.json")
    assert not above.ignored("statements/jan-2025.pdf")


def test_the_generator_reproduces_the_data_byte_for_byte(tmp_path: Path):
    sys.path.insert(0, str(DATA))
    try:
        from _gen import statements_corpus
        from _gen.questions import write_questions
    finally:
        sys.path.remove(str(DATA))
    result = statements_corpus.build(tmp_path)
    write_questions(result.name, result.questions, tmp_path / result.name)
    made = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert len(made) == 12 + 4  # the PDFs, questions.json, two .fsnbignore files, the truth
    for rel in made:
        assert (tmp_path / rel).read_bytes() == (DATA / rel).read_bytes(), rel
