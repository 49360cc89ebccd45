"""`compare_files`: a unified diff of two texts or two parsed documents, with a summary."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from fsnb.documents import parse, supported
from fsnb.documents.parse import TEXT_SUFFIXES
from fsnb.documents.text import decode, looks_binary
from fsnb.errors import ParseError
from fsnb.fsindex.duplicates import file_sha256
from fsnb.protocol.outcome import ToolOutcome
from fsnb.security import open_file, shown
from fsnb.tools.context import ToolContext
from fsnb.tools.formats import human_size
from fsnb.tools.payloads import Comparison
from fsnb.tools.registry import tool

#: Diff lines shown before the cut marker.
DIFF_LINES = 200
#: Largest non-document file read as text.
TEXT_BYTES = 20 * 2**20
#: Formats compared line by line as they are, not as parsed documents.
_PLAIN = TEXT_SUFFIXES | {".md", ".markdown", ".csv"}
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


def _text(file: Path, root: Path) -> tuple[list[str] | None, bool]:
    """(the file's lines, whether it is a parsed document), or (None, False) when it is
    binary or unreadable as text. A document gives one line per sentence, its spacing
    normalized, since where its lines break depends on the format (a PDF's layout). The
    file read is the one a sandbox of `root` checked (`open_file`)."""
    if supported(file) and file.suffix.lower() not in _PLAIN:
        try:
            text = parse(file, root=root).text
        except ParseError:
            return None, False
        return [
            sentence
            for line in text.splitlines()
            for sentence in _SENTENCE_END.split(" ".join(line.split()))
            if sentence
        ], True
    with open_file(file, root) as handle:
        data = handle.read(TEXT_BYTES + 1)
    if len(data) > TEXT_BYTES or looks_binary(data[:8192]):
        return None, False
    try:
        return decode(data, str(file))[0].splitlines(), False
    except ParseError:
        return None, False


@tool
def compare_files(path1: str, path2: str, *, ctx: ToolContext) -> ToolOutcome[Comparison]:
    """Compare two files: a unified diff of their text and a one-line summary.

    Documents such as PDF or DOCX are compared by their parsed text, sentence by
    sentence, so a PDF and a DOCX of the same text compare equal. Binary files are
    compared by size and hash.

    Args:
        path1: The first file, relative to the root.
        path2: The second file, relative to the root.
    """
    box = ctx.sandbox
    files = [box.existing(p, "file") for p in (path1, path2)]
    names = [shown(box.relative(f)) for f in files]
    hashes = [file_sha256(f, box.root) for f in files]
    sizes = f"sizes {human_size(hashes[0][1])} vs {human_size(hashes[1][1])}"
    if hashes[0][0] == hashes[1][0]:
        summary = f"{names[0]} and {names[1]} are identical ({human_size(hashes[0][1])})."
        return ToolOutcome(summary, payload=Comparison(summary, True, 0, 0))
    (lines1, doc1), (lines2, doc2) = (_text(f, box.root) for f in files)
    if lines1 is None or lines2 is None:
        summary = (
            f"{names[0]} and {names[1]} differ ({sizes}; sha256 {hashes[0][0][:12]} vs "
            f"{hashes[1][0][:12]}); not compared line by line: "
            f"{names[0] if lines1 is None else names[1]} is binary or unreadable as text."
        )
        return ToolOutcome(summary, payload=Comparison(summary, False, 0, 0))
    diff = list(difflib.unified_diff(lines1, lines2, names[0], names[1], lineterm=""))
    body = diff[2:]
    added = sum(line.startswith("+") for line in body)
    removed = sum(line.startswith("-") for line in body)
    how = "parsed text" if doc1 or doc2 else "text"
    if not body:
        summary = f"{names[0]} and {names[1]} have the same {how} ({sizes})."
        return ToolOutcome(summary, payload=Comparison(summary, True, added, removed))
    summary = f"{names[0]} vs {names[1]} ({how}): {added} lines added, {removed} removed ({sizes})."
    shown_diff = [shown(line) for line in diff[:DIFF_LINES]]
    if len(diff) > DIFF_LINES:
        shown_diff.append(f"[diff cut at {DIFF_LINES} lines: {len(diff) - DIFF_LINES} more]")
    text = summary + "\n\n" + "\n".join(shown_diff)
    return ToolOutcome(text, payload=Comparison(summary, False, added, removed))


__all__ = ["compare_files"]
