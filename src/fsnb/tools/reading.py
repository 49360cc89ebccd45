"""Reading one file: `preview_file`, `parse_file` (documents) and `read` (plain text).

Long texts come in pages of characters; a reply says how much remains and where to go on,
and `[page N]` lines mark where a document's pages begin (`PageRead` says which).
"""

from __future__ import annotations

import os

from fsnb.documents import Document
from fsnb.documents.limits import Limits
from fsnb.documents.model import ocr_label
from fsnb.documents.opening import read_document
from fsnb.documents.text import decode, looks_binary
from fsnb.errors import ToolError
from fsnb.protocol.outcome import ToolOutcome
from fsnb.security import Sensitivity, classify, open_file
from fsnb.tools.context import ToolContext
from fsnb.tools.payloads import PageRead
from fsnb.tools.registry import tool

_BINARY_DOCUMENTS = frozenset({".pdf", ".docx", ".pptx", ".xlsx"})
#: Characters a paged tool returns by default.
PAGE_CHARS = 12_000


def page_mark(doc: Document, page: int) -> str:
    """`[page N]`, or `[page N (OCR)]` for a page read by OCR (with its confidence when
    low: `[page N (OCR, low confidence 0.62)]`)."""
    confidence = doc.ocr.get(page)
    return f"[page {page}]" if confidence is None else f"[page {page} ({ocr_label(confidence)})]"


def with_page_marks(doc: Document, start: int, end: int) -> str:
    """Text from `start` to `end` with a `[page N]` line where each page begins (on the
    first page too when the document has several, or it was read by OCR)."""
    parts, pos = [], start
    for span in doc.spans:
        if start < span.start < end:
            parts.append(doc.text[pos : span.start])
            parts.append(f"{page_mark(doc, span.page)}\n")
            pos = span.start
    parts.append(doc.text[pos:end])
    first = f"{page_mark(doc, doc.page_at(start))}\n" if _marks_first(doc) else ""
    return first + "".join(parts)


def page_marks(doc: Document, start: int, end: int) -> tuple[int, ...]:
    """The pages whose `[page N]` lines `with_page_marks(doc, start, end)` writes, in order."""
    first = (doc.page_at(start),) if _marks_first(doc) else ()
    return first + tuple(span.page for span in doc.spans if start < span.start < end)


def _marks_first(doc: Document) -> bool:
    return doc.pages > 1 or bool(doc.ocr)


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


__all__ = [
    "PAGE_CHARS",
    "page_marks",
    "page_outcome",
    "page_window",
    "parse_file",
    "preview_file",
    "read",
    "with_page_marks",
]
