"""Questions about the same labelled value in several documents of one kind.

"What was my total 1099-NEC income for 2024, across all clients?" asks for one amount on
each of several forms of one template; "my total purchases across all my statements", for
one line of each monthly statement. For a question of that shape (an aggregate, and
"across all X", "over each of my ...", "summed over ..."), the strategy finds the documents
that print the label it names and share a template, and takes these steps as tool calls:
read each; `create_table`; `insert_data` (each value with `source_file`, `page`, `quote`);
`query_data` for the figure. The answer gives the figure, quotes and cites each value, and
names the documents it could not read a value from. Fewer than two documents: None.
"""

from __future__ import annotations

import calendar
import json
import re
from dataclasses import dataclass
from typing import Any

from fsnb.db.columns import sanitize
from fsnb.db.sql import ident
from fsnb.documents import Document
from fsnb.offline.amounts import AMOUNT, currency, labelled, money
from fsnb.offline.corpus import Corpus
from fsnb.offline.named import dated, in_months, names, periods
from fsnb.offline.progress import read_so_far
from fsnb.offline.ranking import QUESTION_WORDS, path_words
from fsnb.offline.tables import aggregate_question, cite, rows_of
from fsnb.protocol import Action, CitedSource, Conversation, Turn
from fsnb.text.words import tokenize
from fsnb.tools.reading import PAGE_CHARS

NOTE = "_(offline backend: one labelled value per document, computed in SQL, no LLM)_"
#: Documents of one kind read at most; a larger kind is left to the other strategies.
MAX_DOCUMENTS = 12
#: Share of the question's label words (after those naming the documents) a label must hold.
MIN_COVERAGE = 0.6
#: What a word of the same value concept counts for ("compensation" for "income").
SYNONYM = 0.8
#: What each word of a label line that the question does not name costs ("tax withheld").
EXTRA_WORD = 0.15
#: Amounts after a label without one where its value may stand alone (the next lines).
NEXT_LINES = 2
#: Words of a label that name a scratchpad table at most.
LABEL_WORDS = 6
#: Similarity (Jaccard of labels, title or file-name words) of two documents of one kind.
SAME_TEMPLATE = 0.5
#: A label word matches a question word it begins when it has this many letters ("comp").
PREFIX_LETTERS = 3

#: The documents of one kind found for a corpus and question, kept for the run's next steps.
_KINDS: dict[tuple[int, Same], tuple[Corpus, list[Value]]] = {}
#: Entries `_KINDS` holds at most; the next one empties it first.
_KEEP = 8
#: The aggregates over the values, each with its figure's name.
_FUNCS = {"sum": "total", "avg": "average", "max": "largest", "min": "smallest"}
#: "across all clients", "over each of my statements", "in total over", "summed over my".
_OVER = re.compile(
    r"\b(?:across|over|from|on|in|for|of)\s+(?:all|each|every|both)\b(?:\s+of\b)?"
    r"|\bacross\s+(?:my|our|the)\b|\bover\s+(?:my|our)\b"
    r"|\b(?:in\s+total|summ?ed(?:\s+up)?)\s+(?:over|across)\b",
    re.IGNORECASE,
)
_PROVENANCE = "source_file VARCHAR, page INTEGER, quote VARCHAR"
#: A year in a path or text, "award_2023.pdf" included (no word boundary after "_").
_PATH_YEAR = re.compile(r"(?<![\d.,$])(?:19|20)\d\d(?!\d)")
#: Words a form or a statement may label the value with for the word a question uses.
_SAME_VALUE = [
    set(tokenize("income compensation earnings wages salary revenue proceeds")),
    set(tokenize("spend spent spending purchases")),
    set(tokenize("fee fees charge charges charged")),
]
#: Verbs of a question that name the value only when nothing else does ("how much did I pay").
_VERBS = set(tokenize("pay paid spend spent earn earned receive received charge charged owe bill"))
#: What a verb of the question names on a bill or a form when the documents' own words are
#: all the question says of the value ("how much did I pay for water": the amount due).
_VERB_LABELS = dict.fromkeys(tokenize("pay paid owe owed bill billed"), ("due",))
#: The labels of a document's own amount, tried in turn (a bill's, an invoice's, a receipt's).
DOCUMENT_AMOUNT = (("due",), ("payable",), ("total",))
#: Words that say how to aggregate, not which value.
_NOT_LABEL = set(tokenize("total sum summed average mean combined altogether overall amount"))
_NOT_LABEL |= set(tokenize("add come value figure highest largest lowest smallest maximum minimum"))


@dataclass(frozen=True)
class Same:
    """What a question asks of each document: the aggregate and the label's word stems."""

    func: str
    words: tuple[str, ...]
    years: tuple[int, ...]
    #: Label words its verb names, for when `words` only name the documents.
    fallback: tuple[str, ...] = ()
    #: Names and codes the question gives ("Redstone Bank", "1099-NEC"): lower-case
    #: patterns each document of the kind must hold.
    names: tuple[str, ...] = ()
    #: Whether it says "across all X": otherwise the documents' names must say what it asks.
    over: bool = True
    #: The months it names ("in March", "in the first quarter"): the documents dated in them.
    months: tuple[int, ...] = ()


