"""Hostile file systems and wrong paths: each bad thing is one line about that one thing,
and everything else goes on. Real files in tmp folders: symlink loops, named pipes, names
that are not UTF-8, files that vanish mid-scan, paths past PATH_MAX, catastrophic regexes,
a small DOCX holding a million paragraphs."""

from __future__ import annotations

import importlib
import io
import json
import os
import re
import socket
import zipfile
from pathlib import Path
from typing import Any

import pytest
from conftest import finishes

import fsnb
from fsnb.agent import Action, CitedSource
from fsnb.agent.citations import verify_citations
from fsnb.documents import ParseCache, document_files, parse
from fsnb.documents import batch as batch_module
from fsnb.documents.batch import parse_many
from fsnb.errors import AccessDenied, NotFound, ParseError
from fsnb.llm import ReplayLLM
from fsnb.security import PATH_MAX, Sandbox, shown
from fsnb.tools import (
    file_registry,
    glob,
    grep,
    matching,
    parse_file,
    preview_file,
    read,
    scan_folder,
)

FILE_TOOLS = {"preview_file": preview_file, "parse_file": parse_file, "read": read}


def entries_of(scan: str) -> dict[str, str]:
    """A scan's `=== path — message` entries."""
    return {
        line[4:].split(" — ", 1)[0]: line.split(" — ", 1)[1]
        for line in scan.splitlines()
        if line.startswith("=== ")
    }


def test_symlink_loops_are_refused_one_line_each(folder: Path):
    (folder / "a").symlink_to("b")
    (folder / "b").symlink_to("a")
    (folder / "self.txt").symlink_to("self.txt")
    (folder / "letters" / "loop").symlink_to("loop")
    box = Sandbox(folder)
    for path in ("a", "self.txt", "letters/loop", "a/inside.pdf"):
        with pytest.raises(AccessDenied, match=r" is a symlink loop$"):
            box.resolve(path)
    assert {"a", "b", "self.txt", "letters/loop"} <= {box.relative(f) for f, _ in box.walk()}
    assert not {"a", "b", "self.txt"} & {box.relative(f) for f in document_files(box)}

    entries = entries_of(finishes(scan_folder, root=str(folder)))
    for rel in ("a", "b", "self.txt", "letters/loop"):
        assert entries[rel] == f"access denied: {rel} is a symlink loop"
    assert entries["agreement.pdf"].startswith("pdf, 2 pages")
    assert entries["letters/escrow.pdf"].startswith("pdf, 1 page")
    for tool in FILE_TOOLS.values():
        assert tool("self.txt", root=str(folder)) == "access denied: self.txt is a symlink loop"
    assert grep("x", "a", root=str(folder)) == "access denied: a is a symlink loop"
    assert grep(r"\$9,000,000", root=str(folder)).startswith("2 matching lines")
    assert "self.txt" in glob("*", root=str(folder))
    with pytest.raises(ParseError, match="a symlink loop"):
        parse(folder / "a")

    source = CitedSource(id=1, path="self.txt", page=None, quote="anything")
    (citation,) = verify_citations("x [1]", [source], box, {"self.txt"})
    assert not citation.verified
    assert citation.problem == "access denied: self.txt is a symlink loop"


def test_a_run_that_names_a_symlink_loop_goes_on(folder: Path):
    (folder / "a").symlink_to("b")
    (folder / "b").symlink_to("a")
    cite = CitedSource(id=1, path="a", page=None, quote="The Purchase Price")
    llm = ReplayLLM(
        [
            Action.call("scan_folder", "preview everything"),
            Action.call("parse_file", "read it", path="a"),
            Action(kind="go_deeper", directory="b", reason="look inside"),
            Action.stop("The price [1].", "done", [cite]),
        ]
    )
    result = finishes(fsnb.explore, "q", folder=folder, llm=llm)
    turns = llm.history[-1].turns
    assert "=== a — access denied: a is a symlink loop" in turns[0].result
    assert turns[1].result == "access denied: a is a symlink loop"
    assert turns[2].result == "access denied: b is a symlink loop"
    assert result.error is None
    assert result.citations[0].problem == "access denied: a is a symlink loop"


