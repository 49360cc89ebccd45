"""The folder map: totals, top folders, types, largest and newest files, bounded text."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from fsnb.index.index import Index
from fsnb.tools.context import ToolContext
from fsnb.tools.overview import folder_map

DAY = 86_400
BASE = 1_700_000_000


def _file(path: Path, size: int, mtime: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)
    os.utime(path, (mtime, mtime))


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "deal"
    _file(root / "contracts" / "spa.pdf", 5000, BASE)
    _file(root / "contracts" / "old" / "draft.pdf", 100, BASE - 10 * DAY)
    _file(root / "finance" / "model.xlsx", 20_000, BASE + DAY)
    _file(root / "notes.md", 10, BASE + 5 * DAY)
    _file(root / ".ssh" / "id_rsa", 30_000, BASE + 9 * DAY)
    _file(root / "server.key", 40_000, BASE + 9 * DAY)
    return root


def test_the_map_of_a_walked_folder(tree: Path, tmp_path: Path):
    found = folder_map(ToolContext(tree, tmp_path / "none.duckdb"))
    assert (found.files, found.folders, found.size) == (4, 3, 25_110)
    assert found.source == "from a walk"
    assert list(found.top_folders["path"]) == ["finance", "contracts", "(files in the root)"]
    assert list(found.top_folders["files"]) == [1, 2, 1]
    assert dict(zip(found.types["extension"], found.types["files"], strict=True)) == {
        ".pdf": 2,
        ".md": 1,
        ".xlsx": 1,
    }
    assert list(found.largest["path"]) == [
        "finance/model.xlsx",
        "contracts/spa.pdf",
        "contracts/old/draft.pdf",
        "notes.md",
    ]
    assert found.newest["path"][0] == "notes.md"
    text = found.text()
    assert "4 files in 3 folders" in text
    assert "Largest: finance/model.xlsx (19.5 KB)" in text
    assert "Newest: notes.md" in text
    assert set(found.frames()) == {"totals", "top_folders", "types", "largest", "newest"}
    page = found._repr_html_()
    assert "<table" in page and "finance/model.xlsx" in page


def test_blocked_and_secret_files_are_never_named(tree: Path, tmp_path: Path):
    found = folder_map(ToolContext(tree, tmp_path / "none.duckdb"))
    shown = found.text() + found._repr_html_() + str(found.frames())
    assert "id_rsa" not in shown and "server.key" not in shown and ".ssh" not in shown


def test_the_map_of_an_indexed_folder(tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("FSNB_CACHE_DIR", str(tmp_path / "cache"))
    db = tmp_path / "index.duckdb"
    Index(db).add_folder(tree, progress=False)
    found = folder_map(ToolContext(tree, db))
    assert found.source.startswith("from the index, scanned")
    assert (found.files, found.size) == (4, 25_110)
    assert found.largest["path"][0] == "finance/model.xlsx"
    assert "id_rsa" not in found.text() and "server.key" not in found.text()


def test_a_big_folder_gets_the_same_few_lines(tmp_path: Path):
    root = tmp_path / "big"
    for a in range(30):
        for b in range(20):
            folder = root / f"department-{a:02d}-with-a-rather-long-name" / f"project-{b:02d}"
            folder.mkdir(parents=True)
            for c in range(5):
                ext = ("pdf", "docx", "txt", "csv", "md", "png", "json", "xml", "log", "bin")[
                    c + a % 5
                ]
                (folder / f"report-{a}-{b}-{c}-{'x' * 60}.{ext}").write_bytes(b"x" * (a * b + c))
    found = folder_map(ToolContext(root, tmp_path / "none.duckdb"))
    assert found.files == 3000
    text = found.text()
    assert len(text) <= 1500
    assert len(text.splitlines()) == 5
    assert "3,000 files in 630 folders" in text
    assert "more types" in text


def test_an_empty_folder(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    found = folder_map(ToolContext(tmp_path / "empty", tmp_path / "none.duckdb"))
    assert found.files == 0
    assert "(no files)" in found.text()
