from __future__ import annotations

import inspect
from pathlib import Path
from unittest.mock import ANY

import pytest

import fsnb.tools
from fsnb.tools import (
    Tool,
    ToolContext,
    file_registry,
    glob,
    grep,
    parse_file,
    preview_file,
    read,
    scan_folder,
)
from fsnb.tools.payloads import PageRead, Scanned


def test_every_tool_is_importable_takes_a_context_and_root_by_hand(folder: Path):
    for name in ["scan_folder", "preview_file", "parse_file", "read", "grep", "glob"]:
        tool = getattr(fsnb.tools, name)
        assert isinstance(tool, Tool) and tool.context == {"ctx"}
        assert "ctx" in inspect.signature(tool.function).parameters
        by_hand = inspect.signature(tool).parameters
        assert {"root", "db", "ctx"} <= set(by_hand) and by_hand["root"].kind.name == "KEYWORD_ONLY"
        assert tool.__doc__ == tool.function.__doc__


def test_a_hand_call_returns_text_and_outcome_gives_the_data(folder: Path):
    assert scan_folder(root=str(folder)) == scan_folder.outcome(root=str(folder)).text
    scan = scan_folder.outcome(root=str(folder))
    assert scan.ok and scan.payload == Scanned(files=8, previewed=4, failed=1, listed=ANY)
    ctx = ToolContext(folder)
    page = parse_file.outcome("agreement.pdf", ctx=ctx, offset=10, limit=20)
    assert page.payload == PageRead("agreement.pdf", offset=10, end=30, total=ANY, pages=ANY)
    assert page.data["total"] > 30
    notes = (folder / "notes.txt").read_text()
    whole = read.outcome("notes.txt", ctx=ctx).payload
    assert whole == PageRead("notes.txt", offset=0, end=len(notes), total=len(notes))
    missing = read.outcome("nope.txt", ctx=ctx)
    assert not missing.ok and not missing.data
    assert missing.text.startswith("error: nope.txt does not exist")
    assert not grep.outcome("([unclosed", ctx=ctx).ok
    assert scan_folder(root=str(folder / "notes.txt")).startswith("error: not a folder: ")
    with pytest.raises(TypeError, match="root="):
        read("notes.txt")


def test_scan_folder_previews_documents_and_explains_the_rest(folder: Path):
    out = scan_folder(root=str(folder))
    assert out.startswith("Scanned 8 files under .: 4 documents previewed, 4 not readable")
    assert "=== agreement.pdf — pdf, 2 pages" in out
    assert "title: Share Purchase Agreement" in out
    assert "$9,000,000" in out
    assert "=== letters/escrow.pdf — pdf, 1 page," in out
    assert "=== docs/summary.md — md" in out
    assert "=== empty.txt — error: empty file (0 bytes)" in out
    assert "=== blob.bin — skipped: binary file, not a document" in out
    assert "=== .env — skipped: .env may contain secrets" in out
    assert "=== id_rsa — blocked: id_rsa is a private key file" in out
    assert "node_modules" not in out
    assert "API_KEY" not in out and "FAKE KEY" not in out


def test_scan_folder_reports_a_symlink_escape(folder: Path, tmp_path: Path):
    (tmp_path / "outside.txt").write_text("secret plans")
    (folder / "escape.txt").symlink_to(tmp_path / "outside.txt")
    out = scan_folder(root=str(folder))
    assert "=== escape.txt — access denied: escape.txt is a symlink to" in out
    assert "secret plans" not in out


def test_scan_subfolder_and_escape(folder: Path):
    assert "Scanned 1 files under letters" in scan_folder("letters", root=str(folder))
    assert scan_folder("..", root=str(folder)).startswith("access denied: .. is a path outside")


def test_preview_file(folder: Path):
    out = preview_file("agreement.pdf", root=str(folder), chars=60)
    assert out.startswith("agreement.pdf (pdf, 2 pages, title: Share Purchase Agreement)")
    assert "more characters: call again with offset=" in out


