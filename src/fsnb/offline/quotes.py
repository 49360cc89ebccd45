"""Quotes: a long passage cut into one or two pieces an answer can cite.

A unit longer than a quote may be (`Tuning.quote_chars`) is cut at word boundaries: in
two halves at the clause boundary nearest its middle when it is at most twice that long,
else into the one or two windows that weigh most for the question.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from fsnb.text.segments import Span

#: A second window is quoted when it weighs this share of the best one (hand-set).
SECOND_PIECE = 0.6
#: How badly a piece ends at each mark, for cutting a passage in two: a full stop best,
#: a closing parenthesis worse (hand-set).
CLAUSE_RANK = {".": 0.0, ";": 0.3, ":": 1.0, ",": 1.0, ")": 1.5}
#: The rank of a cut at no clause mark, or inside a figure or a date (hand-set).
NO_CLAUSE = 3.0

_WS = re.compile(r"\S+")


def quote_spans(text: str, span: Span, weigh: Callable[[str], float], max_chars: int) -> list[Span]:
    """One or two pieces of `span` of at most `max_chars`, cut at word boundaries: the
    whole unit when it fits, else two halves split at a clause boundary, else the best
    window(s) by `weigh`."""
    if span.end - span.start <= max_chars:
        return [span]
    piece = text[span.start : span.end]
    words = [(span.start + m.start(), span.start + m.end()) for m in _WS.finditer(piece)]
    if span.end - span.start <= 2 * max_chars:
        halves = _halves(text, words, max_chars)
        if halves:
            return halves
    windows = _windows(words, max_chars)
    ranked = sorted(windows, key=lambda w: (-weigh(text[w[0] : w[1]]), w[0]))
    first = ranked[0]
    pieces = [first]
    for other in ranked[1:]:
        apart = other[1] <= first[0] or other[0] >= first[1]
        if apart and weigh(text[other[0] : other[1]]) >= SECOND_PIECE * weigh(
            text[first[0] : first[1]]
        ):
            pieces.append(other)
            break
    return [Span(a, b, span.kind) for a, b in sorted(pieces)]


def _halves(text: str, words: list[tuple[int, int]], max_chars: int) -> list[Span]:
    """Split at the clause boundary nearest the middle that leaves both halves short."""
    start, end = words[0][0], words[-1][1]
    best: tuple[float, int] | None = None
    for i in range(len(words) - 1):
        left_end, right_start = words[i][1], words[i + 1][0]
        if left_end - start > max_chars or end - right_start > max_chars:
            continue
        mark = text[left_end - 1]
        rank = CLAUSE_RANK.get(mark, NO_CLAUSE)
        if text[left_end - 2 : left_end - 1].isdigit() and text[right_start].isdigit():
            rank = NO_CLAUSE  # not inside a figure or a date ("December 31, 2024")
        balance = abs((left_end - start) - (end - right_start)) / (end - start)
        key = rank + balance
        if best is None or key < best[0]:
            best = (key, i)
    if best is None:
        return []
    i = best[1]
    return [Span(start, words[i][1]), Span(words[i + 1][0], end)]


def _windows(words: list[tuple[int, int]], max_chars: int) -> list[tuple[int, int]]:
    """Every run of whole words of at most `max_chars`, starting at each word."""
    out = []
    j = 0
    for i in range(len(words)):
        j = max(j, i)
        while j + 1 < len(words) and words[j + 1][1] - words[i][0] <= max_chars:
            j += 1
        out.append((words[i][0], words[j][1]))
    return out
