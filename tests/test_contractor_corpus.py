"""The held-out "contractor" corpus (data/contractor, data/_gen/contractor_corpus.py): the
generator reproduces it byte for byte, its questions are well formed, every expected fact is
in the extracted text of its source, and every computed answer matches the folder."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from conftest import DATA

from fsnb.documents import parse
from fsnb.security import Sandbox

FOLDER = DATA / "contractor"
LEVELS = {"single", "files", "aggregate", "cross", "absent"}
AMOUNT = re.compile(r"-?\$?[\d,]+(?:\.\d+)?")


def _questions() -> list[dict]:
    return json.loads((FOLDER / "questions.json").read_text(encoding="utf-8"))["questions"]


def _generator():
    sys.path.insert(0, str(DATA))
    try:
        from _gen import contractor_corpus
        from _gen.questions import check_facts, write_questions
    finally:
        sys.path.remove(str(DATA))
    return contractor_corpus, check_facts, write_questions


def test_the_generator_reproduces_the_corpus_byte_for_byte(tmp_path: Path):
    contractor_corpus, check_facts, write_questions = _generator()
    result = contractor_corpus.build(tmp_path)
    write_questions(result.name, result.questions, tmp_path / result.name)
    assert check_facts(result.questions, result.texts) == []
    made = sorted(
        p.relative_to(tmp_path / "contractor") for p in tmp_path.rglob("*") if p.is_file()
    )
    kept = sorted(p.relative_to(FOLDER) for p in FOLDER.rglob("*") if p.is_file())
    assert made == kept
    for rel in made:
        assert (tmp_path / "contractor" / rel).read_bytes() == (FOLDER / rel).read_bytes(), rel


def test_the_corpus_is_small_and_keeps_its_answers_out_of_explorations():
    files = [p for p in FOLDER.rglob("*") if p.is_file()]
    assert sum(p.stat().st_size for p in files) < 2_000_000
    assert 35 <= len(files) - 2 <= 50  # without questions.json and .fsnbignore
    assert (FOLDER / ".fsnbignore").read_text().splitlines()[-1] == "questions.json"
    assert Sandbox(FOLDER).ignored("questions.json")
    folders = {p.relative_to(FOLDER).parts[0] for p in files}
    assert {"Admin", "Bids", "Jobs", "Accounting", "Safety", "Archive"} <= folders
    kinds = {p.suffix for p in files}
    assert {".pdf", ".docx", ".xlsx", ".csv", ".md", ".txt", ".pptx"} <= kinds


def test_questions_are_well_formed():
    questions = _questions()
    assert 35 <= len(questions) <= 50
    assert len({q["id"] for q in questions}) == len(questions)
    levels = [q["level"] for q in questions]
    assert set(levels) == LEVELS
    assert levels.count("absent") >= 5 and levels.count("aggregate") >= 5
    for q in questions:
        absent = q["level"] == "absent"
        assert absent == (q.get("expect") == "not_found"), q["id"]
        value = (q.get("answer") or {}).get("value")
        if absent:
            assert not q["facts"] and not q["sources"] and "answer" not in q, q["id"]
        else:
            assert q["facts"] or value is not None, q["id"]
        assert sorted({f["source"] for f in q["facts"]}) == sorted(q["sources"]), q["id"]
        for source in q["sources"]:
            assert (FOLDER / source).is_file(), source
        if q["level"] == "aggregate":
            assert q["sources"] and isinstance(value, float), q["id"]


def test_every_expected_fact_occurs_in_its_sources_extracted_text():
    texts: dict[str, str] = {}
    missing = []
    for q in _questions():
        for fact in q["facts"]:
            source = fact["source"]
            if source not in texts:
                texts[source] = " ".join(parse(FOLDER / source, cache=False).text.split())
            if " ".join(fact["text"].split()) not in texts[source]:
                missing.append(f"{q['id']} {source}: {fact['text']!r}")
    assert not missing, "facts not found in the extracted text:\n" + "\n".join(missing)


@pytest.mark.parametrize(
    "q", [q for q in _questions() if q["level"] == "files"], ids=lambda q: q["id"]
)
def test_file_answers_match_the_folder(q: dict):
    value = q["answer"]["value"]
    files = [p for p in FOLDER.rglob("*") if p.is_file()]
    if isinstance(value, str):
        assert sum(p.name == value for p in files) == 1
    else:
        assert isinstance(value, int) and value > 0
        assert str(value) in q["answer"]["text"]


def test_the_aggregates_add_up_the_amounts_quoted():
    """Where every fact of an aggregate of two or more is an amount, they add up to its
    answer (a count's facts are the dates of what was counted)."""
    for q in _questions():
        value = (q.get("answer") or {}).get("value")
        texts = [f["text"] for f in q["facts"]]
        if q["level"] != "aggregate" or len(texts) < 2:
            continue
        if all(AMOUNT.fullmatch(t) for t in texts):
            amounts = [float(t.replace("$", "").replace(",", "")) for t in texts]
            assert round(sum(amounts), 2) == value, q["id"]
        else:
            assert value == len(texts), q["id"]
