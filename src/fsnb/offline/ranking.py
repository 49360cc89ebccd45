"""Ranking for the offline strategy: the question's terms, sections and BM25.

Pure functions over strings; nothing here reads files or knows about the agent. The
policy (`fsnb.offline.policy`) ranks documents with `rank_documents`; `fsnb.offline.passages`
scores the sentences that answer a question with the same terms and statistics.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from fsnb.offline.tuning import Tuning
from fsnb.text.segments import Span, blocks, sentences
from fsnb.text.words import tokenize

tokens = tokenize  # the offline strategy ranks with the index's terms

#: Words a question uses to ask or to instruct, not to say what it is about (stemmed).
QUESTION_WORDS = frozenset(
    tokens(
        "what which who whom whose when where why how describe list give tell show explain "
        "summarize summarise please build create prepare compile outline",
        keep_stopwords=True,
    )
)


def sections(text: str, max_words: int) -> list[Span]:
    """Paragraph-level passages for ranking; a heading joins the block after it and long
    paragraphs are cut into runs of sentences of about `max_words` words."""
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
            if run_len and run_len + size > max_words:
                out.append(Span(run_start, prev_end, block.kind))
                run_start, run_len = part.start, 0
            run_len += size
            prev_end = part.end
        out.append(Span(run_start, block.end, block.kind))
    if pending is not None:
        out.append(Span(pending, len(text.rstrip()), "heading"))
    return out


#: BM25's k1, how fast a term's count saturates: the usual default (Robertson & Zaragoza 2009).
K1 = 1.2
#: BM25's b, how much a unit's length normalizes its counts: the usual default (ibid.).
B = 0.75
#: BM25's IDF adds half a document to each count (Robertson-Sparck Jones smoothing).
DF_SMOOTHING = 0.5


class BM25:
    """Okapi BM25 over pre-tokenized units."""

    def __init__(self, corpus: Sequence[Sequence[str]]):
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
        return math.log(1 + (self.size - df + DF_SMOOTHING) / (df + DF_SMOOTHING))

    def score(self, query: Iterable[str], index: int, weights: dict[str, float] | None = None):
        """BM25 of unit `index` for the (deduplicated) query terms."""
        counts, length = self.counts[index], self.lengths[index]
        norm = K1 * (1 - B + B * length / (self.mean_length or 1))
        total = 0.0
        for term in dict.fromkeys(query):
            tf = counts.get(term, 0)
            if tf:
                weight = (weights or {}).get(term, 1.0)
                total += weight * self.idf(term) * tf * (K1 + 1) / (tf + norm)
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
    *,
    tuning: Tuning,
    tokenize: Callable[[str], list[str]] = tokens,
) -> list[Ranked]:
    """Rank documents ({path: (title, text)}) by their best sections for `query`.

    A document's score is the BM25 of its best sections weighted by `section_weights`
    (best, half the second, a quarter of the third: long documents are not favoured for
    being long), plus the idf of the query terms its title or file name contains, times
    `title_weight`.
    """
    keyed: list[tuple[str, Span]] = []
    corpus: list[list[str]] = []
    for path, (_title, text) in documents.items():
        for span in sections(text, tuning.section_words):
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
        top = [score for score, _ in best[: len(tuning.section_weights)]]
        score = sum(s * w for s, w in zip(top, tuning.section_weights, strict=False))
        named = set(tokenize(title)) | set(tokenize(path_words(path)))
        title_score = sum(
            bm25.idf(t) * (weights or {}).get(t, 1.0) for t in dict.fromkeys(query) if t in named
        )
        ranked.append(Ranked(path, score + tuning.title_weight * title_score, best, title_score))
    return sorted(ranked, key=lambda r: (-r.score, r.path))


def path_words(path: str) -> str:
    """A file name as words: '05_financial_adjustments_memo.pdf' -> 'financial
    adjustments memo' (a leading ordinal number is dropped)."""
    stem_part = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    words = re.split(r"[\W_]+", stem_part)
    if words and words[0].isdigit():
        words = words[1:]
    return " ".join(w for w in words if w)


def name_terms(path: str) -> set[str]:
    """The terms of a file's name, without its folders and suffix."""
    return set(tokens(re.sub(r"[\W_]+", " ", path.rsplit("/", 1)[-1].rsplit(".", 1)[0])))


def document_terms(path: str, title: str) -> set[str]:
    """The terms that name a document as a whole: its file's name, its folders' names
    ("Receipts/..."), its title ("Cedar Valley Credit Union" over a form)."""
    folders = path.rsplit("/", 1)[0] if "/" in path else ""
    return name_terms(path) | set(tokens(f"{folders} {title}"))
