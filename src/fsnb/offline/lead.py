"""The first line of an offline answer: for each part of the question, the short unit
(a sentence, a row, an item) that answers it.

Each unit is described for each part by named features (`fsnb.offline.features`) and
scored by the fitted "lead" model (`fsnb.offline.scoring`); the best unit of each part
joins the line, and the first one's score says why it was chosen and how sure the choice
is (`Lead.why`). A question that asks for a list opens instead with the entries of the
sections whose headings name it (`listed`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from fsnb.offline.features import PARTS, Part, Source, parts
from fsnb.offline.named import dated, in_months, names, periods
from fsnb.offline.passages import WEAK_KINDS, Scored
from fsnb.offline.question import Question, kind_words
from fsnb.offline.ranking import BM25, document_terms, tokens
from fsnb.offline.scoring import Explained, model
from fsnb.offline.statements import statement
from fsnb.offline.tuning import Tuning
from fsnb.text.segments import Span, blocks, sentences

if TYPE_CHECKING:
    from fsnb.offline.compose import Reading

__all__ = ["PARTS", "Lead", "first_line", "listed", "overlaps", "sources"]


@dataclass(frozen=True)
class Lead:
    """The units of the answer's first line and why the first was chosen."""

    units: list[Scored]
    why: Explained | None = None


def first_line(
    question: Question,
    pool: list[Scored],
    stats: BM25,
    tuning: Tuning,
    sources: dict[str, Source],
) -> Lead:
    """The short units (sentences, rows, items) that make the answer's first line: for
    each part of the question, the unit the lead model scores best for it, unless a unit
    already picked scores as well; then, up to `lead_parts`, units covering what those
    leave open (a question term worth `lead_gain` of the question, or a strong kind of
    value asked for: an amount, a date...), none from a document dated in a month other
    than those the question names, nor from one that lacks a name it gives. `sources`: what
    is known of each document."""
    weights = {t: stats.idf(t) * question.weight(t) for t in question.content}
    best = max((c.score for c in pool), default=0.0)
    singles = [c for c in pool if not c.parts and c.score >= tuning.floor * best and _short(c)]
    if not singles:
        return Lead([])
    lead = model("lead")
    picked: list[Scored] = []
    why: Explained | None = None
    for part in parts(question, weights, tuning):

        def worth(c: Scored, part: Part = part) -> Explained:
            return lead.score(part.describe(c, sources.get(c.path, Source()), best))

        rest = [c for c in singles if not overlaps(c.path, c.span, picked)]
        if not rest or len(picked) >= tuning.lead_parts:
            break
        scores = [worth(c) for c in rest]
        at = max(range(len(rest)), key=lambda i: (scores[i].score, rest[i].score, -rest[i].order))
        if not picked or scores[at].score > max(worth(c).score for c in picked):
            picked.append(rest[at])
            why = why or lead.chosen(scores, at)
    total = sum(weights.values()) or 1.0
    terms = set().union(*(c.terms for c in picked))
    kinds = set().union(*(c.kinds for c in picked))
    while picked and len(picked) < tuning.lead_parts:

        def gain(c: Scored, terms: set[str] = terms, kinds: set[str] = kinds) -> float:
            new = sum(weights.get(t, 0.0) for t in c.terms - terms) / total
            return new + (tuning.lead_kind if c.kinds - kinds - WEAK_KINDS else 0.0)

        rest = [
            c
            for c in singles
            if not overlaps(c.path, c.span, picked)
            and sources.get(c.path, Source()).period >= 0
            and not sources.get(c.path, Source()).strange
        ]
        if not rest:
            break
        pick = max(rest, key=lambda c: (gain(c), c.score, -c.order))
        if gain(pick) < tuning.lead_gain:
            break
        picked.append(pick)
        terms |= pick.terms
        kinds |= pick.kinds
    return Lead(picked, why)


def sources(question: Question, readings: list[Reading]) -> dict[str, Source]:
    """What the first line's features know of each document read: how it ranks, the
    terms that name it (file, folders, title), and whether it is dated in a month the
    question names; a file named for that month ("Bills/2024-03.pdf") also says the
    question's words for it ("March")."""
    asked = periods(question.text)[0]
    months = {m for p in asked for m in p.months}
    years = {p.year for p in asked if p.year is not None}
    words = frozenset(question.unit_terms(" ".join(p.label for p in asked if p.months)))
    given = {t for n in names(question.text) for t in tokens(n.label)}

    def source(reading: Reading) -> Source:
        terms = frozenset(document_terms(reading.path, reading.document.title))
        missing = given - terms  # the document's text is read only for names it may lack
        strange = bool(missing) and not missing <= set(tokens(reading.document.text))
        when = dated(reading.path, reading.document) if months else None
        if when is None:
            return Source(reading.standing, named=terms, strange=strange)
        if in_months(when, months, years):
            named = dated(reading.path, None) == when
            return Source(reading.standing, 1.0, words if named else frozenset(), terms, strange)
        return Source(reading.standing, -1.0, named=terms, strange=strange)

    return {r.path: source(r) for r in readings}


def _short(item: Scored) -> bool:
    """Whether a unit can stand in the first line: one sentence, or a list item, table
    row or paragraph of a few short ones (`LEAD_WORDS` words), written as one."""
    said = _said(item)
    return _one_sentence(said) or len(said.split()) <= LEAD_WORDS


#: Words a unit of several sentences holds at most to stand in the answer's first line.
LEAD_WORDS = 45


def _said(item: Scored) -> str:
    """A unit as the answer words it."""
    whole = Span(0, len(item.text), item.span.kind)
    return statement(item.text, whole, whole)


def _one_sentence(text: str) -> bool:
    return len(sentences(text, Span(0, len(text), "text"))) <= 1


def overlaps(path: str, span: Span, others: list[Scored]) -> bool:
    """Whether `span` of the document `path` shares text with one of `others`."""
    return any(
        o.path == path and o.span.start < span.end and span.start < o.span.end for o in others
    )


def listed(
    question: Question, readings: list[Reading], stats: BM25, tuning: Tuning
) -> list[Scored]:
    """For a question that asks for a list ("which patents and applications"), the entries
    of the sections whose headings name what it asks for ("Issued patents", "Pending
    applications"): the first sentence of each paragraph, item or row under them, from
    the document whose headings name the most of the question (`list_heading` of its
    weight at least); none when no document's do."""
    kinds = kind_words(question)
    weights = {t: stats.idf(t) * question.weight(t) for t in question.content if t not in kinds}
    total = sum(weights.values()) or 1.0
    best: tuple[float, list[Scored]] = (tuning.list_heading, [])
    for reading in readings:
        text = reading.document.text
        named: set[str] = set()  # the question terms the headings so far name
        heading: set[str] = set()  # those the current heading names
        entries: list[Scored] = []
        for block in blocks(text):
            if block.kind == "heading":
                heading = question.unit_terms(text[block.start : block.end]) & weights.keys()
                named |= heading
            elif heading and reading.shown(block.start):
                first = sentences(text, block)[0]
                piece = text[first.start : first.end]
                entries.append(Scored(reading.path, first, piece, 0.0, set(heading), set()))
        share = sum(weights[t] for t in named if any(t in e.terms for e in entries)) / total
        if len(entries) >= 2 and share >= best[0]:
            best = (share, entries[: tuning.max_statements])
    return best[1]
