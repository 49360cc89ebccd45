"""Tokenizing for ranking: the same terms for the index's BM25 and the offline backend."""

from __future__ import annotations

import functools
import re
from collections import Counter

import Stemmer

_NUMBER_COMMAS = re.compile(r"(?<=\d)[,\u2009](?=\d{3}\b)")
_TOKEN = re.compile(r"[a-z0-9]+(?:\.[0-9]+)?")

STOPWORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each few
    for from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not of off on once only or other
    our ours ourselves out over own same she should so some such than that the their theirs
    them themselves then there these they this those through to too under until up very was
    we were what when where which while who whom why will with would you your yours yourself
    yourselves shall may might must per via upon within without whether etc""".split()
)


_STEMMER = Stemmer.Stemmer("english")


@functools.lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """The Snowball (Porter 2) stem of a word; numbers are left as they are."""
    return word if word[:1].isdigit() else _STEMMER.stemWord(word)


def tokenize(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Lowercased, stemmed terms; thousands separators dropped so $1,200,000 -> 1200000."""
    text = _NUMBER_COMMAS.sub("", text.lower())
    return [stem(t) for t in _TOKEN.findall(text) if keep_stopwords or t not in STOPWORDS]


def term_counts(text: str) -> Counter[str]:
    return Counter(tokenize(text))
