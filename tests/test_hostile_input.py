"""Hostile input, round two: a file swapped between its check and its reading, file names
holding terminal escapes, files that fail mid-index, and a watched folder deleted and made
again. Real files in tmp folders; each race is made deterministic by doing the swap right
after the sandbox's check passes."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import finishes, unprivileged, until

from fsnb.cli import main
from fsnb.index import Index
from fsnb.security import Sandbox
from fsnb.tools import agent_registry
from fsnb.tools.context import ToolContext

SECRET = "OUTSIDE-SECRET-4411"
#: Bytes a file name may hold that a terminal acts on: ESC, BEL, CR, backspace.
RAW = ("\x1b", "\x07", "\r", "\x08")


# -- 1. a file swapped between the sandbox's check and its reading -----------------------


@pytest.fixture
def box(tmp_path: Path) -> Path:
    """A folder with a note and a nested markdown file, and a secret outside it."""
    root = tmp_path / "box"
    (root / "docs").mkdir(parents=True)
    (root / "notes.txt").write_text("The CFO is Dana Ito.\n")
    (root / "docs" / "summary.md").write_text("# Summary\n\nDeal value: $9,000,000.\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(f"Launch codes: {SECRET}.\n")
    (outside / "summary.md").write_text(f"# Stolen\n\nLaunch codes: {SECRET}.\n")
    return root


def _swap_after_check(
    monkeypatch: pytest.MonkeyPatch, rel: str, swap: Callable[[Path], None]
) -> list[Path]:
    """Make `Sandbox.existing` do `swap(path)` on `rel` right after its checks pass, as a
    racing process would; returns the paths swapped."""
    original = Sandbox.existing
    swapped: list[Path] = []

    def existing(self: Sandbox, path: Any = ".", *args: Any, **kwargs: Any) -> Path:
        found = original(self, path, *args, **kwargs)
        if self.relative(found) == rel:
            swap(self.root / rel)
            swapped.append(found)
        return found

    monkeypatch.setattr(Sandbox, "existing", existing)
    return swapped


def _to_fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _call(folder: Path, tool: str, args: dict[str, Any]) -> str:
    return finishes(agent_registry().call, tool, args, ctx=ToolContext(folder)).text


FILE_CALLS = [
    ("read", {"path": "notes.txt"}),
    ("parse_file", {"path": "notes.txt"}),
    ("preview_file", {"path": "notes.txt"}),
    ("file_info", {"path": "notes.txt"}),
    ("grep", {"pattern": "CFO", "path": "notes.txt"}),
]


@pytest.mark.parametrize(("tool", "args"), FILE_CALLS, ids=[c[0] for c in FILE_CALLS])
def test_a_file_swapped_for_a_named_pipe_after_its_check_is_refused_at_once(
    box: Path, monkeypatch: pytest.MonkeyPatch, tool: str, args: dict[str, Any]
):
    swapped = _swap_after_check(monkeypatch, "notes.txt", _to_fifo)
    try:
        out = _call(box, tool, args)
    finally:  # a reader stuck on the pipe (the defect) gets its end of file
        fifo = box / "notes.txt"
        if fifo.exists():
            with contextlib.suppress(OSError):
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert swapped, "the tool never checked notes.txt"
    assert "named pipe" in out, out
    assert "\n" not in out or tool == "grep", out
    assert "CFO" not in out.replace("'CFO'", "")  # grep echoes its pattern


@pytest.mark.parametrize(
    ("tool", "args"), [c for c in FILE_CALLS if c[0] != "file_info"], ids=lambda c: str(c)[:12]
)
def test_a_file_swapped_for_a_symlink_after_its_check_is_never_read(
    box: Path, monkeypatch: pytest.MonkeyPatch, tool: str, args: dict[str, Any]
):
    secret = box.parent / "outside" / "secret.txt"

    def to_symlink(path: Path) -> None:
        path.unlink()
        path.symlink_to(secret)

    swapped = _swap_after_check(monkeypatch, "notes.txt", to_symlink)
    out = _call(box, tool, {**args, "pattern": "Launch"} if tool == "grep" else args)
    assert swapped, "the tool never checked notes.txt"
    assert SECRET not in out, out
    assert "replaced by a symlink" in out, out


def test_compare_files_never_hashes_a_file_swapped_for_a_symlink(
    box: Path, monkeypatch: pytest.MonkeyPatch
):
    """A guess at an outside file's content, compared with a file swapped for a symlink to
    it, would come back "identical" if the hash followed the link."""
    secret = box.parent / "outside" / "secret.txt"
    (box / "guess.txt").write_text(secret.read_text())

    def to_symlink(path: Path) -> None:
        path.unlink()
        path.symlink_to(secret)

    swapped = _swap_after_check(monkeypatch, "notes.txt", to_symlink)
    out = _call(box, "compare_files", {"path1": "notes.txt", "path2": "guess.txt"})
    assert swapped and "identical" not in out, out
    assert "replaced by a symlink" in out, out


def test_a_folder_swapped_for_a_symlink_after_the_check_is_never_read(
    box: Path, monkeypatch: pytest.MonkeyPatch
):
    """O_NOFOLLOW guards the last component only: the folder on the way is checked by
    where the opened file really is. Docling's markdown goes through the same door."""
    outside = box.parent / "outside"

    def folder_to_symlink(path: Path) -> None:
        shutil.rmtree(path.parent)
        path.parent.symlink_to(outside, target_is_directory=True)

    for tool in ("parse_file", "read", "preview_file"):
        if (box / "docs").is_symlink():
            (box / "docs").unlink()
            (box / "docs").mkdir()
            (box / "docs" / "summary.md").write_text("# Summary\n\nDeal value: $9,000,000.\n")
        with monkeypatch.context() as patch:
            swapped = _swap_after_check(patch, "docs/summary.md", folder_to_symlink)
            out = _call(box, tool, {"path": "docs/summary.md"})
        assert swapped, tool
        assert SECRET not in out, (tool, out)
        assert "moved out of the checked path" in out, (tool, out)


