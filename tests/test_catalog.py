"""`ToolContext.files`: the index and a walk give the same answers, and say which they are.

The two catalogs (`IndexCatalog`, `WalkCatalog`) answer the same questions on one folder,
indexed or not; a tool run on an indexed folder and on an unindexed copy of it prints the
same listing but for its "from the index" / "from a walk" note; a context chooses once and
walks once.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import time
from pathlib import Path

import pytest

from fsnb.index.index import Index
from fsnb.tools import agent_registry
from fsnb.tools.catalog import FileCatalog, FindQuery, Node
from fsnb.tools.context import ToolContext
from fsnb.tools.index_catalog import IndexCatalog
from fsnb.tools.overview import folder_map
from fsnb.tools.walk_catalog import WalkCatalog

DAY = 86_400
NOW = time.time()
#: Regular files only: what the index holds is then all a walk sees too.
FILES = {
    "report_2024.pdf": (3000, 2),
    "notes.md": (120, 1),
    "data/sales.csv": (5000, 40),
    "data/old/sales_2019.csv": (7000, 400),
    "data/old/readme.txt": (50, 400),
    "docs/guide.md": (900, 3),
    "docs/drafts/guide_v1.md": (800, 10),
    "docs/drafts/copy of guide.md": (800, 10),
    "docs/drafts/deep/x.py": (60, 5),
    "photos/a.png": (20000, 30),
    ".hidden/secret_notes.txt": (10, 1),
}


def _make(root: Path) -> Path:
    for rel, (size, age) in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x" * size)
        os.utime(path, (NOW - age * DAY, NOW - age * DAY))
    return root


@pytest.fixture
def pair(tmp_path: Path) -> tuple[ToolContext, ToolContext]:
    """A context on an unindexed folder, and one on the same folder indexed (each with
    its own database, so the first is never indexed)."""
    folder = _make(tmp_path / "deal")
    Index(tmp_path / "on.duckdb").add_folder(folder, progress=False)
    return ToolContext(folder, tmp_path / "off.duckdb"), ToolContext(folder, tmp_path / "on.duckdb")


def _shape(node: Node) -> list[tuple]:
    """A node's tree as rows; folders' dates left out (the index dates a folder by its
    newest file, a walk by the folder's own date)."""
    rows = []
    pending = [node]
    while pending:
        n = pending.pop()
        date = None if n.kind == "folder" else round(n.mtime, 3)
        rows.append((n.rel, n.kind, n.size, n.files, n.folders, date, len(n.children)))
        pending += n.children
    return sorted(rows)


def test_the_context_chooses_the_index_when_it_holds_the_folder(pair) -> None:
    off, on = pair
    assert isinstance(off.files, WalkCatalog) and isinstance(on.files, IndexCatalog)
    assert (off.files.kind, off.files.source) == ("walk", "from a walk")
    assert on.files.kind == "index" and on.files.source.startswith("from the index, scanned ")
    assert off.files is off.files  # chosen once


@pytest.mark.parametrize("rel", [".", "data", "docs/drafts"])
@pytest.mark.parametrize("depth", [1, 2, None])
@pytest.mark.parametrize("hidden", [True, False])
def test_both_catalogs_hold_the_same_tree(pair, rel: str, depth: int | None, hidden: bool):
    walked, read = (ctx.files.node(rel, depth, hidden=hidden) for ctx in pair)
    assert _shape(read) == _shape(walked)


@pytest.mark.parametrize("rel", [".", "data", "docs"])
@pytest.mark.parametrize("depth", [1, 3])
def test_both_catalogs_give_the_same_entries(pair, rel: str, depth: int) -> None:
    walked, read = (sorted(ctx.files.entries(rel, depth), key=lambda e: e.path) for ctx in pair)
    assert read == walked and walked


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"newest_first": True},
        {"extensions": frozenset({".md", ".csv"})},
        {"since_ns": int((NOW - 20 * DAY) * 1e9), "newest_first": True},
    ],
)
@pytest.mark.parametrize("rel", [".", "docs"])
def test_both_catalogs_give_the_same_files(pair, rel: str, kwargs: dict) -> None:
    walked, read = (ctx.files.files(rel, **kwargs) for ctx in pair)
    assert read == walked and walked


@pytest.mark.parametrize(
    "query",
    [
        FindQuery("*.md", "name"),
        FindQuery("guide", "name", sort="size"),
        FindQuery("sales_2019.csv", "name"),
        FindQuery("sal?s*", "name", base="data"),
        FindQuery("", "metadata", extensions=frozenset({".csv"}), sort="modified"),
        FindQuery("*", "name", sort="name", limit=3),
    ],
    ids=repr,
)
def test_both_catalogs_find_the_same_files(pair, query: FindQuery) -> None:
    walked, read = (ctx.files.find(query) for ctx in pair)
    assert (walked.kind, read.kind) == ("walk", "index")
    assert walked.source == f"from a walk of {walked.looked_at} files"
    assert read.source == pair[1].files.source
    assert read.total == walked.total and read.total
    rows = [[(h.rel, h.size, round(h.mtime, 3), h.why) for h in f.hits] for f in (walked, read)]
    assert rows[0] == rows[1]


