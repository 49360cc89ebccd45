"""Text analysis for the offline backend: tokens, passages and BM25 ranking.

Pure functions over strings; nothing here reads files or knows about the agent. The
offline policy (`fsnb.llm.offline`) ranks documents with `rank_documents`, and
`fsnb.llm.passages` picks the sentences that answer a question from the same units.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from fsnb.text import tokenize

tokens = tokenize  # the offline backend ranks with the index's terms


#: Words a question uses to ask or to instruct, not to say what it is about (stemmed).
QUESTION_WORDS = frozenset(
    tokens(
        "what which who whom whose when where why how describe list give tell show explain "
        "summarize summarise please build create prepare compile outline",
        keep_stopwords=True,
    )
)


@dataclass(frozen=True)
class Span:
    """Characters `start` to `end` of a text; `kind` is heading, text, item (of a list),
    row (of a table) or group (a run of items or rows)."""

    start: int
    end: int
    kind: str = "text"


_PAGE_LINE = re.compile(r"\bpage\s+\d+\b", re.I)
_SENTENCE_END_AT = re.compile(r"[.!?][\"”’')\]]*$")
_CLOSED = re.compile(r"[.!?:;][\"”’')\]]*$")
_RULE = re.compile(r"^[|:\-+= ]+$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*•▪–]\s|\(?(?:\d{1,3}|[ivx]{1,4}|[a-zA-Z])[.)]\s)")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"”’')\]]*\s+(?=[\"“(\[]?[A-Z0-9$£€])")
_ABBREVIATIONS = frozenset(
    "dr mr mrs ms prof inc co corp ltd llc no nos st jr sr vs etc approx sec art fig pp vol"
    " e.g i.e u.s u.k cf al reg dept est ref para sect cl ave blvd tel ext jan feb mar apr"
    " jun jul aug sep sept oct nov dec gov gen col lt sgt rev hon".split()
)


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


_SMALL_WORDS = frozenset("a an and as at by for in of on or the to with vs".split())


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


def _title_line(previous: str, line: str) -> bool:
    """Whether `previous` reads as a title over `line` rather than as wrapped prose."""
    last = previous.rsplit("\n", 1)[-1].strip()
    return len(last) <= 60 and last[-1:].isalnum() and line[:1].isupper() and "\n" not in previous


def _continues(previous: str, line: str) -> bool:
    """Whether `line`, after a blank line, goes on with the sentence `previous` left open
    (PDF text often breaks paragraphs at every printed line)."""
    last = previous.rsplit("\n", 1)[-1].strip()
    if _SENTENCE_END_AT.search(last):
        return False
    return line[:1].islower() or line[:1] in "$€£(%,;" or line[:1].isdigit() or len(last) > 60


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
        if kind == "title":
            open_before = last is not None and last.kind == "text"
            open_before = open_before and not _CLOSED.search(text[last.start : last.end])
            kind = "text" if open_before and not _capitals(body) else "heading"
        joins = False
        if last is not None and kind == "text" and last.kind in ("text", "item"):
            previous = text[last.start : last.end]
            if text[last.end : lead].count("\n") <= 1:
                joins = not _title_line(previous, body)
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
        before = piece[begin : match.start()].rsplit(None, 1)
        last_word = before[-1].rstrip(".!?\"”’')]").lower() if before else ""
        if last_word in _ABBREVIATIONS or (len(last_word) == 1 and last_word.isalpha()):
            continue
        out.append(Span(span.start + begin, span.start + match.start(), "text"))
        begin = match.end()
    out.append(Span(span.start + begin, span.end, "text"))
    return [s for s in out if text[s.start : s.end].strip()]


def units(text: str) -> list[Span]:
    """Sentence-level units: what an answer quotes."""
    return [unit for block in blocks(text) for unit in sentences(text, block)]


def sections(text: str, max_tokens: int = 120) -> list[Span]:
    """Paragraph-level passages for ranking; a heading joins the block after it and long
    paragraphs are cut into runs of sentences of about `max_tokens` words."""
    out: list[Span] = []
    pending: int | None = None
    for block in blocks(text):
        if block.kind == "heading":
            pending = block.start if pending is None else pending
            continue
        start = block.start if pending is None else pending
        pending = None
        parts = sentences(text, block)
        run_start, run_len, prev_end = start, 0, start
        for part in parts:
            size = len(text[part.start : part.end].split())
            if run_len and run_len + size > max_tokens:
                out.append(Span(run_start, prev_end, block.kind))
                run_start, run_len = part.start, 0
            run_len += size
            prev_end = part.end
        out.append(Span(run_start, block.end, block.kind))
    if pending is not None:
        out.append(Span(pending, len(text.rstrip()), "heading"))
    return out


class BM25:
    """Okapi BM25 over pre-tokenized units."""

    def __init__(self, corpus: Sequence[Sequence[str]], k1: float = 1.2, b: float = 0.75):
        self.k1, self.b = k1, b
        self.counts = [Counter(unit) for unit in corpus]
        self.lengths = [len(unit) for unit in corpus]
        self.size = len(corpus)
        self.mean_length = (sum(self.lengths) / self.size) if self.size else 0.0
        self.df: Counter[str] = Counter()
        for counts in self.counts:
            self.df.update(counts.keys())

    def idf(self, term: str) -> float:
        """Inverse document frequency (never negative); unseen terms get the highest."""
        df = self.df.get(term, 0)
        return math.log(1 + (self.size - df + 0.5) / (df + 0.5))

    def score(self, query: Iterable[str], index: int, weights: dict[str, float] | None = None):
        """BM25 of unit `index` for the (deduplicated) query terms."""
        counts, length = self.counts[index], self.lengths[index]
        norm = self.k1 * (1 - self.b + self.b * length / (self.mean_length or 1))
        total = 0.0
        for term in dict.fromkeys(query):
            tf = counts.get(term, 0)
            if tf:
                weight = (weights or {}).get(term, 1.0)
                total += weight * self.idf(term) * tf * (self.k1 + 1) / (tf + norm)
        return total


@dataclass
class Ranked:
    """A document's rank for a question: its score and its best sections."""

    path: str
    score: float
    best: list[tuple[float, Span]]
    title_score: float = 0.0


