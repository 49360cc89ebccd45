"""What an aggregate question asks for, and the things it names that the rows behind a
computed figure must hold.

`aggregate_question` reads the function (total, count, average, largest, smallest), the
words to match rows with, and the names and periods. In "the total rent of the Orchard
Street and Mill Lane leases in 2024", a figure is only the answer when each lease and the
year is matched in the rows that went in. `names` finds runs of capitalised words (not a
sentence's first word alone, a month or a weekday) and codes ("LP-220", "1099-NEC");
`periods`, months, month ranges, quarters and years. Each comes with an RE2 pattern
(DuckDB's regexes: no look-arounds) over lower-case cell text.
"""

from __future__ import annotations

import calendar
import datetime
import re
from collections.abc import Sequence
from dataclasses import dataclass

from fsnb.db.sql import ident, literal
from fsnb.documents import Document
from fsnb.index.metadata import dates_in
from fsnb.offline.asked import asks_for_list
from fsnb.offline.features import PARTS
from fsnb.offline.ranking import QUESTION_WORDS
from fsnb.protocol import Action
from fsnb.text.words import STOPWORDS, stem, tokenize

#: Letters a word ending in a full stop has at most to be an abbreviation ("St.", "Co.").
ABBREVIATION = 3
#: Letters and digits a code has at least ("W-2"), so "Q3" and "4B" are not codes.
CODE_CHARS = 3

#: `range(1, MONTH_END)`: the months' numbers, January to December.
MONTH_END = 13
#: Months in a quarter.
QUARTER_MONTHS = 3
MONTHS = {
    name.lower(): number
    for number in range(1, MONTH_END)
    for name in (calendar.month_name[number], calendar.month_abbr[number])
}
_MONTH = r"(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\b\.?"
#: "from April to June", "between March and May", "January through June", "Jan-Mar".
_MONTH_RANGE = re.compile(
    rf"\bbetween\s+({_MONTH})\s+and\s+({_MONTH})"
    rf"|\b(?:from\s+)?({_MONTH})\s*(?:(?<=\s)(?:to|through|thru|until)\s|[-–])\s*({_MONTH})",
    re.IGNORECASE,
)
_MONTH_WORD = re.compile(rf"\b({_MONTH})", re.IGNORECASE)
#: A quarter by its ordinal ("third quarter").
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_QUARTER = re.compile(
    r"\bQ([1-4])\b|\b(first|second|third|fourth)\s+quarter\b|\bquarter\s+([1-4])\b",
    re.IGNORECASE,
)
YEAR = re.compile(r"\b(19\d\d|20\d\d)\b")
#: A year and month in a path or text: "2024-03_invoice.pdf", "Billing month: 2024-03".
_YEAR_MONTH = re.compile(r"(?<!\d)((?:19|20)\d\d)[-_/](0[1-9]|1[0-2])(?!\d)")
_NOT_NAMES = STOPWORDS | set(MONTHS) | {d.lower() for d in calendar.day_name}
_CODE = re.compile(r"(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Z])[A-Za-z0-9]+(?:[-/][A-Za-z0-9]+)*")
_NOT_CODE = re.compile(r"(?i)^(?:q[1-4]|h[12]|fy\d+|\d+(?:st|nd|rd|th|s)|\d+[a-z])$")
#: Lower-case words a name may hold between its capitalised ones ("Bank of Nova Scotia").
_JOINERS = frozenset({"of", "de", "du", "da", "van", "von", "der", "la", "le", "&"})


