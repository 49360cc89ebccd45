"""Compact scan previews: a share of a fixed budget per document, without repeats.

A preview drops blank lines, the heading that repeats the document's title, and the lines
that many previews share (a bank's letterhead on every statement), which the scan says
once at the top instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

#: Characters of previews a scan aims for in all, and the bounds of one preview.
SCAN_CHARS = 6_000
MIN_PREVIEW = 160
MAX_PREVIEW = 500
#: A line is common when this many previews, and at least half of them, hold it.
COMMON_MIN = 3


def preview_chars_for(documents: int) -> int:
    """Characters of each preview when `documents` are scanned at once."""
    return max(MIN_PREVIEW, min(MAX_PREVIEW, SCAN_CHARS // max(documents, 1)))


def common_lines(texts: Iterable[str]) -> frozenset[str]:
    """Non-trivial lines (12 characters or more) that many of `texts` hold."""
    texts = list(texts)
    counts = Counter(line for text in texts for line in _lines(text) if len(line) >= 12)
    needed = max(COMMON_MIN, (len(texts) + 1) // 2)
    return frozenset(line for line, n in counts.items() if n >= needed)


def compact_head(text: str, title: str, common: frozenset[str], chars: int) -> tuple[str, int]:
    """(preview, characters of `text` it covers): up to `chars` characters of the text's
    lines, less blank lines, a heading that repeats `title` and the `common` lines."""
    kept: list[str] = []
    size, pos, first = 0, 0, True
    for raw in text.splitlines(keepends=True):
        pos += len(raw)
        line = raw.strip()
        if not line or line in common:
            continue
        if first and line.lstrip("#").strip().casefold() == title.strip().casefold():
            first = False
            continue
        first = False
        room = chars - size
        if len(line) > room:
            kept.append(line[:room])
            return "\n".join(kept), pos - len(raw) + room
        kept.append(line)
        size += len(line) + 1
    return "\n".join(kept), len(text)


def _lines(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if line.strip()}