def test_named_pipes_sockets_are_listed_never_opened(folder: Path, monkeypatch):
    os.mkfifo(folder / "pipe.txt")
    os.mkfifo(folder / "letters" / "pipe.pdf")
    (folder / "link.md").symlink_to("pipe.txt")
    monkeypatch.chdir(folder)
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind("sock.csv")
        entries = entries_of(finishes(scan_folder, root=str(folder), seconds=60))
    assert entries["pipe.txt"] == "skipped: not a regular file (named pipe)"
    assert entries["letters/pipe.pdf"] == "skipped: not a regular file (named pipe)"
    assert entries["sock.csv"] == "skipped: not a regular file (socket)"
    assert entries["link.md"] == "error: link.md is a named pipe, not a file"
    assert entries["agreement.pdf"].startswith("pdf, 2 pages")

    box = Sandbox(folder)
    notes = {e.rel: e.note for e in box.entries() if e.note}
    assert notes == {
        "pipe.txt": "skipped: not a regular file (named pipe)",
        "letters/pipe.pdf": "skipped: not a regular file (named pipe)",
        "sock.csv": "skipped: not a regular file (socket)",
    }
    walked = {box.relative(f) for f, _ in box.walk()}
    assert "pipe.txt" not in walked and "link.md" in walked
    assert "pipe.txt" not in {box.relative(f) for f in document_files(box)}
    for name, tool in FILE_TOOLS.items():
        out = finishes(tool, "pipe.txt", root=str(folder), seconds=30)
        assert out == "error: pipe.txt is a named pipe, not a file", name
    assert finishes(read, "link.md", root=str(folder), seconds=30) == (
        "error: link.md is a named pipe, not a file"
    )
    assert finishes(grep, "x", "pipe.txt", root=str(folder), seconds=30) == (
        "error: pipe.txt is a named pipe, not a file or a folder"
    )
    assert "2 matching lines" in finishes(grep, r"\$9,000,000", root=str(folder), seconds=60)
    assert "pipe.txt (skipped: not a regular file (named pipe))" in glob("*", root=str(folder))
    with pytest.raises(ParseError, match=r"not a regular file \(named pipe\)$"):
        finishes(parse, folder / "pipe.txt", seconds=30)
    results = dict(finishes(list, parse_many([folder / "pipe.txt", folder / "notes.txt"])))
    assert isinstance(results[folder / "pipe.txt"], ParseError)
    assert results[folder / "notes.txt"].text.startswith("Meeting notes")


def test_names_that_are_not_utf8_are_shown_escaped_and_read_back(folder: Path):
    raw = os.fsencode(folder)
    (Path(os.fsdecode(raw + b"/bad\xff.txt"))).write_text("the bad-name text\n")
    os.mkdir(raw + b"/dir\xfe")
    Path(os.fsdecode(raw + b"/dir\xfe/inside.md")).write_text("# Inside\n\nA nested note.\n")
    box = Sandbox(folder)
    assert "bad\udcff.txt" in {box.relative(f) for f in document_files(box)}

    scan = finishes(scan_folder, root=str(folder))
    scan.encode("utf-8")  # printable and sendable
    entries = entries_of(scan)
    assert entries["bad\\xff.txt"].startswith("txt, 1 page")
    assert entries["dir\\xfe/inside.md"].startswith("md, 1 page, 25 B, title: Inside")
    assert read("bad\\xff.txt", root=str(folder)).startswith("bad\\xff.txt (18 characters)")
    assert "A nested note." in parse_file("dir\\xfe/inside.md", root=str(folder))
    assert preview_file("bad\\xff.txt", root=str(folder)).startswith("bad\\xff.txt (txt")
    assert "bad\\xff.txt (page 1, line 1)" in grep("bad-name", root=str(folder))
    assert "bad\\xff.txt (18 B)" in glob("*.txt", root=str(folder))
    assert read("bad.txt", root=str(folder)) == (
        "error: bad.txt does not exist; did you mean 'bad\\xff.txt'?"
    )

    cache = ParseCache(folder.parent / "cache")
    first = parse(folder / "bad\udcff.txt", cache=cache)
    assert parse(folder / "bad\udcff.txt", cache=cache) == first
    assert len(list(cache.directory.glob("*/*.json"))) == 1

    source = CitedSource(id=1, path="bad\\xff.txt", page=1, quote="the bad-name text")
    (citation,) = verify_citations("x [1]", [source], box, {"bad\udcff.txt"})
    assert citation.verified and citation.path == "bad\\xff.txt"
    assert shown("ok \udcff\ud800") == "ok \\xff\\ud800"


