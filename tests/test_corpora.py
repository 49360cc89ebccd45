"""The bundled sample corpora: every expected fact is in its source's extracted text, and
every awkward file of data/mixed gets its own one-line message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import DATA

from fsnb.documents import parse
from fsnb.tools import parse_file, read, scan_folder

CORPORA = [
    "test_acquisition",
    "large_acquisition",
    "mixed",
    "household",
    "smallorg",
    "vetclinic",
    "lab",
]
MINIMUM_QUESTIONS = {
    "test_acquisition": 10,
    "large_acquisition": 12,
    "mixed": 8,
    "household": 20,
    "smallorg": 25,
    "vetclinic": 35,
    "lab": 35,
}
#: Every level a question may have; a "files" question (the files of a folder) has no facts,
#: only a computed answer (`answer.value`).
LEVELS = {"single", "cross", "multi", "aggregate", "files", "absent"}


def _questions(corpus: str) -> list[dict]:
    return json.loads((DATA / corpus / "questions.json").read_text())["questions"]


def _facts() -> list[tuple[str, str, str]]:
    return [
        (corpus, fact["source"], fact["text"])
        for corpus in CORPORA
        for q in _questions(corpus)
        for fact in q["facts"]
    ]


@pytest.mark.parametrize("corpus", CORPORA)
def test_questions_are_well_formed(corpus: str):
    questions = _questions(corpus)
    assert len(questions) >= MINIMUM_QUESTIONS[corpus]
    levels = {q["level"] for q in questions}
    assert levels <= LEVELS and "single" in levels
    assert sum(q["level"] == "single" for q in questions) >= 4
    assert sum(q.get("expect") == "not_found" for q in questions) >= 3
    for q in questions:
        absent = q["level"] == "absent"
        assert absent == (q.get("expect") == "not_found"), q["id"]
        if q["level"] == "files":
            assert not q["facts"] and "value" in q["answer"], q["id"]
        else:
            assert bool(q["facts"]) != absent, q["id"]
        assert sorted({f["source"] for f in q["facts"]}) == sorted(q["sources"]), q["id"]
        for source in q["sources"]:
            assert (DATA / corpus / source).is_file(), source


def test_every_expected_fact_occurs_in_its_source_text():
    texts: dict[tuple[str, str], str] = {}
    missing = []
    for corpus, source, fact in _facts():
        key = (corpus, source)
        if key not in texts:
            texts[key] = " ".join(parse(DATA / corpus / source).text.split())
        if " ".join(fact.split()) not in texts[key]:
            missing.append(f"{corpus}/{source}: {fact!r}")
    assert not missing, "facts not found in the extracted text:\n" + "\n".join(missing)


def test_sample_corpora_sizes():
    large = sorted((DATA / "large_acquisition").glob("*.pdf"))
    assert len(large) == 25 and len(sorted((DATA / "test_acquisition").glob("*.pdf"))) == 10
    pages = [parse(p).pages for p in large]
    assert min(pages) >= 3 and max(pages) <= 6


MIXED_MESSAGES = {
    ".env": "skipped: .env may contain secrets (.env); left out of scans",
    "keys/id_rsa": "blocked: keys/id_rsa is a private key file (blocked: id_rsa)",
    "links/outside.txt": "access denied: links/outside.txt is a symlink to",
    "misc/firmware.bin": "skipped: binary file, not a document",
    "notes/empty.md": "error: empty file (0 bytes)",
    "reports/corrupt_report.pdf": "error: corrupt PDF: Failed to load document",
}
MIXED_DOCUMENTS = {
    "deck/board_update.pptx": "pptx, 4 pages",
    "finance/customers.csv": "csv, 1 page",
    "finance/valuation_model.xlsx": "xlsx, 2 pages",
    "memos/integration_plan.docx": "docx, 1 page",
    "notes/call_log.txt": "txt, 1 page",
    "notes/diligence_notes.md": "md, 1 page",
    "notes/legacy_memo_latin1.txt": "txt, 1 page",
    "web/press_release.html": "html, 1 page",
}


def test_mixed_scan_reports_every_file():
    out = scan_folder(root=str(DATA / "mixed"))
    entries = {
        line.split(" — ", 1)[0][4:]: line.split(" — ", 1)[1]
        for line in out.splitlines()
        if line.startswith("=== ")
    }
    assert set(entries) == set(MIXED_MESSAGES) | set(MIXED_DOCUMENTS)
    for path, message in MIXED_MESSAGES.items():
        assert entries[path].startswith(message), (path, entries[path])
    for path, kind in MIXED_DOCUMENTS.items():
        assert entries[path].startswith(kind), (path, entries[path])
    assert "questions.json" not in out  # hidden by data/mixed/.fsnbignore
    assert "Traceback" not in out


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("notes/empty.md", "error: cannot read"),
        ("reports/corrupt_report.pdf", "error: cannot read"),
        ("misc/firmware.bin", "error: cannot read"),
        ("keys/id_rsa", "access denied: keys/id_rsa is a private key file"),
        ("links/outside.txt", "access denied: links/outside.txt is a symlink to"),
        ("questions.json", "access denied: questions.json is excluded by .fsnbignore"),
    ],
)
def test_mixed_awkward_files_parse_to_one_line(path: str, expected: str):
    out = parse_file(path, root=str(DATA / "mixed"))
    assert out.startswith(expected) and "\n" not in out


def test_mixed_text_files_decode():
    latin = read("notes/legacy_memo_latin1.txt", root=str(DATA / "mixed"))
    assert "François Lefèvre" in latin and "(warning: decoded as cp1252 (not UTF-8))" in latin
    env = read(".env", root=str(DATA / "mixed"))
    assert env.startswith(".env (") and "(warning: .env may contain secrets" in env


def test_mixed_speaker_notes_and_second_sheet_are_extracted():
    deck = parse(DATA / "mixed" / "deck" / "board_update.pptx")
    sheets = parse(DATA / "mixed" / "finance" / "valuation_model.xlsx")
    notes_facts = [
        f["text"]
        for q in _questions("mixed")
        for f in q["facts"]
        if f["source"] in ("deck/board_update.pptx", "finance/valuation_model.xlsx")
    ]
    assert notes_facts
    joined = " ".join((deck.text + " " + sheets.text).split())
    assert all(fact in joined for fact in notes_facts)
    assert sheets.pages == 2 and deck.pages == 4


def test_data_generator_is_committed_with_its_output():
    assert (Path(DATA) / "generate.py").is_file()
    for corpus in CORPORA:
        assert (DATA / corpus / ".fsnbignore").read_text().splitlines()[-1] == "questions.json"
