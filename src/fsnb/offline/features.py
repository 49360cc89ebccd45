"""A candidate for the answer's first line, described by named features.

A question in several parts ("Who is the CTO, and what bonus will that person receive?")
is split where a new question word starts (`PARTS`). Each part is about its own terms, or,
when it only points back ("for how long?", "that person"), about the earlier parts'. A
unit (a sentence, a row, an item) is described, for one part, by:

- said: the share of the part's words (by IDF weight) its text holds, of its topic terms;
- context: the same, held only by its heading or table header or its document's name;
- kind_word: the same, of the words naming the kind of value asked ("total");
- earlier: what the earlier parts' terms it holds weigh, over the part's words' weight;
- strong: 1 when it gives a strong kind of value asked for (an amount, a date with its day
  or month, a duration, a percentage; for "how many X", the number just before X);
- kinds: how many kinds of value asked for it gives, weak ones (a name, a number) included;
- lacking: 1 when the part asks for a strong kind and it gives none;
- near: how close the part's terms sit to such a value (`nearness`);
- standing: how its document ranks for the question, 0 to 1;
- period: 1 when the question names months and its document is dated in one of them, -1
  when dated in another, else 0 (`Source`);
- passage: its passage score over the best candidate's, 0 to 1;
- length: the log of 1 + its words over DAMPING_WORDS.

`fsnb.offline.scoring` weighs them with fitted weights.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Set
from dataclasses import dataclass
from itertools import pairwise

from fsnb.offline.asked import IDENTIFIER, asks_for_list
from fsnb.offline.passages import FULL_DATE, WEAK_KINDS, Scored, features, nearness
from fsnb.offline.question import VAGUE_VERBS, Question, analyze, kind_words
from fsnb.offline.ranking import tokens
from fsnb.offline.statements import unreferenced
from fsnb.offline.tuning import Tuning

#: Where a question asks a second thing: "..., and when ...", "...; what ...".
PARTS = re.compile(
    r"\s*,?\s+and\s+(?=(?:what|when|where|who|whom|which|how|why|is|are|was|were|do|does|"
    r"did|has|have|at what|for how|in what|on what)\b)|\s*;\s+|\?\s+(?=\S)",
    re.IGNORECASE,
)
#: The features of a unit for a part, in the order the weights file lists them.
NAMES = (
    "said",
    "context",
    "kind_word",
    "earlier",
    "strong",
    "kinds",
    "lacking",
    "near",
    "standing",
    "period",
    "passage",
    "length",
)
#: Words over which a unit's length counts as one more unit of it: a passage twice as long
#: does not say twice as much (hand-set).
DAMPING_WORDS = 120
#: Nearness a number needs to the noun a "how many" part counts to be a count of it.
COUNTED_NEAR = 0.8


@dataclass(frozen=True)
class Source:
    """What the answer step knows of a candidate's document, for the question."""

    standing: float = 0.0  # how it ranks for the question, 0 to 1
    period: float = 0.0  # 1: dated in a month the question names; -1: in another; 0: neither
    months: frozenset[str] = frozenset()  # the question's terms for the months it is dated in
    named: frozenset[str] = frozenset()  # the terms of its file's name, folders and title
    strange: bool = False  # it lacks a name the question gives ("Dr. Quist", "Acme")


class Part:
    """One part of a question, as the features of a unit for it see it."""

    def __init__(
        self,
        question: Question,
        text: str,
        own: set[str],
        earlier: set[str],
        weights: dict[str, float],
        tuning: Tuning,
    ) -> None:
        self.question = question
        self.asked = asked = analyze(text, tuning=tuning)
        named = kind_words(asked)
        kinds = named - _heads(asked.text, named)  # "total", not the "price" of "purchase price"
        topic = own - kinds or own
        self.topic = {t: weights[t] for t in topic}
        self.kind = {t: weights[t] for t in own & kinds - topic}
        self.earlier = {t: weights[t] for t in earlier - own}
        counted = set(tokens(" ".join(_COUNTED.findall(asked.text)))) & own
        self.counted = dict.fromkeys(counted, 1.0)  # each counted noun weighs the same
        self.focus = self.counted or self.topic
        self.strong = asked.wants - WEAK_KINDS | (_COUNT if counted else set())

    def gives(self, text: str) -> set[str]:
        """The kinds of value asked for that a unit's text gives."""
        found = features(text) & self.asked.wants
        if "date" in found and not FULL_DATE.search(text):
            found.discard("date")  # a bare year does not say when
        if self.counted and nearness(text, self.counted, _COUNT, self.question) < COUNTED_NEAR:
            found.discard("number")  # a number, but not one of the things counted
        return found

    def describe(self, c: Scored, source: Source, best: float) -> dict[str, float]:
        """The unit's features for this part (`source`: its document's, `best`: the best
        candidate's passage score)."""
        text = unreferenced(c.text)
        said = self.question.unit_terms(text)  # the others are in its heading or header
        gives = self.gives(text)
        whole = sum(self.topic.values()) + sum(self.kind.values())
        return {
            "said": _share(self.topic, said & c.terms, whole),
            "context": _share(self.topic, (c.terms | source.named) - said, whole),
            "kind_word": _share(self.kind, said & c.terms, whole),
            "earlier": _share(self.earlier, c.terms, whole),
            "strong": float(bool(gives & self.strong)),
            "kinds": float(len(gives)),
            "lacking": float(bool(self.strong) and not gives & self.strong),
            "near": nearness(text, self.focus, self.asked.wants, self.question),
            "standing": min(source.standing, 1.0),
            "period": source.period,
            "passage": c.score / best if best else 0.0,
            "length": math.log1p(len(c.text.split()) / DAMPING_WORDS),
        }


