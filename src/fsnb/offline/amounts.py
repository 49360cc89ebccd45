"""Amounts printed in a document's text: each with the label before it, whether a line
prints a number, the currency the amounts are in, and a figure written in it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

#: A printed amount: sign, currency, digits with separators and cents, parentheses.
AMOUNT = re.compile(
    r"(?<![\w./-])(\()?(-)?\s?([$€£¥₹])?\s?(-)?(\d{1,3}(?:,\d{3})+(?:\.\d\d)?|\d+\.\d\d|\d+)"
    r"(?![\w%/]|[.,]\d)(\))?"
)
#: What ends a label before an amount: a table cell, a colon, a sentence, a box number.
_SEPARATOR = re.compile(r"[|:;]|\.\s|(?<!\S)\d{1,2}[a-z]?(?=\s+[A-Z])")
_CURRENCY = re.compile(r"([$€£¥₹])\s?\(?-?\d|-\s?([$€£¥₹])\d")


def _amount(match: re.Match[str]) -> float | None:
    """A printed amount's value: one with a currency sign, cents or thousands separators."""
    opened, minus, sign, minus2, digits, closed = match.groups()
    if not (sign or "." in digits or "," in digits):
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


def labelled(text: str) -> Iterator[Labelled]:
    """Each amount with its label, and each line's label after its last amount, which has
    none."""
    for line in re.finditer(r"[^\n]*\S[^\n]*", text):
        at, shown = 0, line.group(0)
        for m in AMOUNT.finditer(shown):
            if (amount := _amount(m)) is not None:
                begin, label = _label(shown[at : m.start()])
                yield Labelled(
                    line.start() + at + begin, label, amount, shown[at + begin : m.end()]
                )
                at = m.end()
        begin, label = _label(shown[at:])
        if label:
            yield Labelled(line.start() + at + begin, label, None, label)


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


__all__ = ["AMOUNT", "Labelled", "currency", "labelled", "money", "printed"]
