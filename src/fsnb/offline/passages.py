"""Pick the passages that answer a question (`fsnb.offline.question`): scoring and
selection.

Units (sentences, list items, table rows) are scored by the question terms they contain
(IDF-weighted), with bonuses for holding a value of the kind asked for (`FEATURES`) and
the question's rarest term; the best ones are chosen greedily, preferring units that add
something new.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from fsnb.offline.question import Question
from fsnb.offline.ranking import tokens
from fsnb.offline.tuning import Tuning
from fsnb.text.segments import Span

_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
_NUMBER_WORD = (
    r"(?:\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"eighteen|twenty|thirty|thirty-six|twenty-four|forty|sixty|ninety)"
)
#: A date with its day or month ("March 3, 2025", "2025-03-03", "March 2025"), not a bare year.
_DAY_DATE = (
    rf"\b{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b|\b\d{{1,2}}\s+{_MONTH}\s+\d{{4}}"
    rf"|\b\d{{4}}-\d{{2}}-\d{{2}}\b|\b\d{{1,2}}/\d{{1,2}}/\d{{2,4}}\b|\b{_MONTH}\s+\d{{4}}\b"
)
FULL_DATE = re.compile(_DAY_DATE)
#: Kinds of value that any passage with a capital or a digit seems to give.
WEAK_KINDS = frozenset({"number", "entity", "place"})
FEATURES = {
    "amount": re.compile(
        r"[$£€¥]\s?\d|\b(?:USD|EUR|GBP|CAD|AUD|CHF|JPY|CNY|INR)\s?\d"
        r"|\b\d[\d,.]*\s?(?:million|billion|thousand|USD|EUR|GBP|dollars|euros?)\b"
        r"|\b(?:hundred|thousand|million|billion)\s+(?:dollars|euros?|pounds)\b",
        re.I,
    ),
    "percent": re.compile(r"\d(?:\.\d+)?\s?%|\bpercent\b", re.I),
    "date": re.compile(rf"{_DAY_DATE}|\bQ[1-4]\s+\d{{4}}\b|\b(?:19|20)\d{{2}}\b"),
    "duration": re.compile(
        rf"\b{_NUMBER_WORD}[\s-](?:\(\d+\)\s)?(?:business\s|calendar\s)?"
        r"(?:days?|weeks?|months?|years?|quarters?)\b",
        re.I,
    ),
    "number": re.compile(r"\d"),
    "place": re.compile(r"\b[A-Z][a-z]+(?:\s(?:of\s)?[A-Z][a-z]+)*\b"),
    "entity": re.compile(
        r"\b(?:Dr\.|Mr\.|Ms\.|Mrs\.)\s[A-Z]|\b[A-Z][a-z]+(?:\s(?:&\s)?[A-Z][A-Za-z&]+)+"
        r"|\b[A-Z]{2,}(?:\s[A-Z]{2,})+\b"
    ),
}


#: Words after which a question term's closeness to a value halves (hand-set).
CLOSENESS_WORDS = 4
#: What a question term after its value counts, at most (hand-set).
AFTER_VALUE = 0.25
#: A unit of fewer words than this is a fragment, which says little (hand-set)...
SHORT_UNIT = 4
#: ...and keeps this share of its score (hand-set).
SHORT_SHARE = 0.7
#: In the choice of passages, the gain of one that gives a new kind of value (hand-set)...
NEW_KIND = 1.3
#: ...the share kept by one that adds nothing new (hand-set)...
NOTHING_NEW = 0.6
#: ...and by one once this many come from its document (hand-set)...
PER_DOCUMENT = 3
#: ...this share (hand-set).
CROWDED = 0.7


def features(text: str) -> set[str]:
    """The kinds of value a passage holds (amount, date, duration, percent, number, entity)."""
    return {kind for kind, pattern in FEATURES.items() if pattern.search(text)}


def nearness(text: str, weights: Mapping[str, float], wants: frozenset[str], q: Question) -> float:
    """How close the question terms (`weights`) sit to a value of a kind asked for, as a
    share of their weight: a term just before the value, or just after it ("1,500,000
    shares"), counts fully, one 4 words before it half; a term further after the value
    counts a quarter as much, since it seldom names what the value is. "'Purchase Price'
    means ... ($125,000,000)" gives the price its amount, where "the program totals
    $3,500,000 ... in addition to the Purchase Price" does not."""
    total = sum(weights.values())
    if not total or not wants:
        return 0.0
    words = list(_WS.finditer(text))
    starts = [m.start() for m in words]
    values = [
        (_word_at(starts, m.start()), _word_at(starts, m.end() - 1))
        for kind in wants
        for m in FEATURES[kind].finditer(text)
        if kind != "number" or _quantity(text, m.start(), m.end())
    ]
    if not values:
        return 0.0
    best: dict[str, float] = {}
    forms = q.forms
    for i, match in enumerate(words):
        for term in {forms.get(t) for t in tokens(match.group(0))} & weights.keys():
            for a, b in values:
                if i < a:  # "the Purchase Price is $125,000,000": the term, then its value
                    closeness = 1 / (1 + (a - i - 1) / CLOSENESS_WORDS)
                elif i == b + 1:  # "1,500,000 shares"
                    closeness = 1.0
                elif i > b:  # "$15,000,000 (12% of the Purchase Price)"
                    closeness = AFTER_VALUE / (1 + (i - b - 1) / CLOSENESS_WORDS)
                else:
                    continue
                best[term] = max(best.get(term, 0.0), closeness)
    return sum(weights[t] * c for t, c in best.items()) / total


#: A number that names a part of a document ("6.2 ...", "Section 2.2(b)"), not a quantity.
_SECTION_NUMBER = re.compile(
    r"(?:^\s*[\d.]+|\b(?:sections?|articles?|schedules?|exhibits?|clauses?|items?|parts?|"
    r"no\.|§)\s*[\d.()a-z]+)\Z",
    re.I,
)


#: Digits that are part of an amount: a currency sign or code before them.
_MONEY_BEFORE = re.compile(r"(?:[$£€¥]|\b[A-Z]{3}\s?)[\d,.]*\Z")


def _quantity(text: str, start: int, end: int) -> bool:
    """Whether the digits at `start:end` count something: not a section number, not an
    amount."""
    return not (_SECTION_NUMBER.search(text, 0, end) or _MONEY_BEFORE.search(text, 0, start))


def _word_at(starts: list[int], offset: int) -> int:
    """The index of the word that holds character `offset` (`starts`: each word's start)."""
    return max(0, bisect_right(starts, offset) - 1)


@dataclass
class Scored:
    """A candidate unit of a document with its score for the question: the question terms
    it holds and the kinds of value asked for that it gives."""

    path: str
    span: Span
    text: str
    score: float
    terms: set[str]
    kinds: set[str]
    order: int = 0
    parts: tuple[Span, ...] = ()


def score_unit(
    question: Question,
    text: str,
    context: str,
    idf: Callable[[str], float],
    *,
    tuning: Tuning,
) -> tuple[float, set[str], set[str]]:
    """Score a unit: IDF of the question terms it or its `context` (the heading over it, a
    table's header row) holds, bonuses for values of the kinds asked for and for the
    rarest term, damped as units get longer. Returns the score, the terms and kinds."""
    own = question.unit_terms(text)
    around = question.unit_terms(context) - own if context else set()
    kinds = features(text) & question.wants
    if not own and not (around and kinds):
        return 0.0, set(), set()
    weights = {t: idf(t) * question.weight(t) for t in question.terms}
    score = sum(weights[t] for t in own) + tuning.context_weight * sum(weights[t] for t in around)
    mean = sum(idf(t) for t in question.content) / max(len(question.content), 1)
    for want in kinds:
        weak = want in ("number", "entity", "place")
        score += (tuning.weak_kind_bonus if weak else tuning.kind_bonus) * mean
    rarest = max(question.content or question.terms, key=lambda t: (weights[t], t))
    if rarest in own:
        score += tuning.rarest_bonus * weights[rarest]
    words = len(text.split())
    score /= 1 + words / tuning.damping_words
    if words < SHORT_UNIT:
        score *= SHORT_SHARE
    return score, own | around, kinds


def select(candidates: list[Scored], *, tuning: Tuning) -> list[Scored]:
    """Greedy choice of up to `max_statements` units scoring at least `floor` x the best,
    skipping near-duplicates (`duplicate`). A unit gains for giving a kind of value asked
    for that no chosen unit gives yet, loses if it adds no new question term or value, and
    loses a little once three units come from its document."""
    if not candidates:
        return []
    pool = sorted(candidates, key=lambda c: (-c.score, c.order))
    best = pool[0].score
    pool = [c for c in pool if c.score >= tuning.floor * best]
    chosen: list[Scored] = []
    seen_terms: set[str] = set()
    seen_kinds: set[str] = set()
    seen_values: set[str] = set()
    seen_words: list[set[str]] = []
    per_doc: dict[str, int] = {}

    def gain(c: Scored) -> float:
        factor = NEW_KIND if c.kinds - seen_kinds else 1.0
        if not (c.terms - seen_terms or c.kinds - seen_kinds or values(c.text) - seen_values):
            factor *= NOTHING_NEW
        if per_doc.get(c.path, 0) >= PER_DOCUMENT:
            factor *= CROWDED
        return c.score * factor

    while pool and len(chosen) < tuning.max_statements:
        pick = max(pool, key=lambda c: (gain(c), -c.order))
        pool.remove(pick)
        words = set(tokens(pick.text, keep_stopwords=True))
        if any(_overlap(words, other) >= tuning.duplicate for other in seen_words):
            continue
        chosen.append(pick)
        seen_words.append(words)
        seen_terms |= pick.terms
        seen_kinds |= pick.kinds
        seen_values |= values(pick.text)
        per_doc[pick.path] = per_doc.get(pick.path, 0) + 1
    return chosen


def values(text: str) -> set[str]:
    """Numbers and capitalized names in a text: what makes two passages say different things."""
    found = set(re.findall(r"\d[\d,.]*\d|\d", text))
    found.update(m.group(0) for m in FEATURES["entity"].finditer(text))
    return found


def _overlap(a: set[str], b: set[str]) -> float:
    return len(a & b) / (min(len(a), len(b)) or 1)


_WS = re.compile(r"\S+")
