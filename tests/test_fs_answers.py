"""The offline backend answers questions about the files themselves, citing their stat."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

import fsnb
from fsnb.agent.citations import verify_citations
from fsnb.agent.result import ExplorationResult
from fsnb.offline.files import file_question
from fsnb.protocol import CitedSource
from fsnb.security import Sandbox

DAY = 86_400
BASE = 1_700_000_000
MB = 2**20
TOOLS = {"find_files", "find_duplicates", "disk_usage", "recent_files"}


def _file(path: Path, content: bytes, mtime: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    os.utime(path, (mtime, mtime))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "deal"
    _file(root / "contracts" / "spa.pdf", b"%PDF-" + b"a" * 3000, BASE)
    _file(root / "contracts" / "escrow.pdf", b"%PDF-" + b"b" * 2000, BASE - DAY)
    _file(root / "contracts" / "notes.md", b"# Notes\n\nThe price is $9,000,000.\n", BASE - 2 * DAY)
    _file(root / "finance" / "model.xlsx", b"x" * (3 * MB), BASE - 30 * DAY)
    _file(root / "finance" / "archive.zip", b"z" * (MB + 1), BASE - 60 * DAY)
    _file(root / "finance" / "budget.pdf", b"%PDF-" + b"c" * 500, BASE + 3 * DAY)
    _file(root / "copy-of-notes.md", b"# Notes\n\nThe price is $9,000,000.\n", BASE - 3 * DAY)
    _file(root / "keys" / "server.key", b"k" * (5 * MB), BASE + 9 * DAY)  # blocked
    return root


def _explore(question: str, folder: Path) -> ExplorationResult:
    return fsnb.explore(question, folder=folder, llm="offline")


def _paths(result: ExplorationResult) -> list[str]:
    assert result.ok and result.citations
    assert all(c.verified for c in result.citations), [c.problem for c in result.citations]
    return [c.path for c in result.citations]


def test_the_largest_file(folder: Path):
    result = _explore("Which is the largest file?", folder)
    assert result.steps()[0]["tool"] == "find_files"
    assert "**finance/model.xlsx**" in result.answer
    assert _paths(result)[0] == "finance/model.xlsx"
    assert result.citations[0].quote == f"size: {3 * MB:,} bytes"
    assert "server.key" not in result.answer


def test_how_many_pdf_files_are_in_a_folder(folder: Path):
    result = _explore("How many PDF files are in contracts?", folder)
    assert "There are 2 PDF files under contracts" in result.answer
    paths = _paths(result)
    assert paths[0] == "contracts" and result.citations[0].quote == "files: 2 (pdf)"
    assert set(paths[1:]) == {"contracts/spa.pdf", "contracts/escrow.pdf"}


def test_files_of_a_format_are_counted_whatever_they_are_called(folder: Path):
    """'PDF agreements' are PDF files to count, 'the agreements' a question for reading."""
    result = _explore("How many PDF agreements are in contracts?", folder)
    assert result.answer.startswith("There are 2 PDF files under contracts")
    assert file_question("How many agreements are there?", str(folder), TOOLS) is None
    assert file_question("How many text messages did I get?", str(folder), TOOLS) is None
    rtf = file_question("How many RTF letters are in contracts?", str(folder), TOOLS)
    assert rtf is not None and rtf.arguments["file_types"] == "rtf"


def test_a_count_not_counting_subfolders_keeps_the_files_in_the_folder(folder: Path):
    _file(folder / "contracts" / "old" / "draft.pdf", b"%PDF-" + b"d" * 100, BASE)
    direct = _explore("How many PDF files are directly in contracts?", folder)
    assert direct.answer.startswith("There are 2 PDF files under contracts (not counting")
    paths = _paths(direct)  # the count's citation is verified against the folder
    assert direct.citations[0].quote == "files directly in it: 2 (pdf)"
    assert set(paths[1:]) == {"contracts/spa.pdf", "contracts/escrow.pdf"}
    named = _explore("How many PDF agreements are directly in contracts?", folder)
    assert named.answer.startswith("There are 2 PDF files under contracts (not counting")
    every = _explore("How many PDF files are in contracts, including subfolders?", folder)
    assert every.answer.startswith("There are 3 PDF files under contracts (including")
    top = _explore("How many files are there, not counting subfolders?", folder)
    assert top.answer.startswith("There is 1 file [1]") and "copy-of-notes.md" in top.answer
    assert all(c.verified for c in top.citations)


def test_one_file_is_one_file(folder: Path):
    result = _explore("How many Markdown files are in contracts?", folder)
    assert result.answer.startswith("There is 1 Markdown file under contracts")
    listed = _explore("Which files in finance are spreadsheets?", folder)
    assert listed.answer.startswith("1 spreadsheet file under finance:")
    assert "finance/model.xlsx" in listed.answer


def test_what_was_modified_most_recently(folder: Path):
    result = _explore("What was modified most recently?", folder)
    assert "**finance/budget.pdf**" in result.answer
    assert _paths(result)[0] == "finance/budget.pdf"
    assert result.citations[0].quote.startswith("modified: ")


def test_files_larger_than_a_size(folder: Path):
    result = _explore("Which files are larger than 1 MB?", folder)
    assert "2 files larger than 1 MB" in result.answer
    assert _paths(result) == ["finance/model.xlsx", "finance/archive.zip"]


def test_files_of_a_format_named_in_the_plural_within_a_size(folder: Path):
    """A size limit holds for a count and a listing of one format, named "PDFs" with no
    "files"; the count's citation says the limit, and a wrong count is flagged."""
    result = _explore("How many PDFs are larger than 2 KB?", folder)
    assert "There is 1 PDF file larger than 2 KB" in result.answer
    assert _paths(result) == [".", "contracts/spa.pdf"]
    assert result.citations[0].quote == "files: 1 (pdf, >2KB)"
    found = _explore("Find all PDFs larger than 1 KB.", folder)
    assert "2 PDF files larger than 1 KB" in found.answer
    assert _paths(found) == ["contracts/spa.pdf", "contracts/escrow.pdf"]
    wrong = CitedSource(id=1, path=".", quote="files: 3 (pdf, >1KB)")
    [checked] = verify_citations("[1]", [wrong], Sandbox(folder), set())
    assert not checked.verified and "there are 2" in checked.problem


