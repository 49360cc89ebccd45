"""What a question asks, set against the documents read: a list of items rather than one
fact (`asks_for_list`), words no document of the folder holds (`absent_words`), the
phrase a "what is the X" question asks about when no text says it (`apart_phrases`), and
whether the passages chosen answer it or brush past it (`answers`). The last three are
doubts the fitted "answer" model weighs (`fsnb.offline.features.answer_features`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence, Set
from itertools import pairwise
from typing import NamedTuple

from fsnb.offline.english import zipf
from fsnb.offline.passages import Scored
from fsnb.offline.question import Question, kind_words
from fsnb.offline.ranking import BM25, tokens
from fsnb.offline.tuning import Tuning

#: Words of the question a "not found" answer names at most.
SHOWN_WORDS = 6
#: Words ending in "s" after "what" or "which" that are verbs ("what happens"), not the
#: plural noun of a list asked for ("which patents").
_VERBS_IN_S = (
    "does|has|was|is|happens|means|remains|applies|goes|says|makes|takes|gives|needs|"
    "seems|looks|lasts|counts|matters|follows|comes|belongs|explains|shows"
)
#: A question that asks for every item of something keeps its list.
_LIST = re.compile(
    r"\b(?:list|all|enumerate|summari[sz]e|overview|complete picture|timeline|"
    rf"what are the|who are|(?:which|what) (?!(?:{_VERBS_IN_S})\b)\w{{2,}}[^\Ws]s\b)",
    re.IGNORECASE,
)


def asks_for_list(text: str) -> bool:
    """Whether a question asks for all the items of something ("list the conditions",
    "which patents"), rather than one fact."""
    return _LIST.search(text) is not None


#: Nouns that name the kind of thing a "which firm ..." question wants, not its topic: the
#: documents name the firm, they seldom call it one.
_ANSWER_TYPES = frozenset(
    "firm firms company companies business businesses investor investors vendor vendors "
    "customer customers supplier suppliers person people party parties bank banks country "
    "countries city cities year years date dates day days month months kind type sort one "
    "ones document documents file files organization organizations agency agencies team "
    "teams entity entities individual individuals".split()
)
_TYPE_WORD = re.compile(r"\b(?:which|what)\s+(?:kind|type|sort)?(?:\s+of)?\s*(\w+)", re.I)


def absent_words(
    question: Question, df: Mapping[str, int], rare: float, named: Set[str] = frozenset()
) -> list[str]:
    """The question's words that no document of the folder holds and that are uncommon in
    English (Zipf frequency below `rare`, wordfreq's figures from `fsnb.offline.english`):
    "turnover", "warranty"; a word of a read file's name (`named`) counts as held. A folder
    that never uses such a word does not state what the question asks about it; a common
    word ("happen", "people") or the kind of answer asked for ("which firm") may just be
    worded otherwise in the documents (`worded_otherwise`)."""
    return [a.word for a in absent(question, df, rare, named) if a.rare]


def worded_otherwise(
    question: Question, df: Mapping[str, int], rare: float, named: Set[str] = frozenset()
) -> set[str]:
    """The terms of the question's words that no document holds but that are common in
    English or name the kind of answer ("car", "apartment", "firm"): the documents say
    them otherwise ("vehicle", "premises"), so no passage can be asked to hold them."""
    return {a.term for a in absent(question, df, rare, named) if not a.rare}


class Absent(NamedTuple):
    """A content word of the question that no document holds, nor a file's name."""

    word: str
    term: str
    #: Rare in English and not the kind of answer asked for ("which firm").
    rare: bool
    #: The word after it when the documents hold that one, and it may narrow it to a kind
    #: the folder lacks ("life" insurance, "phone" bill); "" when it cannot: a superlative,
    #: a participle or a word naming the kind of value ("highest bill", "combined usage",
    #: "total spend") picks among the things the documents hold.
    head: str


def absent(
    question: Question, df: Mapping[str, int], rare: float, named: Set[str] = frozenset()
) -> list[Absent]:
    """Each content word of the question that no document holds nor a file's name
    (`named`), once."""
    types = {m.group(1).lower() for m in _TYPE_WORD.finditer(question.text)} & _ANSWER_TYPES
    kinds = kind_words(question)
    words = re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)*|\S", question.text)
    found: dict[str, Absent] = {}
    for before, word, after in zip(["", *words[:-1]], words, [*words[1:], ""], strict=True):
        low, terms, following = word.lower(), tokens(word.lower()), tokens(after.lower())
        if low in found or not terms or any(df.get(t) or t in named for t in terms):
            continue
        if terms[0] in question.content and question.weight(terms[0]) >= 1.0:
            narrows = following and df.get(following[0]) and not set(terms) & kinds
            head = after.lower() if narrows and not re.search(r"(?:est|ed|ing)$", low) else ""
            # a verb ("have to redo", "did they renew") says what was done, not what the
            # folder must name: it may be worded otherwise
            verb = before.lower() in _AUXILIARIES and word.islower()
            is_rare = low not in types and zipf(low) < rare and not verb
            found[low] = Absent(word, terms[0], is_rare, head)
    return list(found.values())


