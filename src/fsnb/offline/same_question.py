"""What a question over documents of one kind asks (`fsnb.offline.sameness`): the aggregate,
the words of the label it names, the names, years and months the documents must hold, and
who pays or is paid ("did staff claim": not a label)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from fsnb.offline.named import SUMMED, names, periods
from fsnb.offline.ranking import QUESTION_WORDS
from fsnb.offline.tables import aggregate_question
from fsnb.text.words import tokenize

#: The aggregates over the values, each with its figure's name.
FUNCS = {"sum": "total", "avg": "average", "max": "largest", "min": "smallest"}
#: "across all clients", "over each of my statements", "in total over", "summed over my".
_OVER = re.compile(
    r"\b(?:across|over|from|on|in|for|of)\s+(?:all|each|every|both)\b(?:\s+of\b)?"
    r"|\bacross\s+(?:my|our|the)\b|\bover\s+(?:my|our)\b"
    r"|\b(?:in\s+total|summ?ed(?:\s+up)?)\s+(?:over|across)\b",
    re.IGNORECASE,
)
#: Units of measure: "how many kWh ... in total" adds up each document's quantity.
_MEASURES = set(
    tokenize(
        "kwh kilowatt kilowatts therms gallons litres liters hours minutes miles kilometres "
        "kilometers km lbs pounds kilograms kg tons tonnes"
    )
)
#: Who does the paying or is paid ("did staff claim", "claimed by staff", "reimbursed people
#: for"): not the label of the value; a capitalised name ("did Bluestem charge us") stays a
#: label word, for `over`-less questions want their names to say so. Not "cost": what costs
#: is what was bought.
_BASE = "pay|spend|earn|receive|charge|owe|bill|claim|reimburse"
_PAST = "paid|spent|earned|received|charged|owed|billed|claimed|reimbursed"
_PAYER = re.compile(
    rf"\b(?:did|do|does)\s+((?-i:[a-z])\w*(?:\s+(?-i:[a-z])\w*){{0,2}})\s+(?=(?:{_BASE})\b)"
    rf"|\b(?:have|has|had)\s+((?-i:[a-z])\w*(?:\s+(?-i:[a-z])\w*){{0,2}})\s+(?=(?:{_PAST})\b)"
    rf"|\b(?:{_PAST})\s+by\s+(?:the\s+|our\s+)?((?-i:[a-z])\w*)"
    rf"|\b(?:{_BASE}|{_PAST})\s+(?:the\s+|our\s+)?((?-i:[a-z])\w*)\s+for\b",
    re.IGNORECASE,
)
#: Verbs of a question that name the value only when nothing else does ("how much did I pay"):
#: those of paying, in both forms, and "cost".
VERBS = set(tokenize(" ".join([*_BASE.split("|"), *_PAST.split("|"), "cost"])))
#: The year so far ("so far this year", "year to date"): the latest year the documents are
#: dated in, not a label.
_NOW = re.compile(r"\b(?:so far )?this year\b|\bso far\b|\b(?:year )?to date\b", re.IGNORECASE)
#: The period asked for ("which month had the largest invoice"): the answer, not a label.
_WHEN = re.compile(r"\b(?:which|what) (?:month|year|quarter|day|date)\b", re.IGNORECASE)
#: What a verb of the question names on a bill or a form when the documents' own words are
#: all the question says of the value ("how much did I pay for water": the amount due).
_VERB_LABELS = dict.fromkeys(tokenize("pay paid owe owed bill billed"), ("due",))
_VERB_LABELS |= dict.fromkeys(tokenize("claim claimed reimburse"), ("total",))  # before an advance
#: Words that say how to aggregate, not which value.
_NOT_LABEL = set(tokenize("total sum summed average mean combined altogether together overall"))
_NOT_LABEL |= set(tokenize("amount add come value figure highest largest lowest smallest"))
_NOT_LABEL |= set(tokenize("maximum minimum"))


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
    #: What "across all X" calls the documents ("receipt"): the kind of one whose names say
    #: so, when one does.
    kind: tuple[str, ...] = ()
    #: Whether it asks for a quantity in a unit of measure ("how many kWh in total"): a
    #: bare number is a value, and a document's own amount is not.
    quantity: bool = False
    #: Whether it asks for the year so far: the documents of the latest year.
    latest: bool = False
    #: Whether a verb of paying says what is asked ("spent", "billed"): a label its words
    #: find without an amount ("Fish-room supplies") then gives way to the document's own.
    paid: bool = False


def sameness_question(task: str) -> Same | None:
    """The aggregate and label `task` asks over documents of one kind, or None. Without
    "across all X" wording ("How much did I pay for electricity in 2024 in total?") it
    is only a candidate: `same_kind` then wants documents whose names say what it asks."""
    latest = bool(_NOW.search(task))
    task = _WHEN.sub(" ", _NOW.sub(" ", task))
    ask, over = aggregate_question(task), list(_OVER.finditer(task))
    func = ask.func if ask else "sum" if re.search(r"\bsumm?ed\b|\badded\b", task) else None
    measured = bool(_MEASURES & set(tokenize(task)))
    if ask and func == "count" and measured and (over or SUMMED.search(task)):
        func = "sum"  # "how many kWh ... in total": the quantities added up, not counted
    if func not in FUNCS or not (over or ask):
        return None
    kind = re.split(r"[?.,;]", task[over[-1].end() :])[0] if over else ""  # "my receipts"
    asked = task[: over[0].start()] + " " + task[over[-1].end() + len(kind) :] if over else task
    skip = QUESTION_WORDS | _NOT_LABEL
    called = [w for w in tokenize(periods(kind)[1]) if w not in skip and w[0].isalpha()]
    words = [w for w in tokenize(periods(asked)[1]) if w not in skip and w[0].isalpha()]
    said = " ".join(w for m in _PAYER.finditer(asked) for w in m.groups() if w)
    payers = set(tokenize(said))
    words = [w for w in words if w not in payers] or words
    verbs = [w for w in words if w in VERBS]
    words = [w for w in words if w not in VERBS] or words  # "how much interest did I pay"
    fallback = tuple(dict.fromkeys(x for v in verbs for x in _VERB_LABELS.get(v, ())))
    spans, rest = periods(task)
    given = tuple(n.pattern for n in names(rest))
    years = tuple(sorted({span.year for span in spans if span.year is not None}))
    months = tuple(sorted({m for span in spans for m in span.months}))
    words = words or called  # "the total of all my receipts": the documents' own amount
    if not words:
        return None
    label = tuple(dict.fromkeys(words))
    return Same(
        func, label, years, fallback, given, bool(over), months, tuple(called), measured,
        latest=latest, paid=bool(verbs),
    )  # fmt: skip


__all__ = ["FUNCS", "VERBS", "Same", "sameness_question"]
