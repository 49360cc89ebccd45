"""The English word list that replaced wordfreq (fsnb.offline.english) answers as wordfreq did.

`absent_words` calls a question word rare when its Zipf frequency is below
`Tuning.rare_word`. fsnb used to ask `wordfreq.zipf_frequency(word, "en")` (58 MB of
lists in 40 languages); it now reads data/english.txt, wordfreq's English tokens down to
Zipf 3.0 (`FLOOR`), and splits and combines words as wordfreq does. These tests compare
the two, word by word, on every word of wordfreq's English list, their capitalized,
upper-case and hyphenated forms, the words of the sample corpora and their questions,
and unusual letters (dotted capital I, sharp s, ligatures, modifier apostrophes, scripts
written without spaces), each word taken out of its text as absent_words does. Where
either side says Zipf >= FLOOR the figures are equal, so `zipf(w) < rare` is wordfreq's
answer for every `rare >= FLOOR`, the tuned 4.5 included.

wordfreq is the reference: it is in the `dev` extra only, and the comparisons skip
without it (the tests that need no reference still run).
"""

from __future__ import annotations

import importlib.util
import json
import random
import re
from itertools import pairwise
from pathlib import Path

import pytest

from fsnb.offline.asked import absent_words
from fsnb.offline.english import FLOOR, tokens, zipf
from fsnb.offline.question import analyze
from fsnb.offline.tuning import Tuning

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
WORDLIST = ROOT / "src" / "fsnb" / "offline" / "data" / "english.txt"
#: The words absent_words asks about, found as it finds them.
WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
THRESHOLDS = (FLOOR, 3.5, Tuning().rare_word, 5.0)

has_wordfreq = importlib.util.find_spec("wordfreq") is not None
needs_wordfreq = pytest.mark.skipif(
    not has_wordfreq,
    reason="wordfreq, the reference the shipped list is checked against, is not installed "
    "(it comes with the `dev` extra)",
)


def _differences(words: set[str]) -> list[tuple[str, float, float]]:
    """(word, wordfreq's Zipf, fsnb's) for each lower-cased word where they disagree at or
    above FLOOR, or on a threshold."""
    from wordfreq import zipf_frequency

    out = []
    for word in sorted(words):
        low = word.lower()  # as absent_words asks
        theirs, ours = zipf_frequency(low, "en"), zipf(low)
        agree = all((theirs < rare) == (ours < rare) for rare in THRESHOLDS)
        if not agree or ((theirs >= FLOOR or ours >= FLOOR) and theirs != ours):
            out.append((word, theirs, ours))
    return out


def _words(text: str) -> set[str]:
    return set(WORD.findall(text))


@pytest.fixture(scope="module")
def listed() -> list[str]:
    """Every word of wordfreq's English list, most frequent first."""
    from wordfreq import iter_wordlist

    return list(dict.fromkeys(w for token in iter_wordlist("en") for w in WORD.findall(token)))


@needs_wordfreq
def test_the_shipped_list_is_what_the_generator_writes():
    spec = importlib.util.spec_from_file_location(
        "make_wordlist", ROOT / "bench" / "make_wordlist.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert WORDLIST.read_text(encoding="utf-8") == module.wordlist(), (
        "src/fsnb/offline/data/english.txt is stale: run bench/make_wordlist.py"
    )


@needs_wordfreq
@pytest.mark.slow
def test_every_word_of_wordfreqs_list_gets_wordfreqs_figure(listed: list[str]):
    assert len(listed) > 250_000
    assert _differences(set(listed)) == []


@needs_wordfreq
def test_capitals_and_hyphens_as_wordfreq(listed: list[str]):
    """Capitalized and upper-case forms, and hyphenated compounds of words from every band
    (a compound's frequency combines its parts', and a part below the floor makes it rare)."""
    common = listed[:20_000]
    words = {w.capitalize() for w in common} | {w.upper() for w in common[:5_000]}
    pick = random.Random(24)
    for _ in range(20_000):
        parts = [listed[pick.randrange(pick.choice((300, 3_000, 30_000, len(listed))))]]
        parts += [listed[pick.randrange(30_000)] for _ in range(pick.choice((1, 1, 2)))]
        words.add("-".join(parts))
    words |= {"check-in", "e-mail", "Co-Operate", "state-of-the-art", "well-known", "x-ray"}
    assert len(words) > 40_000
    assert _differences(words) == []


def _corpus_text() -> str:
    """The sample corpora: their questions, and the text of their documents."""
    import pypdfium2

    texts = []
    for path in sorted(DATA.rglob("*")):
        if path.suffix == ".pdf":
            try:
                pdf = pypdfium2.PdfDocument(path)
            except pypdfium2.PdfiumError:  # the corpora hold broken files on purpose
                continue
            try:
                texts += [page.get_textpage().get_text_range() for page in pdf]
            finally:
                pdf.close()
        elif path.suffix in {".json", ".md", ".txt", ".csv", ".html"}:
            texts.append(path.read_text(encoding="utf-8", errors="replace"))
    return "\n".join(texts)


