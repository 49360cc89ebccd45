"""Amounts printed in a document's text: each with the label before it, the value of the
label a question names (`label_value`), whether a line prints a number, the currency the
amounts are in, and a figure written in it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from fsnb.documents import Document
from fsnb.text.words import tokenize

#: A printed amount: sign, currency, digits with separators and cents, parentheses.
AMOUNT = re.compile(
    r"(?<![\w./-])(\()?(-)?\s?([$€£¥₹])?\s?(-)?(\d{1,3}(?:,\d{3})+(?:\.\d\d)?|\d+\.\d\d|\d+)"
    r"(?![\w%/]|[.,]\d)(\))?"
)
#: What ends a label before an amount: a table cell, a colon, a sentence, a box number.
_SEPARATOR = re.compile(r"[|:;]|\.\s|(?<!\S)\d{1,2}[a-z]?(?=\s+[A-Z])")
_YEAR = re.compile(r"(?:19|20)\d\d")
_CURRENCY = re.compile(r"([$€£¥₹])\s?\(?-?\d|-\s?([$€£¥₹])\d")


def _amount(match: re.Match[str], quantities: bool = False) -> float | None:
    """A printed amount's value: one with a currency sign, cents or thousands separators;
    with `quantities`, a bare number too ("kWh used · 812"), but not a year."""
    opened, minus, sign, minus2, digits, closed = match.groups()
    plain = not (sign or "." in digits or "," in digits)
    if plain and (not quantities or _YEAR.fullmatch(digits)):
        return None
    value = float(digits.replace(",", ""))
    return -value if minus or minus2 or (opened and closed) else value


def _label(before: str) -> tuple[int, str]:
    """The label an amount follows (where it starts in `before`, its words): the text after
    the last separator before the amount."""
    trimmed = before.rstrip(" |:;*_-\t#")  # "## $318.27": a value printed large
    cut = max((m.end() for m in _SEPARATOR.finditer(trimmed)), default=0)
    text = trimmed[cut:]
    return cut + len(text) - len(text.lstrip()), " ".join(text.split())


class Labelled(NamedTuple):
    """An amount with the label before it (`amount` None: a label with no amount after it)."""

    offset: int
    label: str
    amount: float | None
    quote: str


def labelled(text: str, *, quantities: bool = False) -> Iterator[Labelled]:
    """Each amount (with `quantities`, each number) with its label, and each line's label
    after its last amount, which has none."""
    for line in re.finditer(r"[^\n]*\S[^\n]*", text):
        at, shown = 0, line.group(0)
        for m in AMOUNT.finditer(shown):
            if (amount := _amount(m, quantities)) is not None:
                begin, label = _label(shown[at : m.start()])
                yield Labelled(
                    line.start() + at + begin, label, amount, shown[at + begin : m.end()]
                )
                at = m.end()
        begin, label = _label(shown[at:])
        if label:
            yield Labelled(line.start() + at + begin, label, None, label)


#: Share of the question's label words (after those naming the documents) a label must hold.
MIN_COVERAGE = 0.6
#: What a word of the same value concept counts for ("compensation" for "income").
SYNONYM = 0.8
#: What each word of a label line that the question does not name costs ("tax withheld").
EXTRA_WORD = 0.15
#: Amounts after a label without one where its value may stand alone (the next lines).
NEXT_LINES = 2
#: A label word matches a question word it begins when it has this many letters ("comp").
PREFIX_LETTERS = 3
#: Words a form or a statement may label the value with for the word a question uses.
_SAME_VALUE = [
    set(tokenize("income compensation earnings wages salary revenue proceeds")),
    set(tokenize("spend spent spending purchases")),
    set(tokenize("fee fees charge charges charged")),
]


@dataclass(frozen=True)
class Value:
    """One document's labelled value (None when the label has none), quoted with its page."""

    path: str
    label: str
    amount: float | None
    quote: str
    page: int | None
    offset: int


def _matches(stem: str, words: list[str]) -> float:
    if any(w.startswith(stem) or (len(w) >= PREFIX_LETTERS and stem.startswith(w)) for w in words):
        return 1.0
    return SYNONYM if any(stem in g and g & set(words) for g in _SAME_VALUE) else 0.0


def _score(label: str, words: tuple[str, ...], naming: set[str]) -> float:
    """How well a label names the value: the question's words it holds, less its others."""
    found = [w for w in tokenize(label) if w[0].isalpha()]
    coverage = sum(_matches(s, found) for s in words) / len(words)
    extra = [w for w in found if w not in naming and not any(_matches(s, [w]) for s in words)]
    return coverage - EXTRA_WORD * len(extra) if coverage >= MIN_COVERAGE else 0.0


def label_value(
    path: str,
    doc: Document,
    words: tuple[str, ...],
    naming: set[str],
    *,
    bottom: bool = False,
    quantities: bool = False,
) -> Value | None:
    """The value of the label that best names `words` (of equals, the first), or for a
    document's own amount (`bottom`) of the last label that names them: its bottom line
    follows the line items' totals ("Total T4 (9 @ $16.40)", then "Invoice total").
    `quantities`: a bare number is a value too."""
    units = list(labelled(doc.text, quantities=quantities))

    def valued(i: int) -> tuple[float | None, str]:
        """The label's amount and quote, its value alone on a next line included."""
        offset, _, amount, quote = units[i]
        for after in units[i + 1 : i + 1 + NEXT_LINES] if amount is None else ():
            if after.label or after.amount is None:
                break  # the next label: this one has no value
            amount, quote = after.amount, doc.text[offset : after.offset + len(after.quote)]
        return amount, quote

    # a heading that repeats the title labels nothing, nor one with no value ("# Form 1099")
    title = set(tokenize(doc.title))
    scores = [
        0.0
        if u.amount is None
        and (set(tokenize(u.label)) == title or (u.label.startswith("#") and valued(i)[0] is None))
        else _score(u.label, words, naming)
        for i, u in enumerate(units)
    ]

    # the best label (or any, for the bottom line); of equals, one with a value, then the
    # first (or the last)
    def rank(i: int) -> tuple[float, bool, int]:
        return (
            scores[i] > 0 if bottom else scores[i],
            units[i].amount is not None,
            i if bottom else -i,
        )

    n = max(range(len(units)), key=rank, default=0)
    if not units or scores[n] <= 0:
        return None
    amount, quote = valued(n)
    offset, label = units[n].offset, units[n].label
    quote = " ".join(quote.split())
    return Value(path, label, amount, quote, doc.page_at(offset), offset)


def printed(number: float, line: str) -> bool:
    """Whether `line` prints `number` (with or without thousands separators)."""
    magnitude = abs(float(number))
    forms = {f"{magnitude:,.2f}", f"{magnitude:.2f}"}
    if magnitude == int(magnitude):
        forms |= {f"{int(magnitude):,}", str(int(magnitude))}
    return any(re.search(rf"(?<![\d.]){re.escape(f)}(?![\d])", line) for f in forms)


def currency(quotes: Iterable[str]) -> str:
    """The currency symbol the quoted rows print their amounts with, if any."""
    for quote in quotes:
        if found := _CURRENCY.search(quote):
            return found.group(1) or found.group(2)
    return ""


def money(value: Any, symbol: str) -> str:
    if value is None:
        return "nothing"
    number = float(value)
    if symbol:
        return f"{'-' if number < 0 else ''}{symbol}{abs(number):,.2f}"
    return f"{number:,.2f}" if number != int(number) else f"{int(number):,}"


__all__ = ["AMOUNT", "Labelled", "Value", "currency", "label_value", "labelled", "money", "printed"]
