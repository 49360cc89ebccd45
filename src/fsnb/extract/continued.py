"""PDF tables continued on the next page, merged into one table whose rows know their page.

A table is a continuation of the one before it when that one is the last table on its
page, it is the first table on the next page and starts near its top, it has as many
columns, and either its first row repeats the earlier table's header (that row is then
dropped) or its columns have the same kinds (number, date, text) as the earlier rows.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
from pandas.api import types as ptypes

from fsnb.extract.columns import parse_number, typed

#: How far down its page (a fraction of the page height) a continuation may start.
NEAR_TOP = 0.25


@dataclass
class PageTable:
    """A table found on a PDF page: its rows of text cells and each row's page."""

    page: int
    caption: str | None
    rows: list[list[str]]
    pages: list[int]
    #: Whether it is the first / last table on its page, and starts near the page's top.
    first: bool = True
    last: bool = True
    near_top: bool = False


def merge_continued(tables: list[PageTable]) -> list[PageTable]:
    """`tables` (in page order) with each continuation appended to the table it continues."""
    merged: list[PageTable] = []
    for table in tables:
        previous = merged[-1] if merged else None
        if previous is None or not _continues(previous, table):
            merged.append(table)
            continue
        rows = table.rows[1:] if _repeats_header(previous, table) else table.rows
        previous.rows.extend(rows)
        previous.pages.extend([table.page] * len(rows))
        previous.last = table.last
    return merged


def _continues(previous: PageTable, table: PageTable) -> bool:
    if not (previous.last and table.first and table.near_top):
        return False
    if table.page != previous.pages[-1] + 1 or _width(table) != _width(previous):
        return False
    if _repeats_header(previous, table):
        return True
    body = previous.rows[1:] if _header_like(previous.rows[0]) else previous.rows
    return _kinds_match(_kinds(body), _kinds(table.rows))


def _width(table: PageTable) -> int:
    return max(map(len, table.rows), default=0)


def _clean(row: list[str]) -> list[str]:
    return [" ".join(c.split()) for c in row]


def _header_like(row: list[str]) -> bool:
    cells = _clean(row)
    return all(cells) and len(set(cells)) == len(cells) and not any(map(parse_number, cells))


def _repeats_header(previous: PageTable, table: PageTable) -> bool:
    first = _clean(previous.rows[0])
    return _header_like(previous.rows[0]) and _clean(table.rows[0]) == first


def _kinds(rows: list[list[str]]) -> list[str | None]:
    """Each column's kind ('number', 'date', 'text'), None for a column with no value."""
    frame = typed(pd.DataFrame(rows, dtype=object).fillna(""))
    kinds: list[str | None] = []
    for name in frame.columns:
        column = frame[name]
        if ptypes.is_numeric_dtype(column):
            kinds.append("number")
        elif ptypes.is_datetime64_any_dtype(column):
            kinds.append("date")
        else:
            filled = (column.astype(str).str.strip() != "").any()
            kinds.append("text" if filled else None)
    return kinds


def _kinds_match(have: list[str | None], new: list[str | None]) -> bool:
    return all(a is None or b is None or a == b for a, b in zip(have, new, strict=False))
