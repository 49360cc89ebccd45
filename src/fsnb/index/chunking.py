"""Markdown-aware chunking: blocks grouped up to a token budget, headings carried along.

A chunk's text is an exact slice of the document text (so quotes taken from chunks are
found in the document), and its `heading` is the path of markdown headings above it
("ARTICLE II > 2.2 Payment"), which is indexed with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fsnb.documents import Document
from fsnb.text.segments import paragraphs, pieces

#: About 800 tokens of English text per chunk, and ~100 tokens of overlap.
CHUNK_CHARS = 3200
OVERLAP_CHARS = 400
_HEADING = re.compile(r"^(#{1,6})\s+(.*)")


@dataclass(frozen=True)
class Chunk:
    position: int
    text: str
    start: int
    end: int
    page: int
    heading: str


def _blocks(text: str, limit: int) -> list[tuple[int, int]]:
    """(start, end) of paragraphs; a paragraph longer than `limit` is cut at sentences."""
    return [
        (piece.start, piece.end)
        for paragraph in paragraphs(text)
        for piece in pieces(text, paragraph, limit)
    ]


def chunk_document(
    doc: Document, *, chunk_chars: int = CHUNK_CHARS, overlap_chars: int = OVERLAP_CHARS
) -> list[Chunk]:
    """Split a document into chunks of whole paragraphs, with overlap between neighbours."""
    text = doc.text
    headings: list[tuple[int, str]] = []
    chunks: list[Chunk] = []
    group: list[tuple[int, int]] = []
    group_heading = ""

    def emit() -> None:
        start, end = group[0][0], group[-1][1]
        page = doc.page_at(start)
        chunks.append(Chunk(len(chunks), text[start:end], start, end, page, group_heading))

    fresh = True
    for start, end in _blocks(text, chunk_chars):
        heading = _HEADING.match(text[start:end])
        if group and end - group[0][0] > chunk_chars:
            emit()
            keep = [b for b in group if group[-1][1] - b[0] <= overlap_chars][-2:]
            group = keep if keep and keep[0] != group[0] else []
            fresh = True
        if heading:
            level = len(heading.group(1))
            headings = [(lv, h) for lv, h in headings if lv < level]
            headings.append((level, heading.group(2).strip()))
        if fresh:
            group_heading = " > ".join(h for _, h in headings)
            fresh = False
        group.append((start, end))
    if group:
        emit()
    return chunks