def test_a_scan_never_reads_a_file_swapped_after_the_walk(
    box: Path, monkeypatch: pytest.MonkeyPatch
):
    original = Sandbox.entries

    def entries(self: Sandbox, *args: Any, **kwargs: Any) -> list[Any]:
        found = original(self, *args, **kwargs)
        (self.root / "notes.txt").unlink()
        (self.root / "notes.txt").symlink_to(box.parent / "outside" / "secret.txt")
        return found

    monkeypatch.setattr(Sandbox, "entries", entries)
    out = _call(box, "scan_folder", {})
    assert SECRET not in out
    line = next(ln for ln in out.splitlines() if ln.startswith("=== notes.txt"))
    assert "replaced by a symlink" in line, line
    assert "Deal value" in out  # the rest is scanned


# -- 2. file names holding terminal escapes ---------------------------------------------

EVIL = ("evil\x1b]0;pwned\x07.txt", "a\x1b[2J.txt", "back\x08\x08ed\r.txt")


@pytest.fixture
def evil(tmp_path: Path) -> Path:
    root = tmp_path / "evil"
    root.mkdir()
    for name in EVIL:
        (root / name).write_text(f"Text of a file named {name!r}.\n")
    (root / "plain.txt").write_text("Nothing odd here.\n")
    return root


def _printed(capsys: pytest.CaptureFixture[str]) -> str:
    got = capsys.readouterr()
    return got.out + got.err