@dataclass(frozen=True)
class Value:
    """One document's labelled value (None when the label has none), quoted with its page."""

    path: str
    label: str
    amount: float | None
    quote: str
    page: int | None
    offset: int


def sameness_question(task: str) -> Same | None:
    """The aggregate and label `task` asks over documents of one kind, or None. Without
    "across all X" wording ("How much did I pay for electricity in 2024 in total?") it
    is only a candidate: `same_kind` then wants documents whose names say what it asks."""
    ask, over = aggregate_question(task), list(_OVER.finditer(task))
    func = ask.func if ask else "sum" if re.search(r"\bsumm?ed\b|\badded\b", task) else None
    if func not in _FUNCS or not (over or ask):
        return None
    if over:
        kind = re.split(r"[?.,;]", task[over[-1].end() :])[0]  # "clients", "my 2025 statements"
        asked = task[: over[0].start()] + " " + task[over[-1].end() + len(kind) :]
    else:
        asked = task
    skip = QUESTION_WORDS | _NOT_LABEL
    words = [w for w in tokenize(periods(asked)[1]) if w not in skip and w[0].isalpha()]
    verbs = [w for w in words if w in _VERBS]
    words = [w for w in words if w not in _VERBS] or words  # "how much interest did I pay"
    fallback = tuple(dict.fromkeys(x for v in verbs for x in _VERB_LABELS.get(v, ())))
    spans, rest = periods(task)
    given = tuple(n.pattern for n in names(rest))
    years = tuple(sorted({span.year for span in spans if span.year is not None}))
    months = tuple(sorted({m for span in spans for m in span.months}))
    if not words:
        return None
    return Same(func, tuple(dict.fromkeys(words)), years, fallback, given, bool(over), months)


def _matches(stem: str, words: list[str]) -> float:
    if any(w.startswith(stem) or (len(w) >= PREFIX_LETTERS and stem.startswith(w)) for w in words):
        return 1.0
    return SYNONYM if any(stem in g and g & set(words) for g in _SAME_VALUE) else 0.0


def _score(label: str, words: tuple[str, ...], naming: set[str]) -> float:
    """How well a label names the value: the question's words it holds, less its others."""
    found = [w for w in tokenize(label) if w[0].isalpha()]
    coverage = sum(_matches(s, found) for s in words) / len(words)
    extra = [w for w in found if w not in naming and not any(_matches(s, [w]) for s in words)]
    return coverage - EXTRA_WORD * len(extra) if coverage >= MIN_COVERAGE else 0.0


def read_value(path: str, doc: Document, same: Same) -> Value | None:
    """The amount of the label that best names what `same` asks (None when that label has
    none, on its line or standing alone on the next), or None without such a label."""
    naming = _naming(path, doc)
    own = tuple(w for w in same.words if w not in naming)
    # the question's words only name the documents ("the highest electricity bill"): the
    # label its verb names, else a document's own amount ("Amount due", "Total")
    tries = [own] if own else [same.fallback, *DOCUMENT_AMOUNT, same.words]
    for words in filter(None, tries):
        if found := _read(path, doc, words, naming):
            return found
    return None


def _read(path: str, doc: Document, words: tuple[str, ...], naming: set[str]) -> Value | None:
    units = list(labelled(doc.text))
    title = set(tokenize(doc.title))  # a heading that repeats the title labels nothing
    scores = [
        0.0
        if u.amount is None and set(tokenize(u.label)) == title
        else _score(u.label, words, naming)
        for u in units
    ]
    # the best label; of equals, one with a value, then the first
    n = max(
        range(len(units)), key=lambda i: (scores[i], units[i].amount is not None, -i), default=0
    )
    if not units or scores[n] <= 0:
        return None
    offset, label, amount, quote = units[n]
    for after in units[n + 1 : n + 1 + NEXT_LINES] if amount is None else ():
        if after.label or after.amount is None:
            break  # the next label: this one has no value
        amount, quote = after.amount, doc.text[offset : after.offset + len(after.quote)]
    quote = " ".join(quote.split())
    return Value(path, label, amount, quote, doc.page_at(offset), offset)


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
    if same.years:  # leave out documents of other years: by their path's year, if it has one
        asked = {str(y) for y in same.years}
        for path in list(values):
            text = path if _PATH_YEAR.search(path) else f"{path} {corpus.docs[path].text}"
            if not asked & set(_PATH_YEAR.findall(text)) and _PATH_YEAR.search(text):
                del values[path]
    docs = corpus.docs
    marks = {  # what a template shares: words, title, file name
        p: [set(tokenize(t)) for t in (AMOUNT.sub(" ", docs[p].text), docs[p].title, _name(p))]
        for p in values
    }
    peers = {
        p: {q for q in values if max(map(_similar, marks[p], marks[q])) >= SAME_TEMPLATE}
        for p in values
    }
    seed = max(peers, key=lambda p: (len(peers[p]), corpus.standing(p)), default=None)
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
        func, name = same.func.upper(), _FUNCS[same.func]
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
    name = _FUNCS[same.func]
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
