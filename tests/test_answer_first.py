"""Offline answers put the answer first, and say plainly when the documents do not hold it."""

from __future__ import annotations

from pathlib import Path

import pytest

import fsnb
from fsnb.agent.result import ExplorationResult
from fsnb.offline.answer import asks_for_list

LEASE = """# Harbor Street office lease

The landlord is Quayside Properties Ltd. The lease of the Harbor Street office runs until
June 30, 2029. The annual rent is EUR 184,000, payable quarterly in advance.

The tenant may sublet up to a third of the floor space with the landlord's consent.
Parking: twelve spaces in the basement garage are included.
"""
FLEET = """# Vehicle fleet

The company runs eleven delivery vans. Each van is serviced every 20,000 kilometres.
The fleet manager is Ingrid Solberg, who reports to the operations director.

- Van 1: Ford Transit, bought 2021
- Van 2: Ford Transit, bought 2022
- Van 3: Renault Master, bought 2023
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "facilities"
    root.mkdir()
    (root / "lease.md").write_text(LEASE, encoding="utf-8")
    (root / "fleet.md").write_text(FLEET, encoding="utf-8")
    return root


def _explore(question: str, folder: Path) -> ExplorationResult:
    result = fsnb.explore(question, folder=folder, llm="offline", db=folder.parent / "i.duckdb")
    assert result.ok, result.error
    assert all(c.verified for c in result.citations), [c.problem for c in result.citations]
    return result


def _first_line(result: ExplorationResult) -> str:
    return result.answer.splitlines()[0]


def test_the_first_line_answers_a_single_fact(folder: Path):
    result = _explore("What is the annual rent of the Harbor Street office?", folder)
    first = _first_line(result)
    assert "EUR 184,000" in first and first.rstrip(".").endswith("]")
    assert len(result.answer) < 800


def test_a_question_in_two_parts_gets_both_in_the_first_line(folder: Path):
    result = _explore("Who is the fleet manager, and how often is each van serviced?", folder)
    first = _first_line(result)
    assert "Ingrid Solberg" in first and "20,000 kilometres" in first


def test_a_list_question_keeps_its_items():
    assert asks_for_list("Which vans does the company run?")
    assert asks_for_list("List the conditions to closing")
    assert not asks_for_list("What is the annual rent?")
    assert not asks_for_list("Which firm audits the accounts?")


def test_a_word_the_folder_never_uses_means_not_found(folder: Path):
    result = _explore("What warranty covers the delivery vans?", folder)
    assert result.answer.startswith("I could not find this: the documents I read do not state it")
    assert '"warranty"' in result.answer
    assert "Closest related passages (they do not answer it):" in result.answer


def test_a_common_word_worded_otherwise_still_finds_the_answer(folder: Path):
    # "people" is nowhere in the folder, but it is a common word: the answer is found
    result = _explore("Which people manage the fleet?", folder)
    assert "Ingrid Solberg" in result.answer
    assert "do not state" not in result.answer


def test_a_phrase_the_documents_never_say_means_not_found(folder: Path):
    # "garage" (the lease) and "manager" (the fleet) are both there, never together
    result = _explore("Who is the garage manager?", folder)
    assert result.answer.startswith("I could not find this")
    assert '"garage manager"' in result.answer
    said = _explore("Who is the fleet manager?", folder)
    assert "Ingrid Solberg" in _first_line(said)
