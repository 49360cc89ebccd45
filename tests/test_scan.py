"""The walk every tool shares (`fsnb.security.scan`) and what is built on it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from fsnb.fsindex.walk import list_files
from fsnb.index.index import Index
from fsnb.security import Sandbox, scan
from fsnb.tools import disk_usage, tree
from fsnb.tools.context import ToolContext
from fsnb.tools.walk_catalog import WalkCatalog


def _make(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    root = _make(
        tmp_path / "root",
        {
            "a.txt": "a",
            ".fsnbignore": "*.log\n",
            "skip.log": "x",
            "docs/b.md": "bb",
            "docs/deep/c.pdf": "ccc",
            "docs/deep/deeper/d.bin": "dddd",
            "node_modules/e.js": "e",
            "f/g/h/i.csv": "iiiii",
        },
    )
    (root / "link.txt").symlink_to(root / "a.txt")
    (root / "docs" / "to_folder").symlink_to(root / "f")
    os.mkfifo(root / "docs" / "pipe")
    return root


def test_scan_sorts_entries_by_type_and_prunes(mixed: Path):
    seen = {}
    for listed in scan(Sandbox(mixed), str(mixed), ""):
        names = {
            kind: sorted(i.name for i in getattr(listed, kind))
            for kind in ("files", "folders", "links", "others")
        }
        seen[listed.prefix] = names
        if listed.prefix == "":
            listed.folders = [f for f in listed.folders if f.name != "f"]  # not walked
    assert seen[""] == {
        "files": ["a.txt"],
        "folders": ["docs", "f"],
        "links": ["link.txt"],
        "others": [],
    }
    assert seen["docs/"] == {
        "files": ["b.md"],
        "folders": ["deep"],
        "links": ["to_folder"],
        "others": ["pipe"],
    }
    assert set(seen) == {"", "docs/", "docs/deep/", "docs/deep/deeper/"}


def test_scan_reports_a_folder_it_cannot_list(tmp_path: Path):
    root = _make(tmp_path / "root", {"x.txt": "x"})
    (root / "gone").symlink_to(root / "x.txt")  # swapped for a symlink: never followed
    (listed,) = scan(Sandbox(root), str(root / "gone"), "gone/")
    assert isinstance(listed.error, OSError) and listed.files == []


def test_list_files_of_a_subfolder_matches_the_whole_walk(mixed: Path):
    box = Sandbox(mixed)
    whole, part = list_files(box).columns, list_files(box, "docs").columns
    rows = list(zip(*whole.values(), strict=True))
    assert sorted(zip(*part.values(), strict=True)) == sorted(
        r for r in rows if str(r[0]).startswith("docs/")
    )
    assert "docs/deep/deeper/d.bin" in part["path"] and "a.txt" not in part["path"]


@pytest.mark.parametrize("base", [".", "docs", "f"])
@pytest.mark.parametrize("depth", [1, 2, 4])
def test_walked_entries_match_the_index(mixed: Path, tmp_path: Path, base: str, depth: int):
    from fsnb.fsindex.filesystem import entries, indexed

    index = Index(tmp_path / "fs.duckdb")
    index.add_folder(mixed, progress=False)
    where = indexed(index.db, Sandbox(mixed).root)
    assert where is not None
    from_index = entries(index.db, where.cid, base, depth)
    walked = WalkCatalog(Sandbox(mixed)).entries(base, depth)
    assert sorted(walked, key=lambda e: e.path) == sorted(from_index, key=lambda e: e.path)


def test_tree_and_disk_usage_from_a_walk_cut_at_depth(mixed: Path, tmp_path: Path):
    ctx = ToolContext(mixed, tmp_path / "none.duckdb")
    shallow = tree.outcome(".", ctx=ctx, max_depth=1)
    assert shallow.data["source"] == "walk"
    assert "+-- docs/ (9 B) [3 files, 2 folders not shown]" in shallow.text
    # a folder holding only a symlink still says it holds more (a context walks once:
    # the new folder shows in a new one)
    (mixed / "only_link").mkdir()
    (mixed / "only_link" / "l").symlink_to(mixed / "a.txt")
    assert "only_link" not in tree.outcome(".", ctx=ctx, max_depth=1).text
    ctx = ToolContext(mixed, tmp_path / "none.duckdb")
    shallow = tree.outcome(".", ctx=ctx, max_depth=1)
    assert "+-- only_link/ (0 B) [0 files, 0 folders not shown]" in shallow.text
    assert tree.outcome(".", ctx=ctx, max_depth=5).data["files"] == shallow.data["files"] == 5
    usage = disk_usage.outcome(".", ctx=ctx, depth=1).data
    assert (usage["size"], usage["files"], usage["source"]) == (15, 5, "walk")