def test_no_file_name_sends_a_terminal_escape(
    evil: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    db = str(tmp_path / "index.duckdb")
    runs = {
        "tree": ["fs", "tree", str(evil)],
        "scan": ["scan", str(evil)],
        "bookmark add": ["fs", "bookmark", "add", EVIL[0], "--root", str(evil), "--db", db],
        "bookmark list": ["fs", "bookmark", "list", "--root", str(evil), "--db", db],
        "info of a missing name": ["fs", "info", "gone\x1b[2J.txt", "--root", str(evil)],
        "index": ["index", str(evil), "--db", db],
    }
    for what, argv in runs.items():
        main(argv)
        text = _printed(capsys)
        assert not any(raw in text for raw in RAW), (what, text)
        if what in ("tree", "scan", "bookmark list"):
            assert "evil\\x1b]0;pwned\\x07.txt" in text, (what, text)
        if what in ("tree", "scan"):
            assert "a\\x1b[2J.txt" in text and "back\\x08\\x08ed\\x0d.txt" in text, text
        if what == "info of a missing name":
            assert "gone\\x1b[2J.txt" in text, text


# -- 3. files that fail mid-index or mid-scan -------------------------------------------


def looping_pdf(path: Path) -> Path:
    """A PDF whose page tree lists itself as its only kid, written by hand."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [2 0 R] /Count 1 >>",
    ]
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % at for at in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    path.write_bytes(out)
    return path


@pytest.fixture
def damaged(tmp_path: Path) -> Path:
    root = tmp_path / "damaged"
    (root / "sub").mkdir(parents=True)
    (root / "good.txt").write_text("The good note mentions apricots.\n")
    (root / "sub" / "also_good.md").write_text("# Also good\n\nPlums are here.\n")
    looping_pdf(root / "sub" / "loop.pdf")
    locked = root / "locked.txt"
    locked.write_text("Nobody may read this.\n")
    locked.chmod(0)
    return root


def _fsnb(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*unprivileged(), sys.executable, "-m", "fsnb.cli", *argv],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_index_and_scan_give_one_line_per_unreadable_file(damaged: Path, tmp_path: Path):
    db = tmp_path / "index.duckdb"
    run = _fsnb("index", str(damaged), "--db", str(db))
    assert "Traceback" not in run.stderr, run.stderr
    assert run.returncode == 1, (run.returncode, run.stderr)
    failed = [ln for ln in run.stderr.splitlines() if ln.startswith("  failed ")]
    assert sorted(ln.split(":")[0] for ln in failed) == [
        "  failed locked.txt",
        "  failed sub/loop.pdf",
    ], run.stderr
    assert "  failed locked.txt: permission denied" in failed
    assert "2 files could not be read" in run.stderr.splitlines()
    assert "loop.pdf" not in run.stderr.replace("  failed sub/loop.pdf:", "")  # said once
    assert str(tmp_path) not in run.stderr
    assert set(Index(db).documents(damaged)["path"]) >= {"good.txt", "sub/also_good.md"}

    scan = _fsnb("scan", str(damaged))
    assert "Traceback" not in scan.stderr and scan.stderr == "", scan.stderr
    assert scan.returncode == 1
    bad = [ln for ln in scan.stdout.splitlines() if " — error: " in ln]
    assert [ln.split(" — ")[0] for ln in bad] == ["=== locked.txt", "=== sub/loop.pdf"], bad
    assert "corrupt PDF" in bad[1]
    assert "(2 could not be read)" in scan.stdout.splitlines()[0]
    assert "apricots" in scan.stdout


def test_a_parse_that_raises_or_a_file_gone_mid_index_is_one_line(
    damaged: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
):
    """A parser's own bug, and a file deleted between the walk and its parse."""
    from fsnb.documents import batch
    from fsnb.index import changes

    (damaged / "locked.txt").unlink()
    (damaged / "sub" / "loop.pdf").unlink()
    (damaged / "buggy.txt").write_text("This one trips the parser.\n")
    (damaged / "vanishing.txt").write_text("Deleted before it is read.\n")
    real_parse, real_scan = batch.parse, changes.scan

    def parse(path: Any, **kwargs: Any) -> Any:
        if Path(path).name == "buggy.txt":
            raise RuntimeError("the parser fell over")
        return real_parse(path, **kwargs)

    def scan(box: Sandbox, report: Any) -> Any:
        found = real_scan(box, report)
        (damaged / "vanishing.txt").unlink()
        return found

    monkeypatch.setattr(batch, "parse", parse)
    monkeypatch.setattr(changes, "scan", scan)
    caplog.set_level(logging.DEBUG)
    assert main(["index", str(damaged), "--db", str(tmp_path / "i.duckdb")]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    failed = sorted(ln for ln in err.splitlines() if ln.startswith("  failed "))
    assert len(failed) == 2, err
    assert failed[0].startswith("  failed buggy.txt: unexpected RuntimeError: the parser fell")
    assert failed[1].startswith("  failed vanishing.txt: "), failed
    assert "2 files could not be read" in err
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING and r.exc_info]
    assert not loud, [r.getMessage() for r in loud]


# -- 4. a watched folder deleted and made again -----------------------------------------


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[tuple[Index, Path, list[str], Any]]:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "alpha.txt").write_text("The first note mentions apples.\n")
    index = Index(tmp_path / "index.duckdb")
    index.add_folder(docs, progress=False)
    notices: list[str] = []
    watch = index.watch(docs, catch_up=False, on_notice=notices.append)
    yield index, docs, notices, watch
    watch.stop()


def test_a_watched_folder_deleted_and_made_again_is_watched_again(
    watched: tuple[Index, Path, list[str], Any],
):
    index, docs, notices, watch = watched
    shutil.rmtree(docs)
    until(lambda: any("is gone" in n for n in notices), "the folder's deletion noticed")
    docs.mkdir()
    until(lambda: any("is back" in n for n in notices), "the folder's return noticed")
    (docs / "beta.txt").write_text("A note written into the new folder, about pears.\n")
    until(
        lambda: set(index.documents(docs)["path"]) == {"beta.txt"},
        "beta.txt indexed, alpha.txt marked deleted",
    )
    (docs / "gamma.txt").write_text("And a third, about quinces.\n")  # still followed
    until(lambda: "gamma.txt" in set(index.documents(docs)["path"]), "gamma.txt indexed")
    assert watch.running
    assert len([n for n in notices if "is gone" in n]) == 1, notices
    assert all("\n" not in n for n in notices)
