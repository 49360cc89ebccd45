"""How common a word is in English: wordfreq's Zipf frequency, from a list shipped with fsnb.

`zipf(word)` is what `wordfreq.zipf_frequency(word, "en")` (3.1) returns for a word of
letters and hyphens, the words `fsnb.offline.asked.absent_words` asks about, wherever
that is at least `FLOOR` (Zipf 3.0: once per million words). data/english.txt holds the
tokens of wordfreq's English list down to the floor with their Zipf values (made by
bench/make_wordlist.py; CC BY-SA 4.0, see its header), and a word is normalized, split
into tokens and its tokens' frequencies combined as wordfreq does. Below the floor the
value is only known to be below it (0.0 where a token is not in the list), so
`zipf(word) < rare` is wordfreq's answer for every threshold `rare >= FLOOR`
(tests/test_offline_english.py compares them word by word). 235 KB instead of wordfreq's
58 MB of lists in 40 languages and its dependencies.
"""

from __future__ import annotations

import math
import unicodedata
from functools import cache, lru_cache
from importlib.resources import files

import regex

FLOOR = 3.0
"""The lowest Zipf frequency the shipped list holds; thresholds below it are refused."""
#: Zipf = log10(frequency per word) + ZIPF_OFFSET: the frequency per billion words.
ZIPF_OFFSET = 9
#: Centibels per Zipf unit: wordfreq's list holds a word of Zipf z at 100 * (z - 9) cB.
CB_PER_ZIPF = 100
#: Zipf values and centibels are base-10 logarithms.
LOG_BASE = 10
#: The least frequency wordfreq's `zipf_frequency` reports (Zipf 0).
MIN_FREQUENCY = 1e-9
#: Significant digits wordfreq rounds a word's frequency to.
SIGNIFICANT_DIGITS = 3
#: Words whose Zipf value is remembered.
_CACHED_WORDS = 4096

#: wordfreq's ftfy.uncurl_quotes, applied to each token ("donʼt" -> "don't").
_QUOTES = str.maketrans({**dict.fromkeys("\u02bc\u2018\u2019\u201a\u201b", "'"),
                         **dict.fromkeys("\u201c\u201d\u201e\u201f", '"')})  # fmt: skip
#: Scripts written without spaces (wordfreq.language_info.SPACELESS_SCRIPTS): a run of
#: them is one token.
_SPACELESS = (
    r"\p{IsIdeo}"
    + "".join(rf"\p{{Script={s}}}" for s in "Hira Kana Thai Khmr Laoo Mymr Tale Talu Lana".split())
    + "ー々〻〆"
)


@cache
def _token_re() -> regex.Pattern[str]:
    """wordfreq's TOKEN_RE (wordfreq.tokens) less its cases for "@" and apostrophes, which
    a word of letters never holds before its tokens are made: a run of spaceless scripts,
    or graphemes up to the next Unicode word boundary."""
    return regex.compile(rf"[{_SPACELESS}]+|(?=[\w\p{{So}}])\X+?\b", regex.V1 | regex.WORD)


@cache
def _frequencies() -> dict[str, float]:
    """Token -> frequency (a proportion), as wordfreq's get_frequency_dict computes it."""
    data = files(__name__.rpartition(".")[0]) / "data" / "english.txt"
    text = data.read_text(encoding="utf-8")
    table: dict[str, float] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            value, *words = line.split(" ")
            # the bucket of wordfreq's list
            centibels = round(ZIPF_OFFSET * CB_PER_ZIPF - float(value) * CB_PER_ZIPF)
            freq = LOG_BASE ** (-centibels / CB_PER_ZIPF)  # wordfreq.cB_to_freq
            table.update(dict.fromkeys(words, freq))
    return table


def tokens(word: str) -> list[str]:
    """The tokens wordfreq looks `word` up as (wordfreq.lossy_tokenize for English): NFC,
    casefolded, split at word boundaries ("check-in" -> "check", "in")."""
    text = unicodedata.normalize("NFC", unicodedata.normalize("NFC", word).casefold())
    return [t.strip("'").casefold().translate(_QUOTES) for t in _token_re().findall(text)]


@lru_cache(maxsize=_CACHED_WORDS)
def zipf(word: str) -> float:
    """wordfreq's `zipf_frequency(word, "en")` where it is at least `FLOOR`; below it, some
    value below `FLOOR`. For words of letters and hyphens (no digits)."""
    parts = tokens(word)
    table = _frequencies()
    if not parts or any(p not in table for p in parts):
        return 0.0
    # wordfreq._word_frequency: 1/f = 1/f1 + 1/f2 + ..., at least the minimum that
    # zipf_frequency asks for (Zipf 0), rounded to 3 significant digits.
    freq = max(1.0 / sum(1.0 / table[p] for p in parts), MIN_FREQUENCY)
    freq = round(freq, math.floor(-math.log(freq, LOG_BASE)) + SIGNIFICANT_DIGITS)
    return round(math.log(freq, LOG_BASE) + ZIPF_OFFSET, 2)
