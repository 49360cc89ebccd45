"""The SQL of a question over table rows (`fsnb.offline.tables`): the table a load step
made, the column to compute over, the filters the question's words, names and periods
give, and the queries for the values they match, the figure and the rows that went in.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from fsnb.db.sql import ident, literal
from fsnb.offline.named import Aggregate, Named, Unmatched, holds
from fsnb.offline.ranking import path_words
from fsnb.text.words import stem, tokenize
from fsnb.tools.payloads import Loaded, LoadedMany

#: Rows an answer quotes at most, and rows the row query fetches for them.
LISTED = 12
#: Values the match query returns at most (of all the words and names together).
MATCHED = 50

#: A row that sums the others, by its label ("Total", "Subtotal"): never one of the
#: items a figure is computed over (left out where a document loaded prints one).
TOTAL_ROW = r"(?i)^\s*(?:grand\s+|sub-?)?totals?\b"
#: A document's own total of its rows, not a subtotal ("Total", "Grand total").
OWN_TOTAL = r"(?i)^\s*(?:grand\s+)?totals?\b"
#: A year in a file's path, as RE2 (no look-around) finds it: "Travel/2024/TR-24.pdf".
_YEAR_IN_PATH = "(?:^|[^0-9])(?:{})(?:[^0-9]|$)"
#: Half a cent: two totals further apart differ.
CENT = 0.005
#: ...nor, for the largest or smallest, a row of the rest ("All other customers").
_SUMMARY = TOTAL_ROW + r"|^\s*all\s+others?\b"
NUMERIC = ("DOUBLE", "DECIMAL", "INTEGER", "BIGINT")
_DATES = ("DATE", "TIMESTAMP")
_PROVENANCE = ("source_file", "page", "source_row")


@dataclass(frozen=True)
class Plan:
    """The table, its columns, what to compute and the filters, as SQL."""

    ask: Aggregate
    table: str
    columns: Mapping[str, str]
    measure: str | None
    date: str | None
    words: tuple[str, ...]
    #: Whether the question names the table, one of its columns or the files it came from.
    about: bool = False
    values: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: The names (and periods, without a date column) the question gives, to find in rows.
    things: tuple[Named, ...] = ()
    #: The column each name was found in (by `filtered`).
    homes: tuple[tuple[str, str], ...] = ()
    #: Whether a document it was loaded from prints a row that totals the others.
    totalled: bool = False
    #: The years the question names that only the files' paths say ("Travel/2024/..."):
    #: rows of a file whose path names another year are left out.
    file_years: tuple[int, ...] = ()
    #: Whether the figure adds up each document's own total row (its last): a total over
    #: a totalled table whose rows the question does not name, subtotals and all.
    own_totals: bool = False

    @classmethod
    def of(cls, ask: Aggregate, loaded: object) -> Plan | None:
        """The plan over the table a load step made (its payload), None when it cannot
        compute `ask`."""
        if not isinstance(loaded, Loaded | LoadedMany):
            return None
        columns = {c: k for c, k in (loaded.columns or {}).items() if c not in _PROVENANCE}
        table = loaded.table
        if not table or not columns:
            return None
        numbers = [c for c, k in columns.items() if k.startswith(NUMERIC)]
        named = [
            c for c in numbers if stem(c.replace("_", " ").split()[-1]) in map(stem, ask.words)
        ]
        fractional = [c for c in numbers if "INT" not in columns[c]]
        measure = (named or fractional or numbers or [None])[-1]
        if measure is None and ask.func != "count":
            return None
        date = next((c for c, k in columns.items() if k.startswith(_DATES)), None)
        files = [path_words(str(p)) for p in loaded.read]
        names = set(tokenize(" ".join([table, *columns, *files]).replace("_", " ")))
        words = tuple(w for w in ask.words if stem(w) not in names)
        context = names | set(tokenize(" ".join(loaded.read).replace("_", " ")))
        things = ask.names + (() if date else ask.periods)
        said = {t for t in things if set(tokenize(t.label)) <= context}
        years = tuple(t.year for t in said if t.year is not None and not t.months)
        things = tuple(t for t in things if t not in said)
        about = len(words) < len(ask.words)
        return cls(
            ask, table, columns, measure, date, words, about, things=things, file_years=years
        )

    @property
    def checks_totals(self) -> bool:
        """Whether its total is checked against its documents' own total rows: a total
        over a totalled table whose rows the question does not name."""
        unnamed = not (self.values or self.named or self.own_totals)
        return self.ask.func == "sum" and self.totalled and unnamed

    def subtotalled(self, figures: Sequence[Mapping[str, Any]]) -> bool:
        """Whether the rows' total (`figures`: the aggregate query's rows) is not their
        documents' own totals added up: some rows are subtotals of others."""
        row = figures[0] if figures else {}
        total, own = row.get("total"), row.get("own_totals")
        return total is not None and own is not None and abs(float(total) - float(own)) > CENT

    @property
    def named(self) -> tuple[Named, ...]:
        """What the rows that went in must hold: the names, and the periods."""
        return self.things + (self.ask.periods if self.date else ())

    def _searched(self, thing: Named) -> list[str]:
        """The columns to look for `thing` in: where it was found, or the text (and year) ones."""
        if home := dict(self.homes).get(thing.label):
            return [home]
        years = [c for c, k in self.columns.items() if "year" in c and k.startswith(NUMERIC)]
        return self.texts + (years if thing.year else [])

    def unmatched(self, found: set[str], figure: Mapping[str, Any] | None) -> Unmatched:
        """Which named things the rows hold: each found by the match query and, where the
        figure counted the rows holding it (`holds`), in some of them."""
        held = [
            t.label
            for t in self.named
            if (t not in self.things or t.label in found)
            and figure is not None
            and figure.get(f"rows: {t.label}", 1)
        ]
        return Unmatched(tuple(held), tuple(t.label for t in self.named if t.label not in held))

    @property
    def texts(self) -> list[str]:
        return [c for c, k in self.columns.items() if k == "VARCHAR"]

    def match_sql(self) -> str:
        """Each text column's values that one of the question's words (or its stem) starts
        a word of, or that holds a name it gives, with the word or name and its rows."""
        tests = [
            (column, word, r"\b(?:" + "|".join(sorted({re.escape(word), stem(word)})) + ")")
            for column in self.texts
            for word in self.words
        ]
        tests += [(c, t.label, t.pattern) for t in self.things for c in self._searched(t)]
        parts = [
            f"SELECT {literal(column)} AS col, {literal(word)} AS word, "
            f"CAST({ident(column)} AS VARCHAR) AS value, COUNT(*) AS n FROM {ident(self.table)} "
            f"WHERE regexp_matches(lower(CAST({ident(column)} AS VARCHAR)), {literal(pattern)}) "
            f"GROUP BY ALL"
            for column, word, pattern in tests
        ]
        named = ", ".join(literal(t.label) for t in self.things)
        first = f"word IN ({named}) DESC, " if named else ""  # the names, however few rows
        return " UNION ALL ".join(parts) + f" ORDER BY {first}n DESC, value LIMIT {MATCHED}"

    def filtered(self, matched: Sequence[Mapping[str, Any]]) -> Plan:
        """The plan with the values matched, each word kept in the column where it names
        the most rows."""
        best: dict[str, tuple[int, str]] = {}
        for row in matched:
            rows = sum(
                r["n"] for r in matched if r["word"] == row["word"] and r["col"] == row["col"]
            )
            if row["word"] not in best or rows > best[row["word"]][0]:
                best[row["word"]] = (rows, row["col"])
        values: dict[str, list[str]] = {}
        for row in matched:
            if best[row["word"]][1] == row["col"] and row["value"] not in values.get(
                row["col"], []
            ):
                values.setdefault(row["col"], []).append(row["value"])
        homes = tuple((w, c) for w, (_, c) in best.items())
        return replace(self, values=tuple((c, tuple(v)) for c, v in values.items()), homes=homes)

    def where(self) -> str:
        tests = [
            f"{ident(column)} IN ({', '.join(map(literal, values))})"
            for column, values in self.values
        ]
        if self.date and self.ask.months:
            tests.append(f"month({ident(self.date)}) IN ({', '.join(map(str, self.ask.months))})")
        if self.date and self.ask.years:
            tests.append(f"year({ident(self.date)}) IN ({', '.join(map(str, self.ask.years))})")
        if self.file_years:  # "in 2024": not the rows of Travel/2023/...
            any_year, asked = (
                literal(_YEAR_IN_PATH.format(years))
                for years in ("(?:19|20)[0-9][0-9]", "|".join(map(str, self.file_years)))
            )
            tests.append(
                f"(NOT regexp_matches(source_file, {any_year})"
                f" OR regexp_matches(source_file, {asked}))"
            )
        label = next((c for c, k in self.columns.items() if k.startswith("VARCHAR")), None)
        extreme = self.ask.func in ("max", "min")
        if label is not None and self.own_totals:
            tests.append(f"coalesce(regexp_matches({ident(label)}, {literal(OWN_TOTAL)}), false)")
        elif label is not None and (extreme or self.totalled):
            pattern = literal(_SUMMARY if extreme else TOTAL_ROW)
            tests.append(f"NOT coalesce(regexp_matches({ident(label)}, {pattern}), false)")
        where = f" WHERE {' AND '.join(tests)}" if tests else ""
        if self.own_totals:  # the last total row of each document
            where += (
                " QUALIFY row_number() OVER (PARTITION BY source_file ORDER BY source_row DESC) = 1"
            )
        return where

    def aggregate_sql(self) -> str:
        func, measure, source = self.ask.func, self.measure, f"{ident(self.table)}{self.where()}"
        if func in ("max", "min") and measure is not None:
            order = "DESC" if func == "max" else "ASC"
            return f"SELECT * FROM {source} ORDER BY {ident(measure)} {order} LIMIT 1"
        checks = "".join(  # the rows holding each named thing, when the filter has several
            f", COUNT(*) FILTER (WHERE {holds(t, self.date, self._searched(t))}) "
            f"AS {ident(f'rows: {t.label}')}"
            for t in (self.named if len(self.named) > 1 else ())
        )
        name = {"sum": "total", "avg": "average"}.get(func)
        figure = f"{func.upper()}({ident(measure)}) AS {name}, " if name and measure else ""
        if self.own_totals:  # QUALIFY picks rows: aggregate over them in an outer query
            source = f"(SELECT * FROM {source})"
        if self.checks_totals and measure:
            own = replace(self, own_totals=True)
            checks += f", (SELECT SUM({ident(measure)}) FROM (SELECT * FROM {ident(self.table)}"
            checks += f"{own.where()})) AS own_totals"
        return f"SELECT {figure}COUNT(*) AS row_count{checks} FROM {source}"

    def rows_sql(self) -> str:
        """The rows that went in, the first of each document first, so a short list still
        cites every document."""
        order = ident(self.date) if self.date else "source_row"
        return (
            f"SELECT * FROM {ident(self.table)}{self.where()} ORDER BY row_number() OVER "
            f"(PARTITION BY source_file ORDER BY {order}, source_row), {order}, source_file "
            f"LIMIT {LISTED}"
        )

    def described(self) -> str:
        """The filters in words: "category is Dining, dated in March 2025"."""
        parts = [f"{c} is {' or '.join(v)}" for c, v in self.values]
        if self.own_totals:
            parts.append("the row is its document's total")
        when = [calendar.month_name[m] for m in self.ask.months]
        when += [str(y) for y in self.ask.years]
        if self.date and when:
            parts.append(f"{self.date} in {' '.join(when)}")
        return ", ".join(parts)


def rows_counted(plan: Plan, figures: list[dict[str, Any]]) -> int:
    """How many rows the figure was computed over (`figures`: the aggregate query's rows)."""
    if not figures:
        return 0
    if plan.ask.func in ("max", "min"):
        return len(figures)  # the extreme row itself, when the filter left any
    return int(figures[0].get("row_count") or 0)
