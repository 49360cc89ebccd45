"""The agent's index tools, called the way the agent calls them: through a Registry."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import make_pdf

from fsnb.db.scratchpad import Scratchpad
from fsnb.index.index import Index
from fsnb.index.vectors import HashEmbedder, embed_corpus
from fsnb.tools import Registry, ToolOutcome
from fsnb.tools.indexed import INDEX_TOOLS, get_document, semantic_search

TOOLS = Registry(INDEX_TOOLS)


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """(root, db): a small folder indexed once for the module."""
    tmp = tmp_path_factory.mktemp("indexed-tools")
    root = tmp / "deal"
    make_pdf(
        root / "agreement.pdf",
        [
            ["The Purchase Price is $9,000,000 payable at Closing.",
             "See Document: Escrow Letter for the escrow terms."],
            ["The Closing Date is June 30, 2025.", "Schedule 2 lists the key employees."],
        ],
        title="Share Purchase Agreement",
    )  # fmt: skip
    (root / "memos").mkdir()
    (root / "memos" / "risk_memo.md").write_text(
        "# Risk Memo\n\nCustomer concentration is high: MegaCorp is 28% of revenue.\n"
    )
    (root / "notes.txt").write_text("Meeting notes\nThe CFO is Dana Ito.\n")
    rows = "\n".join(f"Acme Supply {i},2024-05-{10 + i},{1000 + i}.00" for i in range(12))
    (root / "vendor_payments_2024.csv").write_text("payee,date,amount\n" + rows + "\n")
    (root / "empty.txt").write_bytes(b"")
    db = tmp / "index.duckdb"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FSNB_CACHE_DIR", str(tmp / "cache"))
        Index(db).add_folder(root, progress=False)
    yield str(root), str(db)


def outcome(name: str, root: str, db: str, **arguments: object) -> ToolOutcome:
    return TOOLS.call(name, arguments, root=root, db=db)


def call(name: str, root: str, db: str, **arguments: object) -> str:
    return outcome(name, root, db, **arguments).text


def test_the_tools_take_root_and_db_from_the_caller():
    for schema in TOOLS.schemas():
        assert not {"root", "db"} & set(schema["parameters"]["properties"])
    assert TOOLS.names() == ["semantic_search", "get_document", "list_indexed_documents"]


def test_semantic_search_lists_passages(indexed: tuple[str, str]):
    root, db = indexed
    out = call("semantic_search", root, db, query="purchase price closing", k=3)
    assert out.startswith("1 passage for 'purchase price closing' (bm25):")  # one chunk
    assert "[1] agreement.pdf, page 1 (score " in out
    assert "**Purchase** **Price** is $9,000,000" in out
    found = outcome("semantic_search", root, db, query="purchase price closing", k=3)
    [hit] = found.data["hits"]
    assert hit["path"] == "agreement.pdf" and hit["page"] == 1 and hit["score"] > 0
    assert found.data["name_matches"] == []


def test_semantic_search_with_a_filter(indexed: tuple[str, str]):
    root, db = indexed
    out = call("semantic_search", root, db, query="MegaCorp revenue", filter="format=md")
    assert "memos/risk_memo.md" in out and "agreement.pdf" not in out
    bad = call("semantic_search", root, db, query="price", filter="kind=memo")
    assert bad.startswith("error: unknown filter field 'kind'; known fields: ")
    assert "document_type" in bad and "\n" not in bad


def test_semantic_search_falls_back_to_file_names(indexed: tuple[str, str]):
    root, db = indexed
    out = call("semantic_search", root, db, query="vendor payments")
    assert out.startswith("No indexed passage answers 'vendor payments' well (")
    assert "passages from files whose names match it:" in out
    assert "[1] vendor_payments_2024.csv, page 1 (file name match)" in out
    assert "Acme Supply" in out
    data = outcome("semantic_search", root, db, query="vendor payments").data
    assert data["name_matches"] == [{"path": "vendor_payments_2024.csv", "page": 1}]
    assert len(data["hits"]) <= 3  # the weak matches shown after them


def test_semantic_search_uses_stored_vectors(indexed: tuple[str, str], tmp_path: Path):
    root, db = indexed
    copy = tmp_path / "copy.duckdb"
    copy.write_bytes(Path(db).read_bytes())
    embed_corpus(copy_store := Index(copy).db, root, HashEmbedder(64))
    out = call("semantic_search", root, str(copy_store.path), query="customer concentration")
    assert "(bm25+vector)" in out.splitlines()[0]


def test_a_folder_that_is_not_indexed(indexed: tuple[str, str], tmp_path: Path):
    _, db = indexed
    other = str(tmp_path)
    expected = "error: this folder is not indexed; use scan_folder, grep and parse_file instead"
    Scratchpad(db, folder=other).create_table("notes", "note VARCHAR")  # a corpus row, no index
    for name, args in [
        ("semantic_search", {"query": "price"}),
        ("get_document", {"path": "a.pdf"}),
        ("list_indexed_documents", {}),
    ]:
        assert call(name, other, db, **args) == expected
    missing = tmp_path / "none.duckdb"
    assert call("semantic_search", other, str(missing), query="x").startswith(expected)
    assert not missing.exists()


def test_get_document_pages_the_indexed_text(indexed: tuple[str, str]):
    root, db = indexed
    full = call("get_document", root, db, path="agreement.pdf")
    assert full.startswith("agreement.pdf (pdf, 2 pages, ")
    assert "[page 1]" in full and "[page 2]" in full and full.endswith("[end of document]")
    first = call("get_document", root, db, path="agreement.pdf", limit=40)
    assert first.endswith("more characters: call again with offset=40]")
    rest = call("get_document", root, db, path="agreement.pdf", offset=40)
    assert "characters 40-" in rest.splitlines()[0] and "June 30, 2025" in rest
    shown = outcome("get_document", root, db, path="agreement.pdf", offset=40, limit=10).data
    assert shown["path"] == "agreement.pdf" and (shown["offset"], shown["end"]) == (40, 50)
    assert shown["total"] > 50


def test_get_document_errors(indexed: tuple[str, str]):
    root, db = indexed
    assert not outcome("get_document", root, db, path="nope.pdf").ok
    assert call("get_document", root, db, path="nope.pdf") == (
        "error: nope.pdf is not in this folder's index"
    )
    assert call("get_document", root, db, path="empty.txt").startswith(
        "error: empty.txt could not be indexed: empty file"
    )
    assert call("get_document", root, db, path="../x.pdf").startswith("access denied:")
    assert call("get_document", root, db, path="notes.txt", offset=-1).startswith("error: offset")


def test_get_document_notices_a_changed_file(indexed: tuple[str, str], tmp_path: Path):
    root, db = indexed
    notes = Path(root) / "notes.txt"
    before = notes.read_text()
    try:
        notes.write_text(before + "Added after indexing.\n")
        out = call("get_document", root, db, path="notes.txt")
        assert "(warning: the file changed since it was indexed" in out
        assert "Added after indexing" not in out
    finally:
        notes.write_text(before)


def test_list_indexed_documents(indexed: tuple[str, str]):
    root, db = indexed
    out = call("list_indexed_documents", root, db)
    lines = out.splitlines()
    assert lines[0] == "4 documents indexed in this folder:"
    assert any(
        line.startswith("agreement.pdf — Share Purchase Agreement (pdf, 2 pages) [")
        and "max_amount=9,000,000" in line
        for line in lines
    )
    assert "not indexed (could not be read):\nempty.txt: empty file" in out
    assert "filter fields: " in out
    memos = call("list_indexed_documents", root, db, filter="format=md")
    assert memos.splitlines()[1].startswith("memos/risk_memo.md — ")
    assert "agreement.pdf" not in memos
    nothing = call("list_indexed_documents", root, db, filter="pages>=50")
    assert nothing == "no indexed document in this folder matches the filter 'pages>=50'"
    assert call("list_indexed_documents", root, db, filter="format pdf").startswith(
        "error: filter syntax error"
    )


def test_index_tools_by_hand(indexed: tuple[str, str]):
    root, db = indexed
    found = semantic_search("purchase price", root=root, db=db)
    assert isinstance(found, str) and "[1] agreement.pdf, page 1 (score " in found
    assert get_document("nope.pdf", root=root, db=db) == (
        "error: nope.pdf is not in this folder's index"
    )
