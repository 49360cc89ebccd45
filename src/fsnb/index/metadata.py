"""Heuristic document metadata: `extract_metadata` reads a document's text (plus its title,
path and format) and returns general fields: the kind of document, currencies and amounts,
dates, organizations and people (`entities`). It is deliberately conservative (precision
over recall) and knows no corpus; `field_schema` summarizes the fields across a corpus.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from decimal import Decimal
from pathlib import PurePath
from typing import Any

from fsnb.index.entities import organizations, people

MAX_ITEMS = 20

# Document types, strongest first: the first type found in the title's head wins.
_TYPES = {
    "agreement": r"agreements?",
    "contract": r"contracts?",
    "amendment": r"amendments?",
    "term_sheet": r"term[ _-]?sheets?",
    "minutes": r"minutes",
    "invoice": r"invoices?",
    "certificate": r"certificates?",
    "checklist": r"check[ _-]?lists?",
    "memo": r"memos?|memorand(?:um|a)",
    "letter": r"letters?",
    "opinion": r"opinions?",
    "notice": r"notices?|notifications?",
    "policy": r"polic(?:y|ies)",
    "statement": r"statements?",
    "proposal": r"proposals?",
    "presentation": r"presentations?|slides?|decks?",
    "spreadsheet": r"spreadsheets?|workbooks?",
    "report": r"reports?",
    "budget": r"budgets?",
    "plan": r"plans?",
    "schedule": r"schedules?",
    "exhibit": r"exhibits?|annex(?:es)?|appendix|appendices",
    "manual": r"manuals?|handbooks?|guides?",
}
_TYPE_RES = [(name, re.compile(rf"\b(?:{pattern})\b", re.I)) for name, pattern in _TYPES.items()]
_LABEL = re.compile(
    r"^\W*(exhibit|annex|appendix|schedule)\s+(?!(?:of|to|for)\b)[A-Z0-9][A-Z0-9.-]{0,4}\b", re.I
)
_HEAD_SPLIT = re.compile(r"\s+(?:of|on|to|for|regarding|re|between|with|concerning|dated)\s+", re.I)
_FORMAT_TYPES = {"xlsx": "spreadsheet", "xls": "spreadsheet", "csv": "spreadsheet"}
_FORMAT_TYPES |= {"pptx": "presentation", "ppt": "presentation"}

# Currencies and amounts.
_SYMBOLS = {"$": "USD", "US$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR"}
_SYMBOLS |= {"C$": "CAD", "CA$": "CAD", "A$": "AUD", "AU$": "AUD"}
_CODES = "USD|EUR|GBP|JPY|CHF|CAD|AUD|CNY|INR|SEK|NOK|DKK|HKD|SGD"
_WORDS = {"dollar": "USD", "euro": "EUR", "sterling": "GBP", "yen": "JPY"}
_NUM = r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?!\d|[,.]\d)"
_SCALE = r"(?:\s*((?i:thousand|million|billion|trillion|bn|mm))\b|((?i:k|m|b|bn|mm))\b)?"
_SYMBOL_RE = r"(US\$|CA\$|AU\$|C\$|A\$|\$|€|£|¥|₹)"
_LEADS = "".join(sorted({c[0] for c in [*_SYMBOLS, *_CODES.split("|")]}))
# A leading lookahead on the possible first characters makes each scan several times faster.
_AMOUNT = re.compile(rf"(?=[{re.escape(_LEADS)}])(?:{_SYMBOL_RE}\s?|\b({_CODES})\s?){_NUM}{_SCALE}")
_AMOUNT_AFTER = re.compile(rf"\b{_NUM}{_SCALE}\s?({_CODES}|(?i:dollar|euro)s?)\b")  # 5 USD
_CURRENCY_WORD = re.compile(rf"(?=[A-Zdesy])\b(?:({_CODES})|((?i:dollar|euro|sterling|yen))s?)\b")
_SYMBOL_HIT = re.compile(rf"{_SYMBOL_RE}\s?\d")  # "€1.200.000": a currency, if no amount
_SCALES = {"k": 10**3, "thousand": 10**3, "m": 10**6, "mm": 10**6, "million": 10**6}
_SCALES |= {"b": 10**9, "bn": 10**9, "billion": 10**9, "trillion": 10**12}

# Dates.
_MONTH_LIST = """jan|january feb|february mar|march apr|april may jun|june jul|july aug|august
    sep|sept|september oct|october nov|november dec|december""".split()
_MONTHS = {name: i for i, names in enumerate(_MONTH_LIST, 1) for name in names.split("|")}
_MONTH_NAMES = sorted(_MONTHS, key=len, reverse=True)
# Case-sensitive (Title and UPPER case) with a leading lookahead: much faster than re.I.
_MONTH = "(" + "|".join([n.title() for n in _MONTH_NAMES] + [n.upper() for n in _MONTH_NAMES])
_MONTH += r")\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_DATE = re.compile(
    rf"(?=[A-Z\d])(?:\b{_MONTH}\s+{_DAY},?\s+(\d{{4}})\b"  # February 15, 2025
    rf"|\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+(\d{{4}})\b"  # 15 February 2025
    r"|\b(\d{4})-(\d{2})-(\d{2})\b"  # 2025-02-15
    r"|\b(\d{1,2})(?P<sep>[/.])(\d{1,2})(?P=sep)(\d{4})\b)"  # 02/15/2025, 15.02.2025
)
_YEAR = re.compile(r"(?:19|20)\d\d(?![\w,])")
_YEAR_HINT = re.compile(rf"(?:{_MONTH}|\bFY|\bQ[1-4]|\b(?i:fiscal(?: year)?|year))\s*'?$")

# Types of the fields extract_metadata writes, for fields a corpus never fills.
KNOWN_TYPES = {
    "document_type": "string",
    "format": "string",
    "mentions_currency": "boolean",
    "currencies": "list[string]",
    "amounts": "list[number]",
    "max_amount": "number",
    "dates": "list[date]",
    "year": "number",
    "organizations": "list[string]",
    "people": "list[string]",
}


def extract_metadata(
    text: str, *, title: str = "", path: str = "", format: str = ""
) -> dict[str, Any]:
    """General, corpus-independent metadata fields of one document."""
    currencies, amounts = _money(text)
    dates = dates_in(text)
    orgs = organizations(text)
    return {
        "document_type": _document_type(text, title, path, format),
        "format": format.lower().lstrip("."),
        "mentions_currency": bool(currencies),
        "currencies": currencies[:MAX_ITEMS],
        "amounts": _unique(amounts)[:MAX_ITEMS],
        "max_amount": max(amounts) if amounts else None,
        "dates": _unique(dates)[:MAX_ITEMS],
        "year": _year(text, dates, f"{title} {PurePath(path).name}"),
        "organizations": orgs[:MAX_ITEMS],
        "people": people(text, orgs)[:MAX_ITEMS],
    }


def _unique(items: list[Any]) -> list[Any]:
    return list(dict.fromkeys(items))


def _document_type(text: str, title: str, path: str, format: str) -> str:
    stem = re.sub(r"[_.\-]+", " ", PurePath(path).stem) if path else ""
    lines = [line.strip() for line in text[:1500].splitlines() if line.strip()][:3]
    # Headings, not sentences: a markdown heading, or a short line with no closing punctuation.
    heads = [
        re.sub(r"^[#>*\s]+|[*_]+", "", line).strip()
        for line in lines
        if line.startswith("#") or (len(line) <= 100 and line[-1] not in ".,;:")
    ]
    for source in [title, stem, *heads]:
        if label := _LABEL.match(source):
            word = label.group(1).lower()
            return "schedule" if word == "schedule" else "exhibit"
        for part in (_HEAD_SPLIT.split(source, maxsplit=1)[0], source):
            for name, pattern in _TYPE_RES:
                if pattern.search(part):
                    return name
    return _FORMAT_TYPES.get(format.lower().lstrip("."), "other")


def _money(text: str) -> tuple[list[str], list[float]]:
    codes: list[str] = []
    amounts: list[float] = []
    hits = [(m.start(), m.end(), *m.groups()) for m in _AMOUNT.finditer(text)]
    if _CURRENCY_WORD.search(text):
        after = [
            (m.start(), m.end(), None, m.group(4), *m.group(1, 2, 3))
            for m in _AMOUNT_AFTER.finditer(text)
        ]
        ends = {end for _, end, *_ in hits}
        hits = sorted(hits + [h for h in after if not any(h[0] < e <= h[1] for e in ends)])
    for _, _, symbol, code, number, word, letter in hits:
        codes.append(_SYMBOLS.get(symbol or "") or _WORDS.get(code.lower().rstrip("s"), code))
        value = Decimal(number.replace(",", "")) * _SCALES.get((word or letter or "").lower(), 1)
        amounts.append(float(value))
    for m in _CURRENCY_WORD.finditer(text):
        codes.append(m.group(1) or _WORDS[m.group(2).lower()])
    codes += [_SYMBOLS[m.group(1)] for m in _SYMBOL_HIT.finditer(text)]
    return _unique(codes), amounts


def dates_in(text: str) -> list[str]:
    """The full dates `text` gives, in order, as ISO days ("2025-02-15")."""
    found: list[str] = []
    for m in _DATE.finditer(text):
        g = m.groups()
        if g[0]:
            ymd = (g[2], _MONTHS[g[0].lower()], g[1])
        elif g[3]:
            ymd = (g[5], _MONTHS[g[4].lower()], g[3])
        elif g[6]:
            ymd = (g[6], g[7], g[8])
        else:  # slashes are month/day (day/month when the first exceeds 12); dots day.month
            first, second = int(g[9]), int(g[11])
            month_first = g[10] == "/" and first <= 12
            ymd = (g[12], first, second) if month_first else (g[12], second, first)
        try:
            found.append(dt.date(int(ymd[0]), int(ymd[1]), int(ymd[2])).isoformat())
        except ValueError:
            continue
    return found


def _year(text: str, dates: list[str], names: str) -> int | None:
    years = Counter(int(date[:4]) for date in dates)
    if not years:
        hints = [y for y in _years(text) if _YEAR_HINT.search(text, max(y[0] - 16, 0), y[0])]
        years = Counter(year for _, year in hints + _years(names))
    return years.most_common(1)[0][0] if years else None


def _years(text: str) -> list[tuple[int, int]]:
    """(position, year) of years 1900-2099 on their own (not in 12,2025 or $2025; FY2025 is)."""
    found = []
    for m in _YEAR.finditer(text):
        before = text[max(m.start() - 2, 0) : m.start()]
        last = before[-1:]
        if not last or not (last.isdigit() or last in ",.$" or last.isalpha()) or before == "FY":
            found.append((m.start(), int(m.group())))
    return found
