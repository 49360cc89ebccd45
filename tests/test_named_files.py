"""Files named by what they are, not by their format: a count of things a folder, the tree
or the files' names are named for ("How many receipts do I have?"), and where a file is
kept ("Where is my lease stored?"). A count that asks more of the things, or a name that
only qualifies another word ("employee_handbook"), is not a question about files."""

from __future__ import annotations

from pathlib import Path

import pytest

import fsnb
from fsnb.agent.result import ExplorationResult
from fsnb.offline.named_files import named_question

TOOLS = {"find_files", "disk_usage"}


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    root = tmp_path / "statements"  # the tree's own name is a kind of document
    for name in ("2024-02-14_florist.md", "2024-03-02_hardware.txt", "2024-03-18_pharmacy.md"):
        _write(root / "Receipts" / name, "Total: $12.00\n")
    for name in ("DEA_registration_Fenwick.txt", "DEA_registration_Marsh.txt"):
        _write(root / "Licenses" / name, "Registration number: AB1234567\n")
    _write(root / "Licenses" / "premises_permit.txt", "Permit 7\n")
    _write(root / "Staff" / "employee_handbook_2021.md", "# Handbook\n")
    _write(root / "Staff" / "employee_handbook_2024.md", "# Handbook\n")
    _write(root / "Housing" / "lease.md", "# Lease\n\nRent: $1,500 a month.\n")
    _write(root / "Reimbursements" / "2024-02-27_Park.md", "Claimed: $40.00\n")
    _write(root / "Taxes" / "2024" / "forms" / "W-2_Brightline.txt", "Wages: $50,000\n")
    _write(root / "Taxes" / "2024" / "forms" / "1099-INT_Harbor.txt", "Interest: $12\n")
    return root


def _explore(question: str, folder: Path) -> ExplorationResult:
    result = fsnb.explore(question, folder=folder, llm="offline")
    assert all(c.verified for c in result.citations), [c.problem for c in result.citations]
    return result


@pytest.mark.parametrize(
    ("question", "folder"),
    [
        ("How many receipts do I have?", "Receipts"),
        ("How many tax forms are in Taxes/2024/forms?", "Taxes/2024/forms"),
        ("How many statements are there?", "."),
        ("How many tax documents do I have?", "Taxes"),  # not every file
        ("How many reimbursement forms are there?", "Reimbursements"),  # forms of any kind
        ("How many total files are there?", "."),  # a word that names nothing: all files
    ],
)
def test_a_count_of_what_a_folder_is_named_for(home: Path, question: str, folder: str):
    asked = named_question(question, str(home), TOOLS)
    assert asked is not None and asked.kind == "count" and asked.folder == folder


def test_a_count_of_what_the_files_are_named_for(home: Path):
    asked = named_question("How many DEA registrations do we have on file?", str(home), TOOLS)
    assert asked is not None and asked.arguments["query"] == "*dea*registr*"
    result = _explore("How many DEA registrations do we have on file?", home)
    assert result.answer.startswith('There are 2 files named for "DEA registrations" [1].')
    assert "files: 2 (named *dea*registr*)" in [c.quote for c in result.citations]


@pytest.mark.parametrize(
    "question",
    [
        "How many employees are there?",  # employee_handbook_*: a handbook, not an employee
        "How many receipts from the florist are there?",  # asks about their content
        "How many pharmacies are there?",  # one file's name
        "How many receipts did I get in March?",
    ],
)
def test_not_a_count_of_files(home: Path, question: str):
    assert named_question(question, str(home), TOOLS) is None


def test_the_count_answer_is_cited_by_its_folder(home: Path):
    result = _explore("How many receipts do I have?", home)
    assert result.answer.startswith("There are 3 files under Receipts (including subfolders)")
    assert "files: 3" in [c.quote for c in result.citations]


def test_where_a_file_is_kept(home: Path):
    result = _explore("Where is my lease stored?", home)
    assert result.answer.startswith('1 file named for "lease":\n- Housing/lease.md')
    listed = _explore("Where did I save the W-2?", home).answer
    assert "Taxes/2024/forms/W-2_Brightline.txt" in listed and "1099" not in listed


def test_where_a_thing_no_file_is_named_for_is_kept_is_read_for(home: Path):
    assert named_question("Where is the autoclave stored?", str(home), TOOLS) is None


def test_the_finder_is_needed(home: Path):
    assert named_question("How many receipts do I have?", str(home), {"disk_usage"}) is None
