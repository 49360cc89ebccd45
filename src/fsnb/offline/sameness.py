"""Questions about the same labelled value in several documents of one kind.

"What was my total 1099-NEC income for 2024, across all clients?" asks for one amount on
each of several forms of one template; "my total purchases across all my statements", for
one line of each monthly statement. For a question of that shape (an aggregate, and
"across all X", "over each of my ...", "summed over ..."), the strategy finds the documents
that print the label it names (a bill's, an invoice's or a receipt's own amount, its bottom
line, when it names none) and share a template or are what "X" calls them ("all my
receipts": those in Receipts/), and takes these steps as tool calls:
read each; `create_table`; `insert_data` (each value with `source_file`, `page`, `quote`);
`query_data` for the figure. The answer gives the figure, quotes and cites each value, and
names the documents it could not read a value from. Fewer than two documents: None.
"""

from __future__ import annotations

import calendar
import json
import re
from typing import Any

from fsnb.db.columns import sanitize
from fsnb.db.sql import ident
from fsnb.documents import Document
from fsnb.offline.amounts import AMOUNT, Value, currency, label_value, labelled, money
from fsnb.offline.corpus import Corpus
from fsnb.offline.named import dated, in_months
from fsnb.offline.progress import read_so_far
from fsnb.offline.ranking import path_words
from fsnb.offline.same_question import FUNCS, VERBS, Same, sameness_question
from fsnb.offline.statements import table_cells
from fsnb.offline.tables import cite, rows_of
from fsnb.protocol import Action, CitedSource, Conversation, Turn
from fsnb.text.words import tokenize
from fsnb.tools.reading import PAGE_CHARS

NOTE = "_(offline backend: one labelled value per document, computed in SQL, no LLM)_"
#: Documents of one kind read at most; a larger kind is left to the other strategies.
MAX_DOCUMENTS = 12
#: Words of a label that name a scratchpad table at most.
LABEL_WORDS = 6
#: Similarity (Jaccard of labels, title or file-name words) of two documents of one kind.
SAME_TEMPLATE = 0.5

#: The documents of one kind found for a corpus and question, kept for the run's next steps.
_KINDS: dict[tuple[int, Same], tuple[Corpus, list[Value]]] = {}
#: Entries `_KINDS` holds at most; the next one empties it first.
_KEEP = 8
_PROVENANCE = "source_file VARCHAR, page INTEGER, quote VARCHAR"
#: A year in a path or text, "award_2023.pdf" included (no word boundary after "_").
_PATH_YEAR = re.compile(r"(?<![\d.,$])(?:19|20)\d\d(?!\d)")
#: The labels of a document's own amount, tried in turn (a bill's, an invoice's, a receipt's).
DOCUMENT_AMOUNT = (("due",), ("payable",), ("total",))


def read_value(path: str, doc: Document, same: Same) -> Value | None:
    """The amount of the label that best names what `same` asks (None when that label has
    none, on its line or standing alone on the next), or None without such a label."""
    naming = _naming(path, doc)
    own = tuple(w for w in same.words if w not in naming)
    if set(own) <= VERBS and same.fallback:
        own = ()  # only its verb: the label the verb names ("claimed": the claim's total)
    found = own and label_value(path, doc, own, naming, quantities=same.quantity)
    if found and (found.amount is not None or not (same.paid and _opening(doc, found))):
        return None if _category(doc, found.label) else found
    if same.quantity:
        return None  # a quantity's label is named: no bill's or invoice's own amount
    # the question's words only name the documents ("the highest electricity bill"), or
    # only say paying and no label does ("how much did I spend across my receipts"), or
    # what was paid for, said before any amount ("billed us for pickups": "Regulated medical
    # waste - pickup and disposal"): the label its verb names, else a document's own amount
    # ("Amount due", "Total")
    if own and not set(own) <= VERBS and not found:
        return None
    first = None  # of the labels found, the first with an amount ("Total | $2,488.00", not
    # "Pay by card ..." for "payable"), else the first
    for words in filter(None, [same.fallback, *DOCUMENT_AMOUNT, same.words]):
        value = label_value(path, doc, words, naming, bottom=True)
        if value and value.amount is not None:
            return value
        first = first or value
    return first


def _opening(doc: Document, value: Value) -> bool:
    """Whether a label stands before the document's first amount: it says what the whole
    document is for, not what one of its lines is."""
    first = next((u.offset for u in labelled(doc.text) if u.amount is not None), len(doc.text))
    return value.offset < first


def _category(doc: Document, label: str) -> bool:
    """Whether `label` is a cell of several rows of one of the document's tables (an order
    list's 'Office'): a category of its rows, not the label of the document's one value."""
    cell = label.strip(" |:").lower()
    rows = (table_cells(line.lower()) for line in doc.text.splitlines() if "|" in line)
    return sum(cell in row for row in rows) > 1


