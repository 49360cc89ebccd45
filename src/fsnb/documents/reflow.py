"""Turn the line-level text items of Docling's native PDF pipeline into markdown.

The native pipeline emits one text item per printed line, with a bounding box, in the
order the parser reports them: no paragraphs, headings or tables. This module rebuilds
them from geometry alone, so it works for any born-digital PDF:

- lines on the same baseline are one row (cells joined by " | ");
- a line follows the previous one in the same paragraph when the vertical gap is no
  wider than the document's usual line spacing (measured, since leading varies), it
  does not start a list item, and the previous line is not a short, finished line;
- lines clearly taller than the body text are headings, as are short single-line
  paragraphs in capitals.
"""

from __future__ import annotations

import itertools
import re
import statistics
from dataclasses import dataclass

_LIST_ITEM = re.compile(r"^(\(?[0-9ivxA-Za-z]{1,3}[.)]\s|[-•▪*–]\s|\[[ xX]\]\s|\d+(\.\d+)+\s)")


@dataclass
class Line:
    """One printed line: text, page and box (PDF points, origin bottom-left)."""

    text: str
    page: int
    left: float
    top: float
    right: float
    bottom: float

    @property
    def height(self) -> float:
        return max(self.top - self.bottom, 0.1)


def _rows(lines: list[Line]) -> list[Line]:
    """Merge items that share a baseline into one row, left to right."""
    rows: list[Line] = []
    for line in lines:
        last = rows[-1] if rows else None
        same_row = (
            last is not None
            and last.page == line.page
            and abs(last.bottom - line.bottom) < 0.35 * min(last.height, line.height)
            and line.left >= last.right - 1
        )
        if last is not None and same_row:
            gap = line.left - last.right
            sep = " | " if gap > 0.5 * line.height else " "
            rows[-1] = Line(
                last.text + sep + line.text,
                last.page,
                last.left,
                max(last.top, line.top),
                line.right,
                min(last.bottom, line.bottom),
            )
        else:
            rows.append(line)
    return rows


def _join(lines: list[str]) -> str:
    """Join a paragraph's lines; a word hyphenated across lines is rejoined."""
    out = lines[0]
    for line in lines[1:]:
        hyphenated = len(out) > 1 and out[-1] == "-" and out[-2].isalpha() and line[:1].islower()
        out = out + line if hyphenated else f"{out} {line}"
    return out


def _is_caps_heading(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return (
        len(letters) >= 3
        and len(text) <= 80
        and sum(c.isupper() for c in letters) >= 0.9 * len(letters)
    )


def _line_gap(rows: list[Line], body: float) -> float:
    """The usual gap between consecutive lines of a paragraph: a low quantile of the gaps."""
    gaps = sorted(
        prev.bottom - row.top
        for prev, row in itertools.pairwise(rows)
        if prev.page == row.page and 0 <= prev.bottom - row.top <= 1.5 * body
    )
    if len(gaps) < 3:
        return 0.5 * body
    return gaps[len(gaps) // 5]


def _page_right(rows: list[Line]) -> dict[int, float]:
    """Where full lines end on each page (a high quantile of right edges)."""
    edges: dict[int, list[float]] = {}
    for row in rows:
        edges.setdefault(row.page, []).append(row.right)
    return {page: sorted(r)[int(0.9 * (len(r) - 1))] for page, r in edges.items()}


def reflow(lines: list[Line]) -> dict[int, list[str]]:
    """Markdown blocks per page, in reading order."""
    rows = list(_rows([ln for ln in lines if ln.text.strip()]))
    if not rows:
        return {}
    body = statistics.median(row.height for row in rows)
    limit = min(_line_gap(rows, body) * 1.2 + 0.5, body)
    right = _page_right(rows)
    pages: dict[int, list[str]] = {}
    para: list[str] = []
    prev: Line | None = None

    def flush(page: int) -> None:
        if para:
            text = _join(para)
            if len(para) == 1 and _is_caps_heading(text) and not _LIST_ITEM.match(text):
                text = f"### {text}"
            pages.setdefault(page, []).append(text)
            para.clear()

    for row in rows:
        text = row.text.strip()
        heading = row.height >= 1.2 * body and len(text) <= 120
        if prev is not None:
            gap = prev.bottom - row.top
            finished = prev.text.rstrip().endswith((".", ":", ";", "?", "!")) and (
                prev.right < right[prev.page] - 6 * body
            )
            joins = (
                row.page == prev.page
                and not heading
                and prev.height < 1.2 * body
                and -0.2 * body <= gap <= limit
                and not finished
                and not _LIST_ITEM.match(text)
                and " | " not in text
                and not (para and " | " in para[-1])
            )
            if not joins:
                flush(prev.page)
        if heading:
            level = "#" if row.height >= 1.5 * body else "##"
            pages.setdefault(row.page, []).append(f"{level} {text}")
            prev = row
            continue
        para.append(text)
        prev = row
    if prev is not None:
        flush(prev.page)
    return pages
