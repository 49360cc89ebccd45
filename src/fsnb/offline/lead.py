"""The first line of an offline answer: for each part of the question, the short unit
(a sentence, a row, an item) that answers it.

A question in several parts ("Who is the CTO, and what bonus will that person receive?")
is split where a new question word starts. Each part is about its own terms, or, when it
only points back ("for how long?", "that person"), about the earlier parts'. A unit is
worth what it covers of the part, what kinds of value it gives of those asked for (an
amount, a full date, the number just before the thing a "how many" part counts), and how
close the part's terms sit to such a value, for its length.
"""

from __future__ import annotations

import re
from itertools import pairwise

from fsnb.offline.passages import (
    FULL_DATE,
    VAGUE_VERBS,
    WEAK_KINDS,
    Question,
    Scored,
    analyze,
    features,
    kind_words,
    nearness,
)
from fsnb.offline.ranking import BM25, tokens
from fsnb.offline.statements import statement, unreferenced
from fsnb.offline.tuning import Tuning
from fsnb.text.segments import Span, sentences

#: Where a question asks a second thing: "..., and when ...", "...; what ...".
PARTS = re.compile(
    r"\s*,?\s+and\s+(?=(?:what|when|where|who|whom|which|how|why|is|are|was|were|do|does|"
    r"did|has|have|at what|for how|in what|on what)\b)|\s*;\s+|\?\s+(?=\S)",
    re.IGNORECASE,
)


def first_line(
    question: Question,
    pool: list[Scored],
    stats: BM25,
    tuning: Tuning,
    standing: dict[str, float],
) -> list[Scored]:
    """The short units (sentences, rows, items) that make the answer's first line: for
    each part of the question, the unit worth most for it (`Worth`), unless a unit already
    picked is worth as much; then, up to `lead_parts`, units covering what those leave
    open (a question term worth `lead_gain` of the question, or a strong kind of value
    asked for: an amount, a date...). `standing`: how each document ranks, 0 to 1."""
    weights = {t: stats.idf(t) * question.weight(t) for t in question.content}
    best = max((c.score for c in pool), default=0.0)
    singles = [c for c in pool if not c.parts and c.score >= tuning.floor * best and _short(c)]
    if not singles:
        return []
    picked: list[Scored] = []
    for worth in parts(question, weights, tuning, standing):
        rest = [c for c in singles if not overlaps(c.path, c.span, picked)]
        if not rest or len(picked) >= tuning.lead_parts:
            break
        pick = max(rest, key=lambda c: (worth(c), c.score, -c.order))
        if worth(pick) > max(map(worth, picked), default=0.0):
            picked.append(pick)
    total = sum(weights.values()) or 1.0
    terms = set().union(*(c.terms for c in picked))
    kinds = set().union(*(c.kinds for c in picked))
    while picked and len(picked) < tuning.lead_parts:

        def gain(c: Scored, terms: set[str] = terms, kinds: set[str] = kinds) -> float:
            new = sum(weights.get(t, 0.0) for t in c.terms - terms) / total
            return new + (tuning.lead_kind if c.kinds - kinds - WEAK_KINDS else 0.0)

        rest = [c for c in singles if not overlaps(c.path, c.span, picked)]
        if not rest:
            break
        pick = max(rest, key=lambda c: (gain(c), c.score, -c.order))
        if gain(pick) < tuning.lead_gain:
            break
        picked.append(pick)
        terms |= pick.terms
        kinds |= pick.kinds
    return picked


def parts(
    question: Question, weights: dict[str, float], tuning: Tuning, standing: dict[str, float]
) -> list[Worth]:
    """What a unit is worth for each part of the question, in order. A part is about its
    own terms (not its vague verbs, nor the noun of "that person"), or the earlier parts'
    when it has none ("..., and for how long?"); the earlier parts' terms count there at
    `lead_whole`, the later parts' not at all."""
    out = []
    before: set[str] = set()
    for text in PARTS.split(question.text):
        asked = analyze(text, tuning=tuning)
        pointer = set(tokens(" ".join(_POINTER.findall(text)))) if before else set()
        own = {t for t in asked.terms if t in weights and t not in VAGUE_VERBS | pointer}
        own = own or before | (set(asked.terms) & set(weights))
        known = {t: w for t, w in weights.items() if t in before | own}
        out.append(Worth(question, asked, own, known, tuning, standing))
        before |= own
    return out