def test_parse_file_pages_long_documents(folder: Path):
    full = parse_file("agreement.pdf", root=str(folder))
    assert "[page 1]" in full and "[page 2]" in full and "[end of document]" in full
    first = parse_file("agreement.pdf", root=str(folder), limit=50)
    assert "more characters: call again with offset=50]" in first
    rest = parse_file("agreement.pdf", root=str(folder), offset=50)
    assert "[end of document]" in rest
    assert "June 30, 2025" in rest


def test_parse_file_errors_are_text(folder: Path):
    assert parse_file("../x.pdf", root=str(folder)).startswith("access denied:")
    assert parse_file("id_rsa", root=str(folder)).startswith("access denied: id_rsa is a private")
    assert parse_file("empty.txt", root=str(folder)) == (
        "error: cannot read empty.txt: empty file (0 bytes)"
    )
    assert parse_file("agreement.pdf", root=str(folder), offset=-1).startswith("error: offset")


def test_read_text_and_sensitive_files(folder: Path):
    out = read("notes.txt", root=str(folder))
    assert "The CFO is Dana Ito." in out and "[end of document]" in out
    env = read(".env", root=str(folder))
    assert "(warning: .env may contain secrets" in env and "API_KEY=fake" in env
    assert read("id_rsa", root=str(folder)).startswith("access denied:")
    assert read("blob.bin", root=str(folder)) == "error: blob.bin is a binary file, not text"
    assert "use parse_file" in read("agreement.pdf", root=str(folder))


def test_grep_over_folder_and_file(folder: Path):
    out = grep(r"\$9,000,000", root=str(folder))
    assert out.startswith("2 matching lines")
    assert "agreement.pdf (page 1, line" in out and "docs/summary.md (page 1" in out
    assert "(not searched: empty.txt: empty file (0 bytes))" in out
    one = grep("closing date", "agreement.pdf", root=str(folder))
    assert "(page 2," in one
    assert grep("nothing-like-this", root=str(folder)).startswith("no matches")
    assert grep("([unclosed", root=str(folder)).startswith("error: invalid regular expression")
    capped = grep(".", root=str(folder), max_matches=2)
    assert "[stopped at 2 matches" in capped


def test_glob(folder: Path):
    out = glob("**/*.pdf", root=str(folder))
    assert out.startswith("2 files match") and "letters/escrow.pdf" in out
    assert "id_rsa" not in glob("*", root=str(folder))
    assert glob("../*", root=str(folder)).startswith("access denied")
    assert glob("*.xyz", root=str(folder)) == "no files match '*.xyz'"


def test_registry_schema_and_validation(folder: Path):
    registry = file_registry()
    assert registry.names() == ["scan_folder", "preview_file", "parse_file", "read", "grep", "glob"]
    schema = registry["parse_file"].schema()
    assert schema["description"].startswith("Read a document's full text")
    params = schema["parameters"]
    assert params["required"] == ["path"]
    assert params["properties"]["offset"] == {
        "default": 0,
        "description": "Character offset to start from (0 for the beginning).",
        "type": "integer",
    }
    assert "root" not in params["properties"]
    good = registry.call("parse_file", {"path": "notes.txt"}, root=str(folder))
    assert good.ok and good.text.startswith("notes.txt") and good.data["path"] == "notes.txt"
    bad = registry.call("parse_file", {"path": "notes.txt", "offset": "many"}, root=str(folder))
    assert not bad.ok and bad.text.startswith("error: invalid arguments for parse_file: offset:")
    extra = registry.call("grep", {"pattern": "x", "colour": "red"}, root=str(folder))
    assert "colour: Extra inputs are not permitted" in extra.text
    missing = registry.call("read", {}, root=str(folder))
    assert "path: Field required" in missing.text
    unknown = registry.call("delete_everything", {}, root=str(folder))
    assert not unknown.ok and unknown.text.startswith(
        "error: unknown tool 'delete_everything'; available tools: scan_folder"
    )


@pytest.mark.parametrize(
    "name", ["scan_folder", "preview_file", "parse_file", "read", "grep", "glob"]
)
def test_tool_schema_is_json_schema(name: str):
    schema = file_registry()[name].schema()
    assert schema["parameters"]["type"] == "object"
    assert schema["description"]
    for prop in schema["parameters"]["properties"].values():
        assert prop.get("description"), f"{name} has an undocumented parameter"