#: "the most" or "the least" standing alone ("saves the most per year"), not before an
#: adjective ("the most important").
_ALONE = r"(?=\s*(?:$|[?.,;]|per\b|a\b|an\b|each\b|in\b|of\b|over\b|during\b))"
_AGGREGATES = (  # the first that matches wins: "the total number of" is a count
    ("avg", r"\baverage\b|\bmean\b|\btypical(?:ly)?\b"),
    ("count", r"\bhow many\b|\bnumber of\b|\bcount\b"),
    ("max", rf"\b(?:largest|biggest|highest|most expensive|maximum|greatest)\b|\bthe most{_ALONE}"),
    ("min", rf"\b(?:smallest|lowest|cheapest|least expensive|minimum)\b|\bthe least{_ALONE}"),
    (
        "sum",
        r"\btotal(?:led|ed|s)?\b|\bsum\b|\baltogether\b|\bcombined\b|\bin all\b|"
        r"\b(?:adds?|added|adding) up\b|\bamount(?:s|ed)? to\b|"
        r"\bcomes? to\b(?=\s*(?:in total|\?|$))|"
        r"\bwhat\b[^?]*\b(?:do|does|did|will)\b[^?]*\bcome to\b|\btogether\s*[?.]?\s*$|"
        r"\bhow much\b.*\b(?:spen[dt]|spending|pa(?:y|id)|cost|charge[ds]?|bill(?:ed|s)?|"
        r"earn(?:ed)?|receiv(?:e|ed)|refunded|owe[d]?|sold|bought|used|consumed|claim(?:ed)?|"
        r"reimburs(?:e|ed))\b",
    ),
)
#: What asks for a total ("in total", "altogether", "add up").
SUMMED = re.compile(dict(_AGGREGATES)["sum"], re.IGNORECASE)
#: Words that say how to aggregate or over what span, not which rows (stemmed).
_CUE_WORDS = frozenset(
    tokenize(
        "average mean typical typically many number count largest biggest highest expensive "
        "maximum greatest smallest lowest cheapest least minimum total totalled totals sum "
        "altogether combined together add adds added amount amounts come comes much spend spent "
        "spending pay paid cost costs charged earn earned "
        "receive received owe owed single individual each every whole entire overall all "
        "one year years yearly annual annually month months monthly week weeks weekly day "
        "days daily quarter quarters period during",
        keep_stopwords=True,
    )
)


@dataclass(frozen=True)
class Named:
    """A name, code or period the question gives, with the pattern that
    finds it in lower-case text; a period also has its months or its year."""

    label: str
    pattern: str
    months: tuple[int, ...] = ()
    year: int | None = None

    @property
    def period(self) -> bool:
        return bool(self.months) or self.year is not None


@dataclass(frozen=True)
class Aggregate:
    """What a question asks to compute: the function, the months and years it names, the
    words left to match rows with, and the names and periods the rows must hold."""

    func: str  # sum, count, avg, max, min
    months: tuple[int, ...]
    years: tuple[int, ...]
    words: tuple[str, ...]  # the question's words, lower case, unstemmed
    names: tuple[Named, ...] = ()
    periods: tuple[Named, ...] = ()
    #: What a count counts: the words after "how many" or "number of" ("vacation days").
    counted: tuple[str, ...] = ()


def aggregate_question(task: str) -> Aggregate | None:
    """The aggregate `task` asks for, or None when it asks for none (or a figure cannot
    answer each of its parts)."""
    func = next((name for name, cue in _AGGREGATES if re.search(cue, task, re.IGNORECASE)), None)
    if func is None or not _answers_every_part(func, task):
        return None
    spans, rest = periods(task)
    named = names(rest)
    skipped = STOPWORDS | {w.lower() for n in named for w in re.findall(r"\w+", n.label)}
    cues = QUESTION_WORDS | _CUE_WORDS
    words = tuple(
        w
        for w in re.findall(r"[^\W\d_]+", rest.lower())
        if len(w) > 1 and w not in skipped and stem(w) not in cues
    )
    months = tuple(sorted({m for p in spans for m in p.months}))
    years = tuple(sorted({p.year for p in spans if p.year is not None}))
    after = re.search(r"\b(?:how many|number of)\s+(.*)", task, re.IGNORECASE)
    counted = re.findall(r"[\w-]+", after.group(1)) if after else []
    start = next((i for i, w in enumerate(counted) if w.lower() not in STOPWORDS), 0)
    counted = counted[start:]  # "how many of my receipts": the receipts
    stop = next((i for i, w in enumerate(counted) if w.lower() in STOPWORDS), len(counted))
    return Aggregate(func, months, years, words, named, spans, tuple(counted[:stop]))