def rank_documents(
    query: Sequence[str],
    documents: dict[str, tuple[str, str]],
    weights: dict[str, float] | None = None,
    title_weight: float = 0.6,
    tokenize: Callable[[str], list[str]] = tokens,
) -> list[Ranked]:
    """Rank documents ({path: (title, text)}) by their best sections for `query`.

    A document's score is its best section's BM25 plus half the second and a quarter of
    the third (so long documents are not favoured for being long), plus the idf of the
    query terms its title or file name contains, times `title_weight`.
    """
    keyed: list[tuple[str, Span]] = []
    corpus: list[list[str]] = []
    for path, (_title, text) in documents.items():
        for span in sections(text):
            keyed.append((path, span))
            corpus.append(tokenize(text[span.start : span.end]))
    bm25 = BM25(corpus)
    per_doc: dict[str, list[tuple[float, Span]]] = {path: [] for path in documents}
    for index, (path, span) in enumerate(keyed):
        score = bm25.score(query, index, weights)
        if score > 0:
            per_doc[path].append((score, span))
    ranked = []
    for path, (title, _text) in documents.items():
        best = sorted(per_doc[path], key=lambda pair: (-pair[0], pair[1].start))
        top = [score for score, _ in best[:3]]
        score = sum(s * w for s, w in zip(top, (1.0, 0.5, 0.25), strict=False))
        named = set(tokenize(title)) | set(tokenize(path_words(path)))
        title_score = sum(
            bm25.idf(t) * (weights or {}).get(t, 1.0) for t in dict.fromkeys(query) if t in named
        )
        ranked.append(Ranked(path, score + title_weight * title_score, best, title_score))
    return sorted(ranked, key=lambda r: (-r.score, r.path))


def path_words(path: str) -> str:
    """A file name as words: '05_financial_adjustments_memo.pdf' -> 'financial
    adjustments memo' (a leading ordinal number is dropped)."""
    stem_part = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    words = re.split(r"[\W_]+", stem_part)
    if words and words[0].isdigit():
        words = words[1:]
    return " ".join(w for w in words if w)