def _years(path: str, doc: Document) -> set[str]:
    """The years a document is dated in: its path's ("award_2023.pdf"), else its text's."""
    return set(_PATH_YEAR.findall(path) or _PATH_YEAR.findall(doc.text))


def _naming(path: str, doc: Document) -> set[str]:
    """The words that name a document: its title, folders and file name."""
    folders = path.rsplit("/", 1)[0] if "/" in path else ""
    return set(tokenize(f"{doc.title} {folders} {path_words(path)}"))


def _name(path: str) -> str:
    return path.rsplit("/", 1)[-1].rsplit(".", 1)[0]


def _similar(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def _holds_names(path: str, doc: Document, same: Same) -> bool:
    """Whether a document (its text or path) holds every name the question gives: "across
    all Redstone Bank accounts" is about no document that never names Redstone Bank."""
    text = f"{path} {doc.text}".lower()
    return all(re.search(pattern, text) for pattern in same.names)


def same_kind(corpus: Corpus, same: Same) -> list[Value]:
    """The documents that print the label and share a template (their words, title or file
    name) with the most others, each with its value; [] when there is no such kind."""
    known = _KINDS.get((id(corpus), same))
    if known and known[0] is corpus:
        return known[1]
    values = {
        p: v
        for p, d in corpus.docs.items()
        if _holds_names(p, d, same) and (v := read_value(p, d, same))
    }
    docs = corpus.docs
    dates = {p: _years(p, docs[p]) for p in values}
    # leave out documents of other years ("so far this year": of the latest year dated)
    dated = set().union(*dates.values())
    latest = {max(dated)} if same.latest and dated else set()
    if asked := {str(y) for y in same.years} or latest:
        values = {p: v for p, v in values.items() if not dates[p] or asked & dates[p]}
    marks = {  # what a template shares: words, title, file name (its words, not its dates)
        p: [
            set(tokenize(AMOUNT.sub(" ", docs[p].text))),
            set(tokenize(docs[p].title)),
            {w for w in tokenize(_name(p)) if w[0].isalpha()},
        ]
        for p in values
    }
    # "across all my award letters": those its names call so and that print one label
    called = {p for p in values if set(same.kind) & _naming(p, docs[p])}
    labels = {p: tuple(tokenize(v.label)) for p, v in values.items()}

    def peer(p: str, q: str) -> bool:
        if p in called and q in called and labels[p] == labels[q]:
            return True
        return max(map(_similar, marks[p], marks[q])) >= SAME_TEMPLATE

    peers = {p: {q for q in values if peer(p, q)} for p in values}
    # the kind the question names, if some document is named so; else the largest kind
    seed = max(peers, key=lambda p: (p in called, len(peers[p]), corpus.standing(p)), default=None)
    found = [values[p] for p in sorted({seed, *peers[seed]})] if seed else []
    if not same.over and found:  # "electricity ... in total": one label, names that say so
        common = set.intersection(*(_naming(v.path, docs[v.path]) for v in found))
        labels = {" ".join(tokenize(v.label)) for v in found}
        found = found if set(same.words) & common and len(labels) == 1 else []
    if len(_KINDS) >= _KEEP:
        _KINDS.clear()
    _KINDS[(id(corpus), same)] = (corpus, found)
    return found


def in_period(values: list[Value], same: Same, corpus: Corpus) -> list[Value]:
    """The values of the documents dated in the months (and years) the question names."""
    if not same.months:
        return values
    out = []
    for value in values:
        when = dated(value.path, corpus.docs[value.path])
        if when and in_months(when, set(same.months), set(same.years)):
            out.append(value)
    return out


def sameness_step(conversation: Conversation, corpus: Corpus) -> Action | None:
    """The next step of collecting one labelled value from documents of one kind: a read,
    a scratchpad call, the answer; None when the question is not one for it."""
    same = sameness_question(conversation.task)
    names = {t["name"] for t in conversation.tools}
    if same is None or not {"create_table", "insert_data", "query_data"} <= names:
        return None
    kind = same_kind(corpus, same)
    values = in_period(kind, same, corpus)
    if not values and len(kind) >= 2:
        return _none_in_period(same, kind, corpus)
    if not 2 <= len(values) <= MAX_DOCUMENTS or all(v.amount is None for v in values):
        return None
    turns = conversation.turns
    reader = "get_document" if "semantic_search" in names else "parse_file"
    progress = read_so_far(turns, corpus.docs)
    for value in values:
        if value.path in progress.failed:
            return None
        if not progress.covered(value.path, value.offset):
            offset = value.offset // PAGE_CHARS * PAGE_CHARS
            reason = f"Same kind: {value.path} prints '{value.label}'; read its value."
            args: dict[str, Any] = {"offset": offset, "limit": PAGE_CHARS} if offset else {}
            return Action.call(reader, reason, path=value.path, **args)
    table = sanitize(f"{' '.join(values[0].label.split()[:LABEL_WORDS])} by document")
    done = [t for t in turns if t.action.tool in ("create_table", "drop_table", "insert_data")]
    last = done[-1] if done else None
    if last is None or last.action.tool == "drop_table":
        columns = f"label VARCHAR, value DECIMAL(14,2), {_PROVENANCE}"
        reason = f"Collect: a scratchpad table for the '{values[0].label}' of each document."
        return Action.call("create_table", reason, name=table, columns=columns)
    if last.action.tool == "create_table":
        if not last.ok or "already exists" in last.result:  # rows of an earlier run: start over
            if any(t.action.tool == "drop_table" for t in done):
                return None
            reason = "Start over: the table holds rows of an earlier run."
            return Action.call("drop_table", reason, name=table)
        rows = [
            {"label": v.label, "value": v.amount, "source_file": v.path, "page": v.page,
             "quote": v.quote}
            for v in values
        ]  # fmt: skip
        reason = f"Insert: the value of each of the {len(values)} documents, with its quote."
        return Action.call("insert_data", reason, table=table, rows=json.dumps(rows))
    if not last.ok:
        return None
    queries = [t for t in turns[turns.index(last) + 1 :] if t.action.tool == "query_data"]
    if not queries:
        func, name = same.func.upper(), FUNCS[same.func]
        sql = (
            f"SELECT source_file, page, value, quote, {func}(value) OVER () AS {name}, "
            f"COUNT(value) OVER () AS counted FROM {ident(table)} ORDER BY source_file"
        )
        reason = f"Compute: the {name} in SQL over the values collected."
        return Action.call("query_data", reason, sql=sql)
    return _answer(same, values, queries[0]) if queries[0].ok else None


def _period(same: Same) -> str:
    """ " dated January, February, March 2024" for a question that names months; else ""."""
    if not same.months:
        return ""
    years = f" {', '.join(map(str, same.years))}" if same.years else ""
    return f" dated {', '.join(calendar.month_name[m] for m in same.months)}{years}"


def _none_in_period(same: Same, kind: list[Value], corpus: Corpus) -> Action:
    """Not found: no document of the kind is dated in the months asked; says which months
    the kind's documents are dated."""
    when = sorted({f"{y}-{m:02d}" for v in kind if (y_m := dated(v.path, corpus.docs[v.path]))
                   for y, m in [y_m]})  # fmt: skip
    period = _period(same).removeprefix(" dated ")
    answer = (
        f"I could not find this: none of the {len(kind)} documents of this kind "
        f"('{kind[0].label}') is dated {period}; they are dated "
        f"{', '.join(when) or 'without a date I could read'}.\n\n{NOTE}"
    )
    return Action.stop(answer, f"No document of this kind is dated {period}.", [])


def _answer(same: Same, values: list[Value], query: Turn) -> Action | None:
    """The figure, each value quoted and cited, and the documents without one."""
    rows = rows_of(query)
    if not rows:
        return None
    name = FUNCS[same.func]
    label, symbol = values[0].label, currency(v.quote for v in values)
    figure = money(rows[0].get(name), symbol)
    read = [r for r in rows if r.get("value") is not None]
    missing = [str(r["source_file"]) for r in rows if r.get("value") is None]
    over = f"the {len(rows)} documents of this kind{_period(same)}"
    if missing:  # a partial figure never leads, as in `fsnb.offline.tables`
        first = (
            f"I could not find a value of '{label}' in {', '.join(missing)}, so the {name} "
            f"over {over} is not known; over the {len(read)} values found only (a partial "
            f"figure) it is {figure}."
        )
    else:
        first = f"**{figure}** is the {name} of '{label}' over {over}, one value each."
    if same.func in ("max", "min") and read:  # which document holds it
        held = next(r for r in read if r["value"] == rows[0].get(name))
        first = first.replace(" over ", f", in {held['source_file']}, over ", 1)
    citations: list[CitedSource] = []
    lines = [first, "\nThe values that went in:"]
    for row in rows:
        path, quote = str(row["source_file"]), str(row["quote"])
        mark = cite(citations, path, row.get("page"), quote)
        said = " (no value read)" if row.get("value") is None else ""
        lines.append(f"- {path}{said}: {quote} {mark}")
    sql = query.action.arguments().get("sql", "")
    lines.append(f"\nComputed with:\n\n```sql\n{sql}\n```")
    reason = f"Answered in SQL over {len(rows)} documents of one kind, citing each value."
    return Action.stop("\n".join(lines) + f"\n\n{NOTE}", reason, citations)


__all__ = ["Same", "Value", "read_value", "same_kind", "sameness_question", "sameness_step"]