def _answers_every_part(func: str, task: str) -> bool:
    """Whether a figure over rows or documents, with the rows or values that went in, can
    answer every part of `task`: a count, total or average where each part asks for a
    figure or for the rows ("Which purchases were refunded, and how much in total?"), not
    where one asks for something else ("How many service visits a year, and what does the
    agreement cost?": a contract's terms, which counting a log's rows does not give); an
    extreme's other parts ask about its row ("which month ..., and how much?")."""
    parts = [part for part in PARTS.split(task) if part.strip()]
    if func in ("max", "min") or len(parts) < 2:
        return True
    return all(aggregate_question(part) or asks_for_list(part) for part in parts)


def _month_pattern(months: tuple[int, ...]) -> str:
    """The months by name ("march", "mar") or in a date written year first ("2024-03")."""
    names = sorted({n for n, m in MONTHS.items() if m in months}, key=len, reverse=True)
    numbers = "|".join(f"{m:02d}" for m in sorted(months))
    return (
        r"\b(?:"
        + "|".join(names)
        + rf")\b|(?:^|[^0-9])(?:19|20)[0-9][0-9][-/](?:{numbers})(?:[^0-9]|$)"
    )


def periods(task: str) -> tuple[tuple[Named, ...], str]:
    """The months, month ranges, quarters and years `task` names, and `task` without them."""
    found: list[Named] = []
    for span in _MONTH_RANGE.finditer(task):
        first, last = (MONTHS[m.lower().rstrip(".")] for m in span.groups() if m)
        months = (
            range(first, last + 1)
            if first <= last
            else [*range(first, MONTH_END), *range(1, last + 1)]
        )
        found.append(Named(span.group(0), _month_pattern(tuple(months)), tuple(months)))
    rest = _MONTH_RANGE.sub(" ", task)
    for quarter in _QUARTER.finditer(rest):
        digit, word, number = quarter.groups()
        n = int(digit or number or _ORDINALS[word.lower()])
        months = tuple(range(QUARTER_MONTHS * n - 2, QUARTER_MONTHS * n + 1))
        pattern = rf"\bq{n}\b|\b{[*_ORDINALS][n - 1]} quarter\b|{_month_pattern(months)}"
        found.append(Named(quarter.group(0), pattern, months))
    rest = _QUARTER.sub(" ", rest)
    for word in _MONTH_WORD.findall(rest):
        if word == "may":
            continue  # the verb ("how much may I claim"), not the month
        month = MONTHS[word.lower().rstrip(".")]
        found.append(Named(calendar.month_name[month], _month_pattern((month,)), (month,)))
    rest = _MONTH_WORD.sub(" ", rest)
    for year in sorted({int(y) for y in YEAR.findall(rest)}):
        found.append(Named(str(year), rf"(?:^|[^0-9]){year}(?:[^0-9]|$)", year=year))
    return tuple(found), YEAR.sub(" ", rest)


def dated(path: str, doc: Document | None) -> tuple[int, int] | None:
    """A document's (year, month): the first in its path ("2024-03_invoice.pdf"), else the
    first its text gives ("Billing month: 2024-03", "March 12, 2024"); without `doc`, the
    path's only."""
    for text in (path, doc.text) if doc else (path,):
        if month := _YEAR_MONTH.search(text):
            return int(month.group(1)), int(month.group(2))
        if days := dates_in(text):
            day = datetime.date.fromisoformat(days[0])
            return day.year, day.month
    return None


def in_months(when: tuple[int, int], months: set[int], years: set[int]) -> bool:
    """Whether a (year, month) is in one of `months` (and of `years`, when any are named)."""
    return when[1] in months and (not years or when[0] in years)


def names(task: str) -> tuple[Named, ...]:
    """The codes and capitalised names of `task` (without its periods)."""
    found: list[str] = []
    for code in _CODE.finditer(task):
        text = code.group(0)
        if len(re.sub(r"\W", "", text)) >= CODE_CHARS and not _NOT_CODE.match(text):
            found.append(text)
    found += _capitalised(_CODE.sub(" , ", task))
    unique = list(dict.fromkeys(found))
    return tuple(Named(text, _phrase(text)) for text in unique)


