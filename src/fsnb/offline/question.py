"""What a question asks: its terms (stems, weighted), the kinds of value it wants (an
amount, a date, a name...), and aliases for its acronyms ("CTO": "Chief Technology
Officer"), as `analyze` reads them for the offline strategy.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from fsnb.offline.ranking import QUESTION_WORDS, tokens
from fsnb.offline.tuning import Tuning
from fsnb.text.words import STOPWORDS

#: The kinds of value a question asks for, by the words that ask for them.
WANTS = {
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
_ACRONYM = re.compile(r"\b[A-Z]{2,5}\b")
_CONNECTOR = r"(?:(?:of|and|&|for|the|on)\s+)?"


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
#: Words that ask for a figure over everything ("paying ... overall", "altogether"): they
#: say what kind of answer it wants, as "total" does, not what it is about.
TALLY_WORDS = frozenset(tokens("overall altogether combined entire whole", keep_stopwords=True))
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
    wants = frozenset(kind for kind, pattern in WANTS.items() if re.search(pattern, lowered))
    asked = _HOW.sub(" ", question)
    terms = [t for t in dict.fromkeys(tokens(asked)) if t not in QUESTION_WORDS]
    weights = {t: tuning.vague_weight for t in terms if t in VAGUE_VERBS or t in TALLY_WORDS}
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
        for m in re.finditer(WANTS[want], question.text.lower())
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
