"""One text segmenter: paragraphs, blocks, sentences and budgeted pieces of a document's text.

Every segment is a `Span` of character offsets into the text, so a quote taken from one is
an exact slice. Three levels:

- `paragraphs`: runs of text between blank lines (the index's chunks are made of them, and
  the file-name bridge quotes runs of them);
- `blocks`: paragraphs as a reader sees them: headings (marked or not), list items and table
  rows each alone, lines a PDF broke rejoined, running headers and footers dropped (the
  offline strategy ranks and quotes these);
- `sentences` of a block, aware of abbreviations ("Dr.", "No.").

`pieces` cuts a span over a character budget at its sentence or line ends.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass


@dataclass(frozen=True)
class Span:
    """Characters `start` to `end` of a text; `kind` is heading, text, item (of a list),
    row (of a table) or group (a run of items or rows)."""

    start: int
    end: int
    kind: str = "text"


_PARAGRAPH = re.compile(r"\S(?:.*?)(?=\n\s*\n|\Z)", re.S)
_PAGE_LINE = re.compile(r"\bpage\s+\d+\b", re.I)
_SENTENCE_END_AT = re.compile(r"[.!?][\"”’')\]]*$")
_CLOSED = re.compile(r"[.!?:;][\"”’')\]]*$")
_RULE = re.compile(r"^[|:\-+= ]+$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*•▪–]\s|\(?(?:\d{1,3}|[ivx]{1,4}|[a-zA-Z])[.)]\s)")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"”’')\]]*\s+(?=[\"“(\[]?[A-Z0-9$£€])")
_LINE_END = re.compile(r"\n")
_ABBREVIATIONS = frozenset(
    "dr mr mrs ms prof inc co corp ltd llc no nos st jr sr vs etc approx sec art fig pp vol"
    " e.g i.e u.s u.k cf al reg dept est ref para sect cl ave blvd tel ext jan feb mar apr"
    " jun jul aug sep sept oct nov dec gov gen col lt sgt rev hon".split()
)
_SMALL_WORDS = frozenset("a an and as at by for in of on or the to with vs".split())


def paragraphs(text: str) -> list[Span]:
    """The runs of text between blank lines, from their first non-blank character."""
    return [Span(*match.span()) for match in _PARAGRAPH.finditer(text)]


def blocks(text: str) -> list[Span]:
    """Paragraphs; headings, list items and table rows each alone. A paragraph ends at a
    blank line unless the sentence runs on into the next line."""
    out: list[Span] = []
    pos = 0
    for line in text.splitlines(keepends=True):
        start, pos = pos, pos + len(line)
        body = line.strip()
        if not body or _RULE.match(body):
            continue
        lead = start + len(line) - len(line.lstrip())
        end = lead + len(body)
        if len(body) <= 80 and _PAGE_LINE.search(body):
            continue  # a running header or footer ("Acme - Confidential - Page 3")
        kind = _line_kind(line)
        last = out[-1] if out else None
        # only the last block's last line is looked at: slicing the whole block for each
        # line made a long paragraph (a log without blank lines) quadratic
        newline = text.rfind("\n", last.start, last.end) if last is not None else -1
        previous = text[max(newline + 1, last.start) : last.end] if last is not None else ""
        if kind == "title":
            open_before = last is not None and last.kind == "text"
            open_before = open_before and not _CLOSED.search(previous)
            kind = "text" if open_before and not _capitals(body) else "heading"
        joins = False
        if last is not None and kind == "text" and last.kind in ("text", "item"):
            if text[last.end : lead].count("\n") <= 1:
                joins = not _title_line(previous, body, one_line=newline < 0)
            else:
                joins = _continues(previous, body)
        if joins and last is not None:
            out[-1] = Span(last.start, end, last.kind)
        else:
            out.append(Span(lead, end, kind))
    return out


def sentences(text: str, span: Span) -> list[Span]:
    """Split a text block into sentences; other kinds of block are one unit."""
    if span.kind != "text":
        return [span]
    piece = text[span.start : span.end]
    out, begin = [], 0
    for match in _SENTENCE_END.finditer(piece):
        # the last word is all that matters, and no abbreviation is near 64 characters:
        # splitting all the text since `begin` made runs of abbreviations quadratic
        before = piece[max(begin, match.start() - 64) : match.start()].rsplit(None, 1)
        last_word = before[-1].rstrip(".!?\"”’')]").lower() if before else ""
        if last_word in _ABBREVIATIONS or (len(last_word) == 1 and last_word.isalpha()):
            continue
        out.append(Span(span.start + begin, span.start + match.start(), "text"))
        begin = match.end()
    out.append(Span(span.start + begin, span.end, "text"))
    return [s for s in out if text[s.start : s.end].strip()]


def pieces(text: str, span: Span, limit: int) -> list[Span]:
    """`span` cut into pieces of at most `limit` characters. Each piece ends where a
    sentence or a line begins in its second half (the whitespace before stays with it),
    else at the limit; the next piece starts at the next non-blank character."""
    if span.end - span.start <= limit:
        return [span]
    starts = {s.start for s in sentences(text, Span(span.start, span.end))}
    starts.update(m.end() for m in _LINE_END.finditer(text, span.start, span.end))
    breaks = sorted(starts)
    out: list[Span] = []
    start = span.start
    while span.end - start > limit:
        cut = start + limit
        # the last break at or before the cut, found by bisection: scanning every break for
        # each piece made a long text without blank lines quadratic (a 16 MB log took 76 s)
        at = bisect_right(breaks, cut) - 1
        boundary = breaks[at] if at >= 0 and breaks[at] >= start + max(limit // 2, 1) else cut
        out.append(Span(start, boundary, span.kind))
        start = boundary
        while start < span.end and text[start].isspace():
            start += 1
    if start < span.end:
        out.append(Span(start, span.end, span.kind))
    return out


def _line_kind(line: str) -> str:
    stripped = line.strip()
    if stripped.startswith("#"):
        return "heading"
    if stripped.startswith("|") or " | " in stripped:
        return "row"
    if _looks_like_heading(stripped):
        return "title"
    if _LIST_ITEM.match(line):
        return "item"
    return "text"


def _capitals(line: str) -> bool:
    letters = [c for c in line if c.isalpha()]
    return len(letters) >= 3 and sum(c.isupper() for c in letters) >= 0.9 * len(letters)


def _looks_like_heading(line: str) -> bool:
    """A short line without closing punctuation in capitals or Title Case ('2. RESTRICTED
    TERRITORY', 'Sources and Data Room'): a heading the parser did not mark."""
    if len(line) > 80 or _CLOSED.search(line) or line.endswith(",") or _PAGE_LINE.search(line):
        return False
    if re.match(r"[-*•▪–]\s", line):
        return False
    words = re.findall(r"[^\W\d_][\w'’-]*", line)
    if not words or len(words) > 10:
        return False
    if _capitals(line):
        return True
    body = re.sub(r"^(?:\d+(?:\.\d+)*\.?|[A-Z]\.)\s+", "", line)
    if ":" in body or re.search(r"[$€£%]|\d[\d,]*[.,]\d", body):
        return False
    return len(words) >= 2 and all(w[0].isupper() or w.lower() in _SMALL_WORDS for w in words)


def _title_line(last: str, line: str, *, one_line: bool) -> bool:
    """Whether the block ending in the line `last` (its only line when `one_line`) reads as
    a title over `line` rather than as wrapped prose."""
    last = last.strip()
    return len(last) <= 60 and last[-1:].isalnum() and line[:1].isupper() and one_line


def _continues(previous: str, line: str) -> bool:
    """Whether `line`, after a blank line, goes on with the sentence `previous` left open
    (PDF text often breaks paragraphs at every printed line)."""
    last = previous.rsplit("\n", 1)[-1].strip()
    if _SENTENCE_END_AT.search(last):
        return False
    return line[:1].islower() or line[:1] in "$€£(%,;" or line[:1].isdigit() or len(last) > 60
