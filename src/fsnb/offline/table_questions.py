"""Questions that ask for a figure computed over rows: totals, counts, averages, extremes.

"How much did I spend on dining in March?" is not answered by a passage but by arithmetic
over a table's rows. When a question asks for a sum, count, average, maximum or minimum
(`aggregate_question`) and the documents that rank for it hold tables, the offline
strategy takes these steps, each a real tool call:

1. `extract_tables` on the best-ranked document with a table, to choose the table whose
   caption, columns and rows fit the question;
2. `load_table` of that table from every document that holds one with the same header
   (a series of statements, of reports), into one scratchpad table;
3. `query_data` for the values of its text columns that the question's words name
   ("dining" -> category 'Dining'), prefix-matched on the words and their stems;
4. `query_data` for the aggregate itself, filtered by those values and by the months and
   years the question names;
5. `query_data` for the rows that went in, spread over the documents they came from.

The answer gives the figure, the SQL that computed it, and the rows quoted as the documents
print them, each cited. A question whose words match no row, or whose figure would come
from fewer rows than an aggregate needs, falls back to reading passages.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from fsnb.db.scratchpad import sanitize
from fsnb.db.sql import ident, literal
from fsnb.offline.corpus import Corpus
from fsnb.offline.ranking import QUESTION_WORDS, path_words
from fsnb.offline.statements import table_cells
from fsnb.protocol import Action, CitedSource, Conversation, Turn
from fsnb.text.words import STOPWORDS, stem, tokenize
from fsnb.tools.payloads import Loaded, LoadedMany, Rows, TableInfo, Tables

NOTE = "_(offline backend: computed in SQL over the documents' tables, no LLM)_"
#: Rows an answer quotes at most, and rows the row query fetches for them.
LISTED = 12
#: Rows a table needs to be worth aggregating over, and rows an aggregate needs.
MIN_TABLE_ROWS = 5
MIN_ROWS = {"sum": 2, "avg": 2, "count": 1, "max": 1, "min": 1}
#: Documents loaded into one table at most.
MAX_DOCUMENTS = 60
#: Lines of a document's text that look like table rows, for it to count as tabular.
TABLE_LINES = 3
#: Tabular documents whose tables are listed at most, best-ranked first, until one fits.
TABLE_DOCUMENTS = 3

#: "the most" or "the least" standing alone ("saves the most per year"), not before an
#: adjective ("the most important").
_ALONE = r"(?=\s*(?:$|[?.,;]|per\b|a\b|an\b|each\b|in\b|of\b|over\b|during\b))"
#: A row that sums the others, by its label ("Total", "Subtotal", "All other customers"):
#: never the largest or smallest single item.
_SUMMARY = r"(?i)^\s*(?:grand\s+|sub-?)?totals?\b|^\s*all\s+others?\b"
_AGGREGATES = (  # the first that matches wins: "the total number of" is a count
    ("avg", r"\baverage\b|\bmean\b|\btypical(?:ly)?\b"),
    ("count", r"\bhow many\b|\bnumber of\b|\bcount\b"),
    ("max", rf"\b(?:largest|biggest|highest|most expensive|maximum|greatest)\b|\bthe most{_ALONE}"),
    ("min", rf"\b(?:smallest|lowest|cheapest|least expensive|minimum)\b|\bthe least{_ALONE}"),
    (
        "sum",
        r"\btotal(?:led|ed|s)?\b|\bsum\b|\baltogether\b|\bcombined\b|\bin all\b|"
        r"\bhow much\b.*\b(?:spen[dt]|spending|pa(?:y|id)|cost|charged|earn(?:ed)?|"
        r"receiv(?:e|ed)|refunded|owe[d]?|sold|bought|used|consumed)\b",
    ),
)
#: Words that say how to aggregate or over what span, not which rows (stemmed).
_CUE_WORDS = frozenset(
    tokenize(
        "average mean typical typically many number count largest biggest highest expensive "
        "maximum greatest smallest lowest cheapest least minimum total totalled totals sum "
        "altogether combined much spend spent spending pay paid cost costs charged earn earned "
        "receive received owe owed single individual each every whole entire overall all "
        "one year years yearly annual annually month months monthly week weeks weekly day "
        "days daily quarter quarters period during",
        keep_stopwords=True,
    )
)
_MONTHS = {
    name.lower(): number
    for number in range(1, 13)
    for name in (calendar.month_name[number], calendar.month_abbr[number])
}
_MONTH = r"(?:" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\b\.?"
_MONTH_RANGE = re.compile(
    rf"\b(?:from|between)\s+({_MONTH})\s+(?:to|through|until|and|-)\s+({_MONTH})", re.IGNORECASE
)
_MONTH_WORD = re.compile(rf"\b({_MONTH})", re.IGNORECASE)
_YEAR = re.compile(r"\b(19\d\d|20\d\d)\b")
_NUMERIC = ("DOUBLE", "DECIMAL", "INTEGER", "BIGINT")
_DATES = ("DATE", "TIMESTAMP")
_PROVENANCE = ("source_file", "page", "source_row")
_CURRENCY = re.compile(r"([$€£¥₹])\s?\(?-?\d|-\s?([$€£¥₹])\d")


@dataclass(frozen=True)
class Aggregate:
    """What a question asks to compute: the function, the months and years it names, and
    the words left to match rows with."""

    func: str  # sum, count, avg, max, min
    months: tuple[int, ...]
    years: tuple[int, ...]
    words: tuple[str, ...]  # the question's words, lower case, unstemmed


def aggregate_question(task: str) -> Aggregate | None:
    """The aggregate `task` asks for, or None when it asks for none."""
    func = next((name for name, cue in _AGGREGATES if re.search(cue, task, re.IGNORECASE)), None)
    if func is None:
        return None
    months: list[int] = []
    span = _MONTH_RANGE.search(task)
    if span:
        first, last = (_MONTHS[m.lower().rstrip(".")] for m in span.groups())
        months += (
            range(first, last + 1) if first <= last else [*range(first, 13), *range(1, last + 1)]
        )
    rest = _MONTH_RANGE.sub(" ", task)
    months += [_MONTHS[m.lower().rstrip(".")] for m in _MONTH_WORD.findall(rest)]
    rest = _MONTH_WORD.sub(" ", rest)
    years = tuple(sorted({int(y) for y in _YEAR.findall(rest)}))
    words = tuple(
        w
        for w in re.findall(r"[^\W\d_]+", _YEAR.sub(" ", rest).lower())
        if len(w) > 1 and w not in STOPWORDS and stem(w) not in QUESTION_WORDS | _CUE_WORDS
    )
    return Aggregate(func, tuple(sorted(set(months))), years, words)


# -- the steps ---------------------------------------------------------------------------


def table_step(conversation: Conversation, corpus: Corpus) -> Action | None:
    """The next step of answering from tables: a tool call, the answer, or None when the
    question is not one for tables (or the tables do not answer it)."""
    ask = aggregate_question(conversation.task)
    names = {t["name"] for t in conversation.tools}
    if ask is None or not {"extract_tables", "load_table", "query_data"} <= names:
        return None
    turns = conversation.turns
    lists = [t for t in turns if t.action.kind == "tool_call" and t.action.tool == "extract_tables"]
    fits = ((t, _choose_table(ask, t)) for t in lists)
    listed, chosen = next(((t, c) for t, c in fits if c is not None), (None, None))
    if listed is None or chosen is None:
        tried = {_listed_path(t) for t in lists}
        path = _tabular_document(corpus, tried) if len(lists) < TABLE_DOCUMENTS else None
        if path is None:
            return None
        reason = f"Tables: the question asks for a {_WORDS[ask.func]}; list the tables of {path}."
        if lists:
            reason = f"Tables: no table of {', '.join(sorted(tried))} fits; list those of {path}."
        return Action.call("extract_tables", reason, path=path)
    loaded = _turn(turns, "load_table")
    if loaded is None:
        return _load(corpus, listed, chosen)
    if not loaded.ok:
        return None
    plan = Plan.of(ask, loaded.outcome.payload if loaded.outcome else None)
    if plan is None:
        return None
    queries = [t for t in turns[turns.index(loaded) + 1 :] if t.action.tool == "query_data"]
    if any(not q.ok for q in queries):
        return None
    if plan.words and not queries:
        reason = "Match: find the values of the table's text columns that the question names."
        return Action.call("query_data", reason, sql=plan.match_sql())
    matched = _rows(queries[0]) if plan.words else []
    # an extreme over all rows is well defined when the words are the documents' own
    known = ask.func in ("max", "min") and all(corpus.stats.df.get(stem(w)) for w in plan.words)
    if plan.words and not matched and not (plan.about or known):
        return None  # the question names neither rows nor the table: read passages instead
    plan = plan.filtered(matched)
    done = queries[1:] if plan.words else queries
    if not done:
        reason = f"Compute: the {_WORDS[ask.func]} in SQL over the rows the question asks about."
        return Action.call("query_data", reason, sql=plan.aggregate_sql())
    figures = _rows(done[0])
    counted = _count(plan, figures)
    if counted < MIN_ROWS[ask.func]:
        return None
    if len(done) == 1 and ask.func not in ("max", "min"):  # an extreme is its own row
        reason = "Cite: fetch the rows that went into the figure, from every document."
        return Action.call("query_data", reason, sql=plan.rows_sql())
    return answer(plan, done[0], done[-1], corpus)


_WORDS = {"sum": "total", "count": "count", "avg": "average", "max": "maximum", "min": "minimum"}


def _turn(turns: Sequence[Turn], tool: str) -> Turn | None:
    return next((t for t in turns if t.action.kind == "tool_call" and t.action.tool == tool), None)


def _rows(turn: Turn) -> list[dict[str, Any]]:
    """A query step's result rows as dicts (its outcome's payload)."""
    found = turn.outcome.payload if turn.outcome else None
    return found.records() if isinstance(found, Rows) else []


def _listed_path(turn: Turn) -> str:
    listed = turn.outcome.payload if turn.outcome else None
    return listed.path if isinstance(listed, Tables) else str(turn.action.arguments().get("path"))


def _tabular_document(corpus: Corpus, tried: set[str]) -> str | None:
    """The best-ranked document not `tried` whose text holds table rows."""
    for ranked in corpus.ranking:
        if ranked.score <= 0:
            break
        if ranked.path in tried:
            continue
        if _table_lines(corpus.docs[ranked.path].text) >= TABLE_LINES:
            return ranked.path
    return None


def _table_lines(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.count(" | ") >= 1)


def _choose_table(ask: Aggregate, turn: Turn) -> TableInfo | None:
    """The listed table that fits the question best: enough rows, a number column unless
    it counts, the most of the question's words in its caption and column names, then the
    most rows (the data, not a summary of it)."""
    listed = turn.outcome.payload if turn.outcome and turn.ok else None
    tables = listed.tables if isinstance(listed, Tables) else ()
    stems = {stem(w) for w in ask.words}
    best, best_key = None, None
    for table in tables:
        kinds = list(table.columns.values())
        numeric = any(k.startswith(_NUMERIC) for k in kinds)
        if table.rows < MIN_TABLE_ROWS or not (numeric or ask.func == "count"):
            continue
        label = " ".join([table.caption or "", *table.columns])
        key = (len(stems & set(tokenize(label))), table.rows)
        if best_key is None or key > best_key:
            best, best_key = table, key
    return best


def _load(corpus: Corpus, listed: Turn, table: TableInfo) -> Action:
    """Load the chosen table from its document and every other with the same header."""
    tables = listed.outcome.payload if listed.outcome else None
    source = tables.path if isinstance(tables, Tables) else ""
    columns = [str(c) for c in table.columns]
    header = " | ".join(columns)
    same = [
        p
        for p, doc in corpus.docs.items()
        if p != source
        and any("|" in line and table_cells(line) == columns for line in doc.text.splitlines())
    ]
    paths = [source, *sorted(same)][:MAX_DOCUMENTS]
    caption = table.caption or ""
    name = sanitize(caption) if caption and len(caption.split()) <= 3 else "extracted"
    if len(paths) == 1:
        reason = f"Load: table {table.index} of {source} into the scratchpad as {name}."
        return Action.call("load_table", reason, path=source, table=table.index, name=name)
    reason = (
        f"Load: {len(paths)} documents hold a table headed '{header}'; load each into the "
        f"scratchpad table {name}."
    )
    return Action.call(
        "load_table", reason, path=", ".join(paths), table=" ".join(columns), name=name
    )


# -- the SQL -------------------------------------------------------------------------------


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
        numbers = [c for c, k in columns.items() if k.startswith(_NUMERIC)]
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
        return cls(ask, table, columns, measure, date, words, about=len(words) < len(ask.words))

    @property
    def texts(self) -> list[str]:
        return [c for c, k in self.columns.items() if k == "VARCHAR"]

    def match_sql(self) -> str:
        """Each text column's values that one of the question's words (or its stem) starts
        a word of, with the word and the rows holding it."""
        parts = []
        for column in self.texts:
            for word in self.words:
                alternatives = "|".join(sorted({re.escape(word), re.escape(stem(word))}))
                pattern = literal(rf"\b(?:{alternatives})")
                parts.append(
                    f"SELECT {literal(column)} AS col, {literal(word)} AS word, "
                    f"{ident(column)} AS value, "
                    f"COUNT(*) AS n FROM {ident(self.table)} "
                    f"WHERE regexp_matches(lower({ident(column)}), {pattern}) "
                    f"GROUP BY ALL"
                )
        return " UNION ALL ".join(parts) + " ORDER BY n DESC, value LIMIT 50"

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
        return replace(self, values=tuple((c, tuple(v)) for c, v in values.items()))

    def where(self) -> str:
        tests = [
            f"{ident(column)} IN ({', '.join(map(literal, values))})"
            for column, values in self.values
        ]
        if self.date and self.ask.months:
            tests.append(f"month({ident(self.date)}) IN ({', '.join(map(str, self.ask.months))})")
        if self.date and self.ask.years:
            tests.append(f"year({ident(self.date)}) IN ({', '.join(map(str, self.ask.years))})")
        label = next((c for c, k in self.columns.items() if k.startswith("VARCHAR")), None)
        if label is not None and self.ask.func in ("max", "min"):  # not the largest item
            summary = f"regexp_matches({ident(label)}, {literal(_SUMMARY)})"
            tests.append(f"NOT coalesce({summary}, false)")
        return f" WHERE {' AND '.join(tests)}" if tests else ""

    def aggregate_sql(self) -> str:
        func, measure, source = self.ask.func, self.measure, f"{ident(self.table)}{self.where()}"
        if func == "count" or measure is None:
            return f"SELECT COUNT(*) AS row_count FROM {source}"
        if func in ("max", "min"):
            order = "DESC" if func == "max" else "ASC"
            return f"SELECT * FROM {source} ORDER BY {ident(measure)} {order} LIMIT 1"
        name = {"sum": "total", "avg": "average"}[func]
        return (
            f"SELECT {func.upper()}({ident(measure)}) AS {name}, COUNT(*) AS row_count"
            f" FROM {source}"
        )

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
        when = [calendar.month_name[m] for m in self.ask.months]
        when += [str(y) for y in self.ask.years]
        if self.date and when:
            parts.append(f"{self.date} in {' '.join(when)}")
        return ", ".join(parts)


def _count(plan: Plan, figures: list[dict[str, Any]]) -> int:
    if not figures:
        return 0
    if plan.ask.func in ("max", "min"):
        return len(figures)  # the extreme row itself, when the filter left any
    return int(figures[0].get("row_count") or 0)


# -- the answer ----------------------------------------------------------------------------


def answer(plan: Plan, figures: Turn, rows: Turn, corpus: Corpus) -> Action:
    """The figure, the rows that went in (quoted as their documents print them, cited), and
    the SQL."""
    citations: list[CitedSource] = []
    listed = _rows(rows)
    quotes = [_quote(corpus, row, plan) for row in listed]
    symbol = _symbol(q for q, _ in quotes)
    found = figures.outcome.payload if figures.outcome else None
    sql = found.sql if isinstance(found, Rows) else ""
    result = _rows(figures)[0]
    scope = plan.described()
    where = f" where {scope}" if scope else ""
    func = plan.ask.func
    if func in ("max", "min"):
        value = _money(result.get(plan.measure or ""), symbol)
        word = "largest" if func == "max" else "smallest"
        quote, page = _quote(corpus, result, plan)
        mark = _cite(citations, str(result.get("source_file")), page, quote)
        lines = [
            f"The {word} {plan.measure} in {plan.table}{where} is **{value}**: {quote} {mark}."
        ]
    else:
        total = int(result.get("row_count") or 0)
        if func == "count":
            lines = [f"**{total:,}** rows of {plan.table}{where}."]
        else:
            value = _money(result.get("total" if func == "sum" else "average"), symbol)
            what = "total" if func == "sum" else "average"
            over = f"{plan.measure} over {total:,} rows of {plan.table}{where}"
            lines = [f"**{value}** is the {what} of {over}."]
        files = len({r.get("source_file") for r in listed})
        shown = f"the first {len(listed)}" if total > len(listed) else f"all {len(listed)}"
        lines.append(
            f"\nThe rows that went in ({shown}, from {files} document{'s' * (files != 1)}):"
        )
        for row, (quote, page) in zip(listed, quotes, strict=True):
            lines.append(f"- {quote} {_cite(citations, str(row.get('source_file')), page, quote)}")
    lines.append(f"\nComputed with:\n\n```sql\n{sql}\n```")
    reason = f"Answered in SQL over {plan.table}, citing {len(citations)} rows."
    return Action.stop("\n".join(lines) + f"\n\n{NOTE}", reason, citations)


def _cite(citations: list[CitedSource], path: str, page: int | None, quote: str) -> str:
    for known in citations:
        if known.path == path and known.quote == quote:
            return f"[{known.id}]"
    citations.append(CitedSource(id=len(citations) + 1, path=path, page=page, quote=quote))
    return f"[{len(citations)}]"


def _quote(corpus: Corpus, row: Mapping[str, Any], plan: Plan) -> tuple[str, int | None]:
    """The line of the row's document that prints the row (its text cells and numbers),
    or its longest text cell; and the row's page."""
    page = row.get("page")
    doc = corpus.docs.get(str(row.get("source_file")))
    texts = [str(row[c]) for c in plan.texts if row.get(c)]
    numbers = [
        row[c] for c, k in plan.columns.items() if k.startswith(_NUMERIC) and row.get(c) is not None
    ]
    if doc is not None:
        for line in doc.text.splitlines():
            if (
                " | " in line
                and all(t in line for t in texts)
                and all(_printed(n, line) for n in numbers)
            ):
                return line.strip(), page
    return (max(texts, key=len) if texts else str(row.get(plan.measure or "", ""))), page


def _printed(number: float, line: str) -> bool:
    """Whether `line` prints `number` (with or without thousands separators)."""
    magnitude = abs(float(number))
    forms = {f"{magnitude:,.2f}", f"{magnitude:.2f}"}
    if magnitude == int(magnitude):
        forms |= {f"{int(magnitude):,}", str(int(magnitude))}
    return any(re.search(rf"(?<![\d.]){re.escape(f)}(?![\d])", line) for f in forms)


def _symbol(quotes: Any) -> str:
    """The currency symbol the quoted rows print their amounts with, if any."""
    for quote in quotes:
        if found := _CURRENCY.search(quote):
            return found.group(1) or found.group(2)
    return ""


def _money(value: Any, symbol: str) -> str:
    if value is None:
        return "nothing"
    number = float(value)
    if symbol:
        return f"{'-' if number < 0 else ''}{symbol}{abs(number):,.2f}"
    return f"{number:,.2f}" if number != int(number) else f"{int(number):,}"


__all__ = ["Aggregate", "Plan", "aggregate_question", "table_step"]
