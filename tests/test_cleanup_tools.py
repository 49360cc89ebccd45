"""find_duplicates, bookmark and compare_files on real files, from a walk and the index."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import make_pdf

from fsnb.fsindex import duplicates
from fsnb.index import Index
from fsnb.tools import ToolContext, agent_registry

REPORT = b"quarterly report\n" * 1000  # 17,000 bytes


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """Three copies of a report across folders, two copies of a note, a same-size file
    with other content, an empty pair, and a duplicated private key that is never read."""
    base = tmp_path / "root"
    for rel in ("a/report.txt", "b/copy of report.txt", "b/deep/report (1).txt"):
        (base / rel).parent.mkdir(parents=True, exist_ok=True)
        (base / rel).write_bytes(REPORT)
    (base / "a" / "note.md").write_text("same note\n")
    (base / "b" / "note.md").write_text("same note\n")
    (base / "a" / "other.md").write_text("some note\n")  # same size, other bytes
    (base / "a" / "empty1").write_bytes(b"")
    (base / "b" / "empty2").write_bytes(b"")
    (base / "a" / "id_rsa").write_text("PRIVATE KEY")
    (base / "b" / "id_rsa").write_text("PRIVATE KEY")
    return base


def call(root: Path, name: str, db: Path | None = None, **arguments: object):
    return agent_registry().call(name, arguments, ctx=ToolContext(root, db))


def test_duplicates_from_a_walk_group_copies_across_folders(root: Path):
    out = call(root, "find_duplicates")
    assert out.ok, out.text
    assert out.data["source"] == "walk" and "from a walk" in out.text
    groups = out.data["groups"]
    assert [g["paths"] for g in groups] == [
        ["a/report.txt", "b/copy of report.txt", "b/deep/report (1).txt"],
        ["a/note.md", "b/note.md"],
    ]
    assert groups[0]["size"] == len(REPORT) and len(groups[0]["sha256"]) == 64
    assert out.data["wasted"] == 2 * len(REPORT) + 10
    assert "removing the 3 extra copies would free 33.2 KB" in out.text
    assert "id_rsa" not in out.text  # blocked files are never opened


def test_duplicates_min_size_and_scope(root: Path):
    assert len(call(root, "find_duplicates", min_size=100).data["groups"]) == 1
    assert len(call(root, "find_duplicates", min_size=0).data["groups"]) == 3  # the empties
    scoped = call(root, "find_duplicates", path="b").data["groups"]
    assert scoped[0]["paths"] == ["b/copy of report.txt", "b/deep/report (1).txt"]
    none = call(root, "find_duplicates", path="b/deep")
    assert none.ok and none.data["groups"] == [] and "No duplicate files under b/deep" in none.text


def test_duplicates_from_the_index_cache_their_hashes(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    db = tmp_path / "index.duckdb"
    Index(db).add_folder(root, progress=False)
    hashed: list[str] = []
    real = duplicates.file_sha256

    def counting(path, root=None):
        hashed.append(str(path))
        return real(path, root)

    monkeypatch.setattr(duplicates, "file_sha256", counting)
    first = call(root, "find_duplicates", db=db)
    assert first.ok and first.data["source"] == "index" and "from the index, scanned" in first.text
    assert len(hashed) == first.data["hashed"] == 6  # the reports, the notes, other.md
    assert len(first.data["groups"]) == 2
    assert (
        "No duplicate files under b/deep among 1 files"
        in call(root, "find_duplicates", db=db, path="b/deep").text
    )
    second = call(root, "find_duplicates", db=db)
    assert second.data["groups"] == first.data["groups"]
    assert second.data["hashed"] == 0 and len(hashed) == 6
    frame = Index(db).duplicates(root)
    assert list(frame.columns) == ["group", "size", "sha256", "path"]
    assert frame[frame.group == 0].path.tolist()[0] == "a/report.txt" and len(hashed) == 6
    stored = Index(db).files(root)
    assert stored.sha256.notna().sum() == 6 and stored[stored.name == "id_rsa"].sha256.isna().all()


def test_a_file_gone_since_the_scan_is_reported_not_fatal(root: Path, tmp_path: Path):
    db = tmp_path / "index.duckdb"
    Index(db).add_folder(root, progress=False)
    (root / "b" / "deep" / "report (1).txt").unlink()
    out = call(root, "find_duplicates", db=db)
    assert out.ok, out.text
    assert out.data["groups"][0]["paths"] == ["a/report.txt", "b/copy of report.txt"]
    assert [u["path"] for u in out.data["unreadable"]] == ["b/deep/report (1).txt"]
    assert "Could not read 1 files:" in out.text


def test_bookmarks_add_relabel_remove_and_list_per_folder(root: Path, tmp_path: Path):
    db = tmp_path / "index.duckdb"
    other = tmp_path / "other"
    other.mkdir()
    (other / "plan.txt").write_text("plan")
    out = call(root, "bookmark", db, action="add", path="a/report.txt", label="Q3 report")
    assert out.ok and out.text == "Bookmarked a/report.txt (Q3 report)."
    again = call(root, "bookmark", db, action="add", path="a/report.txt", label="final")
    assert again.text == "Updated the bookmark of a/report.txt (final)."
    call(root, "bookmark", db, action="add", path="b")
    call(other, "bookmark", db, action="add", path="plan.txt", label="the plan")
    rows = call(root, "bookmark", db).data["bookmarks"]
    assert [(r["path"], r["label"], r["exists"]) for r in rows] == [
        ("a/report.txt", "final", True),
        ("b", None, True),
    ]
    (root / "a" / "report.txt").unlink()
    listed = call(root, "bookmark", db, action="list")
    assert "a/report.txt - final" in listed.text and "[missing: no longer exists]" in listed.text
    assert call(root, "bookmark", db, action="remove", path="a/report.txt").ok
    assert [r["path"] for r in call(root, "bookmark", db).data["bookmarks"]] == ["b"]
    missing = call(root, "bookmark", db, action="remove", path="a/report.txt")
    assert not missing.ok and missing.text == "No bookmark for a/report.txt."
    frame = Index(db).bookmarks()
    assert frame.path.tolist() == ["plan.txt", "b"]  # by folder (other/ before root/), path
    assert Index(db).bookmarks(other).label.tolist() == ["the plan"]
    assert Index(db).status().empty  # bookmarking does not mark a folder indexed


def test_bookmark_refuses_bad_actions_and_paths(root: Path, tmp_path: Path):
    db = tmp_path / "index.duckdb"
    bad = call(root, "bookmark", db, action="rename", path="a")
    assert not bad.ok and "'add', 'remove' or 'list'" in bad.text and "\n" not in bad.text
    outside = call(root, "bookmark", db, action="add", path="../")
    assert not outside.ok and outside.text.startswith("access denied:")
    gone = call(root, "bookmark", db, action="add", path="a/nothing.txt")
    assert not gone.ok and "does not exist" in gone.text
    assert not call(root, "bookmark", db, action="add").ok  # no path


@pytest.mark.parametrize("tool", ["find_duplicates", "compare_files"])
def test_paths_outside_the_root_are_refused(root: Path, tool: str):
    arguments = {"path1": "../x", "path2": "a/note.md"} if tool == "compare_files" else {}
    out = call(root, tool, **({"path": "../"} if tool == "find_duplicates" else arguments))
    assert not out.ok and out.text.startswith("access denied:"), out.text


def test_compare_two_texts_gives_a_diff_and_a_summary(root: Path):
    (root / "v1.txt").write_text("alpha\nbeta\ngamma\n")
    (root / "v2.txt").write_text("alpha\nBETA\ngamma\ndelta\n")
    out = call(root, "compare_files", path1="v1.txt", path2="v2.txt")
    assert out.ok and out.data["added"] == 2 and out.data["removed"] == 1
    assert not out.data["same"]
    assert out.data["summary"].startswith("v1.txt vs v2.txt (text): 2 lines added, 1 removed")
    assert "--- v1.txt\n+++ v2.txt" in out.text and "-beta\n+BETA" in out.text
    same = call(root, "compare_files", path1="a/note.md", path2="b/note.md")
    assert same.data["same"] and "are identical" in same.text


def test_compare_cuts_a_long_diff(root: Path):
    (root / "long1.txt").write_text("".join(f"line {i}\n" for i in range(500)))
    (root / "long2.txt").write_text("".join(f"LINE {i}\n" for i in range(500)))
    out = call(root, "compare_files", path1="long1.txt", path2="long2.txt")
    assert out.data["added"] == out.data["removed"] == 500
    assert "[diff cut at 200 lines:" in out.text


def test_compare_a_pdf_with_a_docx_of_the_same_text(root: Path):
    import docx

    paragraphs = ["The purchase price is ten million dollars.", "Closing is on June 30."]
    make_pdf(root / "deal.pdf", [paragraphs])
    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    document.save(str(root / "deal.docx"))
    out = call(root, "compare_files", path1="deal.pdf", path2="deal.docx")
    assert out.ok and out.data["same"], out.text
    assert "have the same parsed text" in out.data["summary"]
    document.add_paragraph("A retention bonus is payable.")
    document.save(str(root / "deal.docx"))
    changed = call(root, "compare_files", path1="deal.pdf", path2="deal.docx")
    assert changed.data["added"] == 1 and changed.data["removed"] == 0
    assert "+A retention bonus is payable." in changed.text


def test_compare_binaries_by_size_and_hash(root: Path):
    (root / "one.bin").write_bytes(b"\x00\x01" * 100)
    (root / "two.bin").write_bytes(b"\x00\x02" * 150)
    out = call(root, "compare_files", path1="one.bin", path2="two.bin")
    assert out.ok and not out.data["same"]
    assert "sizes 200 B vs 300 B" in out.text and "binary" in out.text
