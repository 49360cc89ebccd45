"""Pick the passages that answer a question: scoring, selection and quotes.

A question is reduced to its terms (stems, weighted by IDF over the documents' units)
and to what kind of answer it asks for (an amount, a date, a name...). Units (sentences,
list items, table rows) are scored by the question terms they contain, with bonuses for
holding the kind of value asked for and the question's rarest term; the best ones are
chosen greedily, preferring units that add something new.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from fsnb.offline.ranking import QUESTION_WORDS, tokens
from fsnb.offline.tuning import Tuning
from fsnb.text.segments import Span
from fsnb.text.words import STOPWORDS

_WANTS = {
    "amount": r"\bhow much\b|\b(?:prices?|costs?|amounts?|fees?|pay|paid|payments?|salary|"
    r"values?|worth|budgets?|revenues?|spend|totals?|sums?|bonus(?:es)?|compensation|balances?|"
    r"consideration|exposure|commitments?|charges?|rents?|deposits?)\b|\$",
    "number": r"\bhow many\b|\bnumber of\b|\bcount\b|\bregistration\b|\bquantity\b",
    "date": r"\bwhen\b|\bdates?\b|\bdeadlines?\b|\bdue (?:date|by|on)\b|\bexpir|\btimelines?\b"
    r"|\bchronolog|\bmilestones?\b",
    "duration": r"\bhow long\b|\bduration\b|\bperiods?\b|\bterm\b|\blast\b",
    "percent": r"\bpercent(?:age)?\b|\brates?\b|%|\bmatch\b|\bshare of\b",
    "place": r"\bwhere\b|\blocations?\b|\bterritor|\bregions?\b|\bcountr(?:y|ies)\b",
    "entity": r"\bwho\b|\bwhom\b|\bwhose\b|\bwhich\b|\bname[sd]?\b|\bfirm\b|\bcompany\b|"
    r"\bvendors?\b|\bcustomers?\b|\bparty\b|\bparties\b",
}
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
_ACRONYM = re.compile(r"\b[A-Z]{2,5}\b")
_CONNECTOR = r"(?:(?:of|and|&|for|the|on)\s+)?"


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


@dataclass
class Question:
    """What a question asks: its terms (stems) with weights, the kinds of value it wants,
    and aliases (an acronym's expansions)."""

    text: str
    terms: list[str]
    wants: frozenset[str]
    aliases: dict[str, re.Pattern[str]] = field(default_factory=dict)
    weights: dict[str, float] = field(default_factory=dict)
    hints: frozenset[str] = frozenset()

    def weight(self, term: str) -> float:
        """1 for a content term; less for vague verbs, background terms and hint words."""
        return self.weights.get(term, 1.0)

    @property
    def content(self) -> list[str]:
        """The terms that say what the question is about (no hint words)."""
        return [t for t in self.terms if t not in self.hints]

    def discount_background(self, share: dict[str, float], tuning: Tuning) -> None:
        """Weigh down terms most documents contain (`share`: the fraction of documents
        holding each term): in a folder about one deal, the parties' names say little."""
        for term in self.content:
            above = share.get(term, 0.0) - tuning.background_share
            if above > 0:
                factor = max(tuning.background_floor, 1 - tuning.background_slope * above)
                self.weights[term] = self.weight(term) * factor

    def unit_terms(self, text: str) -> set[str]:
        """The question terms a piece of text contains (aliases and near forms included)."""
        forms = self.forms
        found = {forms[t] for t in tokens(text) if t in forms}
        found.update(term for term, pattern in self.aliases.items() if pattern.search(text))
        return found

    @cached_property
    def forms(self) -> dict[str, str]:
        """Each stem that stands for a question term: the term itself, the stems a stemmer
        leaves a letter or two apart ("employ" and "employe", "audit" and "auditor"), and
        irregular verb forms ("paid" for "pay")."""
        out: dict[str, str] = {}
        for term in self.terms:
            out[term] = term
            if term in _IRREGULAR:
                out[_IRREGULAR[term]] = term
            out.update((form, term) for form, base in _IRREGULAR.items() if base == term)
            if term.isalpha() and len(term) >= _NEAR_STEM:
                for size in range(max(_NEAR_STEM, len(term) - 2), len(term)):
                    out.setdefault(term[:size], term)
                out.update((term + end, term) for end in _NEAR_ENDINGS)
        return {form: term for form, term in out.items() if form not in STOPWORDS}


#: Stems this short are matched only exactly: "state" is not "statement".
_NEAR_STEM = 5
#: Endings a stem may add and still name the same thing ("auditor", "employe").
_NEAR_ENDINGS = ("e", "er", "or", "s")
#: Irregular past forms and their stems, for matching a question's verb.
_IRREGULAR = {
    "paid": "pay",
    "sold": "sell",
    "bought": "buy",
    "held": "hold",
    "spent": "spend",
    "made": "make",
    "led": "lead",
    "lost": "lose",
    "met": "meet",
    "built": "build",
    "sent": "send",
    "won": "win",
    "gave": "give",
    "given": "give",
    "took": "take",
    "taken": "take",
    "wrote": "write",
    "written": "write",
}


#: Verbs that carry little of what a question is about ("how long does it last").
VAGUE_VERBS = frozenset(
    tokens(
        "apply applies last happen work mean need get make take go come know say involve receive "
        "perform conduct carry undertake hold own possess contain include "
        "want look stand deal relate affect become keep put",
        keep_stopwords=True,
    )
)
#: Words that name the kind of value a question wants: weak extra terms.
_HINTS = {
    "duration": "period term duration months years",
    "date": "date deadline",
    "amount": "amount price fee cost total",
    "place": "territory location region country jurisdiction",
    "percent": "percent percentage rate",
}
_HOW = re.compile(
    r"\bhow\s+(?:long|often|far|soon|big|large|old)\b|\b(?<=what|hich)\s+(?:kind|type|sort)s?\s+of\b",
    re.I,
)


def analyze(question: str, texts: Sequence[str] = (), *, tuning: Tuning) -> Question:
    """Terms and wanted value kinds of a question; acronyms in it ('CTO') are matched to
    their expansions ('Chief Technology Officer') found in `texts`."""
    lowered = question.lower()
    wants = frozenset(kind for kind, pattern in _WANTS.items() if re.search(pattern, lowered))
    asked = _HOW.sub(" ", question)
    terms = [t for t in dict.fromkeys(tokens(asked)) if t not in QUESTION_WORDS]
    weights = {t: tuning.vague_weight for t in terms if t in VAGUE_VERBS}
    aliases: dict[str, re.Pattern[str]] = {}
    for acronym in dict.fromkeys(_ACRONYM.findall(question)):
        key = acronym.lower()
        if key in STOPWORDS:
            continue
        if key not in terms:
            terms.append(key)
        phrases = _expansions(acronym, texts)
        if phrases:
            alternatives = "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in phrases)
            aliases[key] = re.compile(rf"\b(?:{alternatives})\b", re.I)
    hints = []
    for want in sorted(wants):
        for hint in tokens(_HINTS.get(want, "")):
            if hint not in terms:
                terms.append(hint)
                hints.append(hint)
                weights[hint] = tuning.hint_weight
    return Question(question, terms, wants, aliases, weights, frozenset(hints))


def kind_words(question: Question) -> set[str]:
    """The question's terms that name the kind of value it wants ("total", "number",
    "date"): they say what the answer is, not what it is about."""
    return {
        t
        for want in question.wants
        for m in re.finditer(_WANTS[want], question.text.lower())
        for t in tokens(m.group(0))
    }


def _expansions(acronym: str, texts: Sequence[str]) -> list[str]:
    """Capitalized phrases whose initials spell the acronym, as they occur in the texts."""
    words = [rf"{letter}[a-z]+" for letter in acronym]
    pattern = re.compile(r"\b" + (r"\s+" + _CONNECTOR).join(words) + r"\b")
    found: dict[str, None] = {}
    for text in texts:
        for match in pattern.finditer(text):
            found.setdefault(" ".join(match.group(0).split()).lower(), None)
    return sorted(found)


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
