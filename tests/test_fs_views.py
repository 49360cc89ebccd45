"""The navigator's views: `fsnb fs ...` on the command line, the tree and disk-usage
renderers, `fsnb.tree`/`fsnb.disk_usage`, and the `%explore_fs` magic, on real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import usage_error
from IPython.core.interactiveshell import InteractiveShell

import fsnb
from fsnb.cli import main
from fsnb.notebook.fsviews import DiskUsageView, TreeView, step_view_html
from fsnb.tools import agent_registry

registered = agent_registry().names()


def _needs(tool: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(tool not in registered, reason=f"{tool} is not registered yet")


@pytest.fixture
def tree_dir(tmp_path: Path) -> Path:
    """docs/ (a 2,000-byte report and a copy of it), src/app.py, notes.txt; fixed mtimes."""
    root = tmp_path / "project"
    (root / "docs").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "docs" / "report.txt").write_text("r" * 2000)
    (root / "docs" / "copy.txt").write_text("r" * 2000)
    (root / "src" / "app.py").write_text("print('hi')\n")
    (root / "notes.txt").write_text("notes\n")
    for path in root.rglob("*"):
        os.utime(path, (1_767_225_600, 1_767_225_600))  # 2026-01-01
    return root


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["fs", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_fs_tree_prints_the_tree_and_json_prints_its_data(tree_dir: Path, capsys):
    code, out, err = _run(capsys, "tree", str(tree_dir), "--depth", "1")
    assert code == 0 and err == ""
    assert "+-- docs/ (3.9 KB) [2 files, 0 folders not shown]" in out
    code, out, _ = _run(capsys, "tree", str(tree_dir), "--json")
    assert code == 0 and json.loads(out)["files"] == 4


def test_fs_find_and_info_take_the_tools_options(tree_dir: Path, capsys):
    code, out, _ = _run(capsys, "find", "*.txt", "--root", str(tree_dir), "--size", ">1KB",
                        "--sort", "name", "--json")  # fmt: skip
    paths = [r["path"] for r in json.loads(out)["results"]]
    assert code == 0 and paths == ["docs/copy.txt", "docs/report.txt"]
    code, out, _ = _run(capsys, "info", "src/app.py", "--root", str(tree_dir))
    assert code == 0 and "src/app.py (file)" in out and "lines: 1" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["info", "../outside.txt"], "outside the root"),
        (["find", "x", "--size", "huge"], "bad size range 'huge'"),
        (["find", "x", "--sort", "colour"], "sort_by: Input should be 'relevance'"),
        (["tree", "--depth", "0"], "max_depth must be >= 1"),
    ],
)
def test_a_refused_call_exits_2_with_one_line_on_stderr(tree_dir: Path, capsys, argv, message):
    root = [str(tree_dir)] if argv[0] == "tree" else ["--root", str(tree_dir)]
    code, out, err = _run(capsys, *argv, *root)
    assert code == 2 and out == "" and message in err
    assert err.startswith("fsnb: ") and err.count("\n") == 1


def test_fs_help_lists_the_tools_and_the_exit_status():
    run = subprocess.run(
        [sys.executable, "-m", "fsnb.cli", "fs", "--help"], capture_output=True, text=True,
        check=False, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0
    for name in ("tree", "find", "info", "du", "dupes", "recent", "bookmark"):
        assert name in run.stdout
    assert "exit status: 0 done" in " ".join(run.stdout.split())


@_needs("disk_usage")
def test_fs_du_lists_the_biggest_first(tree_dir: Path, capsys):
    code, out, _ = _run(capsys, "du", str(tree_dir), "--json")
    data = json.loads(out)
    assert code == 0 and data["entries"][0]["path"] == "docs" and data["size"] == 4018


@_needs("find_duplicates")
def test_fs_dupes_finds_the_copy(tree_dir: Path, tmp_path: Path, capsys):
    db = str(tmp_path / "i.duckdb")
    code, out, _ = _run(capsys, "dupes", str(tree_dir), "--min-size", "100", "--db", db, "--json")
    (group,) = json.loads(out)["groups"]
    assert code == 0 and sorted(group["paths"]) == ["docs/copy.txt", "docs/report.txt"]


@_needs("recent_files")
def test_fs_recent_takes_days_and_type(tree_dir: Path, capsys):
    os.utime(tree_dir / "notes.txt")  # now
    code, out, _ = _run(capsys, "recent", str(tree_dir), "--days", "3", "--type", "txt", "--json")
    assert code == 0 and [r["path"] for r in json.loads(out)["results"]] == ["notes.txt"]


@_needs("bookmark")
def test_fs_bookmark_adds_lists_and_removes(tree_dir: Path, tmp_path: Path, capsys):
    where = ["--root", str(tree_dir), "--db", str(tmp_path / "i.duckdb")]
    assert _run(capsys, "bookmark", "add", "docs", "--label", "papers", *where)[0] == 0
    code, out, _ = _run(capsys, "bookmark", "list", *where, "--json")
    assert code == 0 and [(b["path"], b["label"]) for b in json.loads(out)["bookmarks"]] == [
        ("docs", "papers")
    ]
    assert _run(capsys, "bookmark", "remove", "docs", *where)[0] == 0
    assert json.loads(_run(capsys, "bookmark", *where, "--json")[1])["bookmarks"] == []


# -- the renderers -------------------------------------------------------------------------


def test_tree_view_nests_folders_first_with_sizes(tree_dir: Path):
    view = fsnb.tree(tree_dir, max_depth=2)
    assert isinstance(view, TreeView)
    page = view._repr_html_()
    order = [page.index(name) for name in ("docs/", "copy.txt", "report.txt", "src/", "app.py",
                                           "notes.txt")]  # fmt: skip
    assert order == sorted(order)
    assert page.count("<details") == 2 and "3.9 KB" in page and "<script" not in page
    frame = view.to_frame()
    assert set(frame["path"]) == {"docs", "src", "notes.txt", "docs/copy.txt",
                                  "docs/report.txt", "src/app.py"}  # fmt: skip
    assert frame.set_index("path").loc["docs/report.txt", "depth"] == 2


def test_tree_view_stops_at_max_depth(tree_dir: Path):
    frame = fsnb.tree(tree_dir, max_depth=1).to_frame()
    assert sorted(frame["path"]) == ["docs", "notes.txt", "src"]


def test_tree_view_of_a_subfolder_is_relative_to_it(tree_dir: Path):
    view = fsnb.tree(tree_dir, "docs/")
    assert view.path == "docs" and list(view.to_frame()["path"]) == ["copy.txt", "report.txt"]
    assert view.data["files"] == 2 and "report.txt" in view._repr_html_()


def test_a_steps_view_is_drawn_from_its_data_alone():
    data = {"path": "docs", "folders": 1, "files": 1, "size": 5, "cut": 0, "source": "index",
            "entries": [{"path": "docs/a", "type": "folder", "size": 5, "files": 1, "folders": 0},
                        {"path": "docs/a/b.txt", "type": "file", "size": 5, "files": 1,
                         "folders": 0}]}  # fmt: skip
    page = step_view_html("tree", data)
    assert "fsnb-tree" in page and page.index("a/") < page.index("b.txt")
    assert "from the index" in page and "docs/a" not in page
    usage = {"path": ".", "size": 5, "files": 1, "folders": 0, "entries": data["entries"][1:]}
    assert "fsnb-du" in step_view_html("disk_usage", usage)
    assert step_view_html("tree", {}) == "" and step_view_html("glob", data) == ""


def test_tree_view_of_a_path_outside_the_root_is_refused(tree_dir: Path):
    with pytest.raises(ValueError, match="outside the root"):
        fsnb.tree(tree_dir, "..")


def test_disk_usage_view_draws_sorted_bars_and_escapes_names():
    data = {
        "path": ".", "size": 100, "files": 3, "folders": 1, "source": "walk",
        "entries": [
            {"path": "small.txt", "type": "file", "size": 10, "files": 1, "share": 0.1},
            {"path": "<big>", "type": "folder", "size": 60, "files": 1, "share": 0.6},
            {"path": "mid.bin", "type": "file", "size": 30, "files": 1, "share": 0.3},
        ],
    }  # fmt: skip
    view = DiskUsageView(data)
    page = view._repr_html_()
    order = [page.index(name) for name in ("&lt;big&gt;/", "mid.bin", "small.txt")]
    assert order == sorted(order) and "<big>" not in page
    assert "width:100.0%" in page and "width:50.0%" in page and "60.0%" in page
    assert "from a walk" in page and "<script" not in page
    assert list(view.to_frame()["path"]) == ["<big>", "mid.bin", "small.txt"]


@_needs("disk_usage")
def test_fsnb_disk_usage_returns_the_chart(tree_dir: Path):
    view = fsnb.disk_usage(tree_dir)
    assert list(view.to_frame()["path"])[:1] == ["docs"]
    assert view._repr_html_().index("docs/") < view._repr_html_().index("notes.txt")


# -- %explore_fs ---------------------------------------------------------------------------


@pytest.fixture
def ip():
    shell = InteractiveShell.instance()
    shell.run_line_magic("reload_ext", "fsnb")
    yield shell
    shell.user_ns.pop("fsmap", None)


def test_explore_fs_returns_the_folder_map(ip: InteractiveShell, tree_dir: Path):
    found = ip.run_line_magic("explore_fs", f"{tree_dir} -o fsmap")
    assert ip.user_ns["fsmap"] is found
    assert "docs" in found.text() and "docs" in found._repr_html_()


def test_explore_fs_usage_errors(ip: InteractiveShell, tmp_path: Path):
    message = usage_error(lambda: ip.run_line_magic("explore_fs", str(tmp_path / "nowhere")))
    assert "not a folder" in message
    message = usage_error(lambda: ip.run_line_magic("explore_fs", f"{tmp_path} -o 1x"))
    assert "-o needs a Python variable name" in message


# -- the panel -------------------------------------------------------------------------------


def test_the_panel_shows_a_tree_step_as_a_tree_view(tree_dir: Path):
    from fsnb.agent import Action, Explorer
    from fsnb.llm import ReplayLLM
    from fsnb.notebook.widget import ExplorePanel

    llm = ReplayLLM(
        [
            Action.call("tree", "see the layout", path=".", max_depth=2),
            Action.call("glob", "list the text files", pattern="*.txt"),
            Action.stop("Four files.", "counted", []),
        ]
    )
    panel = ExplorePanel()
    panel.attach(Explorer(tree_dir, llm), "How many files?")
    assert panel.wait(30) is not None
    tree_row, glob_row, _ = panel.trace
    view = tree_row["view_html"]
    assert "fsnb-tree" in view and view.index("docs/") < view.index("report.txt")
    assert "view_html" not in glob_row
