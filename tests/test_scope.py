"""A question that names a folder is answered within it (issue 28, item 3): file questions
pass it as the tool's scope, reading ranks and reads only the documents under it, and a
name that is no folder of the tree changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

import fsnb
from fsnb.agent.result import ExplorationResult
from fsnb.offline.files import file_question
from fsnb.offline.scope import folders_of, folders_under, named_folder

TOOLS = {"find_files", "find_duplicates", "disk_usage", "recent_files"}
FOLDERS = [
    "Taxes",
    "Taxes/2023",
    "Taxes/2024",
    "Invoices",
    "Invoices/2023",
    "Invoices/2024",
    "Photos",
    "Downloads",
    "Work",
    "Work/Contracts",
    "finance",
    "Client_Files",
    "Suppliers/Bluestem_Diagnostics",
    "Suppliers/Blue_Harbor",
    "Suppliers/Blue_Ridge",
]


def _write(path: Path, content: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    root = tmp_path / "home"
    pdf = b"%PDF-1.4 not really a pdf"
    _write(root / "Taxes" / "receipt.pdf", pdf)
    _write(root / "Taxes" / "2023" / "w2_2023.pdf", pdf + b"2023")
    _write(root / "Taxes" / "2024" / "1099_acme.pdf", pdf + b"2024")
    _write(
        root / "Taxes" / "2024" / "return_summary.md",
        "# 2024 Federal Return\n\nThe federal tax refund for 2024 is $1,240.\n",
    )
    _write(root / "Invoices" / "2023" / "inv-001.pdf", pdf + b"inv1")
    _write(root / "Invoices" / "2024" / "inv-007.md", "# Invoice 7\n\nTotal due: $300.\n")
    _write(root / "Photos" / "beach.jpg", b"\xff\xd8jpeg" + b"p" * 5000)
    _write(root / "Photos" / "beach-copy.jpg", b"\xff\xd8jpeg" + b"p" * 5000)
    _write(root / "Downloads" / "manual.pdf", pdf + b"m" * 9000)
    _write(root / "Downloads" / "notes.txt", "Shopping list: milk, bread.\n")
    _write(root / "Downloads" / "scan.pdf", pdf + b"s" * 100)
    _write(
        root / "Work" / "Contracts" / "lease.md",
        "# Office Lease\n\nThe notice period for termination is 90 days.\n",
    )
    _write(
        root / "Work" / "memo.md",
        "# Memo on notice periods\n\nNotice period: the notice period for termination of "
        "the old agency agreement was 30 days. Termination notice period, notice period.\n",
    )
    _write(
        root / "refund_letter.md",
        "# Refund letter\n\nYour federal tax refund: the federal tax refund is $99. "
        "Refund, tax refund, federal refund for 2024.\n",
    )
    return root


# -- naming a folder ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "folder"),
    [
        ("How many PDF files are in my Taxes folder, including all subfolders?", "Taxes"),
        ("What is the refund in the taxes directory?", "Taxes"),
        ("What is in my tax folder?", "Taxes"),  # singular for plural
        ("What is the lease term under Contracts?", "Work/Contracts"),
        ("Which file in Downloads is oldest?", "Downloads"),
        ("Anything inside my downloads about milk?", "Downloads"),
        ("What do the invoices in Invoices/2024 total?", "Invoices/2024"),
        ("List what is under ./Work/Contracts/ please", "Work/Contracts"),
        ("What is in my 2024 taxes folder?", "Taxes/2024"),  # a nested folder, any order
        ("Notice periods in the work contracts folder?", "Work/Contracts"),
        ("What is in the client files folder?", "Client_Files"),  # "_" for space
        ("What did I save from the Photos folder?", "Photos"),
        # the first words of its name, when no folder has the name itself
        ("How many documents are in the Bluestem folder?", "Suppliers/Bluestem_Diagnostics"),
    ],
)
def test_a_named_folder_is_found(question: str, folder: str):
    found = named_folder(question, FOLDERS)
    assert found is not None and found.folder == folder


@pytest.mark.parametrize(
    "question",
    [
        "How much did I pay in taxes?",  # lower case, no folder word: a topic, not a folder
        "What did I earn in 2024?",  # a year is not a folder without a folder word
        "What is in the 2023 folder?",  # Taxes/2023 and Invoices/2023: ambiguous
        "What is in my Receipts folder?",  # no such folder
        "How many files are in the folder?",
        "What is the price under the agreement?",
        "Which invoices and/or receipts are due?",
    ],
)
def test_no_folder_is_named(question: str):
    assert named_folder(question, FOLDERS) is None


def test_the_words_naming_the_folder_are_left_out():
    found = named_folder(
        "How many PDF files are in my Taxes folder, including all subfolders?", FOLDERS
    )
    assert found is not None
    assert found.rest("How many PDF files are in my Taxes folder, including all subfolders?") == (
        "How many PDF files are?"
    )
    assert found.holds("Taxes/2024/a.pdf") and not found.holds("Taxes_old/a.pdf")


def test_the_first_words_of_a_folders_name_name_it_only_for_a_folder_or_the_files():
    """A word that begins one folder's name ("Bluestem") names that folder with a folder
    word or in a question about the files, not in one about what the documents say; the
    words are whole ("Blue" does not begin "Bluestem"), and two folders that begin alike
    are no answer."""
    files = named_folder("How many files do we have from Bluestem?", FOLDERS, files=True)
    assert files is not None and files.folder == "Suppliers/Bluestem_Diagnostics"
    assert named_folder("What did Bluestem charge us from March?", FOLDERS) is None
    assert named_folder("How many files are in the Blue folder?", FOLDERS) is None


def test_a_plain_word_names_a_folder_in_a_question_about_files():
    assert named_folder("What is the smallest file under finance?", FOLDERS) is None
    found = named_folder("What is the smallest file under finance?", FOLDERS, files=True)
    assert found is not None and found.folder == "finance"


def test_folders_of_a_tree_and_of_paths(home: Path):
    assert {"Taxes", "Taxes/2024", "Work/Contracts"} <= set(folders_under(home))
    assert folders_of(["Taxes/2024/a.md", "b.md"]) == {"Taxes", "Taxes/2024"}


# -- file questions -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "key", "folder"),
    [
        ("How many PDF files are in my Taxes folder, including all subfolders?", "scope", "Taxes"),
        ("How many PDFs are under Taxes/2024?", "scope", "Taxes/2024"),
        ("What is the largest file in Downloads?", "scope", "Downloads"),
        ("Are there duplicate files in the Photos folder?", "path", "Photos"),
        ("Which files in my Invoices folder were modified in 2024?", "scope", "Invoices"),
        ("How many PDF files are in my Receipts folder?", "scope", "."),  # none such
    ],
)
def test_file_questions_take_the_folder_as_scope(home: Path, question: str, key: str, folder: str):
    asked = file_question(question, str(home), TOOLS)
    assert asked is not None and asked.arguments[key] == folder


def _explore(question: str, folder: Path) -> ExplorationResult:
    return fsnb.explore(question, folder=folder, llm="offline")


def test_a_count_within_a_named_folder_and_its_subfolders(home: Path):
    result = _explore("How many PDF files are in my Taxes folder, including all subfolders?", home)
    assert "There are 3 PDF files under Taxes (including subfolders)" in result.answer
    cited = {c.path for c in result.citations}
    assert {"Taxes/receipt.pdf", "Taxes/2023/w2_2023.pdf", "Taxes/2024/1099_acme.pdf"} <= cited
    assert not any(p.startswith(("Downloads", "Invoices")) for p in cited)


def test_the_whole_tree_when_no_folder_is_named(home: Path):
    result = _explore("How many PDF files are there?", home)
    assert "There are 6 PDF files" in result.answer and "under" not in result.answer.split("\n")[0]


def test_a_superlative_within_a_named_folder(home: Path):
    result = _explore("What is the largest file in Downloads?", home)
    assert "The largest file under Downloads is **Downloads/manual.pdf**" in result.answer


# -- reading --------------------------------------------------------------------------


def _reads(result: ExplorationResult) -> list[dict]:
    return [s for s in result.steps() if s["tool"] == "parse_file"]


def test_reading_stays_within_the_named_folder(home: Path):
    result = _explore("What is my federal tax refund for 2024, in my Taxes folder?", home)
    reads = _reads(result)
    assert reads and all(str(s["args"]["path"]).startswith("Taxes/") for s in reads)
    assert "under Taxes/" in reads[0]["reason"]
    assert "$1,240" in result.answer and "$99" not in result.answer


def test_reading_without_a_folder_ranks_everything(home: Path):
    result = _explore("What is my federal tax refund for 2024?", home)
    assert any(s["args"]["path"] == "refund_letter.md" for s in _reads(result))
    assert all("under " not in s["reason"] for s in _reads(result))


def test_reading_under_a_folder_named_as_a_name(home: Path):
    result = _explore("What is the notice period for termination under Contracts?", home)
    reads = _reads(result)
    assert reads and all(s["args"]["path"].startswith("Work/Contracts/") for s in reads)
    assert "90 days" in result.answer


def test_a_folder_not_in_the_tree_changes_nothing(home: Path):
    asked = "What is the notice period for termination in my Legal folder?"
    result = _explore(asked, home)
    assert all("under " not in s["reason"] for s in _reads(result))
