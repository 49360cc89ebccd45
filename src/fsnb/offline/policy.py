"""The offline backend: a deterministic exploration policy and an extractive answer.

No network and no model. Each call looks at what the run has done so far
(`conversation.turns`) and returns the next step, so every step is a real tool call:

1. SCAN: `scan_folder` over the whole folder.
2. RANK: BM25 over the documents' sections (see `fsnb.llm.extract.rank_documents`).
3. READ: `parse_file` the best document and those close to it, page by page where the
   passages that score for the question lie further in.
4. BACKTRACK: cross-references in what was read ("Document: <Title>", "Exhibit C",
   "Schedule 3.12", "the Escrow Agreement", file names) are resolved to files and read
   when they sit in a passage the answer would quote or one that scores well for the
   question, or when the file they name ranks reasonably for it.
5. ANSWER: the sentences, list items and table rows that answer the question, each
   quoted exactly and cited `[n]`; or an honest "not found".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from fsnb.documents import Document, document_files, parse
from fsnb.errors import FsnbError
from fsnb.llm.answer import Reading, Unit, candidates, extractive_answer, units
from fsnb.llm.extract import BM25, Ranked, Span, rank_documents, tokens
from fsnb.llm.passages import Question, analyze, score_unit, select
from fsnb.llm.references import Reference, Target, find_references, resolve
from fsnb.protocol import Action, Conversation, Notify, Reply, Turn
from fsnb.security import Sandbox
from fsnb.tools.files import PAGE_CHARS

_CUT = re.compile(r"\[result cut at the size budget: ([\d,]+) more characters")


@dataclass
class _Corpus:
    """What the policy knows about the folder for one question (computed once)."""

    docs: dict[str, Document]
    question: Question
    ranking: list[Ranked]
    stats: BM25  # term statistics over every candidate passage, for IDF
    targets: list[Target]
    units: dict[str, list[Unit]] = field(default_factory=dict)

    @property
    def best_score(self) -> float:
        return self.ranking[0].score if self.ranking and self.ranking[0].score > 0 else 0.0

    def rank(self, path: str) -> Ranked | None:
        return next((r for r in self.ranking if r.path == path), None)


@dataclass
class _Progress:
    """What the run has read: character ranges per path, in order, and failures."""

    ranges: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    failed: set[str] = field(default_factory=set)
    reads: int = 0

    def covered(self, path: str, offset: int) -> bool:
        return any(a <= offset < b for a, b in self.ranges.get(path, ()))

    @property
    def order(self) -> list[str]:
        return list(self.ranges)


class OfflineLLM:
    """Deterministic, extractive stand-in for an LLM: BM25 ranking, cross-reference
    backtracking, and answers made of cited passages. Costs no tokens."""

    backend = "offline"
    model = "extractive"

    def __init__(
        self,
        *,
        max_documents: int = 6,
        max_ranked: int = 3,
        margin: float = 0.6,
        max_statements: int = 6,
        max_reads: int = 14,
        quote_chars: int = 300,
    ) -> None:
        self.max_documents = max_documents
        self.max_ranked = max_ranked
        self.margin = margin
        self.max_statements = max_statements
        self.max_reads = max_reads
        self.quote_chars = quote_chars
        self._corpora: dict[tuple[str, str], tuple[Turn, _Corpus]] = {}

    def next_action(self, conversation: Conversation, notify: Notify) -> Reply:
        if not conversation.turns:
            reason = "Scan: preview every document in the folder before choosing what to read."
            return Reply(Action.call("scan_folder", reason, folder="."))
        indexed = any(tool["name"] == "semantic_search" for tool in conversation.tools)
        searched = _search_hits(conversation.turns)
        if indexed and searched is None and not conversation.last_step:
            reason = "Search: the folder is indexed; find the passages that match the question."
            return Reply(Action.call("semantic_search", reason, query=conversation.task, k=8))
        corpus = self._corpus(conversation)
        progress = _read_so_far(conversation.turns, corpus)
        if not conversation.last_step and progress.reads < self.max_reads:
            step = self._next_read(corpus, progress, searched or [])
            if step is not None:
                if indexed:  # the indexed text, paged the same way
                    step = step.model_copy(update={"tool": "get_document"})
                return Reply(step)
        return Reply(self._answer(corpus, progress))

    # -- knowing the folder ------------------------------------------------------------

    def _corpus(self, conversation: Conversation) -> _Corpus:
        """The folder as this run sees it, built once per run (the run's first turn is
        its identity) from the documents' parses, which the scan has cached."""
        key = (conversation.root, conversation.task)
        cached = self._corpora.get(key)
        if cached is None or cached[0] is not conversation.turns[0]:
            if len(self._corpora) >= 8:
                self._corpora.clear()
            cached = (conversation.turns[0], _build_corpus(conversation.root, conversation.task))
            self._corpora[key] = cached
        return cached[1]

    # -- choosing the next read -----------------------------------------------------------

    def _chosen(self, corpus: _Corpus, searched: Sequence[str] = ()) -> list[Ranked]:
        """The best document and those within `margin` of it, at most `max_ranked`; the
        index search's best document leads when there was a search."""
        best = corpus.best_score
        if best <= 0:
            return []
        close = [r for r in corpus.ranking if r.score >= self.margin * best]
        lead = next((corpus.rank(p) for p in searched if corpus.rank(p) is not None), None)
        if lead is not None:
            close = [lead, *(r for r in close if r.path != lead.path)]
        return close[: self.max_ranked]

    def _windows(self, corpus: _Corpus, ranked: Ranked, top: bool) -> list[int]:
        """Offsets of the pages (of PAGE_CHARS) worth reading in a document: the first, and
        those holding its better sections; every page (up to 4) of the best document."""
        length = len(corpus.docs[ranked.path].text)
        pages = max(1, -(-length // PAGE_CHARS))
        if top:
            return [n * PAGE_CHARS for n in range(min(pages, 4))]
        wanted = {0}
        if ranked.best:
            lead = ranked.best[0][0]
            wanted |= {s.start // PAGE_CHARS for score, s in ranked.best if score >= 0.5 * lead}
        return [n * PAGE_CHARS for n in sorted(wanted) if n < pages]

    def _next_read(
        self, corpus: _Corpus, progress: _Progress, searched: Sequence[str]
    ) -> Action | None:
        total = len(corpus.ranking)
        for index, ranked in enumerate(self._chosen(corpus, searched)):
            if ranked.path in progress.failed:
                continue
            for offset in self._windows(corpus, ranked, top=index == 0):
                if progress.covered(ranked.path, offset):
                    continue
                if offset == 0:
                    reason = (
                        f"Read: ranked {index + 1} of {total} for the question "
                        f"(BM25 {ranked.score:.1f}), '{corpus.docs[ranked.path].title}'."
                    )
                else:
                    reason = (
                        f"Read on: {ranked.path} continues at offset {offset}, where "
                        "passages that match the question lie."
                    )
                return _parse_action(ranked.path, offset, reason)
        chosen = {r.path for r in self._chosen(corpus, searched)}
        for path in progress.order:
            ranked = corpus.rank(path)
            if path in chosen or ranked is None:
                continue
            for offset in self._windows(corpus, ranked, top=False):
                if not progress.covered(path, offset):
                    reason = (
                        f"Read on: {path} continues at offset {offset}, where passages that "
                        "match the question lie."
                    )
                    return _parse_action(path, offset, reason)
        if len(progress.ranges) >= self.max_documents:
            return None
        for target, ref, source in self._references(corpus, progress):
            reason = (
                f"Backtrack: {source} refers to '{ref.name}', which is {target}; "
                "it may hold what the question asks."
            )
            return _parse_action(target, 0, reason)
        return None

    def _references(self, corpus: _Corpus, progress: _Progress) -> list[tuple[str, Reference, str]]:
        """References worth following, best first: (target, reference, citing file) for
        unread targets named in passages that score for the question, or that rank
        reasonably themselves."""
        passages = _passage_scores(corpus, progress)
        best_passage = max((s for found in passages.values() for _, s in found), default=0.0)
        picked = select(candidates(corpus.question, _readings(corpus, progress), corpus.stats))
        quoted = {(c.path, c.span.start, c.span.end) for c in picked}
        best_doc = corpus.best_score
        found: dict[str, tuple[float, int, Reference, str]] = {}
        for path in progress.order:
            text = corpus.docs[path].text
            for start, end in sorted(progress.ranges[path]):
                for ref in find_references(text[start:end]):
                    target = resolve(ref, corpus.targets, source=path)
                    if not target or target in progress.ranges or target in progress.failed:
                        continue
                    at = start + ref.start
                    near = (s for span, s in passages[path] if span.start <= at < span.end)
                    passage = max(near, default=0.0) / best_passage if best_passage else 0.0
                    in_answer = any(p == path and a <= at < b for p, a, b in quoted)
                    ranked = corpus.rank(target)
                    standing = ranked.score / best_doc if ranked and best_doc else 0.0
                    if not (in_answer or _worth_following(passage, standing)):
                        continue
                    # a reference in a passage the answer would quote comes first
                    priority = passage + standing + (2.0 if in_answer else 0.0)
                    if target not in found or priority > found[target][0]:
                        found[target] = (priority, len(found), ref, path)
        ordered = sorted(found.items(), key=lambda item: (-item[1][0], item[1][1]))
        return [(target, ref, source) for target, (_, _, ref, source) in ordered]

    # -- answering ------------------------------------------------------------------------

    def _answer(self, corpus: _Corpus, progress: _Progress) -> Action:
        return extractive_answer(
            corpus.question,
            _readings(corpus, progress),
            corpus.stats,
            max_statements=self.max_statements,
            quote_chars=self.quote_chars,
        )


def _readings(corpus: _Corpus, progress: _Progress) -> list[Reading]:
    """What the run has read, as the answer sees it."""
    best = corpus.best_score
    readings = []
    for path in progress.order:
        ranked = corpus.rank(path)
        standing = ranked.score / best if ranked and best else 0.0
        document, ranges = corpus.docs[path], progress.ranges[path]
        readings.append(Reading(path, document, corpus.units[path], ranges, standing))
    return readings


def _passage_scores(corpus: _Corpus, progress: _Progress) -> dict[str, list[tuple[Span, float]]]:
    """The score for the question of every passage shown so far, per document."""
    question, idf = corpus.question, corpus.stats.idf
    out: dict[str, list[tuple[Span, float]]] = {}
    for path in progress.order:
        text = corpus.docs[path].text
        out[path] = [
            (u.span, score_unit(question, text[u.span.start : u.span.end], u.context, idf)[0])
            for u in corpus.units[path]
            if not u.parts and progress.covered(path, u.span.start)
        ]
    return out


def _worth_following(passage: float, standing: float) -> bool:
    """Whether to read a referenced document, given how the passage naming it scores for
    the question (`passage`) and how the document itself ranks (`standing`), both relative
    to the best (0 to 1)."""
    return (passage >= 0.5 and standing >= 0.1) or standing >= 0.5 or passage >= 0.9


def _parse_action(path: str, offset: int, reason: str) -> Action:
    if offset:
        return Action.call("parse_file", reason, path=path, offset=offset, limit=PAGE_CHARS)
    return Action.call("parse_file", reason, path=path)


def _build_corpus(root: str, task: str) -> _Corpus:
    """Parse every document the scan would consider (cache hits after the scan), analyze
    the question against them, and rank them."""
    box = Sandbox(root)
    docs: dict[str, Document] = {}
    for file in document_files(box):
        try:
            document = parse(file)
        except (FsnbError, OSError):
            continue
        if document.text.strip():
            docs[box.relative(file)] = document
    question = analyze(task, [d.text for d in docs.values()])

    def terms(text: str) -> list[str]:
        found = tokens(text)
        found += [term for term, pattern in question.aliases.items() if pattern.search(text)]
        return found

    vocabularies = [set(terms(d.text)) for d in docs.values()]
    question.discount_background(
        {t: sum(t in v for v in vocabularies) / len(vocabularies) for t in question.content}
        if vocabularies
        else {}
    )
    texts = {path: (d.title, d.text) for path, d in docs.items()}
    ranking = rank_documents(question.content, texts, question.weights, tokenize=terms)
    unit_map = {path: units(d.text) for path, d in docs.items()}
    corpus_units = [
        terms(d.text[u.span.start : u.span.end])
        for path, d in docs.items()
        for u in unit_map[path]
        if not u.parts
    ]
    headings = {(path, u.context) for path in docs for u in unit_map[path] if u.context}
    corpus_units += [terms(context) for _, context in sorted(headings)]
    targets = [Target(path, d.title, d.text) for path, d in docs.items()]
    return _Corpus(docs, question, ranking, BM25(corpus_units), targets, unit_map)


_HIT = re.compile(r"^\[\d+\] (.+?), page \d+ \(score", re.MULTILINE)


def _search_hits(turns: list[Turn]) -> list[str] | None:
    """The documents a semantic_search step found, best first (None: no search yet)."""
    for turn in turns:
        if turn.action.kind == "tool_call" and turn.action.tool == "semantic_search":
            return list(dict.fromkeys(_HIT.findall(turn.result)))
    return None


def _read_so_far(turns: list[Turn], corpus: _Corpus) -> _Progress:
    """Character ranges of each document that parse_file/read calls have shown."""
    progress = _Progress()
    for turn in turns:
        action = turn.action
        if action.kind != "tool_call" or action.tool not in ("parse_file", "read", "get_document"):
            continue
        args = action.arguments()
        path = str(args.get("path", "")).strip().removeprefix("./")
        if path not in corpus.docs:
            path = next((p for p in corpus.docs if Path(p) == Path(path)), path)
        progress.reads += 1
        if turn.result.startswith(("error:", "access denied:")) or path not in corpus.docs:
            progress.failed.add(path)
            continue
        length = len(corpus.docs[path].text)
        try:
            offset = int(args.get("offset", 0))
            limit = int(args.get("limit", PAGE_CHARS))
        except ValueError:
            offset, limit = 0, PAGE_CHARS
        end = min(offset + limit, length)
        if cut := _CUT.search(turn.result):
            end = max(offset + 1, end - int(cut.group(1).replace(",", "")))
        progress.ranges.setdefault(path, []).append((offset, end))
    return progress
