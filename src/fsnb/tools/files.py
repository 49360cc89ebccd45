"""The agent's file tools: scan, preview, parse, read, grep and glob inside a sandbox.

Each tool takes the sandbox root as the keyword argument `root=` and returns text the LLM
can read; errors come back as one line ("access denied: ...", "error: ...").
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

from fsnb.documents import Document, document_files, parse, supported
from fsnb.documents.batch import parse_many
from fsnb.documents.text import decode, looks_binary
from fsnb.errors import AccessDenied, ParseError
from fsnb.security import Sandbox, Sensitivity, classify
from fsnb.tools.registry import tool_errors

_BINARY_DOCUMENTS = frozenset({".pdf", ".docx", ".pptx", ".xlsx"})
#: Characters a paged tool returns by default.
PAGE_CHARS = 12_000


def human_size(num: int) -> str:
    """A byte count for people: 512 B, 3.4 KB, 1.2 MB."""
    return (
        f"{num} B"
        if num < 1024
        else f"{num / 1024:.1f} KB"
        if num < 2**20
        else f"{num / 2**20:.1f} MB"
    )


def _skip_reason(file: Path, box: Sandbox) -> str:
    """Why a file that is not a supported document is left out of a scan."""
    if file.is_symlink():
        try:
            box.resolve(box.relative(file), reading=False)
        except AccessDenied as exc:
            return str(exc)
    try:
        with file.open("rb") as handle:
            head = handle.read(4096)
    except OSError as exc:
        return f"error: cannot open ({exc.strerror or exc})"
    if not head:
        return "skipped: empty file (0 bytes)"
    if looks_binary(head):
        return "skipped: binary file, not a document"
    return f"skipped: unsupported file type '{file.suffix or file.name}'"


def with_page_marks(doc: Document, start: int, end: int) -> str:
    """Text from `start` to `end` with a `[page N]` line where each page begins."""
    parts, pos = [], start
    for span in doc.spans:
        if start < span.start < end:
            parts.append(doc.text[pos : span.start])
            parts.append(f"[page {span.page}]\n")
            pos = span.start
    parts.append(doc.text[pos:end])
    first = f"[page {doc.page_at(start)}]\n" if doc.pages > 1 else ""
    return first + "".join(parts)


def page_window(text_len: int, offset: int, limit: int) -> tuple[int, int, str]:
    """Clamp a window and describe what remains after it."""
    if offset < 0 or limit <= 0:
        msg = "offset must be >= 0 and limit > 0"
        raise ValueError(msg)
    end = min(offset + limit, text_len)
    remaining = text_len - end
    note = (
        f"[{remaining:,} more characters: call again with offset={end}]"
        if remaining
        else "[end of document]"
    )
    return min(offset, text_len), end, note


@tool_errors
def scan_folder(folder: str = ".", *, root: str, preview_chars: int = 500) -> str:
    """Preview every document under a folder in parallel: the first step of an exploration.

    Lists each file with its format, pages and size and the beginning of its text.
    Files that cannot be read are listed with the reason.

    Args:
        folder: Folder to scan, relative to the root.
        preview_chars: Characters of each document's beginning to show.
    """
    box = Sandbox(root)
    documents: list[Path] = []
    notes: dict[Path, str] = {}
    for file, verdict in box.walk(folder):
        if verdict.level is Sensitivity.BLOCK:
            notes[file] = f"blocked: {verdict.reason}"
        elif verdict.level is Sensitivity.SKIP:
            notes[file] = f"skipped: {verdict.reason}; left out of scans"
        elif file.is_symlink() or not supported(file):
            notes[file] = _skip_reason(file, box)
        else:
            documents.append(file)
    entries: dict[Path, str] = dict(notes)
    ok = 0
    for file, result in parse_many(documents):
        if isinstance(result, ParseError):
            entries[file] = f"error: {result.why}"
            continue
        ok += 1
        head = result.text[:preview_chars]
        more = (
            f" [... {len(result.text) - len(head):,} more characters]"
            if len(result.text) > len(head)
            else ""
        )
        warn = "".join(f"\n(warning: {w})" for w in result.warnings)
        entries[file] = (
            f"{result.format}, {result.pages} page{'s' * (result.pages != 1)}, "
            f"{human_size(file.stat().st_size)}, title: {result.title}{warn}\n{head}{more}"
        )
    lines = [
        f"Scanned {len(entries)} files under {folder}: {ok} documents previewed, "
        f"{len(entries) - ok} not readable or skipped."
    ]
    for file in sorted(entries, key=lambda f: box.relative(f)):
        lines.append(f"\n=== {box.relative(file)} — {entries[file]}")
    return "\n".join(lines)


@tool_errors
def preview_file(path: str, *, root: str, chars: int = 2000) -> str:
    """Show the beginning of one document to judge whether it is relevant.

    Args:
        path: File path, relative to the root.
        chars: How many characters of the beginning to show.
    """
    box = Sandbox(root)
    file = box.resolve(path)
    doc = parse(file)
    start, end, note = page_window(len(doc.text), 0, chars)
    header = f"{box.relative(file)} ({doc.format}, {doc.pages} pages, title: {doc.title})"
    return f"{header}\n{with_page_marks(doc, start, end)}\n{note}"


@tool_errors
def parse_file(path: str, *, root: str, offset: int = 0, limit: int = PAGE_CHARS) -> str:
    """Read a document's full text (PDF, DOCX, PPTX, XLSX, HTML, Markdown, CSV, text).

    Long documents come in pages of `limit` characters; the reply says how much remains
    and the offset to continue from. `[page N]` lines mark where each page begins.

    Args:
        path: File path, relative to the root.
        offset: Character offset to start from (0 for the beginning).
        limit: Maximum characters to return.
    """
    box = Sandbox(root)
    file = box.resolve(path)
    doc = parse(file)
    start, end, note = page_window(len(doc.text), offset, limit)
    warn = "".join(f"\n(warning: {w})" for w in doc.warnings)
    header = (
        f"{box.relative(file)} ({doc.format}, {doc.pages} pages, {len(doc.text):,} characters, "
        f"parser: {doc.parser}) characters {start:,}-{end:,}{warn}"
    )
    return f"{header}\n{with_page_marks(doc, start, end)}\n{note}"


@tool_errors
def read(path: str, *, root: str, offset: int = 0, limit: int = PAGE_CHARS) -> str:
    """Read a plain text file (notes, CSV, code, configuration), paged like parse_file.

    Args:
        path: File path, relative to the root.
        offset: Character offset to start from.
        limit: Maximum characters to return.
    """
    box = Sandbox(root)
    file = box.resolve(path)
    rel = box.relative(file)
    verdict = classify(rel)
    verdict_note = (
        f"(warning: {verdict.reason})\n"
        if verdict.level in (Sensitivity.SKIP, Sensitivity.WARN)
        else ""
    )
    if file.suffix.lower() in _BINARY_DOCUMENTS:
        return f"error: {rel} is a {file.suffix.lower()[1:]} document: use parse_file to read it"
    data = file.read_bytes()
    if looks_binary(data[:8192]):
        return f"error: {rel} is a binary file, not text"
    text, warnings = decode(data, rel)
    start, end, note = page_window(len(text), offset, limit)
    warn = "".join(f"(warning: {w})\n" for w in warnings)
    header = f"{rel} ({len(text):,} characters) characters {start:,}-{end:,}"
    return f"{header}\n{verdict_note}{warn}{text[start:end]}\n{note}"


def _searchable(box: Sandbox, target: Path) -> list[Path]:
    return [target] if target.is_file() else document_files(box, box.relative(target))


@tool_errors
def grep(
    pattern: str,
    path: str = ".",
    *,
    root: str,
    context: int = 1,
    ignore_case: bool = True,
    max_matches: int = 50,
) -> str:
    """Search the text of documents and text files for a regular expression.

    Shows each matching line with its line number, page and surrounding lines.

    Args:
        pattern: Regular expression (Python syntax), e.g. "retention bonus|CTO".
        path: A file or a folder, relative to the root.
        context: Lines of context before and after each match.
        ignore_case: Match regardless of case.
        max_matches: Stop after this many matching lines.
    """
    try:
        regex = re.compile(pattern, re.IGNORECASE if ignore_case else 0)
    except re.error as exc:
        return f"error: invalid regular expression {pattern!r}: {exc}"
    box = Sandbox(root)
    target = box.resolve(path)
    blocks: list[str] = []
    count = 0
    skipped: list[str] = []
    for file in _searchable(box, target):
        try:
            doc = parse(file)
        except ParseError as exc:
            skipped.append(f"{box.relative(file)}: {exc.why}")
            continue
        lines = doc.text.splitlines()
        offsets, pos = [], 0
        for line in lines:
            offsets.append(pos)
            pos += len(line) + 1
        for number, line in enumerate(lines):
            if not regex.search(line):
                continue
            count += 1
            lo, hi = max(0, number - context), min(len(lines), number + context + 1)
            shown = "\n".join(
                f"{n + 1}{':' if n == number else '-'} {lines[n]}" for n in range(lo, hi)
            )
            page = doc.page_at(offsets[number])
            blocks.append(f"{box.relative(file)} (page {page}, line {number + 1}):\n{shown}")
            if count >= max_matches:
                break
        if count >= max_matches:
            blocks.append(f"[stopped at {max_matches} matches: narrow the pattern or the path]")
            break
    if not blocks:
        result = f"no matches for {pattern!r} under {box.relative(target)}"
    else:
        result = f"{count} matching lines for {pattern!r}:\n\n" + "\n\n".join(blocks)
    if skipped:
        result += "\n(not searched: " + "; ".join(skipped) + ")"
    return result


@tool_errors
def glob(pattern: str, *, root: str, max_results: int = 200) -> str:
    """Find files whose path matches a glob pattern, e.g. "**/*.pdf" or "*contract*".

    Args:
        pattern: Glob pattern relative to the root; "**" matches any folders.
        max_results: Maximum number of paths to list.
    """
    box = Sandbox(root)
    if Path(pattern).is_absolute() or ".." in Path(pattern).parts:
        msg = f"{pattern} reaches outside the sandbox root"
        raise AccessDenied(msg)
    patterns = (pattern, pattern[3:]) if pattern.startswith("**/") else (pattern,)
    matches = []
    for file, verdict in box.walk():
        rel = box.relative(file)
        if verdict.level is Sensitivity.BLOCK:
            continue
        if any(fnmatch.fnmatch(name, p) for name in (rel, file.name) for p in patterns):
            matches.append(f"{rel} ({human_size(file.lstat().st_size)})")
    if not matches:
        return f"no files match {pattern!r}"
    shown = matches[:max_results]
    more = f"\n[{len(matches) - len(shown)} more not shown]" if len(matches) > len(shown) else ""
    return f"{len(matches)} files match {pattern!r}:\n" + "\n".join(shown) + more


__all__ = ["glob", "grep", "parse_file", "preview_file", "read", "scan_folder"]
