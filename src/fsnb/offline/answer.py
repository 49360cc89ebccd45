"""The offline strategy's extractive answer: candidate passages, the choice, citations.

Candidates are the sentences, short paragraphs, list items and table rows of what the run
read (`fsnb.segments`), plus each run of list items or table rows as a group. They are
scored with `fsnb.offline.passages`, chosen greedily, and written as markdown bullets in
which every statement carries `[n]`, each `n` citing the exact text it quotes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from fsnb.documents import Document
from fsnb.offline.passages import (
    FULL_DATE,
    WEAK_KINDS,
    Question,
    Scored,
    absent_words,
    analyze,
    apart_phrases,
    features,
    quote_spans,
    score_unit,
    select,
)
from fsnb.offline.ranking import BM25, tokens
from fsnb.offline.references import find_references
from fsnb.offline.tuning import Tuning
from fsnb.protocol import Action, CitedSource
from fsnb.segments import Span, blocks, sentences

NOTE = "_(offline extractive backend: quoted passages, no LLM)_"

_MARKER = re.compile(r"\[(\d{1,3})\]")
_RULE_AFTER = re.compile(r"[ \t]*\n[ \t]*\|?[ \t]*:?-{3,}")


@dataclass(frozen=True)
class Unit:
    """A candidate passage and its context (the heading over it, a table's header row);
    a group (a list, a table) also has the spans of its items."""

    span: Span
    context: str
    parts: tuple[Span, ...] = ()


def units(text: str, *, tuning: Tuning) -> list[Unit]:
    """Every candidate passage of a document's text, in order: its blocks' sentences, its
    paragraphs up to `paragraph_chars`, and its lists and tables up to `group_items`."""
    out: list[Unit] = []
    heading = ""
    header: str | None = None
    previous: Span | None = None
    run: list[Unit] = []

    def flush() -> None:
        if 2 <= len(run) <= tuning.group_items:
            span = Span(run[0].span.start, run[-1].span.end, "group")
            out.append(Unit(span, run[0].context, tuple(u.span for u in run)))
        run.clear()

    for block in blocks(text):
        piece = text[block.start : block.end]
        if block.kind not in ("item", "row") or block.kind != (previous and previous.kind):
            flush()
        if block.kind == "heading":
            heading = piece.lstrip("#").strip()
        elif block.kind == "row":
            if _RULE_AFTER.match(text, block.end):
                header = piece  # a markdown table's header row: context, not a candidate
            else:
                if not (previous is not None and previous.kind == "row"):
                    header = None
                unit = Unit(block, f"{heading} {header}" if header else heading)
                out.append(unit)
                run.append(unit)
        elif block.kind == "item":
            unit = Unit(block, heading)
            out.append(unit)
            run.append(unit)
        else:
            parts = sentences(text, block)
            out.extend(Unit(s, heading) for s in parts)
            if len(parts) > 1 and block.end - block.start <= tuning.paragraph_chars:
                out.append(Unit(block, heading))
        previous = block
    flush()
    return out


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
                rank = order * 10**7 + unit.span.start
                found = Scored(reading.path, unit.span, piece, score * factor, terms, kinds, rank)
                scored[unit.span] = found
                out.append(found)
        for unit in reading.units:
            items = sorted((scored[p] for p in unit.parts if p in scored), key=lambda s: -s.score)
            if len(items) < 2 or not reading.shown(unit.span.start):
                continue
            score = 0.95 * items[0].score + tuning.group_share * sum(i.score for i in items[1:])
            terms = set().union(*(i.terms for i in items))
            kinds = set().union(*(i.kinds for i in items))
            piece = text[unit.span.start : unit.span.end]
            rank = order * 10**7 + unit.span.start
            out.append(
                Scored(reading.path, unit.span, piece, score, terms, kinds, rank, unit.parts)
            )
    return out


#: A question that asks for every item of something keeps its list.
_LIST = re.compile(
    r"\b(?:list|all|every|each|enumerate|summari[sz]e|overview|complete picture|timeline|"
    r"what are the|who are|(?:which|what) \w+[^\Ws]s\b)",
    re.IGNORECASE,
)


def asks_for_list(text: str) -> bool:
    """Whether a question asks for all the items of something ("list the conditions",
    "which patents"), rather than one fact."""
    return _LIST.search(text) is not None


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
    unsaid = absent_words(question, stats.df, tuning.rare_word) or (
        apart_phrases(question, texts, tuning.phrase_window) if chosen else []
    )
    if not chosen or unsaid or not answers(question, chosen, stats, tuning=tuning):
        return _not_found(question, readings, chosen, documents, stats, tuning, unsaid)
    return _compose(question, chosen, documents, stats, tuning, listing, pool)


def answers(question: Question, chosen: list[Scored], stats: BM25, *, tuning: Tuning) -> bool:
    """Whether the chosen passages answer the question rather than brush past it.

    A share of the question (`found_share`, by weight) must occur in the folder,
    terms no document contains weighing as much as a typical term of the question; and the
    best passage (`best_share`) and the passages together (`union_share`) must hold a fair
    share of the part that does occur."""
    seen = {t: stats.idf(t) * question.weight(t) for t in question.content if stats.df.get(t)}
    if not seen:
        return False
    typical = sorted(seen.values())[len(seen) // 2]
    unseen = sum(typical * question.weight(t) for t in question.content if t not in seen)
    found = sum(seen.values())
    if found / (found + unseen) < tuning.found_share:
        return False
    covered = set().union(*(c.terms for c in chosen))
    best = max(sum(seen.get(t, 0) for t in c.terms) for c in chosen)
    union = sum(seen.get(t, 0) for t in covered)
    return best / found >= tuning.best_share and union / found >= tuning.union_share


def _compose(
    question: Question,
    chosen: list[Scored],
    documents: dict[str, Document],
    stats: BM25,
    tuning: Tuning,
    listing: bool,
    pool: list[Scored],
) -> Action:
    """The answer first: one line made of the sentence (or row, or item) that best covers
    each part of the question; then the other chosen passages, less what that line quotes,
    up to `support_statements` and `answer_chars` (for a list: `max_statements` and twice
    the characters)."""
    lead = [] if listing else _lead(question, pool, stats, tuning)
    if not lead:
        lead = chosen[:1]
    support: list[Scored] = []
    size = sum(len(c.text) for c in lead)
    taken = {(c.path, c.span) for c in lead}
    limit = tuning.max_statements if listing else tuning.support_statements
    parts = len(_PARTS.split(question.text))
    budget = tuning.answer_chars * (2 if listing or parts > 1 else 1)
    for found in chosen:
        if len(support) >= limit:
            break
        doc = documents[found.path]
        item = None if (found.path, found.span) in taken else _beyond(found, lead, doc)
        if item is None or (size + len(item.text) > budget and support):
            continue
        support.append(item)
        size += len(item.text)
    citations: list[CitedSource] = []
    first = [_cited(c, documents, stats, question, tuning, citations, source=False) for c in lead]
    lines = ["; ".join(p.rstrip(".") for p in first) + "."]
    if support:
        lines.append("")
        lines += [
            f"- {_cited(item, documents, stats, question, tuning, citations)}" for item in support
        ]
    lines.append(f"\n{NOTE}")
    count = len({c.path for c in citations})
    reason = f"Answered with {len(citations)} cited passages from {count} documents."
    return Action.stop("\n".join(lines), reason, citations)


#: Where a question asks a second thing: "..., and when ...", "...; what ...".
_PARTS = re.compile(
    r"\s*,?\s+and\s+(?=(?:what|when|where|who|whom|which|how|why|is|are|was|were|do|does|"
    r"did|has|have|at what|for how|in what|on what)\b)|\s*;\s+|\?\s+(?=\S)",
    re.IGNORECASE,
)


def _lead(question: Question, pool: list[Scored], stats: BM25, tuning: Tuning) -> list[Scored]:
    """The one-sentence units (sentences, rows, items) that make the answer's first line:
    for each part of the question ("when ..., and what ..."), the unit that covers most of
    that part's weight and gives the kind of value it asks for, for its length; then, up
    to `lead_parts`, units covering what those leave open (a question term worth
    `lead_gain` of the question, or a kind of value asked for)."""
    weights = {t: stats.idf(t) * question.weight(t) for t in question.content}
    best = max((c.score for c in pool), default=0.0)
    singles = [
        c
        for c in pool
        if not c.parts and c.score >= tuning.floor * best and _one_sentence(_said(c))
    ]
    if not singles:
        return []
    picked: list[Scored] = []
    for part in _PARTS.split(question.text):
        asked = analyze(part, tuning=tuning)
        terms = set(asked.terms) & set(weights)
        total = sum(weights[t] for t in terms) or 1.0
        strong = asked.wants - WEAK_KINDS

        def value(
            c: Scored,
            terms: set[str] = terms,
            total: float = total,
            asked: Question = asked,
            strong: frozenset[str] = strong,
        ) -> float:
            covered = sum(weights[t] for t in c.terms & terms) / total
            gives = features(c.text) & asked.wants
            if "date" in gives and not FULL_DATE.search(c.text):
                gives = gives - {"date"}  # a bare year does not say when
            lacking = tuning.lead_lacking if strong and not gives & strong else 1.0
            kind = tuning.lead_kind * len(gives)
            return lacking * (covered + kind) / (1 + len(c.text.split()) / 120)

        rest = [c for c in singles if not _overlaps(c.path, c.span, picked)]
        if rest and len(picked) < tuning.lead_parts:
            pick = max(rest, key=lambda c: (value(c), c.score, -c.order))
            if value(pick) > 0:
                picked.append(pick)
    total = sum(weights.values()) or 1.0
    terms = set().union(*(c.terms for c in picked))
    kinds = set().union(*(c.kinds for c in picked))
    while picked and len(picked) < tuning.lead_parts:

        def gain(c: Scored, terms: set[str] = terms, kinds: set[str] = kinds) -> float:
            new = sum(weights.get(t, 0.0) for t in c.terms - terms) / total
            return new + (tuning.lead_kind if c.kinds - kinds else 0.0)

        rest = [c for c in singles if not _overlaps(c.path, c.span, picked)]
        if not rest:
            break
        pick = max(rest, key=lambda c: (gain(c), c.score, -c.order))
        if gain(pick) < tuning.lead_gain:
            break
        picked.append(pick)
        terms |= pick.terms
        kinds |= pick.kinds
    return picked


def _said(item: Scored) -> str:
    """A unit as the answer words it."""
    whole = Span(0, len(item.text), item.span.kind)
    return statement(item.text, whole, whole)


def _one_sentence(text: str) -> bool:
    return len(sentences(text, Span(0, len(text), "text"))) <= 1


def _overlaps(path: str, span: Span, others: list[Scored]) -> bool:
    """Whether `span` of the document `path` shares text with one of `others`."""
    return any(
        o.path == path and o.span.start < span.end and span.start < o.span.end for o in others
    )


def _beyond(item: Scored, lead: list[Scored], doc: Document) -> Scored | None:
    """The passage less what the first line already quotes: its sentences (or items)
    outside the lead units; None when nothing is left."""
    if not _overlaps(item.path, item.span, lead):
        return item
    pieces = item.parts or tuple(sentences(doc.text, item.span))
    kept = tuple(p for p in pieces if not _overlaps(item.path, p, lead))
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
        return sum(stats.idf(t) for t in question.unit_terms(text)) + 0.05 * numbers

    parts = []
    for unit in item.parts or (item.span,):
        for piece in quote_spans(doc.text, unit, weigh, tuning.quote_chars):
            quote = doc.text[piece.start : piece.end]
            number = len(citations) + 1
            page = doc.page_at(piece.start)
            citations.append(CitedSource(id=number, path=item.path, page=page, quote=quote))
            said = statement(doc.text, piece, unit)
            parts.append(f"{said if source else said.rstrip('.')} [{number}]")
    joiner = "; " if item.parts else " "
    return f"_{item.path}_: {joiner.join(parts)}" if source else joiner.join(parts)


def _not_found(
    question: Question,
    readings: list[Reading],
    chosen: list[Scored],
    documents: dict[str, Document],
    stats: BM25,
    tuning: Tuning,
    unsaid: list[str],
) -> Action:
    """Says plainly that the documents read do not state what was asked (`unsaid`: the
    words or phrase they lack, when known), what was looked for, and the closest related
    passages, cited as related, not as the answer."""
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
    lines = [
        f"I could not find this: the documents I read do not state it. Nothing in them "
        f"answers the question about {_phrase(missing)}. I looked for "
        f"{_phrase(_searched(question, words))} {where}."
    ]
    citations: list[CitedSource] = []
    related = sorted(chosen, key=lambda c: -c.score)[: tuning.related_statements]
    if related:
        lines.append("\nClosest related passages (they do not answer it):")
        lines += [
            f"- {_cited(item, documents, stats, question, tuning, citations)}" for item in related
        ]
    lines.append(f"\n{NOTE}")
    return Action.stop("\n".join(lines), "Nothing read states what the question asks.", citations)


def _searched(question: Question, words: list[str]) -> list[str]:
    return [w for w in dict.fromkeys(words) if (t := tokens(w)) and t[0] in question.content]


def _phrase(words: list[str]) -> str:
    shown = list(dict.fromkeys(w.strip("'") for w in words))[:6]
    return ", ".join(f'"{w}"' for w in shown) if shown else "what it asks"


def unreferenced(text: str) -> str:
    """The text with the titles of the documents it refers to blanked out: their words
    describe the other document, not what this passage says."""
    for ref in reversed(find_references(text)):
        if ref.kind in ("document", "named", "file"):
            text = text[: ref.start] + " " * (ref.end - ref.start) + text[ref.end :]
    return text


def statement(text: str, piece: Span, unit: Span) -> str:
    """A passage as a readable statement: markdown marks dropped, table cells labelled by
    their header, citation-like brackets defused."""
    raw = text[piece.start : piece.end]
    if unit.kind == "row":
        cells = table_cells(raw)
        header = table_header(text, unit.start)
        names = table_cells(header) if header else []
        if names and len(names) == len(cells) and names != cells:
            raw = "; ".join(f"{n}: {c}" if n else c for n, c in zip(names, cells, strict=True))
        else:
            raw = " · ".join(c for c in cells if c)
    raw = re.sub(r"^\s*(?:#+|[-*•▪–])\s+", "", raw)
    raw = _MARKER.sub(r"(\1)", raw)
    return " ".join(raw.split())


def table_cells(row: str) -> list[str]:
    """The cells of a table row as a document's text prints it ("a | b", "| a | b |")."""
    return [c.strip() for c in row.strip().strip("|").split("|")]


def table_header(text: str, start: int) -> str:
    """The header row of the markdown table holding the row that starts at `start` ('' when
    the row is not in a table with a header)."""
    lines = text[:start].split("\n")[:-1]
    for index in range(len(lines) - 1, 0, -1):
        stripped = lines[index].strip()
        if not stripped or "|" not in stripped:
            return ""
        if re.fullmatch(r"[|:\-+= ]+", stripped):
            return lines[index - 1].strip()
    return ""
