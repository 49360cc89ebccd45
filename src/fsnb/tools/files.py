"""The agent's file tools: scan, preview, parse, read, grep and glob inside a sandbox.

Each tool works in the sandbox of its context (`ctx=`; by hand, `root=`) and returns text
the LLM can read, with typed data where the code around it needs some (the documents a scan
previewed, the range of a document a read showed). A failure is raised and reaches the LLM
as one line ("access denied: ...", "error: ..."); a path that is not there is
"error: X does not exist; did you mean ...?". Paths are shown relative to the root, with the
odd bytes of names that are not valid UTF-8 written as `\\xNN`.
"""

from __future__ import annotations

import fnmatch
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

import regex

from fsnb.documents import Document, document_files, parse, supported
from fsnb.documents.batch import parse_many
from fsnb.documents.limits import Limits
from fsnb.documents.opening import read_document
from fsnb.documents.text import decode, looks_binary
from fsnb.errors import EMPTY_FILE, AccessDenied, NotFound, ParseError, ToolError
from fsnb.protocol.outcome import ToolOutcome
from fsnb.security import Entry, Sandbox, Sensitivity, classify, open_file, os_reason, shown
from fsnb.tools.context import ToolContext
from fsnb.tools.payloads import PageRead, Scanned
from fsnb.tools.registry import tool
from fsnb.tools.scan_text import common_lines, compact_head, preview_chars_for

_BINARY_DOCUMENTS = frozenset({".pdf", ".docx", ".pptx", ".xlsx"})
#: Characters a paged tool returns by default.
PAGE_CHARS = 12_000
#: Seconds one `grep` call gives its pattern over all the files it searches, before calling
#: it too slow (per document, a call over 30 files ran 78 s).
REGEX_SECONDS = 5.0
#: Seconds one `grep` call may take in all, parsing included, checked between files: an
#: agent's tool call should answer within a minute or so.
GREP_SECONDS = 60.0
#: The clock grep's time limits read (a test's fake clock replaces it).
_clock = time.monotonic
_WILDCARDS = frozenset("*?[")


def human_size(num: int) -> str:
    """A byte count for people: 512 B, 3.4 KB, 1.2 MB."""
    return (
        f"{num} B"
        if num < 1024
        else f"{num / 1024:.1f} KB"
        if num < 2**20
        else f"{num / 2**20:.1f} MB"
    )


def _skip_reason(entry: Entry, box: Sandbox) -> str:
    """Why a symlink, or a file that is not a supported document, is left out of a scan."""
    if entry.symlink:
        try:
            target = box.existing(entry.rel, "file", reading=False)
        except AccessDenied as exc:
            return str(exc)
        except NotFound as exc:
            return f"error: {exc}"
        rel = box.relative(target)
        if box.ignored(rel) or classify(rel).level is Sensitivity.BLOCK:
            return "skipped: a symlink to a file that tools may not read"
        return f"skipped: a symlink to {shown(rel)}, which is read under its own name"
    try:
        with open_file(entry.path, box.root) as handle:
            head = handle.read(4096)
    except (AccessDenied, NotFound) as exc:  # swapped since the folder was read
        return f"error: {exc}"
    except OSError as exc:
        return f"error: cannot open ({os_reason(exc)})"
    if not head:
        return f"skipped: {EMPTY_FILE}"
    if looks_binary(head):
        return "skipped: binary file, not a document"
    return f"skipped: unsupported file type '{entry.path.suffix or entry.path.name}'"


def _size(file: Path) -> str:
    """The file's size for people, or why there is none."""
    try:
        return human_size(file.stat().st_size)
    except OSError as exc:
        return os_reason(exc)


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


def page_marks(doc: Document, start: int, end: int) -> tuple[int, ...]:
    """The pages whose `[page N]` lines `with_page_marks(doc, start, end)` writes, in order."""
    first = (doc.page_at(start),) if doc.pages > 1 else ()
    return first + tuple(span.page for span in doc.spans if start < span.start < end)


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


def page_outcome(
    text: str, path: str, start: int, end: int, total: int, pages: tuple[int, ...] = ()
) -> ToolOutcome[PageRead]:
    """A paged read: its text, and the character range and pages of the document it shows."""
    return ToolOutcome(text, payload=PageRead(path, start, end, total, pages))