class Worth:
    """What a unit is worth for the first line as the answer to one part of a question:
    the share of the part's weight it covers (a term only in its heading or table header
    at `lead_context`), plus `lead_kind` per kind of value asked for that it gives, plus
    `lead_near` times how close the part's terms sit to such a value; all that times
    `lead_lacking` when it gives none of the strong kinds asked for (an amount, a date
    with its day or month, a duration; for "how many X", a number just before X), and
    divided by 1 + its words / `lead_damping`."""

    def __init__(
        self,
        question: Question,
        asked: Question,
        own: set[str],
        weights: dict[str, float],
        tuning: Tuning,
        standing: dict[str, float],
    ) -> None:
        named = kind_words(asked)
        kinds = named - _heads(asked.text, named)  # "total", not the "price" of "purchase price"
        weights = {
            t: w * (tuning.lead_kind_word if t in kinds else 1.0) for t, w in weights.items()
        }
        self.question, self.asked, self.tuning, self.standing = question, asked, tuning, standing
        self.total = sum(weights[t] for t in own) or 1.0
        self.share = {t: w if t in own else tuning.lead_whole * w for t, w in weights.items()}
        counted = set(tokens(" ".join(_COUNTED.findall(asked.text)))) & own
        self.counted = dict.fromkeys(counted, 1.0)  # each counted noun weighs the same
        self.focus = {t: weights[t] for t in (counted or own - kinds or own)}
        self.strong = asked.wants - WEAK_KINDS | (_COUNT if counted else set())

    def gives(self, text: str) -> set[str]:
        """The kinds of value asked for that a unit's text gives."""
        found = features(text) & self.asked.wants
        if "date" in found and not FULL_DATE.search(text):
            found.discard("date")  # a bare year does not say when
        if self.counted and nearness(text, self.counted, _COUNT, self.question) < 0.8:
            found.discard("number")  # a number, but not one of the things counted
        return found

    def __call__(self, c: Scored) -> float:
        tuning = self.tuning
        text = unreferenced(c.text)
        said = self.question.unit_terms(text)  # the others are in its heading or header
        covered = sum(
            self.share.get(t, 0.0) * (1.0 if t in said else tuning.lead_context) for t in c.terms
        )
        gives = self.gives(text)
        lacking = tuning.lead_lacking if self.strong and not gives & self.strong else 1.0
        near = nearness(text, self.focus, self.asked.wants, self.question)
        value = covered / self.total + tuning.lead_kind * len(gives) + tuning.lead_near * near
        standing = min(self.standing.get(c.path, 0.0), 1.0)
        rank = 1 - tuning.lead_standing * (1 - standing)
        return rank * lacking * value / (1 + len(c.text.split()) / tuning.lead_damping)


def _heads(text: str, kinds: set[str]) -> set[str]:
    """The kind words of a question that end a compound after a word of its topic
    ("purchase price", "retention bonus"), rather than modify it ("total ...")."""
    words = [tokens(w) for w in re.findall(r"[\w'’-]+", text)]
    return {b[0] for a, b in pairwise(words) if a and b and b[0] in kinds and a[0] not in kinds}


#: A later part's way of pointing back at what an earlier part asked about ("that
#: person", "this contract"): the noun names nothing new.
_POINTER = re.compile(r"\b(?:that|this|those|these|such|the same)\s+([\w-]+)", re.IGNORECASE)
#: The thing a "how many" question counts ("how many GlobalTech shares do ..."): its value
#: is the number written just before it ("1,500,000 shares").
_COUNTED = re.compile(
    r"\bhow many\s+(?:[\w-]+\s+(?=[\w-]+\s+(?:do|does|did|are|is|were|was|have|has|"
    r"will|can|would)\b))?([\w-]+)",
    re.IGNORECASE,
)
_COUNT = frozenset({"number"})


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
