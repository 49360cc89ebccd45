"""The folder's documents as the explorer hands them to a backend (`FolderDocuments`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fsnb.agent import Explorer
from fsnb.documents import FolderDocuments
from fsnb.errors import AccessDenied, ParseError
from fsnb.llm.masked import MaskedDocuments
from fsnb.protocol import Action, Conversation, Documents, Reply
from fsnb.security import Sandbox


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FSNB_CACHE_DIR", str(tmp_path / "parse-cache"))


def test_lists_the_readable_documents_by_relative_path(folder: Path):
    docs: Documents = FolderDocuments(Sandbox(folder))
    # empty.txt cannot be read, blob.bin is no document, .env and id_rsa are blocked,
    # node_modules is skipped: none of them is listed, and none stops the others
    assert sorted(docs.paths()) == [
        "agreement.pdf",
        "docs/summary.md",
        "letters/escrow.pdf",
        "notes.txt",
    ]
    assert "Dana Ito" in docs.document("notes.txt").text


def test_documents_are_parsed_once_and_named_as_the_sandbox_names_them(folder: Path):
    docs = FolderDocuments(Sandbox(folder))
    summary = docs.document("docs/summary.md")
    assert docs.document("./docs/summary.md") is summary
    (folder / "later.md").write_text("# Later\n\nAdded after the first look.\n")
    assert "later.md" not in docs.paths()  # what the run saw first is what it keeps


def test_refuses_what_is_not_one_of_the_folders_readable_documents(folder: Path):
    docs = FolderDocuments(Sandbox(folder))
    with pytest.raises(AccessDenied):
        docs.document("../outside.md")
    with pytest.raises(ParseError, match=r"empty\.txt"):
        docs.document("empty.txt")
    with pytest.raises(ParseError, match=r"missing\.md"):
        docs.document("missing.md")


class _Recorder:
    """A backend that answers at once and keeps the conversation it was given."""

    backend, model = "recorder", "none"

    def __init__(self) -> None:
        self.seen: list[Conversation] = []

    def next_action(self, conversation: Conversation, notify: object) -> Reply:
        self.seen.append(conversation)
        return Reply(Action.stop("Nothing to say.", "Done."))


def test_the_explorer_hands_the_run_its_folders_documents(folder: Path):
    llm = _Recorder()
    Explorer(folder, llm).run("What is the purchase price?")
    masked = llm.seen[0].documents  # the backend reads them through the secret mask
    assert isinstance(masked, MaskedDocuments)
    documents = masked.inner
    assert isinstance(documents, FolderDocuments)
    assert documents.sandbox.root == folder.resolve()
    assert "agreement.pdf" in documents.paths()
