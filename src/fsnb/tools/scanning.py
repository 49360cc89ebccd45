"""`scan_folder`: every document under a folder previewed, the first step of an exploration.

Each file is listed with its format, pages, size and the beginning of its text, or with
why it was left out (blocked, skipped, not a document, unreadable); lines that many
previews share are shown once (`fsnb.tools.scan_text`).
"""

from __future__ import annotations

from pathlib import Path

from fsnb.documents import Document, supported
from fsnb.documents.batch import parse_many
from fsnb.documents.scans import NEEDS_OCR, suffix_is_image, summary
from fsnb.documents.text import looks_binary
from fsnb.errors import EMPTY_FILE, AccessDenied, NotFound, ParseError
from fsnb.protocol.outcome import ToolOutcome
from fsnb.security import Entry, Sandbox, Sensitivity, classify, open_file, os_reason, shown
from fsnb.tools.context import ToolContext
from fsnb.tools.formats import human_size
from fsnb.tools.payloads import Scanned
from fsnb.tools.registry import tool
from fsnb.tools.scan_text import common_lines, compact_head, preview_chars_for

#: Images a scan reads by OCR to preview them (the rest are listed, not read).
SCAN_IMAGES = 24


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
    for rel, why in _images_left(documents).items():
        entries[rel] = why
    documents = {path: e for path, e in documents.items() if e.rel not in entries}
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
    lines += _scan_notes(parsed, documents)
    if common:
        shared = "\n".join(sorted(common))
        lines.append(f"Lines many previews share, shown once here and left out of each:\n{shared}")
    listed = sorted(entries, key=lambda r: r.split("/"))
    for rel in listed:
        lines.append(f"\n=== {rel} — {entries[rel]}")
    scanned = Scanned(len(entries), ok, failed, tuple(map(shown, listed)))
    return ToolOutcome("\n".join(lines), payload=scanned)


def _images_left(documents: dict[Path, Entry]) -> dict[str, str]:
    """The images past the first `SCAN_IMAGES` (by path), which a scan does not read by OCR
    (about a second each), and why: parse_file or the index reads them."""
    images = sorted((e.rel for e in documents.values() if suffix_is_image(e.rel)), key=str)
    left = images[SCAN_IMAGES:]
    why = (
        f"image, not previewed: OCR in a scan stops after {SCAN_IMAGES} images "
        f"({len(left):,} more here, about {len(left):,} s of OCR); parse_file reads it, "
        "and indexing the folder reads them all"
    )
    return dict.fromkeys(left, why)


def _scan_notes(
    parsed: dict[Path, Document | ParseError], documents: dict[Path, Entry]
) -> list[str]:
    """A line on the pages OCR read, and one on the scans left unread for want of OCR."""
    read = {documents[f].rel: r.ocr for f, r in parsed.items() if isinstance(r, Document)}
    unread = sum(
        NEEDS_OCR in (r.why if isinstance(r, ParseError) else " ".join(r.warnings))
        for r in parsed.values()
    )
    return [f"{line}." for line in summary(read, unread)]


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
    if result.partial:  # an opening: the text goes on (past its first pages, or further on)
        more = " [... more on later pages]" if result.pages > 1 else " [... more follows]"
    warn = "".join(f"\n(warning: {w})" for w in result.warnings)
    if result.ocr:
        pages = "; ".join(f"page {n}, confidence {c:.2f}" for n, c in sorted(result.ocr.items()))
        warn += f"\n(read by OCR: {pages})"
    if entry.verdict.level is Sensitivity.WARN:
        warn += "\n(warning: may contain sensitive data)"
    return (
        f"{result.format}, {result.pages} page{'s' * (result.pages != 1)}, "
        f"{size}, title: {result.title}{warn}\n{head}{more}"
    )


__all__ = ["scan_folder"]
