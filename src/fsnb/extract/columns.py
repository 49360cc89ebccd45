"""Column typing for extracted tables: numbers, currency amounts, percentages and dates.

A column takes a type when at least `SHARE` of its non-empty cells parse as it; cells that
do not parse become missing values there (the text stays in the raw frame).
"""

from __future__ import annotations

import re
import warnings

import pandas as pd

#: The share of a column's non-empty cells that must parse for it to take a type.
SHARE = 0.8

_CURRENCY = r"(?:[$€£¥₹]|(?:USD|EUR|GBP|JPY|CHF|CAD|AUD|INR|CNY)\b\.?)"
_NUMBER = re.compile(
    rf"""^(?P<open>\()?\s*(?P<sign1>[-+−])?\s*(?P<cur1>{_CURRENCY})?\s*(?P<sign2>[-+−])?\s*
    (?P<digits>\d{{1,3}}(?:,\d{{3}})+|\d+)?(?P<frac>\.\d+)?
    \s*(?P<cur2>{_CURRENCY})?\s*(?P<pct>%)?\s*(?P<close>\))?$""",
    re.VERBOSE,
)
#: Date forms by field order; a column reads with the forms of the order that reads the most
#: cells (ties: earlier first), so one column never mixes month-first and day-first dates.
DATE_FORMATS = {
    "ymd": ("%Y-%m-%d", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y/%m/%d"),
    "mdy": ("%m/%d/%Y", "%m/%d/%y"),
    "dmy": ("%d/%m/%Y", "%d.%m.%Y", "%d/%m/%y"),
    "named": ("%d %b %Y", "%d %B %Y", "%b %d, %Y", "%B %d, %Y", "%d-%b-%Y", "%b %d %Y"),
}
#: Dates in microseconds: years 1 to 9999, as DuckDB's DATE (nanoseconds end in 2262, and
#: one "9999-12-31" cell made the whole document's tables fail).
DATES = "datetime64[us]"
#: Cells that stand for "no value" and do not count against a column's type.
PLACEHOLDERS = frozenset({"-", "–", "—", "n/a", "na", "none", "null", "nan", "?"})


def _blank(cell: str) -> bool:
    return not cell or cell.lower() in PLACEHOLDERS


def _cells(column: pd.Series) -> pd.Series:
    return column.astype("string").fillna("").str.strip()


def parse_number(text: str) -> tuple[float, str] | None:
    """A number's value and kind ('int', 'float', 'percent'), or None when it is not one.

    Accepts thousands separators, currency symbols or codes on either side, and negatives
    as "-12.00", "(12.00)" or "-€3.20"; "12.5%" is 0.125. Integers with a leading zero
    ("02139") are identifiers, not numbers.
    """
    match = _NUMBER.match(text)
    if not match or not (match["digits"] or match["frac"]):
        return None
    digits, frac = match["digits"] or "0", match["frac"] or ""
    if bool(match["open"]) != bool(match["close"]) or (match["cur1"] and match["cur2"]):
        return None
    if match["sign1"] and match["sign2"]:
        return None
    if len(digits) > 1 and digits.startswith("0") and not frac:
        return None
    value = float(digits.replace(",", "") + frac)
    if match["open"] or (match["sign1"] or match["sign2"]) in ("-", "−"):
        value = -value
    if match["pct"]:
        return value / 100, "percent"
    kind = "float" if frac or match["cur1"] or match["cur2"] else "int"
    return value, kind


def _numeric(cells: pd.Series) -> pd.Series | None:
    parsed = [None if _blank(c) else parse_number(c) for c in cells]
    filled = [p for c, p in zip(cells, parsed, strict=True) if not _blank(c)]
    hits = [p for p in filled if p is not None]
    if not filled or len(hits) < SHARE * len(filled):
        return None
    values = pd.Series([p[0] if p else float("nan") for p in parsed], index=cells.index)
    kinds = {p[1] for p in hits}
    if kinds == {"int"}:
        if values.isna().any():
            return values.astype("Int64")
        return values.astype("int64")
    if "percent" in kinds and len(kinds) > 1:
        return None
    return values.astype("float64")


def _dates(cells: pd.Series) -> pd.Series | None:
    filled = cells[~cells.map(_blank).astype(bool)]
    if filled.empty or not filled.str.contains(r"\d", regex=True).all():
        return None
    best: pd.Series | None = None
    try:
        for forms in DATE_FORMATS.values():
            parsed = pd.Series(pd.NaT, index=cells.index, dtype=DATES)
            for form in forms:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    read = pd.to_datetime(cells, format=form, errors="coerce")
                parsed = parsed.fillna(read.astype(DATES))
            if best is None or parsed.notna().sum() > best.notna().sum():
                best = parsed
    except (OverflowError, pd.errors.OutOfBoundsDatetime):  # then the column stays text
        return None
    if best is None or best.notna().sum() < SHARE * len(filled):
        return None
    return best


def typed_column(column: pd.Series) -> pd.Series:
    """One column typed: int, float, percentage fraction, datetime64, or text as given."""
    cells = _cells(column)
    for parse in (_numeric, _dates):
        result = parse(cells)
        if result is not None:
            return result.rename(column.name)
    return cells.astype(object).rename(column.name)


def typed(raw: pd.DataFrame) -> pd.DataFrame:
    """`raw` (text cells) with each column typed by `typed_column`."""
    if not raw.shape[1]:
        return raw.copy()
    columns = {i: typed_column(raw.iloc[:, i]) for i in range(raw.shape[1])}
    return pd.DataFrame(columns).set_axis(raw.columns, axis=1)
