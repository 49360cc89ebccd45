"""The offline strategy: a deterministic exploration policy and an extractive answer.

No network and no model. Each call looks at what the run has done so far
(`conversation.turns`) and returns the next step, so every step is a real tool call:

1. SCAN: `scan_folder` over the whole folder (unless the run started from the index: a
   folder too large to preview whole, `fsnb.agent.start`).
2. RANK: BM25 over the documents' sections (`fsnb.offline.ranking`), the documents being
   those the explorer hands in (`conversation.documents`); only those under the folder
   the question names, when it names one of theirs (`fsnb.offline.scope`).
3. READ: `parse_file` the best document and those close to it, page by page where the
   passages that score for the question lie further in.
4. BACKTRACK: cross-references in what was read ("Document: <Title>", "Exhibit C",
   "Schedule 3.12", "the Escrow Agreement", file names) are resolved to files and read
   when they sit in a passage the answer would quote or one that scores well for the
   question, or when the file they name ranks reasonably for it.
5. ANSWER: the sentences, list items and table rows that answer the question, each
   quoted exactly and cited `[n]`; or an honest "not found".

A question that asks for a total, count, average or extreme over rows of the documents'
tables is computed in SQL instead (`fsnb.offline.tables`): list the tables, load
them into the scratchpad, query, and cite the rows that went in.

Its limits, thresholds and weights are the fields of `Tuning`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from fsnb.offline.compose import Reading, candidates, extractive_answer
from fsnb.offline.corpus import Corpus, build_corpus
from fsnb.offline.file_answer import file_answer
from fsnb.offline.files import file_question
from fsnb.offline.named_files import named_question
from fsnb.offline.passages import score_unit, select
from fsnb.offline.progress import Progress, earlier_turns, read_so_far, scanned, search_hits
from fsnb.offline.ranking import Ranked
from fsnb.offline.references import Reference, find_references, resolve
from fsnb.offline.sameness import sameness_step
from fsnb.offline.tables import table_step
from fsnb.offline.tuning import Tuning
from fsnb.protocol import Action, Conversation, Documents, LLMError, Notify, Reply
from fsnb.text.segments import Span
from fsnb.tools.reading import PAGE_CHARS

#: Corpora kept at most (one per run and question).
_KEEP = 8


class OfflineLLM:
    """Deterministic, extractive stand-in for an LLM: BM25 ranking, cross-reference
    backtracking, and answers made of cited passages. Costs no tokens.

    `tuning` holds its numbers; fields of it may also be given one by one
    (`OfflineLLM(max_documents=2)`), over `tuning` or the defaults."""

    backend = "offline"
    model = "extractive"

    def __init__(self, *, tuning: Tuning | None = None, **overrides: Any) -> None:
        self.tuning = replace(tuning or Tuning(), **overrides)
        self._corpora: dict[tuple[int, str], tuple[Documents, Corpus]] = {}

    def next_action(self, conversation: Conversation, notify: Notify) -> Reply:
        documents = conversation.documents
        if documents is None:
            msg = (
                "the offline strategy reads the folder's documents, and this conversation "
                "has none (Conversation.documents): run it through fsnb's Explorer"
            )
            raise LLMError(msg)
        names = {tool["name"] for tool in conversation.tools}
        task, root = conversation.task, conversation.root
        asked = file_question(task, root, names) or named_question(task, root, names)
        if asked is not None:
            turns = conversation.turns
            if turns and turns[0].action.tool == asked.tool:
                return Reply(file_answer(asked, turns[0].outcome))
            if not turns:
                reason = f"Files: the question is about the files themselves; ask {asked.tool}."
                return Reply(Action.call(asked.tool, reason, **asked.arguments))
        earlier = earlier_turns(conversation)
        if not conversation.turns and not scanned(earlier) and not conversation.start_hits:
            reason = "Scan: preview every document in the folder before choosing what to read."
            return Reply(Action.call("scan_folder", reason, folder="."))
        corpus = self._corpus(documents, conversation.task)
        asked_of = replace(conversation, task=corpus.task) if corpus.scope else conversation
        # the same labelled value across documents of a kind, then a figure over table rows
        for step in (sameness_step, table_step):
            computed = step(asked_of, corpus)
            if computed is not None and (computed.kind == "stop" or not conversation.last_step):
                return Reply(computed)
        indexed = "semantic_search" in names
        searched = search_hits(conversation.turns)
        searched = conversation.start_hits or None if searched is None else searched
        if indexed and searched is None and not conversation.last_step:
            reason = "Search: the folder is indexed; find the passages that match the question."
            k = self.tuning.search_hits
            return Reply(Action.call("semantic_search", reason, query=corpus.task, k=k))
        progress = read_so_far(conversation.turns, corpus.docs, earlier)
        if not conversation.last_step and progress.reads < self.tuning.max_reads:
            step = self._next_read(corpus, progress, searched or [])
            if step is not None:
                if indexed:  # the indexed text, paged the same way
                    step = step.model_copy(update={"tool": "get_document"})
                return Reply(step)
        return Reply(self._answer(corpus, progress))

    # -- knowing the folder ------------------------------------------------------------

    def _corpus(self, documents: Documents, task: str) -> Corpus:
        """The folder as this run sees it, built once per run (the run's documents are its
        identity) and question."""
        key = (id(documents), task)
        cached = self._corpora.get(key)
        if cached is None or cached[0] is not documents:
            if len(self._corpora) >= _KEEP:
                self._corpora.clear()
            cached = (documents, build_corpus(documents, task, self.tuning))
            self._corpora[key] = cached
        return cached[1]

    # -- choosing the next read -----------------------------------------------------------

    def _chosen(self, corpus: Corpus, searched: Sequence[str] = ()) -> list[Ranked]:
        """The best document and those within `margin` of it, at most `max_ranked`; the
        index search's best document leads when there was a search, and the document
        holding the best passage of all comes second (one row of a workbook can answer a
        question the workbook as a whole ranks low for)."""
        best = corpus.best_score
        if best <= 0:
            return []
        close = [r for r in corpus.ranking if r.score >= self.tuning.margin * best]
        lead = next((corpus.rank(p) for p in searched if corpus.rank(p) is not None), None)
        if lead is not None:
            close = [lead, *(r for r in close if r.path != lead.path)]
        leader = corpus.rank(corpus.passage_leader) if corpus.passage_leader else None
        if leader is not None and leader not in close[: self.tuning.max_ranked]:
            close = [*close[:1], leader, *(r for r in close[1:] if r.path != leader.path)]
        return close[: self.tuning.max_ranked]

    def _windows(self, corpus: Corpus, ranked: Ranked, top: bool) -> list[int]:
        """Offsets of the pages (of PAGE_CHARS) worth reading in a document: the first, and
        those holding its better sections (`page_share`); every page (up to `top_pages`)
        of the best document."""
        length = len(corpus.docs[ranked.path].text)
        pages = max(1, -(-length // PAGE_CHARS))
        if top:
            return [n * PAGE_CHARS for n in range(min(pages, self.tuning.top_pages))]
        wanted = {0}
        if ranked.best:
            floor = self.tuning.page_share * ranked.best[0][0]
            wanted |= {s.start // PAGE_CHARS for score, s in ranked.best if score >= floor}
        return [n * PAGE_CHARS for n in sorted(wanted) if n < pages]

    def _next_read(
        self, corpus: Corpus, progress: Progress, searched: Sequence[str]
    ) -> Action | None:
        total = len(corpus.ranking)
        under = f" under {corpus.scope}/" if corpus.scope else ""
        for index, ranked in enumerate(self._chosen(corpus, searched)):
            if ranked.path in progress.failed:
                continue
            for offset in self._windows(corpus, ranked, top=index == 0):
                if progress.covered(ranked.path, offset):
                    continue
                if offset == 0:
                    why = (
                        ", and holds the passage that matches it best"
                        if ranked.path == corpus.passage_leader and index
                        else ""
                    )
                    reason = (
                        f"Read: ranked {corpus.ranking.index(ranked) + 1} of {total}{under} "
                        f"for the question (BM25 {ranked.score:.1f}){why}, "
                        f"'{corpus.docs[ranked.path].title}'."
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
        if len(progress.ranges) >= self.tuning.max_documents:
            return None
        for target, ref, source in self._references(corpus, progress):
            reason = (
                f"Backtrack: {source} refers to '{ref.name}', which is {target}; "
                "it may hold what the question asks."
            )
            return _parse_action(target, 0, reason)
        return None

    def _references(self, corpus: Corpus, progress: Progress) -> list[tuple[str, Reference, str]]:
        """References worth following, best first: (target, reference, citing file) for
        unread targets named in passages that score for the question, or that rank
        reasonably themselves."""
        tuning = self.tuning
        passages = _passage_scores(corpus, progress, tuning)
        best_passage = max((s for found in passages.values() for _, s in found), default=0.0)
        readings = _readings(corpus, progress)
        picked = select(
            candidates(corpus.question, readings, corpus.stats, tuning=tuning), tuning=tuning
        )
        quoted = {(c.path, c.span.start, c.span.end) for c in picked}
        found: dict[str, tuple[float, int, Reference, str]] = {}
        for path in progress.order:
            text = corpus.docs[path].text
            for start, end in sorted(progress.ranges[path]):
                for ref in find_references(text[start:end]):
                    target = resolve(ref, corpus.targets, source=path, tuning=tuning)
                    if not target or target in progress.ranges or target in progress.failed:
                        continue
                    at = start + ref.start
                    near = (s for span, s in passages[path] if span.start <= at < span.end)
                    passage = max(near, default=0.0) / best_passage if best_passage else 0.0
                    in_answer = any(p == path and a <= at < b for p, a, b in quoted)
                    standing = corpus.standing(target)
                    if not (in_answer or _worth_following(passage, standing, tuning)):
                        continue
                    # a reference in a passage the answer would quote comes first
                    priority = passage + standing + (tuning.quoted_bonus if in_answer else 0.0)
                    if target not in found or priority > found[target][0]:
                        found[target] = (priority, len(found), ref, path)
        ordered = sorted(found.items(), key=lambda item: (-item[1][0], item[1][1]))
        return [(target, ref, source) for target, (_, _, ref, source) in ordered]

    # -- answering ------------------------------------------------------------------------

    def _answer(self, corpus: Corpus, progress: Progress) -> Action:
        readings = _readings(corpus, progress)
        return extractive_answer(corpus.question, readings, corpus.stats, tuning=self.tuning)


def _readings(corpus: Corpus, progress: Progress) -> list[Reading]:
    """What the run has read, as the answer sees it."""
    return [
        Reading(
            path,
            corpus.docs[path],
            corpus.units[path],
            progress.ranges[path],
            corpus.standing(path),
        )
        for path in progress.order
    ]


def _passage_scores(
    corpus: Corpus, progress: Progress, tuning: Tuning
) -> dict[str, list[tuple[Span, float]]]:
    """The score for the question of every passage shown so far, per document."""
    question, idf = corpus.question, corpus.stats.idf
    out: dict[str, list[tuple[Span, float]]] = {}
    for path in progress.order:
        text = corpus.docs[path].text
        out[path] = [
            (
                u.span,
                score_unit(
                    question, text[u.span.start : u.span.end], u.context, idf, tuning=tuning
                )[0],
            )
            for u in corpus.units[path]
            if not u.parts and progress.covered(path, u.span.start)
        ]
    return out


def _worth_following(passage: float, standing: float, tuning: Tuning) -> bool:
    """Whether to read a referenced document, given how the passage naming it scores for
    the question (`passage`) and how the document itself ranks (`standing`), both relative
    to the best (0 to 1)."""
    pair_passage, pair_standing = tuning.follow_pair
    return (
        (passage >= pair_passage and standing >= pair_standing)
        or standing >= tuning.follow_standing
        or passage >= tuning.follow_passage
    )


def _parse_action(path: str, offset: int, reason: str) -> Action:
    if offset:
        return Action.call("parse_file", reason, path=path, offset=offset, limit=PAGE_CHARS)
    return Action.call("parse_file", reason, path=path)
