"""The navigator from the index: the same rows as from a walk, and says which it used."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pandas as pd
import pytest

from fsnb.index.index import Index
from fsnb.tools import ToolOutcome, agent_registry
from fsnb.tools.context import ToolContext

DAY = 86_400
FILES = {
    "report_2024.pdf": (3000, 2),
    "notes.md": (120, 1),
    "data/sales.csv": (5000, 40),
    "data/old/sales_2019.csv": (7000, 400),
    "data/old/readme.txt": (50, 400),
    "docs/guide.md": (900, 3),
    "docs/drafts/guide_v1.md": (800, 10),
    "docs/drafts/deep/x.py": (60, 5),
    "photos/a.png": (20000, 30),
    ".hidden/secret_notes.txt": (10, 1),
}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    now = time.time()
    for rel, (size, age_days) in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x" * size)
        os.utime(path, (now - age_days * DAY, now - age_days * DAY))
    return root


@pytest.fixture
def both(folder: Path, tmp_path: Path) -> tuple[ToolContext, ToolContext]:
    """A context on the folder with an empty index, and one with the folder indexed."""
    Index(tmp_path / "on.duckdb").add_folder(folder, progress=False)
    return ToolContext(folder, db=tmp_path / "off.duckdb"), ToolContext(
        folder, tmp_path / "on.duckdb"
    )


def _call(name: str, ctx: ToolContext, **arguments: object) -> ToolOutcome:
    return agent_registry().call(name, arguments, ctx=ctx)


CALLS = [
    ("disk_usage", {}),
    ("disk_usage", {"path": "docs", "depth": 3}),
    ("disk_usage", {"depth": 2, "top_n": 4}),
    ("recent_files", {"days": 35}),
    ("recent_files", {"days": 3650, "file_type": "csv,md", "path": "data"}),
    ("find_files", {"query": "*.csv"}),
    ("find_files", {"query": "guide", "search_type": "name", "sort_by": "size"}),
    ("find_files", {"query": "sales_2019.csv"}),
    ("find_files", {"query": "sal?s*", "scope": "data"}),
    ("find_files", {"query": "", "search_type": "metadata", "size_range": ">1KB"}),
    ("find_files", {"query": "", "search_type": "metadata", "date_range": "<2025-01-01"}),
    ("find_files", {"query": "*", "file_types": "md", "sort_by": "modified"}),
    ("tree", {}),
    ("tree", {"max_depth": 1}),
    ("tree", {"path": "docs", "dirs_only": True}),
    ("tree", {"include_pattern": "*.md"}),
    ("tree", {"exclude_pattern": "old,*.png"}),
    ("browse_directory", {}),
    ("browse_directory", {"path": "data", "sort_by": "size", "show_hidden": True}),
    ("browse_directory", {"filter_type": "pdf", "sort_by": "modified"}),
]


@pytest.mark.parametrize(("func", "kwargs"), CALLS, ids=lambda c: str(c))
def test_index_and_walk_give_the_same_rows(func, kwargs, both) -> None:
    off, on = both
    walked, read = _call(func, off, **kwargs), _call(func, on, **kwargs)
    assert walked.ok and read.ok, read.text
    walked_data, read_data = walked.data, read.data  # each call makes a new view
    assert walked_data.pop("source") == "walk"
    assert read_data.pop("source") == "index"
    assert "from a walk" in walked.text
    assert "from the index, scanned" in read.text
    walked_data.pop("walked", None)
    read_data.pop("walked", None)
    assert read_data == walked_data
    assert read.text.splitlines()[1:-1] == walked.text.splitlines()[1:-1]


def test_disk_usage_ranks_the_biggest_first(both) -> None:
    _, on = both
    data = _call("disk_usage", on, depth=2).data
    assert data["size"] == sum(size for size, _ in FILES.values())
    assert data["files"] == len(FILES)
    assert data["folders"] == 7  # .hidden data data/old docs docs/drafts docs/drafts/deep photos
    assert [e["path"] for e in data["entries"][:3]] == ["photos", "photos/a.png", "data"]
    assert data["entries"][0]["share"] == pytest.approx(20000 / data["size"])


def test_recent_files_newest_first(both) -> None:
    _, on = both
    rows = _call("recent_files", on, days=4).data["results"]
    assert [r["path"] for r in rows] == [
        ".hidden/secret_notes.txt",
        "notes.md",
        "report_2024.pdf",
        "docs/guide.md",
    ]


def test_sensitive_files_are_not_listed_from_the_index(folder: Path, tmp_path: Path) -> None:
    (folder / "server.pem").write_text("-----BEGIN PRIVATE KEY-----")
    Index(tmp_path / "s.duckdb").add_folder(folder, progress=False)
    ctx = ToolContext(folder, tmp_path / "s.duckdb")
    assert "server.pem" not in _call("find_files", ctx, query="*.pem").text
    assert "server.pem" not in _call("recent_files", ctx).text
    assert all(e["path"] != "server.pem" for e in _call("disk_usage", ctx).data["entries"])


@pytest.mark.parametrize("name", ["disk_usage", "recent_files", "tree", "find_files"])
def test_paths_outside_the_root_are_refused(name: str, both) -> None:
    arguments = {"scope": "../"} if name == "find_files" else {"path": "../"}
    extra = {"query": "x"} if name == "find_files" else {}
    for ctx in both:
        out = agent_registry().call(name, arguments | extra, ctx=ctx)
        assert not out.ok and out.text.startswith("access denied:"), out.text


def test_bad_arguments_get_one_line(both) -> None:
    _, on = both
    for name, arguments, expected in [
        (
            "find_files",
            {"query": "x", "sort_by": "big"},
            "'relevance', 'name', 'size' or 'modified'",
        ),
        ("find_files", {"query": "x", "size_range": "huge"}, "use >10MB, <1KB"),
        ("find_files", {"query": "x", "date_range": "someday"}, "this-week"),
        ("disk_usage", {"depth": 0}, "depth and top_n must be >= 1"),
        ("recent_files", {"days": -1}, "days must be > 0"),
    ]:
        out = _call(name, on, **arguments)
        assert not out.ok and expected in out.text and "\n" not in out.text, out.text


def test_index_frames(folder: Path, tmp_path: Path) -> None:
    ix = Index(tmp_path / "f.duckdb")
    ix.add_folder(folder, progress=False)
    folders = ix.folders(folder).set_index("path")
    assert isinstance(folders, pd.DataFrame)
    assert folders.loc[".", "size"] == sum(size for size, _ in FILES.values())
    assert folders.loc["docs", ["files", "folders", "parent", "depth"]].tolist() == [3, 2, ".", 1]
    assert list(folders.loc["docs", "top_extensions"]) == [".md", ".py"]
    usage = ix.disk_usage(folder, "data")
    assert usage["path"].tolist() == ["data/old", "data/sales.csv"]
    assert usage["share"].sum() == pytest.approx(1.0)
    scans = ix.scans(folder)
    assert len(scans) == 1 and scans.loc[0, "files"] == len(FILES)
    with pytest.raises(ValueError, match="not indexed"):
        ix.folders(tmp_path)


def test_tree_entries_are_the_drawn_lines_in_order(both, monkeypatch) -> None:
    docs = {"path": "docs", "type": "folder", "size": 1760, "files": 3, "folders": 2}
    guide = {"path": "docs/guide.md", "type": "file", "size": 900, "files": 1, "folders": 0}
    for ctx in both:
        out = _call("tree", ctx, max_depth=2)
        drawn = [line.split("+-- ")[1] for line in out.text.splitlines() if "+-- " in line]
        names = [e["path"].rpartition("/")[2] for e in out.data["entries"]]
        assert names == [line.split(" (")[0].rstrip("/") for line in drawn]
        rows = {e["path"]: e for e in out.data["entries"]}
        assert (rows["docs"], rows["docs/guide.md"]) == (docs, guide)
        assert "docs/drafts/guide_v1.md" not in rows and ".hidden" not in rows
        assert _call("tree", ctx, path="docs", max_depth=1).data["path"] == "docs"
        with monkeypatch.context() as patch:
            patch.setattr("fsnb.tools.navigator.TREE_LINES", 3)
            cut = _call("tree", ctx).data
        assert cut["cut"] == 12  # the entries under the lines not drawn
        assert [e["path"] for e in cut["entries"]] == ["data", "data/old", "data/old/readme.txt"]


def test_the_index_route_sees_each_new_scan(folder: Path, tmp_path: Path) -> None:
    """Searches read a copy of the index's rows: a re-index (or a file gone) shows at once."""
    db = tmp_path / "index.duckdb"
    Index(db).add_folder(folder, progress=False)
    ctx = ToolContext(folder, db)
    assert _call("find_files", ctx, query="budget*", search_type="name").data["total"] == 0
    (folder / "docs" / "budget_2026.txt").write_text("the budget")
    (folder / "notes.md").unlink()
    Index(db).add_folder(folder, progress=False)
    found = _call("find_files", ctx, query="budget*", search_type="name")
    assert found.data["source"] == "index"
    assert [r["path"] for r in found.data["results"]] == ["docs/budget_2026.txt"]
    assert _call("find_files", ctx, query="notes.md", search_type="name").data["total"] == 0
    assert _call("disk_usage", ctx).data["files"] == len(FILES)  # one gone, one new