#: Words before a verb: "to", the auxiliaries and modals.
_AUXILIARIES = set("to do does did will would can could should must might shall".split())

#: "What is the X ...", "Who is X's Y", "What does the X say": the thing asked about follows.
_FOCUS = re.compile(
    r"^\s*(?:what|who|which)\s+(?:is|are|was|were|does|do|did)\s+(?:the\s+|a\s+|an\s+)?(.*)",
    re.IGNORECASE | re.DOTALL,
)


#: The last word of "account number", "order ID", "tracking code": an identifier, which
#: documents write as a label and its value, seldom with the word itself.
IDENTIFIER = re.compile(r"numbers?|nos?|ids?|identifiers?|codes?|refs?|references?", re.I)


def apart_phrases(question: Question, texts: Sequence[str], window: int) -> list[str]:
    """The phrase a "what is the X" question asks about ("credit limit", "Chief Marketing
    Officer"), when no two of its neighbouring words come within `window` words of each
    other in any of `texts`: the texts never say it. The phrase is the first run of the
    question's words after "what is the" (after an owner's "'s"), less the words naming
    the kind of value asked for ("total", "number of") and a closing identifier word
    ("transaction number")."""
    found = _FOCUS.match(question.text)
    if not found:
        return []
    kinds = kind_words(question)
    run: list[tuple[str, str]] = []
    for word in re.findall(r"[^\W_]+(?:['’-][^\W_]+)*|\S", found.group(1)):
        terms = tokens(word)
        if not terms or terms[0] not in question.terms:
            if run or not word[0].isalnum():
                break
            continue
        if re.search(r"['’]s$", word):
            run = []  # "InnovateTech's": the owner, not the thing asked about
        elif terms[0] not in kinds:
            run.append((word, terms[0]))
    if run and IDENTIFIER.fullmatch(run[-1][0]):
        run.pop()  # "transaction number": a label's value ("Transaction: TXN-0947")
    if len(run) < 2:
        return []
    stems = [stem for _, stem in run]
    for text in texts:
        seen = tokens(text)
        positions: dict[str, list[int]] = {}
        for i, term in enumerate(seen):
            if term in stems:
                positions.setdefault(term, []).append(i)
        for a, b in pairwise(stems):
            if any(
                abs(i - j) <= window for i in positions.get(a, ()) for j in positions.get(b, ())
            ):
                return []
    return [" ".join(word for word, _ in run)]


def answers(
    q: Question, chosen: list[Scored], stats: BM25, tuning: Tuning, names: Mapping[str, Set[str]]
) -> bool:
    """Whether the chosen passages answer the question rather than brush past it.

    A share of the question (`found_share`, by weight) must occur in the folder (its texts
    or the read files' `names`: path -> terms), terms found nowhere weighing as much as a
    typical term of the question; and the best passage (`best_share`) and the passages
    together (`union_share`), each with its file's name, must hold a fair share of the
    part that does occur."""
    named = set().union(*names.values())
    seen = {t: stats.idf(t) * q.weight(t) for t in q.content if stats.df.get(t) or t in named}
    if not seen:
        return False
    typical = sorted(seen.values())[len(seen) // 2]
    unseen = sum(typical * q.weight(t) for t in q.content if t not in seen)
    found = sum(seen.values())
    if found / (found + unseen) < tuning.found_share:
        return False
    held = [c.terms | names.get(c.path, set()) for c in chosen]
    best = max(sum(seen.get(t, 0) for t in terms) for terms in held)
    union = sum(seen.get(t, 0) for t in set().union(*held))
    return best / found >= tuning.best_share and union / found >= tuning.union_share