def test_the_index_searches_document_text_in_a_walk(pair) -> None:
    _, on = pair
    found = on.files.find(FindQuery("nothing like this", "name+content"))
    assert found.kind == "walk" and found.source.startswith("from a walk of ")
    assert on.files.walked is on.files.walked  # one walk kept for it


def test_both_catalogs_find_the_same_duplicates(pair) -> None:
    walked, read = (ctx.files.duplicates(".", 1, lambda: None) for ctx in pair)
    assert read.groups == walked.groups
    assert [g.paths for g in walked.groups] == [
        ["docs/drafts/copy of guide.md", "docs/drafts/guide_v1.md"]
    ]


def _tool_text(ctx: ToolContext, name: str, arguments: dict) -> str:
    out = agent_registry().call(name, arguments, ctx=ctx)
    assert out.ok, out.text
    return out.text


CALLS = [
    ("browse_directory", {}),
    ("browse_directory", {"path": "data", "sort_by": "size", "show_hidden": True}),
    ("tree", {"max_depth": 2}),
    ("tree", {"include_pattern": "*.md"}),
    ("disk_usage", {"depth": 2}),
    ("recent_files", {"days": 3650}),
    ("find_files", {"query": "*.csv"}),
    ("find_duplicates", {}),
]


def test_a_tool_on_an_indexed_folder_and_an_unindexed_copy_differs_only_in_its_note(
    tmp_path: Path,
) -> None:
    indexed = _make(tmp_path / "a" / "deal")
    copy = tmp_path / "b" / "deal"
    shutil.copytree(indexed, copy)  # dates and all
    db = tmp_path / "index.duckdb"
    Index(db).add_folder(indexed, progress=False)
    on, off = ToolContext(indexed, db), ToolContext(copy, db)
    assert (on.files.kind, off.files.kind) == ("index", "walk")
    read_note = re.escape(on.files.source)
    walk_note = r"from a walk( of \d+ files)?"  # find_files says how many it looked at
    for name, arguments in CALLS:
        read, walked = _tool_text(on, name, arguments), _tool_text(off, name, arguments)
        assert re.search(read_note, read) and re.search(walk_note, walked), name
        assert re.sub(read_note, "NOTE", read) == re.sub(walk_note, "NOTE", walked), name
    read, walked = folder_map(on).text(), folder_map(off).text()
    assert re.sub(read_note, "NOTE", read) == re.sub(walk_note, "NOTE", walked)


def test_a_context_walks_once_and_a_new_one_sees_changes(tmp_path: Path) -> None:
    folder = _make(tmp_path / "deal")
    ctx = ToolContext(folder, tmp_path / "none.duckdb")
    catalog: FileCatalog = ctx.files
    assert [row[0] for row in catalog.files("docs/drafts")] == [
        "docs/drafts/copy of guide.md",
        "docs/drafts/deep/x.py",
        "docs/drafts/guide_v1.md",
    ]
    (folder / "docs" / "drafts" / "new.md").write_text("new")
    before = {row[0] for row in catalog.files()}  # the root, walked now: it holds new.md
    assert "docs/drafts/new.md" in before
    (folder / "later.md").write_text("later")
    assert {row[0] for row in ctx.files.files()} == before  # the walk is kept
    assert "later.md" in _tool_text(ToolContext(folder, tmp_path / "none.duckdb"), "tree", {})


def test_the_choice_is_kept_for_the_context(tmp_path: Path) -> None:
    folder = _make(tmp_path / "deal")
    db = tmp_path / "index.duckdb"
    ctx = ToolContext(folder, db)
    assert ctx.files.kind == "walk"
    Index(db).add_folder(folder, progress=False)
    assert ctx.files.kind == "walk"  # chosen on first use, for the whole run
    assert ToolContext(folder, db).files.kind == "index"


def test_only_the_catalogs_choose_between_the_index_and_a_walk() -> None:
    """No tool module reads the file-system index or walks for a listing itself: that
    choice is made once, in `ToolContext.files`."""
    tools = Path(__file__).parents[1] / "src" / "fsnb" / "tools"
    catalogs = {"catalog.py", "index_catalog.py", "walk_catalog.py"}
    choosers = {
        "fsnb.fsindex.filesystem": None,  # None: any name
        "fsnb.fsindex.walk": {"list_files", "held"},
        "fsnb.fsindex.duplicates": {"find", "from_index", "from_walk", "among"},
        "fsnb.fsindex": {"filesystem", "duplicates"},
        "fsnb.security": {"scan"},
    }
    for module in sorted(tools.glob("*.py")):
        if module.name in catalogs:
            continue
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module in choosers:
                names = {alias.name for alias in node.names}
                barred = choosers[node.module]
                assert not (names if barred is None else names & barred), module.name
