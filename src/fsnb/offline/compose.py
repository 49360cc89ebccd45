"""The offline strategy's extractive answer: candidate passages, the choice, citations.

Candidates are the units of what the run read (`fsnb.offline.units`: sentences, short
paragraphs, list items and table rows, and each run of items or rows as a group). They are
scored with `fsnb.offline.passages`, chosen greedily, and written as markdown bullets in
which every statement carries `[n]`, each `n` citing the exact text it quotes. The fitted
"answer" model (`judged`) says how likely the answer is right, from what its first line
holds of the question and the doubts `fsnb.offline.asked` raises; under its threshold the
answer says "not found" (a doubt) or "not sure", and the passages are shown as the closest
ones, not stated as the answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from fsnb.documents import Document
from fsnb.offline.asked import (
    SHOWN_WORDS,
    absent_words,
    answers,
    apart_phrases,
    asks_for_list,
    worded_otherwise,
)
from fsnb.offline.features import answer_features
from fsnb.offline.lead import PARTS, Lead, first_line, listed, overlaps, sources
from fsnb.offline.passages import FEATURES, WEAK_KINDS, Scored, score_unit, select
from fsnb.offline.question import Question
from fsnb.offline.quotes import quote_spans
from fsnb.offline.ranking import BM25, tokens
from fsnb.offline.scoring import Explained, model
from fsnb.offline.statements import DIGIT_WEIGHT, one_line, statement, unreferenced
from fsnb.offline.tuning import Tuning
from fsnb.offline.units import Unit
from fsnb.protocol import Action, CitedSource
from fsnb.text.segments import Span, blocks, sentences

NOTE = "_(offline extractive backend: quoted passages, no LLM)_"
#: Candidates are ordered by reading, then position: a stride past any document's length.
DOCUMENT_STRIDE = 10**7
#: A group scores this share of its best item plus `group_share` of the others (hand-set).
TOP_ITEM = 0.95


@dataclass
class Reading:
    """A document the run read: which characters were shown, and how well it ranked
    (`standing`: its score over the best document's, 0 to 1)."""

    path: str
    document: Document
    units: list[Unit]
    ranges: list[tuple[int, int]] = field(default_factory=list)
    standing: float = 0.0

    def shown(self, offset: int) -> bool:
        return any(a <= offset < b for a, b in self.ranges)


def candidates(
    question: Question, readings: list[Reading], stats: BM25, *, tuning: Tuning
) -> list[Scored]:
    """Score every shown unit of every reading, partly by how its document ranks; a group
    scores as its best item plus a share of its other matching items."""
    out: list[Scored] = []
    for order, reading in enumerate(readings):
        text = reading.document.text
        weight = tuning.standing_weight
        factor = 1 - weight + weight * min(reading.standing, 1.0)
        scored: dict[Span, Scored] = {}
        for unit in reading.units:
            if unit.parts or not reading.shown(unit.span.start):
                continue
            piece = text[unit.span.start : unit.span.end]
            score, terms, kinds = score_unit(
                question, unreferenced(piece), unit.context, stats.idf, tuning=tuning
            )
            if score > 0:
                rank = order * DOCUMENT_STRIDE + unit.span.start
                found = Scored(reading.path, unit.span, piece, score * factor, terms, kinds, rank)
                scored[unit.span] = found
                out.append(found)
        for unit in reading.units:
            items = sorted((scored[p] for p in unit.parts if p in scored), key=lambda s: -s.score)
            if len(items) < 2 or not reading.shown(unit.span.start):
                continue
            score = TOP_ITEM * items[0].score + tuning.group_share * sum(i.score for i in items[1:])
            terms = set().union(*(i.terms for i in items))
            kinds = set().union(*(i.kinds for i in items))
            piece = text[unit.span.start : unit.span.end]
            rank = order * DOCUMENT_STRIDE + unit.span.start
            matching = tuple(sorted((i.span for i in items), key=lambda s: s.start))
            out.append(Scored(reading.path, unit.span, piece, score, terms, kinds, rank, matching))
    return out


def extractive_answer(
    question: Question,
    readings: list[Reading],
    stats: BM25,
    *,
    tuning: Tuning,
) -> Action:
    """The stop action: the passage that answers the question first, then only the
    passages that add to it, each cited; or a plain "not found" with the closest related
    passages, cited as related."""
    listing = asks_for_list(question.text)
    pool = candidates(question, readings, stats, tuning=tuning)
    chosen = select(pool, tuning=tuning)
    documents = {r.path: r.document for r in readings}
    texts = [r.document.text for r in readings]
    about = sources(question, readings)
    # "the receipt": Receipts/4.pdf; "Cedar Valley Credit Union": the title over a form;
    # "March": a bill dated 2024-03
    names = {r.path: set(about[r.path].named | about[r.path].months) for r in readings}
    named = set().union(*names.values())
    unsaid = absent_words(question, stats.df, tuning.rare_word, named)
    if not chosen:
        return _not_found(question, readings, chosen, documents, stats, tuning, unsaid)
    otherwise = worded_otherwise(question, stats.df, tuning.rare_word, named)
    apart = apart_phrases(question, texts, tuning.phrase_window)
    doubts = {
        "unsaid": bool(unsaid),
        "apart": bool(apart),
        "brushed": not answers(question, chosen, stats, tuning, names),
    }
    entries = listed(question, readings, stats, tuning) if listing else []
    lead = Lead(entries) if entries else first_line(question, pool, stats, tuning, about)
    lead = lead if lead.units else Lead(chosen[:1])
    sure = judged(question, lead, stats, names, tuning, doubts, otherwise)
    if sure.probability < model("answer").threshold:
        if any(doubts.values()):  # the documents lack what it asks: not found
            lacking = unsaid or apart
            return _not_found(
                question, readings, chosen, documents, stats, tuning, lacking, sure=sure
            )
        doubt = f"the passages that would answer it are too unsure to state ({sure.why()})"
        others = [c for c in chosen if not overlaps(c.path, c.span, lead.units)]
        shown = [*lead.units, *others[: tuning.related_statements]]
        return _not_found(question, readings, shown, documents, stats, tuning, [], doubt)
    return _compose(question, chosen, lead, readings, stats, tuning, listing, sure)


def judged(
    question: Question,
    lead: Lead,
    stats: BM25,
    names: dict[str, set[str]],
    tuning: Tuning,
    doubts: dict[str, bool],
    otherwise: set[str],
) -> Explained:
    """How likely an answer that opens with `lead` is right: the fitted "answer" model
    (`bench/fit_answer.py`) over what its first line, with its files' names (`names`: path
    -> terms), holds of the question (less the common words no document holds,
    `otherwise`), and the `doubts` about the folder and the passages chosen (a rare word no
    document holds, a phrase never said, passages that brush past)."""
    held = set().union(*(c.terms | names.get(c.path, set()) for c in lead.units))
    described = answer_features(question, held, stats.idf, tuning, doubts, otherwise)
    return model("answer").judge(described)


def _compose(
    question: Question,
    chosen: list[Scored],
    first: Lead,
    readings: list[Reading],
    stats: BM25,
    tuning: Tuning,
    listing: bool,
    sure: Explained,
) -> Action:
    """The answer first: one line made of the sentence (or row, or item) that best covers
    each part of the question (for a list, the entries of the sections that name it);
    then, for a question that asks for an account ("what happens to ..."), the rest of
    the first unit's paragraph; then the chosen passages that add to it (`_support`). The
    stop's reason says why the first line was chosen."""
    documents = {r.path: r.document for r in readings}
    lead = first.units
    support = _support(question, chosen, lead, documents, tuning, listing)
    if _EXPLAIN.match(question.text):
        account = _rest_of_paragraph(lead[0], documents)
        support = [*account, *(s for s in support if not overlaps(s.path, s.span, account))]
    citations: list[CitedSource] = []
    said = [_cited(c, documents, stats, question, tuning, citations, source=False) for c in lead]
    lines = ["; ".join(p.rstrip(".") for p in said) + "."]
    if support:
        lines.append("")
        lines += [
            f"- {_cited(item, documents, stats, question, tuning, citations)}" for item in support
        ]
    lines.append(f"\n{NOTE}")
    count = len({c.path for c in citations})
    reason = f"Answered with {len(citations)} cited passages from {count} documents."
    if first.why is not None:
        reason += f" Why this first line ({lead[0].path}): {first.why.why()}."
    reason += f" How sure the answer is: {sure.why()}."
    return Action.stop("\n".join(lines), reason, citations)


def _support(
    question: Question,
    chosen: list[Scored],
    lead: list[Scored],
    documents: dict[str, Document],
    tuning: Tuning,
    listing: bool,
) -> list[Scored]:
    """The chosen passages that follow the first line, less what it quotes: those that add
    something the question asks that the answer lacks so far (a question term, a strong
    kind of value), or a rival value or document scoring `support_share` of the best
    passage; up to `support_statements` and `answer_chars` of quotes, `part_chars` more
    per further part of the question (for a list: all of them, up to `max_statements`
    and `list_chars`)."""
    limit = tuning.max_statements if listing else tuning.support_statements
    parts = len(PARTS.split(question.text))
    budget = (
        tuning.list_chars
        if listing
        else tuning.answer_chars * (1 + tuning.part_chars * (parts - 1))
    )
    size = sum(_size(c) for c in lead)
    taken = {(c.path, c.span) for c in lead}
    said = set().union(*(c.terms for c in lead))
    kinds = set().union(*(c.kinds for c in lead))
    paths = {c.path for c in lead}
    strong = question.wants - WEAK_KINDS
    shown = set().union(*(_values(c.text, strong) for c in lead))
    top = max((c.score for c in chosen), default=0.0)
    out: list[Scored] = []
    for found in chosen:
        if len(out) >= limit:
            break
        item = None if (found.path, found.span) in taken else _beyond(found, lead, documents)
        if item is None or (size + _size(item) > budget and out):
            continue
        new = _values(item.text, strong) - shown
        rival = (new or item.path not in paths) and found.score >= tuning.support_share * top
        if not (listing or item.terms - said or item.kinds - kinds - WEAK_KINDS or rival):
            continue  # it adds nothing the question asks that the answer lacks
        out.append(item)
        size += _size(item)
        said |= item.terms
        kinds |= item.kinds
        paths.add(item.path)
        shown |= new
    return out


def _size(item: Scored) -> int:
    """Characters of a passage the answer quotes (a group: its matching items)."""
    return sum(p.end - p.start for p in item.parts) if item.parts else len(item.text)


def _values(text: str, kinds: set[str] | frozenset[str]) -> set[str]:
    """The values of `kinds` a text gives ("$89,000", "June 3, 2025"), as written."""
    return {m.group(0) for kind in kinds for m in FEATURES[kind].finditer(text)}


#: A question that asks for an account rather than a value ("what happens to ...").
_EXPLAIN = re.compile(
    r"\s*(?:what (?:happens|happened|will happen)|how (?:does|do|did|will|would|is|are|was)|"
    r"why|describe|explain)\b",
    re.IGNORECASE,
)


def _rest_of_paragraph(unit: Scored, documents: dict[str, Document]) -> list[Scored]:
    """The sentences after `unit` in its paragraph, as one passage (none when it ends
    the paragraph): what an account goes on to say."""
    text = documents[unit.path].text
    block = next((b for b in blocks(text) if b.start <= unit.span.start < b.end), None)
    if block is None or block.kind != "text":
        return []
    after = [s for s in sentences(text, block) if s.start >= unit.span.end]
    if not after:
        return []
    span = Span(after[0].start, after[-1].end, "text")
    piece = text[span.start : span.end]
    return [replace(unit, span=span, text=piece, parts=tuple(after))]


def _beyond(item: Scored, lead: list[Scored], documents: dict[str, Document]) -> Scored | None:
    """The passage less what the first line already quotes: its sentences (or items)
    outside the lead units; None when nothing is left."""
    if not overlaps(item.path, item.span, lead):
        return item
    doc = documents[item.path]
    pieces = item.parts or tuple(sentences(doc.text, item.span))
    kept = tuple(p for p in pieces if not overlaps(item.path, p, lead))
    if not kept:
        return None
    text = " ".join(doc.text[p.start : p.end] for p in kept)
    return replace(item, text=text, parts=kept)


def _cited(
    item: Scored,
    documents: dict[str, Document],
    stats: BM25,
    question: Question,
    tuning: Tuning,
    citations: list[CitedSource],
    *,
    source: bool = True,
) -> str:
    """A passage as statements, each quote cited, and (`source`) the file it is from."""
    doc = documents[item.path]

    def weigh(text: str) -> float:
        numbers = len(re.findall(r"\d", text))
        return sum(stats.idf(t) for t in question.unit_terms(text)) + DIGIT_WEIGHT * numbers

    parts = []
    for unit in item.parts or (item.span,):
        for piece in quote_spans(doc.text, unit, weigh, tuning.quote_chars):
            quote = doc.text[piece.start : piece.end]
            number = len(citations) + 1
            page = doc.page_at(piece.start)
            citations.append(CitedSource(id=number, path=item.path, page=page, quote=quote))
            said = statement(doc.text, piece, unit)
            parts.append(f"{said if source else one_line(said)} [{number}]")
    if not source:
        return "; ".join(parts)
    return f"_{item.path}_: {('; ' if item.parts else ' ').join(parts)}"


def _not_found(
    question: Question,
    readings: list[Reading],
    chosen: list[Scored],
    documents: dict[str, Document],
    stats: BM25,
    tuning: Tuning,
    unsaid: list[str],
    doubt: str = "",
    *,
    sure: Explained | None = None,
) -> Action:
    """Says plainly that the documents read do not state what was asked (`unsaid`: the
    words or phrase they lack, when known), what was looked for, and the closest related
    passages, cited as related, not as the answer; `doubt`: why the passages `chosen`
    (the would-be first line first) were not stated, when they were too unsure."""
    covered = set().union(*(c.terms for c in chosen)) if chosen else set()
    words = [
        w.removesuffix("'s").removesuffix("’s") for w in re.findall(r"[\w'’-]+", question.text)
    ]
    missing = list(unsaid)
    if not missing:
        missing = [w for w in words if (t := tokens(w)) and t[0] in question.content]
        missing = [w for w in missing if tokens(w)[0] not in covered] or missing
    where = (
        f"in {', '.join(r.path for r in readings)}" if readings else "and no document holds them"
    )
    said = (
        f"I could not find this for certain: {doubt}. Nothing in them surely answers"
        if doubt
        else "I could not find this: the documents I read do not state it. Nothing in them answers"
    )
    lines = [
        f"{said} the question about {_phrase(missing)}. "
        f"I looked for {_phrase(_searched(question, words))} {where}."
    ]
    citations: list[CitedSource] = []
    # unsure: the would-be answer's first line, then the best others; not found: the best
    related = (
        chosen if doubt else sorted(chosen, key=lambda c: -c.score)[: tuning.related_statements]
    )
    if related:
        lines.append(
            "\nThe closest passages (I am not sure they answer it):"
            if doubt
            else "\nClosest related passages (they do not answer it):"
        )
        lines += [
            f"- {_cited(item, documents, stats, question, tuning, citations)}" for item in related
        ]
    lines.append(f"\n{NOTE}")
    reason = f"Too unsure to answer: {doubt}." if doubt else "Nothing read states it."
    if sure is not None:
        reason += f" How sure an answer would be: {sure.why()}."
    return Action.stop("\n".join(lines), reason, citations)


def _searched(question: Question, words: list[str]) -> list[str]:
    return [w for w in dict.fromkeys(words) if (t := tokens(w)) and t[0] in question.content]


def _phrase(words: list[str]) -> str:
    shown = list(dict.fromkeys(w.strip("'") for w in words))[:SHOWN_WORDS]
    return ", ".join(f'"{w}"' for w in shown) if shown else "what it asks"