@needs_wordfreq
def test_the_corpora_and_their_questions_as_wordfreq():
    questions = [
        q["question"]
        for path in sorted(DATA.glob("*/questions.json"))
        for q in json.loads(path.read_text(encoding="utf-8"))["questions"]
    ]
    assert len(questions) > 30
    words = _words("\n".join(questions)) | _words(_corpus_text())
    assert len(words) > 2_000
    assert _differences(words) == []


#: Letters that wordfreq folds, joins, splits or drops: dotted capital I (casefolds to
#: "i" and a combining dot), sharp s, ligatures, the modifier-letter apostrophe (read as
#: "'"), superscripts and numeric letters, titlecase digraphs, final sigma, and scripts
#: written without spaces (one token per run).
ODD = [
    "İstanbul", "STRASSE", "Straße", "donʼt", "DONʼT", "ʼtis", "x²", "½", "Ⅻ", "ǅemal",
    "ﬁnal", "ﬂow", "naïve", "NAÏVE", "café", "ΣΊΣΥΦΟΣ", "λόγος", "Москва", "東京", "カタカナ",
    "ひらがな", "ไทย", "한국어", "日本語テキスト", "abcー", "々", "Ωmega", "ǈubljana", "ﬀ",
]  # fmt: skip
#: What the fuzzed words are made of: the ODD letters, accented Latin, Greek, Cyrillic,
#: Hebrew, Arabic, Devanagari, CJK, digits and marks (which split words), apostrophes.
POOL = "".join(ODD) + "abcdeilnorstuyzäéèñøœçšžﬃΣσςαβЖжщאבשعربदेवनागरी一二中文ー\u0301\u0307'’-2_ ²"


@needs_wordfreq
def test_unusual_letters_as_wordfreq():
    pick = random.Random(2024)
    fuzz = "".join(pick.choice(POOL) for _ in range(200_000))
    words = _words(" ".join(ODD)) | _words(fuzz)
    words |= {w + "s" for w in ODD} | {f"{a}-{b}" for a, b in pairwise(ODD)}
    assert len(words) > 5_000
    assert _differences(words) == []


def test_the_list_and_its_figures():
    """What the shipped list says without the reference: common words high, rare ones low,
    compounds below their parts."""
    assert zipf("the") == 7.73
    assert zipf("warranty") < Tuning().rare_word <= zipf("people")
    assert zipf("check-in") <= zipf("check") < zipf("in")
    assert zipf("state-of-the-art") < zipf("state")
    assert zipf("qwertzuiop") == 0.0 and zipf("") == 0.0
    assert tokens("Straße-İ") == ["strasse", "i̇"]
    assert tokens("donʼt") == ["don't"]


def test_the_list_credits_wordfreq_and_its_license():
    head = "".join(line for line in WORDLIST.read_text(encoding="utf-8").splitlines(True)[:20])
    assert "wordfreq by Robyn Speer" in head
    assert "Creative Commons Attribution-ShareAlike 4.0" in head
    assert "SUBTLEX" in head and "bench/make_wordlist.py" in head
    assert WORDLIST.stat().st_size < 1_000_000


def test_a_threshold_below_the_list_is_refused():
    with pytest.raises(ValueError, match=r"rare_word must be at least 3\.0"):
        Tuning(rare_word=2.5)
    with pytest.raises(ValueError, match="rare_word"):
        Tuning.parse(["rare_word=1"])
    assert Tuning(rare_word=FLOOR).rare_word == FLOOR


def test_absent_words_reads_the_list():
    """A question word the folder lacks is reported when it is rare in English, not when
    it is common or names the kind of answer."""
    tuning = Tuning()
    question = analyze(
        "Which firm gave the warranty, and what did people pay?", ["Acme paid it."], tuning=tuning
    )
    df = {"acm": 1, "paid": 1, "pai": 1, "it": 1}
    assert absent_words(question, df, tuning.rare_word) == ["warranty"]


def test_a_verb_the_folder_lacks_is_not_what_it_must_name():
    """'have to redo', 'did they renew': a rare verb says what was done, and the documents
    may say it otherwise ("due"); a rare noun or a name after "to" still counts."""
    tuning = Tuning()
    question = analyze(
        "When does Yuki have to redo the training, and did Vexor send the warranty to Quillon?",
        ["Yuki: training due 2026-10-12."],
        tuning=tuning,
    )
    df = {"yuki": 1, "train": 1, "due": 1, "send": 1}
    assert absent_words(question, df, tuning.rare_word) == ["Vexor", "warranty", "Quillon"]