@tool(phase="scan")
def scan_folder(
    folder: str = ".", *, ctx: ToolContext, preview_chars: int | None = None
) -> ToolOutcome[Scanned]:
    """Preview every document under a folder in parallel: the first step of an exploration.

    Lists each file with its format, pages and size and the beginning of its text.
    Files that cannot be read are listed with the reason.

    Args:
        folder: Folder to scan, relative to the root.
        preview_chars: Characters of each document's beginning to show (default: fewer
            the more documents, 160-500).
    """
    box = ctx.sandbox
    start = box.existing(folder, "folder", reading=False)
    documents: dict[Path, Entry] = {}
    entries: dict[str, str] = {}
    for entry in box.entries(box.relative(start)):
        ctx.check()  # a cancelled or timed-out run stops the walk here
        if entry.note:
            entries[entry.rel] = entry.note
        elif entry.verdict.level is Sensitivity.BLOCK:
            entries[entry.rel] = f"blocked: {entry.verdict.reason}"
        elif entry.verdict.level is Sensitivity.SKIP:
            entries[entry.rel] = f"skipped: {entry.verdict.reason}; left out of scans"
        elif entry.symlink or not supported(entry.rel):
            entries[entry.rel] = _skip_reason(entry, box)
        else:
            documents[entry.path] = entry
    preview_chars = preview_chars or preview_chars_for(len(documents))
    parsed = {}
    for file, result in parse_many(documents, chars=preview_chars, root=box.root):
        ctx.check()  # and between documents (the files not started are dropped)
        parsed[file] = result
    texts = [r.text[: preview_chars * 2] for r in parsed.values() if isinstance(r, Document)]
    common = common_lines(texts)
    for file, result in parsed.items():
        entries[documents[file].rel] = _preview(documents[file], result, preview_chars, common)
    ok = len(texts)
    failed = sum(why.startswith(("error:", "access denied:")) for why in entries.values())
    unread = f" ({failed} could not be read)" if failed else ""
    lines = [
        f"Scanned {len(entries)} files under {box.shown(start)}: {ok} documents previewed, "
        f"{len(entries) - ok} not readable or skipped{unread}."
    ]
    if common:
        shared = "\n".join(sorted(common))
        lines.append(f"Lines many previews share, shown once here and left out of each:\n{shared}")
    listed = sorted(entries, key=lambda r: r.split("/"))
    for rel in listed:
        lines.append(f"\n=== {rel} — {entries[rel]}")
    scanned = Scanned(len(entries), ok, failed, tuple(map(shown, listed)))
    return ToolOutcome("\n".join(lines), payload=scanned)


def _preview(
    entry: Entry, result: Document | ParseError, chars: int, common: frozenset[str]
) -> str:
    """One scanned document: its format, pages, size, title and beginning (or its error)."""
    if isinstance(result, ParseError):
        return f"error: {result.why}"
    try:
        size = human_size(entry.path.stat().st_size)
    except FileNotFoundError:
        return "error: vanished during the scan (moved or deleted)"
    except OSError as exc:
        return f"error: {os_reason(exc)}"
    head, covered = compact_head(result.text, result.title, common, chars)
    more = (
        f" [... {len(result.text) - covered:,} more characters]"
        if len(result.text) > covered
        else ""
    )
    if result.partial:
        more = " [... more on later pages]"
    warn = "".join(f"\n(warning: {w})" for w in result.warnings)
    if entry.verdict.level is Sensitivity.WARN:
        warn += "\n(warning: may contain sensitive data)"
    return (
        f"{result.format}, {result.pages} page{'s' * (result.pages != 1)}, "
        f"{size}, title: {result.title}{warn}\n{head}{more}"
    )


@tool(phase="scan", reads="path")
def preview_file(path: str, *, ctx: ToolContext, chars: int = 2000) -> ToolOutcome[PageRead]:
    """Show the beginning of one document to judge whether it is relevant.

    Args:
        path: File path, relative to the root.
        chars: How many characters of the beginning to show.
    """
    box = ctx.sandbox
    file = box.existing(path, "file")
    doc = read_document(box, file, chars)
    start, end, note = page_window(len(doc.text), 0, chars)
    if doc.partial and end == len(doc.text):
        note = "[more on later pages: read on with parse_file]"
    rel = box.relative(file)
    header = f"{rel} ({doc.format}, {doc.pages} pages, title: {doc.title})"
    text = f"{header}\n{with_page_marks(doc, start, end)}\n{note}"
    return page_outcome(text, rel, start, end, len(doc.text), page_marks(doc, start, end))


