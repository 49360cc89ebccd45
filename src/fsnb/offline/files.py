"""Questions about the files themselves, answered from the navigator tools.

General rules recognise them: superlatives of size or date over files ("the largest
file", "modified most recently"), counts ("how many PDF files are in contracts"), size
thresholds ("files larger than 1 MB"), date ranges ("files modified in 2024") and
duplicates. Each maps to one tool call; the answer cites each file with its stat as the
quoted evidence ("size: 2,097,152 bytes", "modified: 2024-05-01 10:00", "files: 3 (.pdf)"),
which citation checking verifies against the file itself. A folder the question names
("in my Taxes folder", `fsnb.offline.scope`) is the call's scope, and the answer says so.
"""

from __future__ import annotations

import mimetypes
import re
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import Any

from fsnb.offline.scope import folders_under, named_folder
from fsnb.protocol import Action, CitedSource, ToolOutcome
from fsnb.tools.payloads import Duplicates, Found

#: Files an answer lists and cites at most.
LISTED = 10
#: Files a superlative answer ("the largest file") shows: the one asked for, then the next.
SHOWN = 3
#: Files asked for when the answer comes first in the search's order (largest, newest)...
RANKED = 5
#: ...and when it comes last (smallest, oldest): all of them.
ALL_FILES = 100_000
NOTE = "_(offline backend: answered from the file system, no LLM)_"

