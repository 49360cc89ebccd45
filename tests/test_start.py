"""Where an exploration starts (issue 27): a scan of every document on a small folder, the
index's best passages on an indexed folder too large to preview whole."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import DATA

from fsnb.agent import Explorer
from fsnb.agent import events as ev
from fsnb.index import Index
from fsnb.offline import OfflineLLM
from fsnb.protocol import Conversation, Notify, Reply

QUESTION = "Who is the CTO and what is their retention bonus?"


class Watching(OfflineLLM):
    """The offline strategy, keeping the opening message it was given."""

    openings: list[str]

    def next_action(self, conversation: Conversation, notify: Notify) -> Reply:
        self.openings = [*getattr(self, "openings", []), conversation.opening]
        return super().next_action(conversation, notify)


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("start")
    folder = root / "deal"
    shutil.copytree(DATA / "large_acquisition", folder, ignore=shutil.ignore_patterns("*.json"))
    db = str(root / "index.duckdb")
    Index(db).add_folder(folder, progress=False)
    return folder, db


def _run(folder: Path, db: str) -> tuple[Watching, object]:
    llm = Watching()
    result = Explorer(folder, llm, db=db).run(QUESTION)
    return llm, result


def test_a_folder_over_the_threshold_starts_from_the_index(
    indexed: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("FSNB_SCAN_MAX_DOCUMENTS", "10")
    llm, result = _run(*indexed)
    first = result.trace()[0]
    assert (first.tool, first.phase, first.ok) == ("semantic_search", "search", True)
    assert first.reason.startswith("Start: 25 documents, more than the 10 a scan previews")
    assert "scan_folder" not in [row.tool for row in result.trace()]
    opening = llm.openings[0]
    assert "Start: 25 documents" in opening and "The index's best passages" in opening
    assert "07_employee_schedule.pdf, page" in opening  # the hits: file, page and a line
    started = next(e for e in result.events if isinstance(e, ev.Started))
    assert (started.start, started.start_reason) == ("index", first.reason[7:].split(";")[0])
    assert "Sarah Chen" in result.answer and "1,200,000" in result.answer
    assert result.citations and all(c.verified for c in result.citations)


def test_a_small_folder_starts_with_a_scan_and_says_why(indexed: tuple[Path, str]):
    llm, result = _run(*indexed)
    assert result.trace()[0].tool == "scan_folder"
    started = next(e for e in result.events if isinstance(e, ev.Started))
    assert (started.start, started.start_reason) == (
        "scan",
        "25 documents, few enough to preview whole",
    )
    assert "Start:" not in llm.openings[0]
    assert "Sarah Chen" in result.answer


def test_an_unindexed_folder_starts_with_a_scan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("FSNB_START", "index")
    folder = tmp_path / "deal"
    shutil.copytree(DATA / "test_acquisition", folder)
    _, result = _run(folder, str(tmp_path / "none.duckdb"))
    started = next(e for e in result.events if isinstance(e, ev.Started))
    assert started.start == "scan" and "not indexed" in started.start_reason