@tool(phase="read", reads="path", parses=True)
def parse_file(
    path: str, *, ctx: ToolContext, offset: int = 0, limit: int = PAGE_CHARS
) -> ToolOutcome[PageRead]:
    """Read a document's full text (PDF, DOCX, PPTX, XLSX, HTML, Markdown, CSV, text).

    Long documents come in pages of `limit` characters; the reply says how much remains
    and the offset to continue from. `[page N]` lines mark where each page begins.

    Args:
        path: File path, relative to the root.
        offset: Character offset to start from (0 for the beginning).
        limit: Maximum characters to return.
    """
    box = ctx.sandbox
    file = box.existing(path, "file")
    doc = read_document(box, file)
    start, end, note = page_window(len(doc.text), offset, limit)
    warn = "".join(f"\n(warning: {w})" for w in doc.warnings)
    header = (
        f"{box.relative(file)} ({doc.format}, {doc.pages} pages, {len(doc.text):,} characters, "
        f"parser: {doc.parser}) characters {start:,}-{end:,}{warn}"
    )
    text = f"{header}\n{with_page_marks(doc, start, end)}\n{note}"
    pages = page_marks(doc, start, end)
    return page_outcome(text, box.relative(file), start, end, len(doc.text), pages)


@tool(phase="read", reads="path")
def read(
    path: str, *, ctx: ToolContext, offset: int = 0, limit: int = PAGE_CHARS
) -> ToolOutcome[PageRead]:
    """Read a plain text file (notes, CSV, code, configuration), paged like parse_file.

    Args:
        path: File path, relative to the root.
        offset: Character offset to start from.
        limit: Maximum characters to return.
    """
    box = ctx.sandbox
    file = box.existing(path, "file")
    rel = box.relative(file)
    verdict = classify(rel)
    verdict_note = (
        f"(warning: {verdict.reason})\n"
        if verdict.level in (Sensitivity.SKIP, Sensitivity.WARN)
        else ""
    )
    if file.suffix.lower() in _BINARY_DOCUMENTS:
        msg = f"{rel} is a {file.suffix.lower()[1:]} document: use parse_file to read it"
        raise ToolError(msg)
    with open_file(file, box.root) as handle:  # the file checked, whatever is swapped in
        Limits.from_env().check_size(file, "txt", os.fstat(handle.fileno()).st_size, rel)
        data = handle.read()
    if looks_binary(data[:8192]):
        msg = f"{rel} is a binary file, not text"
        raise ToolError(msg)
    text, warnings = decode(data, rel)
    start, end, note = page_window(len(text), offset, limit)
    warn = "".join(f"(warning: {w})\n" for w in warnings)
    header = f"{rel} ({len(text):,} characters) characters {start:,}-{end:,}"
    shown_text = f"{header}\n{verdict_note}{warn}{text[start:end]}\n{note}"
    return page_outcome(shown_text, rel, start, end, len(text))


def _searchable(box: Sandbox, target: Path) -> list[Path]:
    return document_files(box, box.relative(target)) if target.is_dir() else [target]


def _matching_lines(
    pattern: regex.Pattern[str], lines: list[str], deadline: float
) -> Iterator[int]:
    """The numbers of the lines `pattern` finds something in; `TimeoutError` once the
    `deadline` (on `_clock`) has passed (catastrophic backtracking)."""
    for number, line in enumerate(lines):
        if pattern.search(line, timeout=max(deadline - _clock(), 0.001)):
            yield number