def test_duplicate_files(folder: Path):
    result = _explore("Are there duplicate files?", folder)
    assert "1 groups of duplicate files" in result.answer
    assert set(_paths(result)) == {"contracts/notes.md", "copy-of-notes.md"}


def test_a_wrong_size_or_date_in_a_citation_is_flagged(folder: Path):
    box = Sandbox(folder)
    sources = [
        CitedSource(id=1, path="finance/model.xlsx", quote="size: 1,000 bytes"),
        CitedSource(id=2, path="finance/model.xlsx", quote=f"size: {3 * MB:,} bytes"),
        CitedSource(id=3, path="finance/budget.pdf", quote="modified: 1999-01-01 00:00"),
        CitedSource(id=4, path="contracts", quote="files: 5 (pdf)"),
        CitedSource(id=5, path="keys/server.key", quote=f"size: {5 * MB:,} bytes"),
    ]
    checked = verify_citations("[1] [2] [3] [4] [5]", sources, box, set())
    assert [c.verified for c in checked] == [False, True, False, False, False]
    assert "the file has 3,145,728 bytes" in checked[0].problem
    assert "there are 2" in checked[3].problem


def test_document_questions_still_read_documents(folder: Path):
    result = _explore("What is the price in the notes?", folder)
    assert result.steps()[0]["tool"] == "scan_folder"
    assert "$9,000,000" in result.answer


@pytest.mark.parametrize(
    "question",
    [
        "What is the largest customer's share of revenue?",
        "How many employees does the company have?",
        "What is the most recent amendment to the agreement?",
        "Which documents mention the escrow amount?",
        "Which is the most recent document about the merger?",  # its date, not the file's
        "What is the latest report on emissions?",
        "Is there any document in contracts about the escrow?",  # their content
        "What documents are in the finance folder that mention the budget?",
        "Are there any PDFs about the price?",
        "How much space does the warehouse have?",  # the premises, not the disk
        "How big is the escrow amount?",
        "What's in the notes?",  # what they say: no folder is named
        "What is the latest word from the buyer?",  # not a Word document
        "Is there a man page for the tool?",  # ".man" is a format, but not one named so
        "What is the largest expense in the budget?",
    ],
)
def test_document_questions_are_not_file_questions(question: str, folder: Path):
    assert file_question(question, str(folder), TOOLS) is None


