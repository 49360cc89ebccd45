"""Size and date ranges as people write them: `>10MB`, `1MB-100MB`, `this-week`, `2026-01`.

`size_range` and `date_range` parse the text into a half-open interval, or raise
`ValueError` with one line saying what is accepted. Sizes count in 1024s (KB, MB, GB, TB),
like the sizes the tools show; dates are local time, and a day, month or year stands for
the whole of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

SIZE_FORMS = ">10MB, <1KB, >=2GB, 1MB-100MB (units B, KB, MB, GB, TB)"
DATE_FORMS = (
    "today, yesterday, this-week, this-month, this-year, 2026, 2026-01, 2026-01-15, "
    ">2026-01-01, <2026-01-01, 2025-01-01..2025-06-30"
)
_UNITS = {"": 1, "B": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?\s*", re.IGNORECASE)
_COMPARE = re.compile(r"\s*(>=|<=|>|<)\s*(.+)")


@dataclass(frozen=True)
class SizeRange:
    """Sizes in bytes from `low` (included) to `high` (excluded); None: no bound."""

    low: int | None = None
    high: int | None = None

    def __contains__(self, size: int) -> bool:
        return (self.low is None or size >= self.low) and (self.high is None or size < self.high)


@dataclass(frozen=True)
class DateRange:
    """Times from `start` (included) to `end` (excluded); None: no bound."""

    start: datetime | None = None
    end: datetime | None = None

    def __contains__(self, when: datetime) -> bool:
        return (self.start is None or when >= self.start) and (self.end is None or when < self.end)


def _bytes(text: str) -> int | None:
    match = _SIZE.fullmatch(text)
    if not match:
        return None
    return int(float(match.group(1)) * _UNITS[match.group(2).upper()])


def size_range(text: str) -> SizeRange:
    """Parse `>10MB`, `<=1KB`, `1MB-100MB` (a bare size means exactly that many bytes)."""
    compare = _COMPARE.fullmatch(text)
    if compare:
        op, value = compare.groups()
        size = _bytes(value)
        if size is not None:
            return {
                ">": SizeRange(low=size + 1),
                ">=": SizeRange(low=size),
                "<": SizeRange(high=size),
                "<=": SizeRange(high=size + 1),
            }[op]
    elif "-" in text:
        low, _, high = text.partition("-")
        lo, hi = _bytes(low), _bytes(high)
        if lo is not None and hi is not None and lo <= hi:
            return SizeRange(lo, hi + 1)
    else:
        size = _bytes(text)
        if size is not None:
            return SizeRange(size, size + 1)
    msg = f"bad size range {text!r}: use {SIZE_FORMS}"
    raise ValueError(msg)


def _period(text: str, today: date) -> tuple[datetime, datetime] | None:
    """The span a word or a date stands for: its first moment and the one after it."""
    word = text.strip().lower()
    start: date
    if word in ("today", "yesterday"):
        start = today - timedelta(days=word == "yesterday")
        return _days(start, 1)
    if word == "this-week":
        return _days(today - timedelta(days=today.weekday()), 7)
    if word == "this-month":
        word = f"{today:%Y-%m}"
    elif word == "this-year":
        word = f"{today:%Y}"
    try:
        if re.fullmatch(r"\d{4}", word):
            year = int(word)
            return _at(date(year, 1, 1)), _at(date(year + 1, 1, 1))
        if re.fullmatch(r"\d{4}-\d{1,2}", word):
            year, month = map(int, word.split("-"))
            after = date(year + month // 12, month % 12 + 1, 1)
            return _at(date(year, month, 1)), _at(after)
        if re.fullmatch(r"\d{4}-\d{1,2}-\d{1,2}", word):
            return _days(date.fromisoformat(_iso(word)), 1)
    except ValueError:  # month 13, day 32
        return None
    return None


def _iso(word: str) -> str:
    year, month, day = word.split("-")
    return f"{year}-{int(month):02d}-{int(day):02d}"


def _at(day: date) -> datetime:
    return datetime(day.year, day.month, day.day)


def _days(first: date, count: int) -> tuple[datetime, datetime]:
    return _at(first), _at(first + timedelta(days=count))


def date_range(text: str, *, today: date | None = None) -> DateRange:
    """Parse `today`, `this-week`, `2026-01`, `>2026-01-01`, `2025-01-01..2025-06-30`.

    `>X` is after the whole of X, `>=X` from its start, `<X` before its start, `<=X` up to
    its end; `A..B` runs from the start of A to the end of B (either side may be left out).
    """
    day = today or date.today()
    compare = _COMPARE.fullmatch(text)
    if compare:
        op, value = compare.groups()
        span = _period(value, day)
        if span:
            return {
                ">": DateRange(start=span[1]),
                ">=": DateRange(start=span[0]),
                "<": DateRange(end=span[0]),
                "<=": DateRange(end=span[1]),
            }[op]
    elif ".." in text:
        first, _, last = text.partition("..")
        lo = _period(first, day) if first.strip() else (None, None)
        hi = _period(last, day) if last.strip() else (None, None)
        if lo and hi and (first.strip() or last.strip()):
            found = DateRange(lo[0], hi[1])
            if found.start is None or found.end is None or found.start < found.end:
                return found
    else:
        span = _period(text, day)
        if span:
            return DateRange(*span)
    msg = f"bad date range {text!r}: use {DATE_FORMS}"
    raise ValueError(msg)


__all__ = ["DATE_FORMS", "SIZE_FORMS", "DateRange", "SizeRange", "date_range", "size_range"]