def test_files_that_vanish_during_a_scan_get_their_own_line(folder: Path, monkeypatch):
    (folder / "early.txt").write_text("gone before it is parsed")
    (folder / "late.txt").write_text("gone after it is parsed")
    real_opening = batch_module.opening  # a scan reads each document's opening

    def racing(path: Path, *args: Any, **kwargs: Any):
        if path.name == "early.txt":
            path.unlink()
        document = real_opening(path, *args, **kwargs)
        if path.name == "late.txt":
            path.unlink()
        return document

    monkeypatch.setattr(batch_module, "opening", racing)
    entries = entries_of(scan_folder(root=str(folder)))
    assert entries["early.txt"] == "error: no such file"
    assert entries["late.txt"] == "error: vanished during the scan (moved or deleted)"
    assert entries["agreement.pdf"].startswith("pdf, 2 pages")


def _deep_folders(root: Path, depth: int, name: str = "d" * 200) -> str:
    """Nest `depth` folders under `root` (past PATH_MAX, through dir_fd) with a note at
    the bottom; return the note's path relative to `root`."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(depth):
            os.mkdir(name, dir_fd=fd)
            inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = inner
        note = os.open("deep.txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(note, b"deep down")
        os.close(note)
    finally:
        os.close(fd)
    return "/".join([name] * depth) + "/deep.txt"


def test_paths_longer_than_path_max_are_skipped_with_a_note(folder: Path):
    rel = _deep_folders(folder, PATH_MAX // 200 + 1)
    assert len(os.fsencode(folder / rel)) > PATH_MAX
    box = Sandbox(folder)
    long_notes = [e for e in box.entries() if "longer" in e.note]
    assert len(long_notes) == 1
    assert long_notes[0].note == "skipped: path longer than the system allows"
    assert not any("deep" in box.relative(f) for f, _ in box.walk())

    entries = entries_of(finishes(scan_folder, root=str(folder)))
    assert list(entries.values()).count("skipped: path longer than the system allows") == 1
    assert entries["notes.txt"].startswith("txt, 1 page")
    assert read(rel, root=str(folder)) == (f"error: {rel} is a path longer than the system allows")
    assert grep("deep down", root=str(folder)).startswith("no matches")
    assert glob("**/*.txt", root=str(folder)).startswith("2 files match")


class _Searches:
    """A compiled pattern that keeps each line it searched, with the timeout it was given."""

    def __init__(self, pattern: Any, searched: list[tuple[str, float | None]]) -> None:
        self.pattern, self.searched = pattern, searched

    def search(self, string: str, *args: Any, timeout: float | None = None, **kwargs: Any) -> Any:
        self.searched.append((string, timeout))
        return self.pattern.search(string, *args, timeout=timeout, **kwargs)


def test_a_catastrophic_regex_is_stopped(folder: Path, monkeypatch):
    (folder / "as.txt").write_text(("a" * 40 + "!\n") * 3)
    monkeypatch.setattr(matching, "REGEX_SECONDS", 1.0)
    searched: list[tuple[str, float | None]] = []
    lines_matching = matching._matching_lines
    monkeypatch.setattr(
        matching,
        "_matching_lines",
        lambda pattern, *args: lines_matching(_Searches(pattern, searched), *args),
    )
    out = finishes(grep, "(a|aa)+$", root=str(folder), seconds=30)
    assert out == (
        "error: the pattern '(a|aa)+$' took longer than 1 s on as.txt; simplify it "
        "(nested repeats like (a+)+ backtrack)"
    )
    # every search had at most the 1 s; the regex engine stopped the one on as.txt's first
    # line, and no line was searched after it
    assert all(0 < timeout <= 1.0 for _, timeout in searched)
    assert [line for line, _ in searched].count("a" * 40 + "!") == 1
    assert searched[-1][0] == "a" * 40 + "!"
    assert finishes(grep, "(a+)+$", root=str(folder), seconds=30).startswith("no matches")


def _docx(path: Path, body_xml: str) -> Path:
    """A real DOCX (python-docx's template) whose body is `body_xml`."""
    docx = pytest.importorskip("docx")
    template = io.BytesIO()
    document = docx.Document()
    document.add_paragraph("placeholder")
    document.save(template)
    with (
        zipfile.ZipFile(template) as source,
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out,
    ):
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "word/document.xml":
                text = data.decode()
                start = text.index("<w:body>") + len("<w:body>")
                data = (text[:start] + body_xml + text[start:]).encode()
            out.writestr(info.filename, data)
    return path


def test_a_docx_with_a_million_paragraphs_is_too_large_to_parse(tmp_path: Path, monkeypatch):
    folder = tmp_path / "docs"
    folder.mkdir()
    small = _docx(folder / "small.docx", "<w:p><w:r><w:t>A small memo</w:t></w:r></w:p>")
    flood = _docx(folder / "flood.docx", "<w:p/>" * 1_000_000)
    assert flood.stat().st_size < 200_000
    (folder / "note.txt").write_text("a plain note")
    assert "A small memo" in parse(small).text  # Docling imported before any clock runs

    parsed: list[Path] = []  # the parse cache's misses
    parse_module = importlib.import_module("fsnb.documents.parse")
    parse_uncached = parse_module._parse_uncached

    def counted(handle: Any, file: Path, *args: Any) -> Any:
        parsed.append(file)
        return parse_uncached(handle, file, *args)

    monkeypatch.setattr(parse_module, "_parse_uncached", counted)
    monkeypatch.setenv("FSNB_PARSE_TIMEOUT", "2")
    with pytest.raises(ParseError, match=r"too large to parse \(still parsing after 2 s;"):
        finishes(parse, flood, seconds=120)
    assert parsed == [flood]
    with pytest.raises(ParseError, match="still parsing after 2 s"):
        parse(flood)  # the failure is cached
    assert parsed == [flood]  # not parsed again

    monkeypatch.setenv("FSNB_MAX_PARSE_MB", "1")  # new limits: parsed (and refused) again
    with pytest.raises(ParseError) as info:
        parse(flood)
    assert parsed == [flood, flood]
    assert re.fullmatch(
        r"too large to parse \(\d\.\d MB uncompressed, over the 1 MB limit; "
        r"FSNB_MAX_PARSE_MB raises it\)",
        info.value.why,
    )
    entries = [json.loads(p.read_text()) for p in ParseCache().directory.glob("*/*.json")]
    assert [e["limits"] for e in entries if "error" in e] == ["2.0s/1.0MB"]  # replaced

    monkeypatch.setenv("FSNB_MAX_PARSE_MB", "0")
    entries = entries_of(finishes(scan_folder, root=str(folder), seconds=120))
    # a scan's preview comes from the light DOCX reader, which a flood of empty paragraphs
    # does not stall (fsnb.documents.light): previewed, where the full parse is refused
    assert entries["flood.docx"].startswith("docx, 1 page")
    assert entries["small.docx"].startswith("docx, 1 page")
    assert entries["note.txt"].startswith("txt, 1 page")


@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("scan_folder", {"folder": "leters"}, "error: leters does not exist; did you mean 'letters'?"),
        ("scan_folder", {"folder": "notes.txt"}, "error: notes.txt is a file, not a folder"),
        ("preview_file", {"path": "agreemnt.pdf"}, "error: agreemnt.pdf does not exist; did you mean 'agreement.pdf'?"),
        ("preview_file", {"path": "docs"}, "error: docs is a folder, not a file"),
        ("parse_file", {"path": "letters/escrw.pdf"}, "error: letters/escrw.pdf does not exist; did you mean 'letters/escrow.pdf'?"),
        ("parse_file", {"path": "letters"}, "error: letters is a folder, not a file"),
        ("parse_file", {"path": "leters/escrow.pdf"}, "error: leters/escrow.pdf does not exist; did you mean 'letters'?"),
        ("read", {"path": "nope.pdf"}, "error: nope.pdf does not exist"),
        ("read", {"path": "notes.text"}, "error: notes.text does not exist; did you mean 'notes.txt'?"),
        ("read", {"path": "letters"}, "error: letters is a folder, not a file"),
        ("grep", {"pattern": "x", "path": "doc"}, "error: doc does not exist; did you mean 'docs'?"),
        ("glob", {"pattern": "leters/*.pdf"}, "error: leters does not exist; did you mean 'letters'?"),
        ("glob", {"pattern": "summary.m"}, "error: summary.m does not exist"),
        ("glob", {"pattern": "*.xyz"}, "no files match '*.xyz'"),
    ],
)  # fmt: skip
def test_wrong_paths_say_so_and_suggest_the_closest_names(
    folder: Path, tool: str, args: dict, expected: str
):
    assert file_registry().call(tool, args, root=str(folder)).text == expected