def parts(question: Question, weights: dict[str, float], tuning: Tuning) -> list[Part]:
    """The parts of the question in order. A part is about its own terms (not its vague
    verbs, nor the noun of "that person"), or the earlier parts' when it has none ("...,
    and for how long?")."""
    out = []
    before: set[str] = set()
    for text in PARTS.split(question.text):
        asked = analyze(text, tuning=tuning)
        pointer = set(tokens(" ".join(_POINTER.findall(text)))) if before else set()
        own = {t for t in asked.terms if t in weights and t not in VAGUE_VERBS | pointer}
        own = own or before | (set(asked.terms) & set(weights))
        out.append(Part(question, text, own, before, weights, tuning))
        before |= own
    return out


def _share(weights: dict[str, float], held: set[str], total: float | None = None) -> float:
    """The share of `total` (default: all of `weights`) that the `held` terms weigh."""
    total = sum(weights.values()) if total is None else total
    return sum(w for t, w in weights.items() if t in held) / total if total else 0.0


def _stem_pairs(text: str) -> list[tuple[str, str]]:
    """The stems of each two neighbouring words of `text` ("purchase", "price")."""
    words = [tokens(w) for w in re.findall(r"[\w'’-]+", text)]
    return [(a[0], b[0]) for a, b in pairwise(words) if a and b]


def _heads(text: str, kinds: set[str]) -> set[str]:
    """The kind words of a question that end a compound after a word of its topic
    ("purchase price", "retention bonus"), rather than modify it ("total ...")."""
    return {b for a, b in _stem_pairs(text) if b in kinds and a not in kinds}


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


#: The doubts about an answer that the "answer" model weighs (`fsnb.offline.asked`).
DOUBTS = ("unsaid", "apart", "brushed")
#: The features of an answer's first line, in the order the weights file lists them.
ANSWER_NAMES = ("bias", "coverage", "listing", *DOUBTS)


def answer_features(
    question: Question,
    held: set[str],
    idf: Callable[[str], float],
    tuning: Tuning,
    doubts: Mapping[str, bool],
    otherwise: Set[str] = frozenset(),
) -> dict[str, float]:
    """What the answer's first line holds of the question, for the "answer" model:

    - coverage: the share of the words its parts ask about (by IDF weight; not their vague
      verbs nor the noun of "that person"; not the common words no document holds,
      `otherwise`: "car" where the documents say "vehicle") among the terms `held` by its
      units and their files' names;
      an identifier word after a held one ("transaction number") counts as held: documents
      write a label and its value ("Transaction: TXN-0947"), seldom the word itself;
    - listing: 1 when the question asks for every item of something ("list the
      conditions", "which patents"), seldom all in the passages quoted;
    - unsaid, apart, brushed (`doubts`): 1 when a rare word of the question is in no
      document, when the phrase it asks about is never said, when the passages chosen hold
      too little of it (`fsnb.offline.asked`)."""
    weights = {t: idf(t) * question.weight(t) for t in question.content}
    asked = set().union(*(p.topic.keys() | p.kind.keys() for p in parts(question, weights, tuning)))
    asked = asked or set(weights)
    asked = asked - otherwise or asked
    labelled = {b for a, b in _stem_pairs(question.text) if a in held and IDENTIFIER.fullmatch(b)}
    return {
        "coverage": _share({t: weights[t] for t in asked}, held | labelled),
        "listing": float(asks_for_list(question.text)),
        **{name: float(doubts.get(name, False)) for name in DOUBTS},
    }