@tool
def grep(
    pattern: str,
    path: str = ".",
    *,
    ctx: ToolContext,
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
        compiled = regex.compile(pattern, regex.IGNORECASE if ignore_case else 0)
    except regex.error as exc:
        msg = f"invalid regular expression {pattern!r}: {exc}"
        raise ToolError(msg) from None
    box = ctx.sandbox
    target = box.existing(path)
    blocks: list[str] = []
    count = 0
    skipped: list[str] = []
    searchable = _searchable(box, target)
    # one budget per call, not per file: the pattern's time over all files, and the call's
    deadline, regex_left = _clock() + GREP_SECONDS, REGEX_SECONDS
    stopped = ""
    for searched, file in enumerate(searchable):
        if _clock() >= deadline:
            stopped = (
                f"searched {searched} of {len(searchable)} files before the "
                f"{GREP_SECONDS:g} s time limit: narrow the path"
            )
            break
        try:
            doc = parse(file, root=box.root)
        except ParseError as exc:
            skipped.append(f"{box.relative(file)}: {exc.why}")
            continue
        lines = doc.text.splitlines()
        offsets, pos = [], 0
        for line in lines:
            offsets.append(pos)
            pos += len(line) + 1
        began = _clock()
        try:
            for number in _matching_lines(compiled, lines, min(began + regex_left, deadline)):
                count += 1
                lo, hi = max(0, number - context), min(len(lines), number + context + 1)
                excerpt = "\n".join(
                    f"{n + 1}{':' if n == number else '-'} {lines[n]}" for n in range(lo, hi)
                )
                page = doc.page_at(offsets[number])
                blocks.append(f"{box.relative(file)} (page {page}, line {number + 1}):\n{excerpt}")
                if count >= max_matches:
                    break
        except TimeoutError:
            if not blocks:  # nothing found to show: the pattern itself is the trouble
                msg = (
                    f"the pattern {pattern!r} took longer than {REGEX_SECONDS:g} s on "
                    f"{box.relative(file)}; simplify it (nested repeats like (a+)+ backtrack)"
                )
                raise ToolError(msg) from None
            stopped = (
                f"searched {searched} of {len(searchable)} files before the time limit "
                f"(stopped in {box.relative(file)}): narrow the path or simplify the pattern "
                "(nested repeats like (a+)+ backtrack)"
            )
            break
        regex_left -= _clock() - began
        if count >= max_matches:
            blocks.append(f"[stopped at {max_matches} matches: narrow the pattern or the path]")
            break
    if not blocks:
        result = f"no matches for {pattern!r} under {box.relative(target)}"
    else:
        result = f"{count} matching lines for {pattern!r}:\n\n" + "\n\n".join(blocks)
    if stopped:
        result += f"\n[{stopped}]"
    if skipped:
        result += "\n(not searched: " + "; ".join(skipped) + ")"
    return result


def matching(box: Sandbox, pattern: str) -> list[Entry]:
    """The readable entries whose path (or name) matches a glob pattern; "**/" matches any
    folders. A pattern leaving the root is refused (`AccessDenied`)."""
    if Path(pattern).is_absolute() or ".." in Path(pattern).parts:
        msg = "a glob pattern must stay inside the root folder (no leading / and no ..)"
        raise AccessDenied(msg)
    patterns = (pattern, pattern[3:]) if pattern.startswith("**/") else (pattern,)
    found = []
    for entry in box.entries():
        if entry.verdict.level is Sensitivity.BLOCK:
            continue
        name = entry.rel.rpartition("/")[2]
        if any(fnmatch.fnmatch(n, p) for n in (entry.rel, name) for p in patterns):
            found.append(entry)
    return found


def paths_argument(box: Sandbox, spec: str | list[str]) -> list[str]:
    """The files a tool argument names: one path, several (a JSON array or separated by
    commas) or glob patterns ("statements/*.pdf"), as relative paths in order, each once.
    A path outside the root is refused; a pattern that matches nothing raises `NotFound`."""
    items = spec if isinstance(spec, list) else _listed(spec)
    found: dict[str, None] = {}
    for item in items:
        if _WILDCARDS & set(item):
            entries = [e for e in matching(box, item) if not e.note]
            if not entries:
                _check_prefix(box, item)
                msg = f"no files match {item!r}"
                raise NotFound(msg)
            found.update(dict.fromkeys(box.relative(box.existing(e.rel, "file")) for e in entries))
        else:
            found[box.relative(box.existing(item, "file"))] = None
    if not found:
        msg = "no paths given: name a file, several separated by commas, or a glob pattern"
        raise ToolError(msg)
    return list(found)


def _listed(spec: str) -> list[str]:
    text = spec.strip()
    if text.startswith("["):
        try:
            items = json.loads(text)
        except ValueError:
            items = None
        if isinstance(items, list) and all(isinstance(i, str) for i in items):
            return [i.strip() for i in items if i.strip()]
    return [part.strip() for part in text.split(",") if part.strip()]


@tool(phase="scan")
def glob(pattern: str, *, ctx: ToolContext, max_results: int = 200) -> str:
    """Find files whose path matches a glob pattern, e.g. "**/*.pdf" or "*contract*".

    Args:
        pattern: Glob pattern relative to the root; "**" matches any folders.
        max_results: Maximum number of paths to list.
    """
    box = ctx.sandbox
    matches = [f"{e.rel} ({e.note or _size(e.path)})" for e in matching(box, pattern)]
    if not matches:
        _check_prefix(box, pattern)
        return f"no files match {pattern!r}"
    shown = matches[:max_results]
    more = f"\n[{len(matches) - len(shown)} more not shown]" if len(matches) > len(shown) else ""
    return f"{len(matches)} files match {pattern!r}:\n" + "\n".join(shown) + more


def _check_prefix(box: Sandbox, pattern: str) -> None:
    """Raise `NotFound` when the pattern's literal start (the folders before its first
    wildcard, or all of it when it has none) names nothing that exists."""
    parts = PurePosixPath(pattern).parts
    literal = []
    for part in parts:
        if _WILDCARDS & set(part):
            break
        literal.append(part)
    if literal and len(literal) == len(parts):
        box.existing(pattern)
    elif literal:
        box.existing("/".join(literal), "folder")


__all__ = [
    "glob",
    "grep",
    "matching",
    "page_marks",
    "parse_file",
    "paths_argument",
    "preview_file",
    "read",
    "scan_folder",
]