@pytest.mark.parametrize(
    ("question", "kind", "argument"),
    [
        ("What is the smallest file under finance?", "smallest", ("scope", "finance")),
        ("Which file is the oldest?", "oldest", ("sort_by", "modified")),
        ("Which document was changed last?", "newest", ("sort_by", "modified")),
        ("How many markdown files are there?", "count", ("file_types", "md,markdown")),
        ("How many Excel workbooks are in finance?", "count", ("file_types", "xlsx,xls")),
        ("How many workbooks are there?", "count", ("file_types", "xlsx,xls")),
        ("How many PDF docs does the finance folder hold?", "count", ("file_types", "pdf")),
        ("Which file is a PowerPoint presentation?", "types", ("file_types", "pptx,ppt")),
        ("Which files are slide decks?", "types", ("file_types", "pptx,ppt")),
        ("List files smaller than 10 KB", "size", ("size_range", "<10KB")),
        ("Which files were modified in 2023?", "dates", ("date_range", "2023")),
        ("Which files were modified in May 2024?", "dates", ("date_range", "2024-05")),
        ("Files modified between 2024-01-01 and 2024-02-01?", "dates", ("date_range", "2024-01-01..2024-02-01")),
        ("Count the PDFs in contracts.", "count", ("file_types", "pdf")),
        ("What is the number of markdown files?", "count", ("file_types", "md,markdown")),
        ("How many PDF files does Finance have?", "count", ("scope", "finance")),
        ("Show me every PDF file under contracts.", "types", ("file_types", "pdf")),
        ("Are there any spreadsheets in finance?", "types", ("file_types", "xlsx,xls,csv")),
        ("Which Markdown notes are in contracts?", "types", ("file_types", "md,markdown")),
        ("Which files are in the contracts folder?", "types", ("scope", "contracts")),
        ("What kinds of files are in finance?", "types", ("scope", "finance")),
        ("List every file under finance.", "types", ("scope", "finance")),
        ("What's in the contracts folder?", "contents", ("scope", "contracts")),
        ("Show me the contents of the finance folder.", "contents", ("scope", "finance")),
        ("What does the finance folder contain?", "contents", ("scope", "finance")),
        ("Is there a spreadsheet in finance?", "types", ("file_types", "xlsx,xls,csv")),
        ("What is the smallest PDF?", "smallest", ("file_types", "pdf")),
        ("Which is the newest Word document?", "newest", ("file_types", "docx,doc")),
        ("How much disk space does the finance folder use?", "space", ("path", "finance")),
        ("What is the total size of the contracts folder?", "space", ("path", "contracts")),
        ("How many subfolders are there?", "folders", ("path", ".")),
        ("How many of the agreements in contracts are PDF files?", "count", ("file_types", "pdf")),
        ("How many of the plans in finance are Word documents?", "count", ("scope", "finance")),
        ("Which client's folder has the most files?", "fullest", ("top_n", 100_000)),
    ],
)  # fmt: skip
def test_the_rules(question: str, kind: str, argument: tuple[str, str], folder: Path):
    found = file_question(question, str(folder), TOOLS)
    assert found is not None and found.kind == kind
    assert found.arguments[argument[0]] == argument[1]


def test_which_files_of_a_folder_are_of_a_type(folder: Path):
    found = file_question("Which files in finance are spreadsheets?", str(folder), TOOLS)
    assert found is not None and found.kind == "types"
    assert found.arguments["file_types"] == "xlsx,xls,csv"
    result = _explore("Which files in finance are spreadsheets?", folder)
    assert "finance/model.xlsx" in result.answer
    assert _paths(result) == ["finance/model.xlsx"]
    for question in ("Which document is the lease?", "Which files mention the escrow?"):
        assert file_question(question, str(folder), TOOLS) is None