def test_go_deeper_into_a_wrong_path_says_so(folder: Path):
    llm = ReplayLLM(
        [
            Action(kind="go_deeper", directory="leters", reason="typo"),
            Action(kind="go_deeper", directory="notes.txt", reason="not a folder"),
            Action(kind="go_deeper", directory="letters", reason="right"),
            Action.stop("done", "done"),
        ]
    )
    fsnb.explore("q", folder=folder, llm=llm)
    turns = llm.history[-1].turns
    assert turns[0].result == "error: leters does not exist; did you mean 'letters'?"
    assert turns[1].result == "error: notes.txt is a file, not a folder"
    assert "letters/escrow.pdf" in turns[2].result


def test_suggestions_never_name_blocked_or_ignored_files(folder: Path):
    (folder / ".fsnbignore").write_text("answers.txt\n")
    (folder / "answers.txt").write_text("the answers")
    (folder / "keys.pem").write_text("-----BEGIN FAKE KEY-----")
    box = Sandbox(folder)
    with pytest.raises(NotFound) as info:
        box.existing("answer.txt")
    assert "answers.txt" not in info.value.suggestions
    assert read("keys.pen", root=str(folder)) == "error: keys.pen does not exist"
    assert read("id_rs", root=str(folder)) == "error: id_rs does not exist"
    assert read("node_module", root=str(folder)) == "error: node_module does not exist"
    assert read("note.txt", root=str(folder)).startswith(
        "error: note.txt does not exist; did you mean 'notes.txt'"
    )
    assert "answers.txt" not in box.suggest(folder / "answers.tx")


