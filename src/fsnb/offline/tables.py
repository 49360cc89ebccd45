"""Questions that ask for a figure computed over rows: totals, counts, averages, extremes.

For an aggregate question (`aggregate_question`) over documents with tables, each step is a
real tool call: `extract_tables` of the best-ranked tabular document, to choose the table
that fits; `load_table` of it from every document with the same header; `query_data` for
the text-column values the question's words and names match ("dining" -> 'Dining'); the
aggregate, filtered by those values and the months and years named; and the rows that went
in. The answer gives the figure, its SQL and the rows, each cited. A name or period no row
holds is said not found (the figure over the rest only as partial); a question that matches
no row, or too few, falls back to reading passages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import PurePosixPath
from typing import Any

from fsnb.db.scratchpad import sanitize
from fsnb.extract.tables import FORMATS
from fsnb.offline.amounts import currency, money, printed
from fsnb.offline.corpus import Corpus
from fsnb.offline.named import Aggregate, Unmatched, aggregate_question
from fsnb.offline.ranking import path_words
from fsnb.offline.statements import CAPTION_WORDS, table_cells
from fsnb.offline.table_sql import NUMERIC, Plan, rows_counted
from fsnb.offline.table_text import figure_kind, form, table_lines, totalled
from fsnb.protocol import Action, CitedSource, Conversation, Turn
from fsnb.text.words import stem, tokenize
from fsnb.tools.payloads import Rows, TableInfo, Tables

NOTE = "_(offline backend: computed in SQL over the documents' tables, no LLM)_"
#: Rows a table needs to be worth aggregating over, and rows an aggregate needs.
MIN_TABLE_ROWS = 5
MIN_ROWS = {"sum": 2, "avg": 2, "count": 1, "max": 1, "min": 1}
#: Documents loaded into one table at most.
MAX_DOCUMENTS = 60
#: Lines of a document's text that look like table rows, for it to count as tabular.
TABLE_LINES = 3
#: Share of the weight of the question's terms in the best passage of another document that
#: a table's names and matched cells need to answer it (`_answers`; hand-set).
COVER = 0.8
#: Tabular documents whose tables are listed at most, best-ranked first, until one fits.
TABLE_DOCUMENTS = 3


# -- the steps ---------------------------------------------------------------------------


def table_step(conversation: Conversation, corpus: Corpus) -> Action | None:
    """The next step of answering from tables: a tool call, the answer, or None when the
    question is not one for tables (or the tables do not answer it)."""
    ask = aggregate_question(conversation.task)
    names = {t["name"] for t in conversation.tools}
    if ask is None or not {"extract_tables", "load_table", "query_data"} <= names:
        return None
    turns = conversation.turns
    loads = [t for t in turns if t.action.kind == "tool_call" and t.action.tool == "load_table"]
    if loads and not loads[-1].ok and (again := _again(ask, turns, loads, corpus)):
        return again
    if loads:
        step, other = _computed(ask, loads[-1], turns, corpus)
        if not other:
            return step
    after = turns.index(loads[-1]) if loads else -1  # the tables listed since the last load
    lists = [t for t in turns if t.action.kind == "tool_call" and t.action.tool == "extract_tables"]
    fits = ((t, _choose_table(ask, t, corpus)) for t in lists if turns.index(t) > after)
    listed, chosen = next(((t, c) for t, c in fits if c is not None), (None, None))
    if listed is None or chosen is None:
        tried = {_listed_path(t) for t in lists}
        loaded = {p for t in loads for p in str(t.action.arguments().get("path")).split(", ")}
        path = _tabular_document(corpus, tried | loaded) if len(lists) < TABLE_DOCUMENTS else None
        if path is None:
            return None
        reason = f"Tables: the question asks for a {_WORDS[ask.func]}; list the tables of {path}."
        if lists:
            reason = f"Tables: no table of {', '.join(sorted(tried))} fits; list those of {path}."
        return Action.call("extract_tables", reason, path=path)
    return _load(corpus, listed, chosen, len(loads))


def _computed(
    ask: Aggregate, loaded: Turn, turns: Sequence[Turn], corpus: Corpus
) -> tuple[Action | None, bool]:
    """The next step over the table `loaded` made, and whether another table should be
    tried instead (the question's names and words are in none of its rows)."""
    plan = Plan.of(ask, loaded.outcome.payload if loaded.outcome and loaded.ok else None)
    if plan is not None and totalled(corpus, loaded.outcome.payload.read):
        plan = replace(plan, totalled=True)
    queries = [t for t in turns[turns.index(loaded) + 1 :] if t.action.tool == "query_data"]
    if plan is None or any(not q.ok for q in queries):
        return None, False
    matching = bool(plan.words or plan.things)
    if matching and not queries:
        reason = "Match: find the values of the table's text columns that the question names."
        return Action.call("query_data", reason, sql=plan.match_sql()), False
    matched = rows_of(queries[0]) if matching else []
    found = {str(r["word"]) for r in matched}
    if plan.things and not found & {t.label for t in plan.things}:
        return None, True  # none of the names the question gives is in the table
    if _unsaid(plan, found, corpus):
        return None, True
    # an extreme over all rows is well defined when the words are those of the tables' files
    known = ask.func in ("max", "min") and corpus.own(loaded.outcome.payload.read, plan.words)
    if plan.words and not matched and not (plan.about or known):
        return None, True  # the question names neither rows nor the table
    plan = plan.filtered(matched)
    if not _answers(plan, found, loaded.outcome.payload.read, corpus):
        return None, True
    done = queries[1:] if matching else queries
    if plan.checks_totals and done and plan.subtotalled(rows_of(done[0])):
        plan, done = replace(plan, own_totals=True), done[1:]
        if not done:
            reason = (
                "Compute again: the rows add up to more than their documents' own totals "
                "(subtotals among them); add up each document's total row instead."
            )
            return Action.call("query_data", reason, sql=plan.aggregate_sql()), False
    if not done:
        reason = f"Compute: the {_WORDS[ask.func]} in SQL over the rows the question asks about."
        return Action.call("query_data", reason, sql=plan.aggregate_sql()), False
    figures = rows_of(done[0])
    counted = rows_counted(plan, figures)
    missing = plan.unmatched(found, figures[0] if figures and counted else None)
    if counted == 0 and plan.named:
        return missing.stop(plan.table, plan.described(), _sql(done[0]), NOTE), False
    if counted < MIN_ROWS[ask.func] and not missing:
        return None, True  # too few rows here to compute over: another table may hold them
    if len(done) == 1 and ask.func not in ("max", "min"):  # an extreme is its own row
        reason = "Cite: fetch the rows that went into the figure, from every document."
        return Action.call("query_data", reason, sql=plan.rows_sql()), False
    return answer(plan, done[0], done[-1], corpus, missing), False


def _unsaid(plan: Plan, found: set[str], corpus: Corpus) -> bool:
    """Whether the rows the question asks about are named by words that no document of the
    folder holds: a rare one ("turnover"), or one before a word that the table's rows do
    not hold either ("internet service" over an inventory where "Office 1" matched). When
    every name the question gives is in the rows, those say which rows it asks about."""
    if plan.things and all(t.label in found for t in plan.things):
        return False
    words = set(plan.words)
    return any(
        a.word.lower() in words and (a.rare or (a.head in words and a.head not in found))
        for a in corpus.absent
    )


def _answers(plan: Plan, found: set[str], read: Sequence[str], corpus: Corpus) -> bool:
    """Whether the table, filtered, is about what the question asks. For a count, the words
    counted ("how many vacation days") must name its rows (its files, titles, name or
    columns), not just a cell. And what it holds of the question's words, names and
    periods (in those names, the cells its filter matched, the names and periods found,
    or else the best passage of a document it was loaded from: a claim form's "Claimant:
    ..., staff member"), weighed by IDF, must be at least `COVER` of what the best passage
    of another document holds that prints a value of the figure's kind: a note in a
    budget's cell does not answer what a handbook's sentence does."""
    question, idf, ask = corpus.question, corpus.stats.idf, plan.ask
    titles = [corpus.docs[p].title for p in read if p in corpus.docs]
    named = " ".join([plan.table, *plan.columns, *map(path_words, read), *titles]).replace("_", " ")
    counted = set(tokenize(" ".join(ask.counted)))
    if counted and not counted & (set(tokenize(named)) | question.unit_terms(named)):
        return False
    labels = [t.label for t in ask.names + ask.periods]
    asked = set(tokenize(" ".join([*ask.words, *ask.counted, *labels])))

    def weight(text: str) -> float:
        return sum(question.weight(t) * idf(t) for t in question.unit_terms(text) & asked)

    held = [t.label for t in plan.named if t.label in found or (t.period and plan.date)]
    cells = " ".join([named, *held, *(v for _, values in plan.values for v in values)])
    states = figure_kind(plan.ask.func, corpus, read)

    def best(inside: bool) -> float:
        ranked = [
            (corpus.docs[r.path].text, r.best) for r in corpus.ranking if (r.path in read) == inside
        ]
        return max(
            (
                weight(text[s.start : s.end])
                for text, spans in ranked
                for _, s in spans
                if inside or states is None or states.search(text, s.start, s.end)
            ),
            default=0,
        )

    return max(weight(cells), best(inside=True)) >= COVER * best(inside=False)


_WORDS = {"sum": "total", "count": "count", "avg": "average", "max": "maximum", "min": "minimum"}


def rows_of(turn: Turn) -> list[dict[str, Any]]:
    """A query step's result rows as dicts (its outcome's payload)."""
    found = turn.outcome.payload if turn.outcome else None
    return found.records() if isinstance(found, Rows) else []


def _listed_path(turn: Turn) -> str:
    listed = turn.outcome.payload if turn.outcome else None
    return listed.path if isinstance(listed, Tables) else str(turn.action.arguments().get("path"))


def _tabular_document(corpus: Corpus, tried: set[str]) -> str | None:
    """The best-ranked document not `tried`, of a format `extract_tables` reads, whose text
    holds table rows."""
    for ranked in corpus.ranking:
        if ranked.score <= 0:
            break
        rows = sum(" | " in line for line in corpus.docs[ranked.path].text.splitlines())
        readable = PurePosixPath(ranked.path).suffix.lower() in FORMATS  # not markdown
        if ranked.path not in tried and readable and rows >= TABLE_LINES:
            return ranked.path
    return None


def _choose_table(ask: Aggregate, turn: Turn, corpus: Corpus) -> TableInfo | None:
    """The listed table that fits the question best: enough rows (in it and the tables of
    the same header in other documents: a form's two lines, filed five times), a number
    column unless it counts, the most of the question's words in its caption and column
    names, then the most rows (the data, not a summary of it). None for a form's fields
    printed as a table (a bill's "kWh used | 812" and "Amount due | $118.64"): they are
    different figures, not one quantity's, whatever is computed over them."""
    listed = turn.outcome.payload if turn.outcome and turn.ok else None
    tables = listed.tables if isinstance(listed, Tables) else ()
    if tables and ask.func != "count" and form(corpus, [listed.path]):
        return None
    stems = {stem(w) for w in ask.words}
    best, best_key = None, None
    for table in tables:
        kinds = list(table.columns.values())
        numeric = any(k.startswith(NUMERIC) for k in kinds)
        if not (numeric or ask.func == "count"):
            continue
        if table.rows < MIN_TABLE_ROWS:  # the documents holding it are read only then
            copies = 1 + len(_same_header(corpus, listed.path, table))
            if table.rows * copies < MIN_TABLE_ROWS:
                continue
        label = " ".join([table.caption or "", *table.columns])
        key = (len(stems & set(tokenize(label))), table.rows)
        if best_key is None or key > best_key:
            best, best_key = table, key
    return best


def _same_header(corpus: Corpus, source: str, table: TableInfo) -> list[str]:
    """The other documents that hold a table headed as `table` of `source` is, by path."""
    columns = [str(c) for c in table.columns]
    return sorted(
        p
        for p in corpus.docs
        if p != source and any(table_cells(line) == columns for line in table_lines(corpus, [p]))
    )


def _again(
    ask: Aggregate, turns: Sequence[Turn], loads: list[Turn], corpus: Corpus
) -> Action | None:
    """The failed load once more, under a name of its document's own: the scratchpad may
    hold a table of another shape by the first name, made by an earlier question."""
    failed = loads[-1]

    def loaded(turn: Turn) -> tuple[object, object]:
        arguments = turn.action.arguments()
        return arguments.get("path"), arguments.get("table")

    if sum(loaded(t) == loaded(failed) for t in loads) > 1:
        return None  # already tried again
    index = turns.index(failed)
    listed = next((t for t in reversed(turns[:index]) if t.action.tool == "extract_tables"), None)
    chosen = _choose_table(ask, listed, corpus) if listed is not None else None
    if listed is None or chosen is None:
        return None
    return _load(corpus, listed, chosen, len(loads) - 1, own=True)


def _load(
    corpus: Corpus, listed: Turn, table: TableInfo, tried: int, *, own: bool = False
) -> Action:
    """Load the chosen table from its document and every other with the same header (under
    a new name when `tried` tables did not answer; with the document's name in it when
    `own`)."""
    tables = listed.outcome.payload if listed.outcome else None
    source = tables.path if isinstance(tables, Tables) else ""
    columns = [str(c) for c in table.columns]
    paths = [source, *_same_header(corpus, source, table)][:MAX_DOCUMENTS]
    caption = table.caption or ""
    name = sanitize(caption) if caption and len(caption.split()) <= CAPTION_WORDS else "extracted"
    name += f"_{sanitize(path_words(source))}" if own else ""
    name += f"_{tried + 1}" if tried else ""
    if len(paths) == 1:
        reason = f"Load: table {table.index} of {source} into the scratchpad as {name}."
        return Action.call("load_table", reason, path=source, table=table.index, name=name)
    reason = (
        f"Load: {len(paths)} documents hold a table headed '{' | '.join(columns)}'; load each "
        f"into the scratchpad table {name}."
    )
    return Action.call(
        "load_table", reason, path=", ".join(paths), table=" ".join(columns), name=name
    )


# -- the answer ----------------------------------------------------------------------------


def answer(plan: Plan, figures: Turn, rows: Turn, corpus: Corpus, missing: Unmatched) -> Action:
    """The figure, the rows that went in (quoted as their documents print them, cited), and
    the SQL; only a partial figure, after what was not found, when the rows lack a name or a
    period the question gives (`missing`)."""
    citations: list[CitedSource] = []
    listed = rows_of(rows)
    quotes = [_quote(corpus, row, plan) for row in listed]
    symbol = currency(q for q, _ in quotes)
    sql = _sql(figures)
    result = rows_of(figures)[0]
    scope = plan.described()
    where = f" where {scope}" if scope else ""
    func = plan.ask.func
    if func in ("max", "min"):
        value = money(result.get(plan.measure or ""), symbol)
        word = "largest" if func == "max" else "smallest"
        quote, page = _quote(corpus, result, plan)
        mark = cite(citations, str(result.get("source_file")), page, quote)
        lines = [
            f"The {word} {plan.measure} in {plan.table}{where} is **{value}**: {quote} {mark}."
        ]
    else:
        total = int(result.get("row_count") or 0)
        if func == "count":
            lines = [f"**{total:,}** rows of {plan.table}{where}."]
        else:
            value = money(result.get("total" if func == "sum" else "average"), symbol)
            what = "total" if func == "sum" else "average"
            over = f"{plan.measure} over {total:,} rows of {plan.table}{where}"
            lines = [f"**{value}** is the {what} of {over}."]
        files = len({r.get("source_file") for r in listed})
        shown = f"the first {len(listed)}" if total > len(listed) else f"all {len(listed)}"
        lines.append(
            f"\nThe rows that went in ({shown}, from {files} document{'s' * (files != 1)}):"
        )
        for row, (quote, page) in zip(listed, quotes, strict=True):
            lines.append(f"- {quote} {cite(citations, str(row.get('source_file')), page, quote)}")
    if missing:  # the figure is over the rows that hold what was found, not the answer
        lines[:1] = [missing.line(plan.table), missing.partial(lines[0])]
    lines.append(f"\nComputed with:\n\n```sql\n{sql}\n```")
    reason = f"Answered in SQL over {plan.table}, citing {len(citations)} rows."
    return Action.stop("\n".join(lines) + f"\n\n{NOTE}", reason, citations)


def _sql(turn: Turn) -> str:
    found = turn.outcome.payload if turn.outcome else None
    return found.sql if isinstance(found, Rows) else ""


def cite(citations: list[CitedSource], path: str, page: int | None, quote: str) -> str:
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
        row[c] for c, k in plan.columns.items() if k.startswith(NUMERIC) and row.get(c) is not None
    ]
    if doc is not None:
        for line in doc.text.splitlines():
            if (
                " | " in line
                and all(t in line for t in texts)
                and all(printed(n, line) for n in numbers)
            ):
                return line.strip(), page
    return (max(texts, key=len) if texts else str(row.get(plan.measure or "", ""))), page


__all__ = ["Aggregate", "Plan", "aggregate_question", "table_step"]