def test_all_the_files_of_a_folder_are_listed(folder: Path):
    result = _explore("Which files are in the contracts folder?", folder)
    assert result.answer.startswith("3 files under contracts:")
    assert sorted(_paths(result)) == [
        "contracts/escrow.pdf",
        "contracts/notes.md",
        "contracts/spa.pdf",
    ]


def test_the_size_of_a_folder(folder: Path):
    result = _explore("How big is the contracts folder?", folder)
    size = 3005 + 2005 + len(b"# Notes\n\nThe price is $9,000,000.\n")
    assert result.answer.startswith(f"The contracts folder holds **{size:,} bytes** (")
    assert "in 3 files" in result.answer
    paths = _paths(result)  # the folder's size is checked against the files under it
    assert result.citations[0].quote == f"size: {size:,} bytes; files: 3"
    assert paths == ["contracts", "contracts/spa.pdf", "contracts/escrow.pdf", "contracts/notes.md"]
    whole = _explore("How much space do all my files take up?", folder)
    assert whole.answer.startswith("The whole folder holds")
    assert "server.key" not in whole.answer  # blocked files are not counted or shown
    _paths(whole)


def test_how_many_folders(folder: Path):
    result = _explore("How many folders are there?", folder)
    assert result.answer.startswith("There are 2 folders [1].")  # keys/ holds only a blocked file
    assert _paths(result) == [".", "finance", "contracts"]
    wrong = CitedSource(id=1, path=".", quote="folders: 3")
    (checked,) = verify_citations("[1]", [wrong], Sandbox(folder), set())
    assert not checked.verified and "the folder has 2" in checked.problem


def test_what_a_folder_holds_and_one_formats_extremes(folder: Path):
    listed = _explore("What's in the finance folder?", folder)
    assert listed.answer.startswith("3 files under finance:")
    assert len(_paths(listed)) == 3
    smallest = _explore("What is the smallest PDF?", folder)
    assert smallest.answer.startswith("The smallest PDF file is **finance/budget.pdf**")
    _paths(smallest)


def test_files_modified_within_a_rolling_window(tmp_path: Path):
    """ "In the last week", "over the past month", "within the past 3 days": that many days
    back from today, by the files' modification times."""
    now = int(time.time())
    _file(tmp_path / "home" / "fresh.md", b"# Fresh\n", now - 2 * DAY)
    _file(tmp_path / "home" / "month.md", b"# Month\n", now - 20 * DAY)
    _file(tmp_path / "home" / "old.md", b"# Old\n", now - 400 * DAY)
    root = tmp_path / "home"
    week = _explore("Which files were modified in the last week?", root)
    assert week.answer.startswith("1 file modified in the last week:")
    assert _paths(week) == ["fresh.md"]
    month = _explore("Which files were changed over the past month?", root)
    assert _paths(month) == ["fresh.md", "month.md"]
    asked = file_question("Which files were updated within the past 3 days?", str(root), TOOLS)
    assert asked is not None and asked.arguments["date_range"].startswith(">=")


def test_the_folder_taking_the_most_space_or_holding_the_most_files(folder: Path):
    result = _explore("Which folder takes up the most space?", folder)
    assert result.answer.startswith("The folder taking the most space is **finance**")
    assert all(c.verified for c in result.citations)
    result = _explore("Which folder has the most files?", folder)  # 3 and 3: by name then
    first, then = result.answer.splitlines()[:2]
    assert first.startswith("The folder holding the most files is **contracts** (3 files)")
    assert then.startswith("- then finance (3 files)")
    assert all(c.verified for c in result.citations)


def test_the_files_a_folder_holds_named_or_from_it(folder: Path):
    for question in ("Name the files in contracts.", "What documents do we have from finance?"):
        listed = _paths(_explore(question, folder))
        assert listed and all(p.startswith(question.split()[-1].strip(".?")) for p in listed)
    # "from 2024" names no folder: not a listing of the whole tree
    steps = _explore("What documents do we have from 2024?", folder).steps()
    assert not any(s["tool"] == "find_files" for s in steps)