_FILES = r"(?:files?|documents?)"
#: What a person calls files of a kind ("Excel workbooks", "a PowerPoint presentation").
_NOUNS = r"(?:files?|documents?|docs|workbooks?|spreadsheets?|presentations?|decks?)"
_TYPES = {
    "word": "docx,doc",
    "excel": "xlsx,xls",
    "workbook": "xlsx,xls",
    "spreadsheet": "xlsx,xls,csv",
    "powerpoint": "pptx,ppt",
    "presentation": "pptx,ppt",
    "deck": "pptx,ppt",
    "slide": "pptx,ppt",
    "markdown": "md,markdown",
    "text": "txt",
    "image": "png,jpg,jpeg,gif,svg,webp",
    "picture": "png,jpg,jpeg,gif,svg,webp",
}
_SUPERLATIVE = re.compile(
    r"\b(largest|biggest|smallest|tiniest|newest|latest|oldest|most recent(?:ly)?|"
    r"least recent(?:ly)?)\b",
    re.IGNORECASE,
)
_CHANGED = r"(?:modified|changed|updated|edited|saved)"
_NAMES_FILES = re.compile(r"\bfiles?\b", re.IGNORECASE)
_LAST_CHANGED = re.compile(rf"\b{_CHANGED}\s+last\b|\blast\s+{_CHANGED}\b", re.IGNORECASE)
#: How a question asks for a number of files: "how many", "count the", "the number of".
_HOW_MANY = r"(?:how many|count(?:\s+up)?(?:\s+all)?(?:\s+the)?|(?:the\s+)?number of)"
_COUNT = re.compile(
    rf"\b{_HOW_MANY}\s+(?:(?:(?P<type>[\w.]+)\s+)?(?P<noun>{_NOUNS})|"
    r"(?P<typed>[\w.]+)\s+(?P<things>[a-z]+s)|(?P<plural>[a-z]+?)s)"
    r"(?=\s+(?:are|is|exist|do|does|in|under|inside|within|there)\b|\s*\?|\s*$)",
    re.IGNORECASE,
)
#: How a question asks to see files: "which", "list every", "show me all the", "are there
#: any".
_WHICH = (
    r"(?:which|what|(?:list|show(?:\s+me)?|give\s+me|find)(?:\s+(?:all|every|each|any))?"
    r"(?:\s+(?:of\s+)?the)?|(?:are|is)\s+there\s+(?:any|some)|do\s+(?:i|we|you)\s+have\s+any)"
)
#: "Which files in Downloads are spreadsheets?", "Which files are PDFs?": a file type asked
#: of the files (group 1).
_WHICH_ARE = re.compile(
    rf"\b(?:which|what)\s+{_FILES}\b[^?]*?\b(?:are|is)\s+(?:an?\s+)?([\w.]+?)(?:e?s)?"
    rf"(?:\s+{_NOUNS})?\s*\??\s*$",
    re.IGNORECASE,
)
#: "Which spreadsheets are in Downloads?", "List the PDF files under Taxes": the type before
#: the files (group 1, or group 2 named alone: "spreadsheets").
_WHICH_TYPE = re.compile(
    rf"\b{_WHICH}\s+(?:(?:([\w.]+)\s+(?:{_NOUNS}|notes))|([a-z]+?)s)\b"
    r"(?=\s+(?:are|is|do|does|in|under|inside|within|on|there)\b|\s*[?.!]?\s*$)",
    re.IGNORECASE,
)
#: "Which files are in the notes folder?", "List every file under Taxes", "What kinds of
#: files are in Downloads?": all the files of a folder, named last (a question that goes on,
#: "... in Taxes about my 1099", asks about their content).
_WHICH_FILES = re.compile(
    rf"\b(?:{_WHICH}|(?:what|which)\s+(?:kinds?|types?|sorts?)\s+of)\s+{_FILES}\s+"
    r"(?:(?:are|do\s+(?:i|we|you)\s+have|are\s+there|exist)\s+)?(?:in|under|inside|within)\s+"
    r"(?:(?:my|the|our|your)\s+)?[\w&./-]+(?:\s+[\w&./-]+){0,2}?(?:\s+(?:sub)?folder)?"
    r"(?:,?\s*including\s+(?:all\s+)?(?:its\s+)?sub-?folders)?\s*[?.!]?\s*$",
    re.IGNORECASE,
)
_SIZE = re.compile(
    r"\b(over|above|larger than|bigger than|more than|greater than|exceeding|at least|"
    r"smaller than|less than|under|below)\s+(\d+(?:\.\d+)?)\s*([kmgt]?i?b|bytes?)\b",
    re.IGNORECASE,
)
#: The group of `_SIZE` that holds the unit ("MB").
_UNIT = 3
_DUPLICATES = re.compile(
    rf"\b(?:duplicated?|identical)\s+{_FILES}|\b{_FILES}\b.*\bduplicat|\bduplicates\b",
    re.IGNORECASE,
)
#: "not counting subfolders", "directly in": the files in the folder itself.
_DIRECT = re.compile(
    r"\b(?:not\s+(?:counting|including)|excluding|without)\s+(?:its\s+|the\s+|any\s+)?"
    r"sub-?folders\b|\bdirectly\s+(?:in|under|inside)\b|\btop[-\s]level\b",
    re.IGNORECASE,
)
_DAY = r"\d{4}-\d{1,2}-\d{1,2}"
_WHEN = re.compile(
    rf"\b{_CHANGED}\s+(?:(today|yesterday)|this\s+(week|month|year)|"
    rf"(?:in|during)\s+(?:the\s+)?(?:last|past)\s+(\d+)\s+days|"
    rf"(?:in|during)\s+(\d{{4}}(?:-\d{{1,2}})?|[a-z]+\s+\d{{4}})|on\s+({_DAY})|"
    rf"(since|after|before)\s+({_DAY}|\d{{4}}(?:-\d{{1,2}})?)|"
    rf"between\s+({_DAY})\s+and\s+({_DAY}))",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class FileQuestion:
    """What a question about the files asks (`kind`), the call that answers it, and how
    the answer names the files ("PDF files under contracts")."""

    kind: str  # largest, smallest, newest, oldest, count, size, dates, types, duplicates
    tool: str
    arguments: dict[str, Any] = field(default_factory=dict)
    what: str = "files"
    direct: bool = False  # a count of the files in the folder, not in its subfolders

    @property
    def folder(self) -> str:
        """The folder the question is about ("." for the whole tree)."""
        return str(self.arguments.get("scope", self.arguments.get("path", ".")))

    @property
    def where(self) -> str:
        """How the answer names that folder: "" or " under Taxes"."""
        return "" if self.folder == "." else f" under {self.folder}"

    def within(self, folder: str) -> FileQuestion:
        """The same question asked of `folder` (a relative path) only."""
        key = "path" if "path" in self.arguments else "scope"
        sub = " (not counting subfolders)" if self.direct else " (including subfolders)"
        where = f" under {folder}" + (sub if self.kind == "count" else "")
        return replace(self, arguments=self.arguments | {key: folder}, what=self.what + where)


def _extensions(word: str | None) -> str | None:
    if not word:
        return None
    low = word.lower().strip(".")
    low = low.removesuffix("s") if low.removesuffix("s") in _TYPES else low  # "workbooks"
    if low in _TYPES:
        return _TYPES[low]
    if f".{low}" in mimetypes.types_map or low in _FORMATS:
        return low
    return None


def _file_type(word: str) -> bool:
    """Whether `word` names a file format itself ("PDF", "xlsx", "Word"), not a kind of
    content that any format may hold ("text", "image") nor another word ("line items")."""
    return word.lower().strip(".") in _FORMATS


#: Formats a person names before what the files hold ("PDF invoices", "Word letters").
_FORMATS = frozenset(
    "word excel powerpoint markdown pdf docx doc xlsx xls pptx ppt csv txt md html htm json "
    "xml rtf odt ods eml png jpg jpeg gif tif tiff heic zip".split()
)


def _when(found: re.Match[str]) -> str | None:
    """The date range (`fsnb.text.ranges` syntax) a `_WHEN` match stands for."""
    day, period, days, within, on, word, point, first, last = found.groups()
    if day or period:
        return day.lower() if day else f"this-{period.lower()}"
    if days:
        return f">={date.today() - timedelta(days=int(days)):%Y-%m-%d}"
    if within:
        try:
            return f"{datetime.strptime(within.title(), '%B %Y'):%Y-%m}"
        except ValueError:
            return within if within[0].isdigit() else None
    if on:
        return on
    if word:
        return f"{'<' if word.lower() == 'before' else '>='}{point}"
    return f"{first}..{last}"


def file_question(task: str, root: str, tools: set[str]) -> FileQuestion | None:
    """The file-system question `task` asks, when it asks one this folder's tools answer."""
    found = _ask(task)
    if found is None or found.tool not in tools:
        return None
    named = named_folder(task, folders_under(root), files=True)
    return found.within(named.folder) if named else found


def _ask(task: str) -> FileQuestion | None:
    """The question over the whole tree ("." scope); `file_question` narrows it."""
    about_files = re.search(rf"\b{_FILES}\b", task, re.IGNORECASE) is not None
    changed = re.search(rf"\b{_CHANGED}\b", task, re.IGNORECASE) is not None
    scope = "."
    if _DUPLICATES.search(task):
        return FileQuestion("duplicates", "find_duplicates", {"path": scope})
    count = _COUNT.search(task)
    if count and (counted := _counted_files(count)):
        if _DIRECT.search(task):  # every file, to keep those in the folder itself
            args = counted.arguments | {"max_results": ALL_FILES}
            return replace(counted, arguments=args, direct=True)
        return counted
    typed = _WHICH_ARE.search(task) or _WHICH_TYPE.search(task)
    word = next((w for w in (typed.groups() if typed else ()) if w), None)
    if typed and (types := _extensions(word)):
        args = {"query": "*", "search_type": "metadata", "scope": scope, "file_types": types}
        return FileQuestion("types", "find_files", args | {"max_results": LISTED}, f"{word} files")
    if _WHICH_FILES.search(task) and not _SUPERLATIVE.search(task):
        args = {"query": "*", "search_type": "metadata", "scope": scope, "max_results": LISTED}
        return FileQuestion("types", "find_files", args)
    size = _SIZE.search(task)
    if size and about_files:
        smaller = size.group(1).lower() in ("smaller than", "less than", "under", "below")
        unit = size.group(_UNIT).upper().replace("I", "").replace("BYTES", "B").replace("BYTE", "B")
        limit = f"{'<' if smaller else '>'}{size.group(2)}{unit}"
        args = {"query": "*", "search_type": "metadata", "scope": scope, "size_range": limit}
        label = f"files {size.group(1).lower()} {size.group(2)} {unit}"
        return FileQuestion("size", "find_files", args | {"sort_by": "size"}, label)
    when = _WHEN.search(task)
    if when and (range_ := _when(when)):
        args = {"query": "*", "search_type": "metadata", "scope": scope, "date_range": range_}
        label = f"files {when.group(0).lower()}"
        return FileQuestion("dates", "find_files", args | {"sort_by": "modified"}, label)
    superlative = _SUPERLATIVE.search(task)
    word = superlative.group(1).lower() if superlative else ""
    dated = word in ("newest", "latest", "oldest") or word.endswith(("recent", "recently"))
    if _LAST_CHANGED.search(task) or (word and changed):
        word = "oldest" if word.startswith(("oldest", "least")) else "newest"
    elif not word or not (_NAMES_FILES.search(task) if dated else about_files):
        return None  # "the most recent document" asks for its date, not the file's
    kind = {"biggest": "largest", "tiniest": "smallest", "latest": "newest"}.get(word, word)
    kind = "newest" if kind.startswith("most recent") else kind
    kind = "oldest" if kind.startswith("least recent") else kind
    by = "size" if kind in ("largest", "smallest") else "modified"
    last = kind in ("smallest", "oldest")
    args = {"query": "*", "search_type": "metadata", "scope": scope, "sort_by": by}
    return FileQuestion(kind, "find_files", args | {"max_results": ALL_FILES if last else RANKED})


def _counted_files(count: re.Match[str]) -> FileQuestion | None:
    """The count a `_COUNT` match asks for, over the whole tree: of the files of a format
    ("how many PDF invoices", "how many workbooks"), or of all files; None when it counts
    something else ("how many invoices")."""
    args: dict[str, Any] = {"query": "*", "search_type": "metadata", "scope": "."}
    if count["typed"]:
        if not _file_type(count["typed"]):
            return None
        args["file_types"] = _extensions(count["typed"])
        return FileQuestion("count", "find_files", args, f"{count['typed']} files")
    if count["plural"] is not None and not _extensions(count["plural"]):
        return None
    word, noun = count["type"] or count["plural"], count["noun"]
    types = _extensions(word) or _extensions(noun)  # "how many workbooks"
    label = f"{word} files" if _extensions(word) else noun if types else "files"
    args |= {"file_types": types} if types else {}
    return FileQuestion("count", "find_files", args, label)


def size_evidence(size: int) -> str:
    return f"size: {size:,} bytes"


def _cite(citations: list[CitedSource], path: str, quote: str) -> str:
    citations.append(CitedSource(id=len(citations) + 1, path=path, quote=quote))
    return f"[{len(citations)}]"


def file_answer(question: FileQuestion, outcome: ToolOutcome | None) -> Action:
    """The stop action answering `question` from the tool's outcome, each file cited with
    its size, date or count."""
    if outcome is None or not outcome.ok:
        why = outcome.text if outcome else "the tool gave no result"
        return Action.stop(f"I could not look at the files: {why}\n\n{NOTE}", "Tool failed.")
    citations: list[CitedSource] = []
    payload = outcome.payload
    if isinstance(payload, Duplicates):
        lines = _duplicates(question, payload, citations)
    elif not isinstance(payload, Found):
        return Action.stop(f"I could not look at the files.\n\n{NOTE}", "No file listing.")
    elif question.kind == "count":
        lines = _count(question, payload, citations)
    else:
        lines = _listing(question, payload, citations)
    reason = f"Answered from {question.tool} with {len(citations)} cited files."
    return Action.stop("\n".join(lines) + f"\n\n{NOTE}", reason, citations)


def _duplicates(
    question: FileQuestion, found: Duplicates, citations: list[CitedSource]
) -> list[str]:
    groups = found.groups
    if not groups:
        return [f"There are no duplicate {question.what}."]
    lines = [f"There are {len(groups)} groups of duplicate {question.what}:"]
    for group in groups[:LISTED]:
        evidence = f"{size_evidence(group.size)}; sha256: {group.sha256}"
        marks = [f"{p} {_cite(citations, p, evidence)}" for p in group.paths[:LISTED]]
        lines.append(f"- {len(group.paths)} identical copies: " + ", ".join(marks))
    return lines


def _count(question: FileQuestion, found: Found, citations: list[CitedSource]) -> list[str]:
    total, rows = found.total, found.results
    scope = question.arguments["scope"]
    types = question.arguments.get("file_types")
    fact = "files"
    if question.direct and total == len(rows):  # every file listed: keep those in the folder
        rows = tuple(r for r in rows if (r.path.rpartition("/")[0] or ".") == scope)
        total, fact = len(rows), "files directly in it"
    evidence = f"{fact}: {total}" + (f" ({types})" if types else "")
    verb = "is" if total == 1 else "are"
    lines = [f"There {verb} {_counted(total, question.what)} {_cite(citations, scope, evidence)}."]
    for row in rows[:LISTED]:
        mark = _cite(citations, row.path, size_evidence(row.size))
        lines.append(f"- {row.path} {mark}")
    return lines


#: The plural nouns an answer names files by, as `_ask` words them.
_PLURAL = re.compile(r"\b(files|documents|docs|workbooks|spreadsheets|presentations|decks)\b")


def _counted(total: int, what: str) -> str:
    """ "2 PDF files under Taxes", "1 PDF file under Taxes"."""
    return f"{total} {_PLURAL.sub(lambda m: m[1][:-1], what, count=1) if total == 1 else what}"


def _listing(question: FileQuestion, found: Found, citations: list[CitedSource]) -> list[str]:
    """The files a superlative, size or date question asks for, each with its fact."""
    rows = found.results
    if not rows:
        return [f"No {question.what} were found."]
    if question.kind in ("smallest", "oldest"):
        rows = rows[::-1]
    dated = question.kind in ("newest", "oldest", "dates")
    listing = question.kind in ("size", "dates", "types")
    lines = [f"{_counted(found.total, question.what)}:"] if listing else []
    for index, row in enumerate(rows[: LISTED if listing else SHOWN]):
        fact = f"modified {row.modified}" if dated else f"{row.size:,} bytes"
        quote = f"modified: {row.modified}" if dated else size_evidence(row.size)
        mark = _cite(citations, row.path, quote)
        if listing:
            lines.append(f"- {row.path} ({fact}) {mark}")
        elif index == 0:
            about = f"The {question.kind} file{question.where}"
            lines.append(f"{about} is **{row.path}** ({fact}) {mark}.")
        else:
            lines.append(f"- then {row.path} ({fact}) {mark}")
    return lines


__all__ = ["FileQuestion", "file_answer", "file_question"]
