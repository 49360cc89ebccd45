"""The offline strategy's extractive answer: candidate passages, the choice, citations.

Candidates are the sentences, short paragraphs, list items and table rows of what the run
read (`fsnb.segments`), plus each run of list items or table rows as a group. They are
scored with `fsnb.offline.passages`, chosen greedily, and written as markdown bullets in
which every statement carries `[n]`, each `n` citing the exact text it quotes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from fsnb.documents import Document
from fsnb.offline.passages import Question, Scored, quote_spans, score_unit, select
from fsnb.offline.ranking import BM25
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


def extractive_answer(
    question: Question,
    readings: list[Reading],
    stats: BM25,
    *,
    tuning: Tuning,
) -> Action:
    """The stop action: cited passages that answer the question, or an honest "not found"."""
    chosen = select(candidates(question, readings, stats, tuning=tuning), tuning=tuning)
    if not chosen or not answers(question, chosen, stats, tuning=tuning):
        read = ", ".join(r.path for r in readings) or "none"
        text = (
            "I could not find an answer to this question in the documents I read "
            f"({read}). No passage there matches what the question asks, so I give no "
            f"answer rather than a guess.\n\n{NOTE}"
        )
        return Action.stop(text, "Nothing relevant was found in the documents read.")
    documents = {r.path: r.document for r in readings}
    return _compose(question, chosen, documents, stats, tuning.quote_chars)


def answers(question: Question, chosen: list[Scored], stats: BM25, *, tuning: Tuning) -> bool:
    """Whether the chosen passages answer the question rather than brush past it.

    A share of the question (`found_share`, by weight) must occur somewhere in the folder,
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
    quote_chars: int,
) -> Action:
    def weigh(text: str) -> float:
        numbers = len(re.findall(r"\d", text))
        return sum(stats.idf(t) for t in question.unit_terms(text)) + 0.05 * numbers

    first_seen = {c.path: i for i, c in reversed(list(enumerate(chosen)))}
    ordered = sorted(chosen, key=lambda c: (first_seen[c.path], c.span.start))
    lines = ["Passages from the documents that answer the question:"]
    citations: list[CitedSource] = []
    current = None
    for item in ordered:
        doc = documents[item.path]
        if item.path != current:
            current = item.path
            lines.append(f"\n**{item.path}** ({doc.title}):\n")
        for unit in item.parts or (item.span,):
            parts = []
            for piece in quote_spans(doc.text, unit, weigh, quote_chars):
                number = len(citations) + 1
                quote = doc.text[piece.start : piece.end]
                page = doc.page_at(piece.start)
                citations.append(CitedSource(id=number, path=item.path, page=page, quote=quote))
                parts.append(f"{statement(doc.text, piece, unit)} [{number}]")
            lines.append("- " + " ".join(parts))
    lines.append(f"\n{NOTE}")
    count = len({c.path for c in ordered})
    reason = f"Answered with {len(citations)} cited passages from {count} documents."
    return Action.stop("\n".join(lines), reason, citations)


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
        cells = [c.strip() for c in raw.strip().strip("|").split("|")]
        header = table_header(text, unit.start)
        names = [c.strip() for c in header.strip().strip("|").split("|")] if header else []
        if names and len(names) == len(cells) and names != cells:
            raw = "; ".join(f"{n}: {c}" if n else c for n, c in zip(names, cells, strict=True))
        else:
            raw = " · ".join(c for c in cells if c)
    raw = re.sub(r"^\s*(?:#+|[-*•▪–])\s+", "", raw)
    raw = _MARKER.sub(r"(\1)", raw)
    return " ".join(raw.split())


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
