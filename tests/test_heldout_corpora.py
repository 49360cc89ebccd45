"""The held-out corpora (data/personal and data/contractor, from data/_gen/*_corpus.py): the
generator reproduces each byte for byte, its questions are well formed, every expected fact
is in the extracted text of its source, and every computed answer matches the folder."""

from __future__ import annotations

import importlib
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import DATA

from fsnb.documents import parse
from fsnb.security import Sandbox

LEVELS = {"single", "files", "aggregate", "cross", "absent"}
AMOUNT = re.compile(r"-?\$?[\d,]+(?:\.\d+)?")


@dataclass(frozen=True)
class Corpus:
    """A held-out corpus and what its folder and questions must hold."""

    name: str
    folders: frozenset[str]  # top-level folders
    formats: frozenset[str]  # file suffixes
    documents: range  # files, less questions.json and .fsnbignore
    absent: int  # absent questions at least

    @property
    def folder(self) -> Path:
        return DATA / self.name

    def questions(self) -> list[dict]:
        text = (self.folder / "questions.json").read_text(encoding="utf-8")
        return json.loads(text)["questions"]


CORPORA = [
    Corpus(
        "personal",
        frozenset({"Taxes", "Receipts", "Bank", "Contracts", "Insurance", "Medical", "Downloads"}),
        frozenset({".pdf", ".docx", ".xlsx", ".csv", ".md", ".txt"}),
        range(35, 51),
        8,
    ),
    Corpus(
        "contractor",
        frozenset({"Admin", "Bids", "Jobs", "Accounting", "Safety", "Archive"}),
        frozenset({".pdf", ".docx", ".xlsx", ".csv", ".md", ".txt", ".pptx"}),
        range(35, 51),
        5,
    ),
]
each = pytest.mark.parametrize("corpus", CORPORA, ids=lambda c: c.name)


def _generator(name: str):
    sys.path.insert(0, str(DATA))
    try:
        builder = importlib.import_module(f"_gen.{name}_corpus")
        from _gen.questions import check_facts, write_questions
    finally:
        sys.path.remove(str(DATA))
    return builder, check_facts, write_questions


@each
def test_the_generator_reproduces_the_corpus_byte_for_byte(corpus: Corpus, tmp_path: Path):
    builder, check_facts, write_questions = _generator(corpus.name)
    result = builder.build(tmp_path)
    write_questions(result.name, result.questions, tmp_path / result.name)
    assert check_facts(result.questions, result.texts) == []
    out = tmp_path / corpus.name
    made = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    kept = sorted(p.relative_to(corpus.folder) for p in corpus.folder.rglob("*") if p.is_file())
    assert made == kept
    for rel in made:
        assert (out / rel).read_bytes() == (corpus.folder / rel).read_bytes(), rel


@each
def test_the_corpus_is_small_and_keeps_its_answers_out_of_explorations(corpus: Corpus):
    files = [p for p in corpus.folder.rglob("*") if p.is_file()]
    assert sum(p.stat().st_size for p in files) < 2_000_000
    assert len(files) - 2 in corpus.documents  # less questions.json and .fsnbignore
    assert (corpus.folder / ".fsnbignore").read_text().splitlines()[-1] == "questions.json"
    assert Sandbox(corpus.folder).ignored("questions.json")
    assert corpus.folders <= {p.relative_to(corpus.folder).parts[0] for p in files}
    assert corpus.formats <= {p.suffix for p in files}


@each
def test_questions_are_well_formed(corpus: Corpus):
    questions = corpus.questions()
    assert 35 <= len(questions) <= 50
    assert len({q["id"] for q in questions}) == len(questions)
    levels = [q["level"] for q in questions]
    assert set(levels) == LEVELS
    assert levels.count("absent") >= corpus.absent and levels.count("aggregate") >= 5
    for q in questions:
        absent = q["level"] == "absent"
        assert absent == (q.get("expect") == "not_found"), q["id"]
        value = (q.get("answer") or {}).get("value")
        if absent:
            assert not q["facts"] and not q["sources"] and "answer" not in q, q["id"]
        else:
            assert q["facts"] or value is not None, q["id"]
        assert {f["source"] for f in q["facts"]} <= set(q["sources"]), q["id"]
        for source in q["sources"]:
            assert (corpus.folder / source).is_file(), source
        if q["level"] == "aggregate":
            assert q["sources"] and isinstance(value, float | None), q["id"]


@each
def test_every_expected_fact_occurs_in_its_sources_extracted_text(corpus: Corpus):
    texts: dict[str, str] = {}
    missing = []
    for q in corpus.questions():
        for fact in q["facts"]:
            source = fact["source"]
            if source not in texts:
                texts[source] = " ".join(parse(corpus.folder / source, cache=False).text.split())
            if " ".join(fact["text"].split()) not in texts[source]:
                missing.append(f"{q['id']} {source}: {fact['text']!r}")
    assert not missing, "facts not found in the extracted text:\n" + "\n".join(missing)


@pytest.mark.parametrize(
    ("corpus", "q"),
    [(c, q) for c in CORPORA for q in c.questions() if q["level"] == "files"],
    ids=lambda x: x.name if isinstance(x, Corpus) else x["id"],
)
def test_file_answers_match_the_folder(corpus: Corpus, q: dict):
    value = q["answer"]["value"]
    files = [p for p in corpus.folder.rglob("*") if p.is_file()]
    if isinstance(value, str):
        assert sum(p.name == value for p in files) == 1
    else:
        assert isinstance(value, int) and value > 0
        assert str(value) in q["answer"]["text"]


@each
def test_the_aggregates_add_up_the_amounts_quoted(corpus: Corpus):
    """Where every fact of an aggregate of two or more is an amount, they add up to its
    answer; otherwise it counts them (a count's facts are the dates of what was counted)."""
    for q in corpus.questions():
        value = (q.get("answer") or {}).get("value")
        texts = [f["text"] for f in q["facts"]]
        if q["level"] != "aggregate" or len(texts) < 2:
            continue
        if all(AMOUNT.fullmatch(t) for t in texts):
            amounts = [float(t.replace("$", "").replace(",", "")) for t in texts]
            assert round(sum(amounts), 2) == value, q["id"]
        else:
            assert value == len(texts), q["id"]