def test_no_tool_message_shows_the_absolute_root(folder: Path, tmp_path: Path):
    (tmp_path / "outside.txt").write_text("outside")
    (folder / "escape.txt").symlink_to(tmp_path / "outside.txt")
    (folder / "loop").symlink_to("loop")
    (folder / "dangling.txt").symlink_to(folder / "gone.txt")
    os.mkfifo(folder / "pipe.md")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    inside = str(folder / "missing.txt")
    calls = [
        ("scan_folder", {"folder": folder_arg})
        for folder_arg in ("..", "nope", "notes.txt", str(folder / "nope"), "/")
    ] + [
        (tool, {"path": path})
        for tool in ("preview_file", "parse_file", "read")
        for path in (
            "../x.pdf",
            "/etc/passwd",
            inside,
            "escape.txt",
            "loop",
            "dangling.txt",
            "pipe.md",
            "broken.pdf",
            "blob.bin",
            "id_rsa",
            "letters",
        )
    ]
    calls += [("grep", {"pattern": "x", "path": p}) for p in ("..", inside, "loop", "escape.txt")]
    calls += [("glob", {"pattern": p}) for p in ("../*", str(folder / "*"), "nope/*")]
    registry = file_registry()
    for tool, args in calls:
        out = finishes(registry.call, tool, args, root=str(folder), seconds=60).text
        assert out.startswith(("error:", "access denied:")), (tool, args, out)
        assert "\n" not in out, (tool, args, out)
        assert str(tmp_path) not in out, (tool, args, out)
    assert registry.call("read", {"path": inside}, root=str(folder)).text.startswith(
        "error: missing.txt does not exist"
    )
    assert registry.call("read", {"path": "dangling.txt"}, root=str(folder)).text == (
        "error: dangling.txt is a broken symlink (its target does not exist)"
    )
    assert registry.call("parse_file", {"path": "broken.pdf"}, root=str(folder)).text.startswith(
        "error: cannot read broken.pdf: "
    )


def test_an_offline_run_over_a_hostile_folder_finishes(folder: Path):
    (folder / "a").symlink_to("b")
    (folder / "b").symlink_to("a")
    os.mkfifo(folder / "pipe.txt")
    Path(os.fsdecode(os.fsencode(folder) + b"/bad\xff.txt")).write_text("Purchase Price notes")
    result = finishes(
        fsnb.explore, "What is the purchase price?", folder=folder, llm="offline", seconds=300
    )
    assert result.error is None, result.error
    assert "9,000,000" in result.answer
