"""What the offline strategy knows about the folder for one question, computed once.

The documents come from the explorer (`Conversation.documents`: the folder as its sandbox
lets the run read it); the strategy never lists or parses files itself. A question that
names one of their folders ("in my Taxes folder", `fsnb.offline.scope`) is answered from
the documents under it: the others are neither ranked nor read, and the words that named
the folder are left out of the question's terms.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from fsnb.documents import Document
from fsnb.errors import FsnbError
from fsnb.offline.asked import Absent, absent
from fsnb.offline.passages import score_unit
from fsnb.offline.question import Question, analyze
from fsnb.offline.ranking import BM25, Ranked, document_terms, rank_documents, tokens
from fsnb.offline.references import Target
from fsnb.offline.scope import folders_of, named_folder
from fsnb.offline.tuning import Tuning
from fsnb.offline.units import Unit, units
from fsnb.protocol import Documents
from fsnb.text.words import stem, tokenize


@dataclass
class Corpus:
    """The folder's documents with text, the question analysed against them, their
    ranking, term statistics over every candidate passage (for IDF), the files references
    may point to, and each document's candidate passages. `scope`: the folder the question
    named, whose documents alone these are ("" for the whole folder); `task`: the question
    as analysed (without the words naming that folder)."""

    docs: dict[str, Document]
    question: Question
    ranking: list[Ranked]
    stats: BM25
    targets: list[Target]
    units: dict[str, list[Unit]] = field(default_factory=dict)
    scope: str = ""
    task: str = ""
    #: The question's words that no document holds, nor a file's name.
    absent: tuple[Absent, ...] = ()
    #: The document holding the passage that scores best for the question, of all of
    #: them (a workbook's one matching row, where the workbook as a whole ranks low).
    passage_leader: str | None = None

    @property
    def best_score(self) -> float:
        return self.ranking[0].score if self.ranking and self.ranking[0].score > 0 else 0.0

    def rank(self, path: str) -> Ranked | None:
        return next((r for r in self.ranking if r.path == path), None)

    def own(self, paths: Sequence[str], words: Sequence[str]) -> bool:
        """Whether the documents at `paths` hold each of `words` (by stem): a question's
        words that only another document uses ("electricity" in a lease) say nothing of
        a table read from these."""
        held = {t for p in paths if p in self.docs for t in tokenize(self.docs[p].text)}
        return all(stem(w) in held for w in words)

    def standing(self, path: str) -> float:
        """How the document ranks: its score over the best document's (0 to 1)."""
        ranked, best = self.rank(path), self.best_score
        return ranked.score / best if ranked and best else 0.0


#: What a superseded copy's score is multiplied by: an archived handbook, a draft of the
#: minutes, rank under the current one (hand-set).
SUPERSEDED = 0.5
#: Marks of a superseded copy: in its folders or file name ("Archive/", "_DRAFT_v2")...
_OLD_PATH = re.compile(
    r"(?i)(?:^|[/_\W])(?:archived?|old|superseded|obsolete|drafts?|backups?|previous)(?:$|[/_\W])"
)
#: ...or at the head of its text ("DRAFT - not approved", "Superseded by ...").
_OLD_TEXT = re.compile(r"\bDRAFT\b|(?i:\bsuperseded\b|\bnot (?:yet )?approved\b)")
#: Characters at the head of a document where a draft or superseded mark counts.
HEAD_CHARS = 400


def superseded(path: str, document: Document) -> bool:
    """Whether a document marks itself, or is filed, as a superseded copy: a draft, an
    archived or old version."""
    return bool(_OLD_PATH.search(path) or _OLD_TEXT.search(document.text[:HEAD_CHARS]))


def _old_copies(docs: dict[str, Document], asked: set[str]) -> frozenset[str]:
    """The superseded copies among the documents, unless the question asks for one ("the
    draft minutes", "the archived budget")."""
    if asked & set(tokens("draft archive archived old superseded previous obsolete backup")):
        return frozenset()
    return frozenset(path for path, document in docs.items() if superseded(path, document))


def build_corpus(documents: Documents, task: str, tuning: Tuning) -> Corpus:
    """Analyse the question against the documents that have text (one that cannot be read
    is left out), and rank them; only those under the folder the question names, if it
    names one of theirs."""
    docs: dict[str, Document] = {}
    for path in documents.paths():
        try:
            document = documents.document(path)
        except (FsnbError, OSError):
            continue
        if document.text.strip():
            docs[path] = document
    scope = named_folder(task, folders_of(docs))
    if scope is not None:
        docs = {path: d for path, d in docs.items() if scope.holds(path)}
        task = scope.rest(task)
    question = analyze(task, [d.text for d in docs.values()], tuning=tuning)

    def terms(text: str) -> list[str]:
        found = tokens(text)
        found += [term for term, pattern in question.aliases.items() if pattern.search(text)]
        return found

    vocabularies = [set(terms(d.text)) for d in docs.values()]
    question.discount_background(
        {t: sum(t in v for v in vocabularies) / len(vocabularies) for t in question.content}
        if vocabularies
        else {},
        tuning,
    )
    texts = {path: (d.title, d.text) for path, d in docs.items()}
    ranking = rank_documents(
        question.content, texts, question.weights, tuning=tuning, tokenize=terms
    )
    old = _old_copies(docs, set(question.content))
    ranking = sorted(
        (replace(r, score=r.score * SUPERSEDED) if r.path in old else r for r in ranking),
        key=lambda r: -r.score,
    )
    unit_map = {path: units(d.text, tuning=tuning) for path, d in docs.items()}
    flat = [(path, u) for path in docs for u in unit_map[path] if not u.parts]
    corpus_units = [terms(docs[path].text[u.span.start : u.span.end]) for path, u in flat]
    headings = {(path, u.context) for path in docs for u in unit_map[path] if u.context}
    context_terms = {context: terms(context) for _, context in headings}
    stats = BM25(corpus_units + [context_terms[context] for _, context in sorted(headings)])
    # the best passage of all, scored as answers are, of those holding a question term
    forms = question.forms.keys() | question.aliases.keys()
    leader, best = None, 0.0
    for (path, unit), held in zip(flat, corpus_units, strict=True):
        if forms.isdisjoint(held) and forms.isdisjoint(context_terms.get(unit.context, ())):
            continue
        text = docs[path].text[unit.span.start : unit.span.end]
        score = score_unit(question, text, unit.context, stats.idf, tuning=tuning)[0]
        score *= SUPERSEDED if path in old else 1.0
        if score > best:
            leader, best = path, score
    targets = [Target(path, d.title, d.text) for path, d in docs.items()]
    folder = scope.folder if scope else ""
    named = set().union(*(document_terms(p, d.title) for p, d in docs.items()))
    lacking = tuple(absent(question, stats.df, tuning.rare_word, named))
    return Corpus(docs, question, ranking, stats, targets, unit_map, folder, task, lacking, leader)