def _capitalised(text: str) -> list[str]:
    """Runs of capitalised words; a sentence's first word alone is not one, nor an acronym
    alone ("ARR", "USD": a measure or a unit more often than a row's name)."""
    runs: list[tuple[bool, list[str]]] = []
    run: list[str] = []
    opens = starts = True  # whether the run, and the next word, open a sentence
    for match in re.finditer(r"[^\W\d_][\w&'’-]*\.?|[.?!:;,()]|\d\S*", text):
        token = match.group(0)
        word = re.sub(r"['’]s$", "", token.rstrip("."))
        lower = word.lower()
        if word[:1].isupper() and lower not in _NOT_NAMES:
            if not run:
                opens = starts
            run.append(word)
        elif run and lower in _JOINERS and not all(w.isupper() for w in run):
            run.append(word)
        else:
            runs.append((opens, run))
            run = []
        ends = token in ".?!:;" or (token.endswith(".") and len(word) > ABBREVIATION)
        if ends:
            runs.append((opens, run))
            run = []
        starts = ends or (starts and not word[:1].isalpha())
    runs.append((opens, run))
    out = []
    for first, words in runs:
        while words and words[-1].lower() in _JOINERS:
            words = words[:-1]
        if words and not (len(words) == 1 and (first or words[0].isupper())):
            out.append(" ".join(words))
    return out


def _phrase(text: str) -> str:
    """An RE2 pattern for `text` in lower-case cells: its words apart by any spacing, the
    last in the plural too; a single word also by its stem ("Subscriptions")."""
    words = re.findall(r"\w+", text.lower())
    if len(words) == 1 and words[0].isalpha():
        return r"\b(?:" + "|".join(sorted({words[0], stem(words[0])})) + ")"
    return r"\b" + r"[\s\W_]+".join(words) + r"(?:e?s)?\b"


def holds(thing: Named, date: str | None, cells: Sequence[str]) -> str:
    """The SQL test of a row holding `thing`: a period by the `date` column when there is
    one, anything else by the text of `cells`."""
    if thing.period and date:
        months = ", ".join(map(str, thing.months))
        tests = [f"month({ident(date)}) IN ({months})"] if thing.months else []
        tests += [f"year({ident(date)}) = {thing.year}"] if thing.year else []
        return " AND ".join(tests)
    text = ", ".join(f"CAST({ident(c)} AS VARCHAR)" for c in cells)
    text = f"concat_ws(' ', {text})" if len(cells) > 1 else text
    return f"regexp_matches(lower({text}), {literal(thing.pattern)})"


@dataclass(frozen=True)
class Unmatched:
    """Which of the names and periods a question gives the rows behind a figure hold
    (`found`) and which they do not (`missing`); true when some are missing."""

    found: tuple[str, ...]
    missing: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.missing)

    def line(self, table: str) -> str:
        """The opening: what could not be found, and what was."""
        held = f"; they hold {_joined(self.found)} only" if self.found else ""
        return (
            f"I could not find {_joined(self.missing)} in the rows of {table}{held}, "
            "so the figure asked for is not stated."
        )

    def partial(self, figure: str) -> str:
        """A figure's line, unbolded and labelled as over the rows found only."""
        return f"\nOver the rows found only (a partial figure): {figure.replace('**', '')}"

    def stop(self, table: str, described: str, sql: str, note: str) -> Action:
        """The answer when no row holds what the question names: what was looked for."""
        where = f" where {described}" if described else ""
        text = (
            f"I could not find any row of {table}{where}: no figure is computed for "
            f"{_joined(self.missing)}.\n\nLooked for with:\n\n```sql\n{sql}\n```\n\n{note}"
        )
        return Action.stop(text, f"No row of {table} holds what the question names.", [])


def _joined(labels: tuple[str, ...]) -> str:
    return ", ".join(labels[:-1]) + f" and {labels[-1]}" if len(labels) > 1 else "".join(labels)


__all__ = [
    "MONTHS",
    "YEAR",
    "Aggregate",
    "Named",
    "Unmatched",
    "aggregate_question",
    "names",
    "periods",
]
