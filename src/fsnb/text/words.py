"""Tokenizing for ranking: the same terms for the index's BM25 and the offline backend.

Words are lowercased and reduced to their Snowball (Porter 2) stems; numbers keep their
value whatever the thousands separators ("1,200,000" and "1200000" meet), and an amount
written short ("$45M", "2.5 million") also yields its full figure.
"""

from __future__ import annotations

import functools
import re

import Stemmer

STOPWORDS = frozenset(
    """
    a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each
    either else etc ever every few for from further had has have having he her here hers
    herself him himself his how i if in into is it its itself just many may me might more
    most much must my myself neither no nor not now of off on once only or other our ours
    ourselves out over own per same shall she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up
    upon us very via was we were what when where whether which while who whom whose why
    will with within without would yet you your yours yourself yourselves
    """.split()
)

_WORD = re.compile(r"\d+(?:[.,/]\d+)*|[^\W\d_]+", re.UNICODE)
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_ZERO_DECIMALS = re.compile(r"^(\d+)\.0+$")
_SCALE = re.compile(r"\s?(million|billion|thousand|mn|bn|m|b|k)\b")
_FACTORS = {"thousand": 3, "k": 3, "million": 6, "mn": 6, "m": 6, "billion": 9, "bn": 9, "b": 9}
_STEMMER = Stemmer.Stemmer("english")


@functools.lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """The Snowball stem of a word; numbers are left as they are."""
    return word if word[:1].isdigit() else _STEMMER.stemWord(word)


def normalize_number(token: str) -> str:
    """'1,200,000' -> '1200000', '20.00' -> '20'; other numbers unchanged."""
    if "," in token and _THOUSANDS.fullmatch(token):
        token = token.replace(",", "")
    if found := _ZERO_DECIMALS.match(token):
        return found.group(1)
    return token


def _scaled(number: str, unit: str) -> str:
    """'45' and 'm' -> '45000000'; '2.5' and 'million' -> '2500000'."""
    whole, _, frac = number.partition(".")
    zeros = _FACTORS[unit] - len(frac)
    if not (whole + frac).isdigit():
        return number
    return str(int(whole + frac + "0" * zeros)) if zeros >= 0 else number


def tokenize(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Lowercased, stemmed terms; numbers normalized; stopwords and 1-letter words dropped."""
    out: list[str] = []
    lowered = text.lower()
    for match in _WORD.finditer(lowered):
        raw = match.group(0)
        if raw[0].isdigit():
            out.append(normalize_number(raw))
            if scale := _SCALE.match(lowered, match.end()):
                out.append(_scaled(out[-1], scale.group(1)))
        elif keep_stopwords or (raw not in STOPWORDS and len(raw) > 1):
            out.append(stem(raw))
    return out
