"""Write src/fsnb/offline/data/english.txt: wordfreq's common English words and their Zipf
frequencies, the list `fsnb.offline.english` reads instead of installing wordfreq.

`fsnb.offline.asked.absent_words` asks whether a question word is rare in English
(Zipf frequency below `Tuning.rare_word`, 4.5). wordfreq answers that from 58 MB of
word lists in 40 languages; fsnb needs one list, and only its top: the tokens of
wordfreq's English list ("best", i.e. "large") at Zipf >= `FLOOR` (3.0, once per million
words; wordfreq's own "small" lists stop there), one line per Zipf value, values as
wordfreq stores them (hundredths, its centibel buckets), words sorted. Tokens that a word
of letters and hyphens cannot become (digits, punctuation but the apostrophe) are left
out. `fsnb.offline.english.zipf` splits and combines a word as wordfreq does, so for every
threshold >= FLOOR it answers as wordfreq does (tests/test_offline_english.py compares
them word by word).

Needs wordfreq (the `dev` extra). Run once, when wordfreq's data changes:

    .venv/bin/python bench/make_wordlist.py [--check]

`--check` writes nothing and exits 1 when the shipped file differs from what it would write.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import sys
from pathlib import Path

import regex
from wordfreq import get_frequency_list

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
from fsnb.offline.english import FLOOR  # noqa: E402

OUT = ROOT / "src" / "fsnb" / "offline" / "data" / "english.txt"
#: What a token of a word of letters can hold: letters, marks (casefolding "İ" gives
#: "i̇"), numeric letters ("ⅻ"), and the apostrophe that wordfreq makes of "ʼ".
POSSIBLE = regex.compile(r"[\p{L}\p{M}\p{Nl}\p{No}']+")

HEADER = """\
# English word frequencies: the tokens of wordfreq {version}'s English list at Zipf >= {floor:.2f}
# (once per million words), one line per Zipf value: "<zipf> <token> <token> ...".
# Made by bench/make_wordlist.py; read by fsnb.offline.english.
#
# Data from wordfreq by Robyn Speer (https://github.com/rspeer/wordfreq), licensed under
# the Creative Commons Attribution-ShareAlike 4.0 license
# (https://creativecommons.org/licenses/by-sa/4.0/); this file is under the same license.
# Changes: only the English list, cut at Zipf {floor:.2f}, without the tokens that hold digits,
# spaces or punctuation other than the apostrophe, rewritten as text.
# wordfreq's English list combines, through Exquisite Corpus: Wikipedia; subtitles from
# OPUS OpenSubtitles 2018 (http://opus.nlpl.eu/OpenSubtitles.php, data of the OpenSubtitles
# project, http://www.opensubtitles.org/) and the SUBTLEX-US and SUBTLEX-UK lists by Marc
# Brysbaert et al. (freely available data,
# http://crr.ugent.be/programs-data/subtitle-frequencies); NewsCrawl 2014 and GlobalVoices;
# Google Books Ngrams 2012 (http://books.google.com/ngrams); OSCAR web text; Twitter; and
# Reddit. See wordfreq's README for the sources, their terms and their citations.
"""


def wordlist() -> str:
    """The file's text."""
    pack = get_frequency_list("en", "best")  # bucket i: the tokens at -i centibels
    last = round((9 - FLOOR) * 100)  # Zipf = (900 - i) / 100
    lines = [HEADER.format(version=importlib.metadata.version("wordfreq"), floor=FLOOR)]
    for index, bucket in enumerate(pack[: last + 1]):
        words = sorted(w for w in bucket if POSSIBLE.fullmatch(w))
        if words:
            lines.append(f"{(900 - index) / 100:.2f} {' '.join(words)}\n")
    return "".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args()
    text = wordlist()
    if args.check:
        same = OUT.is_file() and OUT.read_text(encoding="utf-8") == text
        print(f"{OUT.relative_to(ROOT)}: {'up to date' if same else 'differs'}")
        sys.exit(0 if same else 1)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    words = sum(len(line.split()) - 1 for line in text.splitlines() if not line.startswith("#"))
    print(f"{OUT.relative_to(ROOT)}: {words} words, {len(text.encode()):,} bytes")


if __name__ == "__main__":
    main()
