"""The navigator tools on real files: browse, tree, file_info and find_files."""

from __future__ import annotations

import os
import zipfile
from datetime import datetime
from pathlib import Path

import pytest
from conftest import make_pdf

from fsnb.tools import ToolContext, agent_registry

OLD = datetime(2025, 3, 10, 12, 0).timestamp()
NEW = datetime(2026, 1, 15, 9, 30).timestamp()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """docs/ (a PDF, an old big log, a note), data/sheet.xlsx, a hidden file, an empty dir."""
    base = tmp_path / "root"
    make_pdf(base / "docs" / "report.pdf", [["Quarterly revenue grew."], ["Second page."]])
    (base / "docs" / "big.log").write_bytes(b"line\n" * 5000)  # 25,000 bytes
    (base / "docs" / "note.txt").write_text("The purchase price is final.\nSigned.")
    (base / "data").mkdir()
    with zipfile.ZipFile(base / "data" / "sheet.xlsx", "w") as book:
        book.writestr("xl/workbook.xml", '<sheets><sheet name="Q1"/><sheet name="Q2"/></sheets>')
    (base / ".hidden").write_text("secret-ish")
    (base / "empty").mkdir()
    (base / "id_rsa").write_text("key")
    os.utime(base / "docs" / "big.log", (OLD, OLD))
    for name in ("docs/report.pdf", "docs/note.txt", "data/sheet.xlsx"):
        os.utime(base / name, (NEW, NEW))
    return base


def call(root: Path, name: str, **arguments: object):
    return agent_registry().call(name, arguments, ctx=ToolContext(root))


def test_browse_lists_folders_first_with_totals_and_hides_dotfiles(root: Path):
    out = call(root, "browse_directory")
    assert out.ok, out.text
    names = [row["name"] for row in out.data["items"]]
    assert names[:3] == ["data", "docs", "empty"] and ".hidden" not in names
    docs = next(r for r in out.data["items"] if r["name"] == "docs")
    assert docs["type"] == "folder" and docs["size"] > 25_000
    assert "[DIR] docs/" in out.text
    shown = call(root, "browse_directory", show_hidden=True).data["items"]
    assert ".hidden" in [row["name"] for row in shown]


def test_browse_sorts_filters_and_cuts(root: Path):
    by_size = call(root, "browse_directory", path="docs", sort_by="size").data["items"]
    assert by_size[0]["name"] == "big.log"
    newest = call(root, "browse_directory", path="docs", sort_by="modified").data["items"]
    assert newest[-1]["name"] == "big.log" and newest[-1]["modified"] == "2025-03-10 12:00"
    pdfs = call(root, "browse_directory", path="docs", filter_type="pdf").data["items"]
    assert [row["name"] for row in pdfs] == ["report.pdf"]
    cut = call(root, "browse_directory", path="docs", max_items=1)
    assert "[2 more items not shown: raise max_items]" in cut.text


def test_bad_arguments_get_one_line_saying_what_is_accepted(root: Path):
    bad = call(root, "browse_directory", sort_by="colour")
    assert not bad.ok and "'name', 'size', 'modified' or 'type'" in bad.text
    bad = call(root, "find_files", query="x", size_range="huge")
    assert not bad.ok and "use >10MB, <1KB" in bad.text and "\n" not in bad.text
    bad = call(root, "find_files", query="x", date_range="someday")
    assert not bad.ok and "this-week" in bad.text


@pytest.mark.parametrize("tool", ["browse_directory", "tree", "file_info", "find_files"])
def test_paths_outside_the_root_are_refused(root: Path, tool: str):
    key = {"find_files": "scope"}.get(tool, "path")
    arguments = {key: "../"} | ({"query": "x"} if tool == "find_files" else {})
    out = call(root, tool, **arguments)
    assert not out.ok and out.text.startswith("access denied:"), out.text


def test_tree_draws_levels_sizes_and_a_summary(root: Path):
    out = call(root, "tree")
    assert out.ok
    assert "+-- docs/ (" in out.text and "|   +-- report.pdf (" in out.text
    assert ".hidden" not in out.text
    assert out.data["files"] == 5 and out.data["folders"] == 3  # id_rsa is listed, not read
    assert out.text.endswith(f"3 folders, 5 files, {out.text.rsplit(', ', 1)[1]}")
    shallow = call(root, "tree", max_depth=1, show_sizes=False).text
    assert "+-- docs/ [3 files, 0 folders not shown]" in shallow and "report.pdf" not in shallow
    pdf_only = call(root, "tree", include_pattern="*.pdf")
    assert pdf_only.data["files"] == 1 and "data/" not in pdf_only.text
    no_docs = call(root, "tree", exclude_pattern="docs", dirs_only=True).text
    assert "docs" not in no_docs and "+-- data/" in no_docs and "sheet.xlsx" not in no_docs


def test_tree_cuts_a_long_listing(root: Path):
    many = root / "many"
    many.mkdir()
    for n in range(400):
        (many / f"f{n:03}.txt").write_text("x")
    out = call(root, "tree", path="many")
    assert out.data["cut"] > 90 and "[tree cut at 300 lines" in out.text


def test_file_info_for_text_pdf_and_office(root: Path):
    note = call(root, "file_info", path="docs/note.txt")
    assert "MIME type: text/plain" in note.text and "lines: 2" in note.text
    assert "encoding: ASCII" in note.text and "modified: 2026-01-15 09:30" in note.text
    assert "pages: 2" in call(root, "file_info", path="docs/report.pdf").text
    assert "sheets: 2 (Q1, Q2)" in call(root, "file_info", path="data/sheet.xlsx").text
    blocked = call(root, "file_info", path="id_rsa")
    assert not blocked.ok and blocked.text.startswith("access denied:")


def test_file_info_for_an_image_and_a_folder(root: Path):
    image = pytest.importorskip("PIL.Image")
    image.new("RGB", (40, 30)).save(root / "pic.png")
    assert "image: 40 x 30 pixels, PNG" in call(root, "file_info", path="pic.png").text
    folder = call(root, "file_info", path="docs")
    assert folder.data["files"] == 3 and folder.data["by_type"] == {".pdf": 1, ".log": 1, ".txt": 1}
    assert "items: 3 files, 0 folders" in folder.text


def test_find_files_by_name_content_and_metadata(root: Path):
    named = call(root, "find_files", query="report")
    assert named.data["results"][0]["path"] == "docs/report.pdf"
    assert "from a walk of" in named.text
    glob = call(root, "find_files", query="*.log", search_type="name")
    assert [r["path"] for r in glob.data["results"]] == ["docs/big.log"]
    text = call(root, "find_files", query="purchase price", search_type="content")
    assert [r["path"] for r in text.data["results"]] == ["docs/note.txt"]
    assert "purchase price is final" in text.text
    big = call(root, "find_files", query="", search_type="metadata", size_range=">20KB")
    assert [r["path"] for r in big.data["results"]] == ["docs/big.log"]
    old = call(root, "find_files", query="", search_type="metadata", date_range="<2026-01")
    assert [r["path"] for r in old.data["results"]] == ["docs/big.log"]
    recent = call(
        root,
        "find_files",
        query="*",
        search_type="metadata",
        date_range="2026-01",
        file_types="pdf,txt",
        sort_by="name",
    )
    assert [r["path"] for r in recent.data["results"]] == ["docs/note.txt", "docs/report.pdf"]
    none = call(root, "find_files", query="zzz-nothing")
    assert none.ok and none.text.startswith("No files found") and "id_rsa" not in none.text
