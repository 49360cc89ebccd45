"""Heuristic document metadata, and the schema those fields form across a corpus.

`extract_metadata` reads a document's text (plus its title, path and format) and returns
general fields: the kind of document, currencies and amounts, dates, organizations and
people. It is deliberately conservative (precision over recall) and knows no corpus.
`discover_schema` summarizes the fields found across a corpus' documents for the
`schemas` table and the filter language.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter
from collections.abc import Iterable
from decimal import Decimal
from pathlib import PurePath
from typing import Any

MAX_ITEMS = 20
MAX_EXAMPLES = 5

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

# Organizations and people.
_WORD = r"(?:[A-Z][\w'’&-]*|&)"
_DESCRIPTIVE = (
    r"Holdings|Industries|Systems|Solutions|Partners|Associates|Technologies|Group|Ventures"
    r"|Enterprises|Laboratories|Labs|Bank|Foundation|Institute|University"
)
_LEGAL = (
    r"Inc\.?|Incorporated|L\.?L\.?C\.?|Ltd\.?|Limited|Corp\.?|Corporation|Company|Co\."
    r"|L\.?L\.?P\.?|L\.P\.|PLC|plc|GmbH|AG|S\.A\.|N\.V\.|B\.V\.|Pty\.? Ltd\.?"
)
_JOIN = r",?(?:[ \t]+|[ \t]*\n[ \t]*)"  # "Acme Industries,\nInc." wraps in PDFs
_ORG = re.compile(
    rf"(?=[A-Z&])\b((?:{_WORD}[ \t]+){{0,5}}?"
    rf"(?:{_WORD}{_JOIN}(?:{_LEGAL})|(?:{_WORD}[ \t]+)?(?:{_DESCRIPTIVE})\b"
    rf"(?:{_JOIN}(?:{_LEGAL}))?))(?!\w)"
)
_LEGAL_TAIL = re.compile(rf"{_JOIN}(?:{_LEGAL})$")
_ORG_ANCHOR = re.compile(rf"(?:{_LEGAL}|{_DESCRIPTIVE})(?!\w)")
_ORG_LEADING = {
    "the",
    "this",
    "that",
    "these",
    "between",
    "to",
    "from",
    "by",
    "and",
    "for",
    "with",
    "of",
    "in",
    "on",
    "at",
    "dear",
    "re",
    "attn",
    "attention",
    "buyer",
    "seller",
    "signed",
    "dated",
    "client",
    "customer",
    "vendor",
    "party",
    "parties",
    "among",
    "per",
    "see",
    "under",
    "as",
    "if",
    "when",
    "all",
    "each",
    "our",
    "their",
    "its",
    "his",
    "her",
    "a",
    "an",
    "later",
    "also",
    "then",
    "however",
    "moreover",
    "both",
    "whereas",
    "upon",
    "after",
    "before",
    "since",
    "because",
    "although",
    "while",
    "during",
    "including",
    "such",
    "other",
    "any",
    "no",
    "not",
    "only",
    "every",
    "some",
    "thus",
    "therefore",
    "accordingly",
    "notwithstanding",
}
_HONORIFIC = r"(?:Dr|Mr|Mrs|Ms|Mx|Miss|Prof|Professor|Sir|Dame|Judge|Hon)"
_NAME = r"[A-Z][a-z]+(?:[A-Z][a-z]+)?(?:-[A-Z][a-z]+)?"
_PERSON2 = rf"({_NAME}(?:[ \t]+[A-Z]\.)?[ \t]+(?:O['’])?{_NAME})"
_ROLE = (
    r"CEO|CFO|CTO|COO|CIO|CISO|CMO|CRO|CPO|General Counsel|Managing Director|Vice President"
    r"|President|Chairman|Chairwoman|Chair|Director|Partner|Founder|Co-Founder|Secretary"
    r"|Treasurer|Manager|Head of|Chief [A-Z][a-z]+ Officer|Attorney|Counsel|Esq\.?|VP"
)
_ROLE_ANCHOR = re.compile(rf"(?:{_ROLE})(?!\w)")
_PEOPLE = [
    re.compile(
        rf"(?=[DMPSJH])\b({_HONORIFIC}\.?[ \t]+{_NAME}(?:[ \t]+[A-Z]\.)?(?:[ \t]+{_NAME})?)\b"
    ),
    re.compile(rf"(?=[A-Z])\b{_PERSON2}(?:,[ \t]*|[ \t]+[-–—][ \t]+|[ \t]*\([ \t]*)(?:{_ROLE})\b"),
    re.compile(
        rf"(?=[NFADPSRWA])(?:\b(?:Name|From|Attn|Attention|Dear)[ \t]*:?[ \t]*"
        rf"|\b(?:Prepared|Signed|Reviewed|Approved|Written|Submitted|Authored)[ \t]+by:?[ \t]+)"
        rf"{_PERSON2}\b(?![ \t]+[A-Z])"
    ),
]
_NOT_NAME = {
    "agreement",
    "services",
    "service",
    "master",
    "company",
    "board",
    "department",
    "team",
    "committee",
    "office",
    "group",
    "purchase",
    "price",
    "closing",
    "date",
    "report",
    "memo",
    "letter",
    "legal",
    "financial",
    "risk",
    "assessment",
    "due",
    "diligence",
    "schedule",
    "exhibit",
    "section",
    "article",
    "buyer",
    "seller",
    "party",
    "client",
    "customer",
    "vendor",
    "management",
    "executive",
    "officer",
    "director",
    "directors",
    "partner",
    "partners",
    "capital",
    "working",
    "material",
    "adverse",
    "change",
    "total",
    "annual",
    "general",
    "counsel",
    "human",
    "resources",
    "sales",
    "marketing",
    "finance",
    "product",
    "engineering",
    "operations",
    "support",
    "project",
    "program",
    "dear",
    "sir",
    "madam",
    "regards",
    "sincerely",
    "best",
    "very",
    "truly",
    "yours",
    "north",
    "south",
    "east",
    "west",
    "new",
    "street",
    "avenue",
    "drive",
    "road",
    "suite",
    "city",
    "state",
    "county",
    "united",
    "states",
    "kingdom",
    "holdings",
    "industries",
    "systems",
    "solutions",
    "technologies",
    "inc",
    "llc",
    "ltd",
    "corp",
    "corporation",
    "chief",
    "vice",
    "president",
    "senior",
    "acquisition",
    "merger",
    "consent",
    "approval",
    "regulatory",
    "confidential",
    "draft",
    "final",
    "summary",
    "overview",
    "introduction",
    "conclusion",
    "appendix",
    "table",
    "consulting",
    "advisory",
    "advisors",
    "advisers",
    "law",
    "associates",
    "audit",
    "bank",
    "accounting",
    "analytics",
    "research",
    "compliance",
    "security",
    "technology",
}

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
    dates = _dates(text)
    orgs = _organizations(text)
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
        "people": _people(text, orgs)[:MAX_ITEMS],
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


def _dates(text: str) -> list[str]:
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


def _near(text: str, anchor: re.Pattern[str]) -> list[str]:
    """The stretches of text (a line and those on either side) around each match of `anchor`."""
    spans: list[list[int]] = []
    for m in anchor.finditer(text):
        line = text.rfind("\n", 0, m.start())
        start = text.rfind("\n", 0, line) + 1 if line > 0 else 0
        after = text.find("\n", m.end())
        end = text.find("\n", after + 1) if after >= 0 else -1
        end = len(text) if end < 0 else end
        if spans and start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([start, end])
    return [text[a:b] for a, b in spans]


def _organizations(text: str) -> list[str]:
    found: dict[str, str] = {}
    matches = [m for part in _near(text, _ORG_ANCHOR) for m in _ORG.finditer(part)]
    for m in matches:
        words = m.group(1).split()
        while words and words[0].lower().strip(",") in _ORG_LEADING:
            words.pop(0)
        while len(words) > 2 and not words[0].isupper() and all(w.isupper() for w in words[1:]):
            words.pop(0)  # "Meanwhile ACME HOLDINGS LLC": a sentence's first word
        if words and words[-1].endswith(".") and words[-1][:-1].isalpha() and words[-1].isupper():
            words[-1] = words[-1][:-1]  # "LLC." ending a sentence
        name = " ".join(words)
        core = _LEGAL_TAIL.sub("", name).split()
        if len(words) < 2 or not core or (re.fullmatch(_DESCRIPTIVE, core[0]) and len(core) == 1):
            continue  # "the Company", a lone "Holdings" or "Solutions, Inc.": no name
        key = re.sub(r"\W+", " ", _LEGAL_TAIL.sub("", name)).casefold().strip()
        old = found.get(key)
        better = old is None or (old.isupper() and not name.isupper())
        if better or (not _LEGAL_TAIL.search(old) and _LEGAL_TAIL.search(name)):
            found[key] = name
    return list(found.values())


def _people(text: str, orgs: list[str]) -> list[str]:
    honorific, by_role, labelled = _PEOPLE
    hits = [m.group(1) for m in honorific.finditer(text)]
    hits += [m.group(1) for part in _near(text, _ROLE_ANCHOR) for m in by_role.finditer(part)]
    hits += [m.group(1) for m in labelled.finditer(text)]
    hits.sort(key=text.find)
    found: dict[str, str] = {}
    for name in hits:
        bare = re.sub(rf"^{_HONORIFIC}\.?\s+", "", name)
        words = [w.strip(".").lower() for w in bare.split()]
        if any(w in _NOT_NAME for w in words) or any(bare in org for org in orgs):
            continue
        found.setdefault(bare.casefold(), name)
    full = [name.casefold().split() for name in found if " " in name]
    # "Mr. Mitchell" or "Dr. Sarah" next to "James Mitchell" or "Sarah Chen" is no one new.
    return [v for k, v in found.items() if " " in k or not any(k in words for words in full)]


def discover_schema(rows: Iterable[dict[str, Any] | str]) -> list[dict[str, Any]]:
    """Per field across documents (metadata dicts or their JSON): type, documents, examples."""
    values: dict[str, list[Any]] = {}
    counts: Counter[str] = Counter()
    for row in rows:
        data = json.loads(row) if isinstance(row, str) else row
        for field, value in (data or {}).items():
            values.setdefault(field, [])
            if value is None or value == "" or value == [] or value == {}:
                continue
            counts[field] += 1
            values[field].append(value)
    schema = []
    for field in sorted(values):
        observed = values[field]
        examples: list[Any] = []
        for value in observed:
            for item in value if isinstance(value, list) else [value]:
                item = item if isinstance(item, (str, int, float, bool)) else json.dumps(item)
                if not any(_same(item, e) for e in examples):
                    examples.append(item)
            if len(examples) >= MAX_EXAMPLES:
                break
        schema.append(
            {
                "field": field,
                "type": _field_type(observed, KNOWN_TYPES.get(field, "string")),
                "documents": counts[field],
                "examples": examples[:MAX_EXAMPLES],
            }
        )
    return schema


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _scalar_type(values: list[Any]) -> str:
    if all(isinstance(v, bool) for v in values):
        return "boolean"
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return "number"
    if all(isinstance(v, str) and _ISO_DATE.match(v) for v in values):
        return "date"
    return "string"


def _field_type(values: list[Any], default: str) -> str:
    """The type of a field from its non-empty values (`default` when it has none)."""
    if not values:
        return default
    if all(isinstance(v, list) for v in values):
        items = [item for v in values for item in v]
        kind = _scalar_type(items)
        return f"list[{'string' if kind == 'boolean' else kind}]"
    if any(isinstance(v, list) for v in values):
        return "list[string]"
    return _scalar_type(values)
