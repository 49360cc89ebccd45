"""Questions about the files themselves, each mapped to one navigator tool call.

General rules recognise them: superlatives of size or date over files, of one format or
any ("the largest file", "the smallest PDF", "modified most recently"), counts ("how many
PDF files are in contracts", "how many subfolders"), a folder's size ("how big is the
Taxes folder") or contents ("what's in Medical", "what documents do we have from
Clearwater"), the folder taking the most space or holding the most files, size thresholds
("files larger than 1 MB"), date ranges ("files modified in 2024") and duplicates. A
folder the question names ("in my Taxes folder", `fsnb.offline.scope`) is the call's
scope, and the answer says so; `fsnb.offline.file_answer` writes the answer from the
tool's outcome."""

from __future__ import annotations

import mimetypes
import re
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import Any

from fsnb.offline.scope import folders_under, named_folder

#: Files an answer lists and cites at most.
LISTED = 10
#: Files asked for when the answer comes first in the search's order (largest, newest)...
RANKED = 5
#: ...and when it comes last (smallest, oldest): all of them.
ALL_FILES = 100_000

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
#: A count of files ("how many PDF files": type, noun), of things a word qualifies ("how many
#: tax forms": typed, things) or of plural things ("how many receipts": plural, singular).
COUNT = re.compile(
    rf"\b{_HOW_MANY}\s+(?:(?:(?P<type>[\w.]+)\s+)?(?P<noun>{_NOUNS})|"
    r"(?P<typed>[\w.]+)\s+(?P<things>[a-z]+s)|(?P<plural>[a-z]+?)s)"
    r"(?=\s+(?:are|is|exist|do|does|in|under|inside|within|there)\b|\s*\?|\s*$)",
    re.IGNORECASE,
)
#: "How many of the protocols in Protocols are Word documents?": a count of the files of a
#: format (word, noun), however the question calls them first.
_COUNT_ARE = re.compile(
    rf"\b{_HOW_MANY}\s+of\s+(?:the|my|our)\s+[^?]*?\b(?:are|is)\s+(?:an?\s+)?"
    rf"(?P<word>[\w.]+?)(?:e?s)?(?:\s+(?P<noun>{_NOUNS}))?\s*\??\s*$",
    re.IGNORECASE,
)
#: How a question asks to see files: "which", "list every", "show me all the", "are there
#: any".
_WHICH = (
    r"(?:which|what|(?:list|show(?:\s+me)?|give\s+me|find|name)(?:\s+(?:all|every|each|any))?"
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
    r"(?:(?:are|do\s+(?:i|we|you)\s+have|are\s+there|exist)\s+)?(?P<prep>in|under|inside|within|from)\s+"
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
#: "How much space does Receipts take up?", "How big is the Taxes folder?", "the total size
#: of all my files": the size of a folder ("how much space does the flat have" is not).
_SPACE = re.compile(
    r"\bhow\s+much\s+(?:disk\s+|storage\s+)space\b|\bhow\s+much\s+space\b[^?]*\b(?:take|use|"
    r"occupy|fill)s?\b|\b(?:how\s+(?:big|large)\s+(?:is|are)|size\s+of)\s+"
    r"(?:(?:the|my|our|all|whole|entire)\s+)*(?:[\w&./-]+\s+){0,3}?(?:folders?|director"
    r"(?:y|ies)|files)\b",
    re.IGNORECASE,
)
#: "Is there a spreadsheet in Downloads?": a file of one format (`_format`).
_ANY = re.compile(
    rf"\b(?:(?:is|are)\s+there|do\s+(?:i|we|you)\s+have)\s+an?\s+(?P<word>[\w.]+?)"
    rf"(?:\s+(?P<noun>{_NOUNS}))?"
    r"(?=\s+(?:in|under|inside|within)\b|\s*\?)",
    re.IGNORECASE,
)
#: What follows a superlative: "(the smallest) PDF", "(the largest) Word document".
_TYPED = re.compile(rf"\s+(?P<word>[\w.]+?)(?:s|\s+(?P<noun>{_NOUNS}))?\b", re.IGNORECASE)
#: "Which folder takes up the most space?", "the biggest subfolder", "Which folder has the
#: most files?" (group files).
_TOP_FOLDER = re.compile(
    r"\b(?:which|what)\s+(?:\w+'s\s+)?(?:sub-?)?folder(?:\s+(?:of|in|under|inside)\s+(?:the\s+|my\s+|our\s+)?"
    r"[\w&./-]+(?:\s+folder)?)?\s+(?:is\s+(?:the\s+)?(?:largest|biggest)|(?:takes?|"
    r"uses?)\s+(?:up\s+)?the\s+most\s+(?:disk\s+)?space|(?P<files>(?:has|holds|contains)\s+the"
    r"\s+most\s+files))|\bthe\s+(?:largest|biggest)\s+(?:sub-?)?folder\b",
    re.IGNORECASE,
)
_FOLDERS = re.compile(rf"\b{_HOW_MANY}\s+(?:sub-?)?(?:folders|directories)\b", re.IGNORECASE)
#: "What's in the Medical folder?", "Show me the contents of Housing", "What does the
#: Taxes folder hold?": every file of a folder, when the question names one.
_CONTENTS = re.compile(
    r"\b(?:what(?:'s|’s|\s+is)\s+(?:in|inside)|(?:list|show(?:\s+me)?)\s+(?:everything|all)\s+"
    r"(?:in|under|inside)|(?:list|show(?:\s+me)?|what\s+are)\s+the\s+contents\s+of|what\s+"
    r"(?:file\s+)?(?:types|formats)\s+(?:of\s+files?\s+)?(?:are|do\s+(?:i|we)\s+have)\s+"
    r"(?:in|under))\s+(?:(?:my|the|our|your)\s+)?[\w&./-]+(?:\s+[\w&./-]+){0,2}?"
    r"(?:\s+(?:sub)?folder)?\s*[?.!]?\s*$|\bwhat\s+does\s+(?:the\s+|my\s+|our\s+)?[\w&./-]+"
    r"(?:\s+[\w&./-]+)?\s+folder\s+(?:contain|hold|have)\b",
    re.IGNORECASE,
)
_DAY = r"\d{4}-\d{1,2}-\d{1,2}"
_WHEN = re.compile(
    rf"\b{_CHANGED}\s+(?:(today|yesterday)|this\s+(week|month|year)|"
    rf"(?:in|during|over|within)\s+(?:the\s+)?(?:last|past)\s+(?:(\d+)\s+)?(days?|weeks?|months?|"
    rf"years?)|"
    rf"(?:in|during)\s+(\d{{4}}(?:-\d{{1,2}})?|[a-z]+\s+\d{{4}})|on\s+({_DAY})|"
    rf"(since|after|before)\s+({_DAY}|\d{{4}}(?:-\d{{1,2}})?)|"
    rf"between\s+({_DAY})\s+and\s+({_DAY}))",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class FileQuestion:
    """What a question about the files asks (`kind`), the call that answers it, and how
    the answer names the files ("PDF files under contracts")."""

    kind: str  # largest, smallest, newest, oldest, count, size, dates, types, contents,
    # duplicates, space, folders, "largest folder", fullest
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
#: Format words that name files without a noun after them ("the smallest PDF"); the
#: others need one ("the latest Word document", not "the latest word from the bank").
_FILE_WORDS = (_FORMATS - {"word", "excel", "powerpoint", "markdown"}) | {
    "spreadsheet", "workbook", "presentation", "deck", "image", "picture",
}  # fmt: skip
#: A format named in the plural, as files of it ("PDFs", "spreadsheets").
_PLURAL = re.compile(rf"\b({'|'.join(sorted(_FILE_WORDS))})s\b", re.IGNORECASE)


#: Days in each unit of a rolling window ("the past month": the last 30 days).
_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}


def _when(found: re.Match[str]) -> str | None:
    """The date range (`fsnb.text.ranges` syntax) a `_WHEN` match stands for."""
    day, period, count, unit, within, on, word, point, first, last = found.groups()
    if day or period:
        return day.lower() if day else f"this-{period.lower()}"
    if unit:  # "in the past 10 days", "over the last month": that many days back from today
        days = int(count or 1) * _DAYS[unit.lower().removesuffix("s")]
        return f">={date.today() - timedelta(days=days):%Y-%m-%d}"
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
    if found.kind == "contents" and named is None:
        return None  # "what's in the lease?" asks what it says
    return found.within(named.folder) if named else found


def _ask(task: str) -> FileQuestion | None:
    """The question over the whole tree ("." scope); `file_question` narrows it."""
    about_files = re.search(rf"\b{_FILES}\b", task, re.IGNORECASE) is not None
    changed = re.search(rf"\b{_CHANGED}\b", task, re.IGNORECASE) is not None
    scope = "."
    if _DUPLICATES.search(task):
        return FileQuestion("duplicates", "find_duplicates", {"path": scope})
    if top := _TOP_FOLDER.search(task):  # ranked in the answer, by size or by files
        kind = "fullest" if top["files"] else "largest folder"
        return FileQuestion(kind, "disk_usage", {"path": scope, "top_n": ALL_FILES}, "folders")
    if _FOLDERS.search(task):
        return FileQuestion("folders", "disk_usage", {"path": scope}, "folders")
    if _SPACE.search(task):
        return FileQuestion("space", "disk_usage", {"path": scope})
    size = _SIZE.search(task)
    count = COUNT.search(task)
    if (are := _COUNT_ARE.search(task)) and (types := _format(are)):
        args = {"query": "*", "search_type": "metadata", "scope": scope, "file_types": types}
        return FileQuestion("count", "find_files", args, f"{are['word']} files")
    if count and (counted := _counted_files(count)):
        if size:  # "how many PDFs are larger than 3 KB"
            limit, said = _size_limit(size)
            args = counted.arguments | {"size_range": limit}
            counted = replace(counted, arguments=args, what=f"{counted.what} {said}")
        if _DIRECT.search(task):  # every file, to keep those in the folder itself
            args = counted.arguments | {"max_results": ALL_FILES}
            return replace(counted, arguments=args, direct=True)
        return counted
    listing = {"query": "*", "search_type": "metadata", "scope": scope, "max_results": LISTED}
    typed = _WHICH_ARE.search(task) or _WHICH_TYPE.search(task)
    word = next((w for w in (typed.groups() if typed else ()) if w), None)
    types = _extensions(word) if typed else None
    if not types and (one := _ANY.search(task)) and (types := _format(one)):
        word = one["word"]  # "is there a spreadsheet in Downloads"
    if types:
        args, what = listing | {"file_types": types}, f"{word} files"
        if size:  # "which PDFs are larger than 3 KB"
            limit, said = _size_limit(size)
            args, what = args | {"size_range": limit, "sort_by": "size"}, f"{what} {said}"
        return FileQuestion("types", "find_files", args, what)
    if (which := _WHICH_FILES.search(task)) and not _SUPERLATIVE.search(task):
        # "what documents do we have from Clearwater": only when Clearwater is a folder
        return FileQuestion(
            "contents" if which["prep"] == "from" else "types", "find_files", listing
        )
    if _CONTENTS.search(task):
        return FileQuestion("contents", "find_files", listing)
    plural = _PLURAL.search(task)  # "find all PDFs larger than 1 MB"
    if size and (about_files or plural):
        limit, said = _size_limit(size)
        args = {"query": "*", "search_type": "metadata", "scope": scope, "size_range": limit}
        args |= {"file_types": _extensions(plural[1])} if plural else {}
        what = f"{plural[1]} files {said}" if plural else f"files {said}"
        return FileQuestion("size", "find_files", args | {"sort_by": "size"}, what)
    when = _WHEN.search(task)
    if when and (range_ := _when(when)):
        args = {"query": "*", "search_type": "metadata", "scope": scope, "date_range": range_}
        label = f"files {when.group(0).lower()}"
        return FileQuestion("dates", "find_files", args | {"sort_by": "modified"}, label)
    superlative = _SUPERLATIVE.search(task)
    word = superlative.group(1).lower() if superlative else ""
    of = _TYPED.match(task, superlative.end()) if superlative else None
    types = _format(of) if of else None
    dated = word in ("newest", "latest", "oldest") or word.endswith(("recent", "recently"))
    if _LAST_CHANGED.search(task) or (word and changed):
        word = "oldest" if word.startswith(("oldest", "least")) else "newest"
    elif not word or not (types or (_NAMES_FILES.search(task) if dated else about_files)):
        return None  # "the most recent document" asks for its date, not the file's
    kind = {"biggest": "largest", "tiniest": "smallest", "latest": "newest"}.get(word, word)
    kind = "newest" if kind.startswith("most recent") else kind
    kind = "oldest" if kind.startswith("least recent") else kind
    by = "size" if kind in ("largest", "smallest") else "modified"
    last = kind in ("smallest", "oldest")
    args = {"query": "*", "search_type": "metadata", "scope": scope, "sort_by": by}
    args |= {"file_types": types} if types else {}
    args |= {"max_results": ALL_FILES if last else RANKED}
    return FileQuestion(kind, "find_files", args, f"{of[1]} files" if of and types else "files")


def _size_limit(size: re.Match[str]) -> tuple[str, str]:
    """The size range a `_SIZE` match asks for (`fsnb.text.ranges`: ">3KB") and how the
    answer says it ("larger than 3 KB")."""
    smaller = size.group(1).lower() in ("smaller than", "less than", "under", "below")
    unit = size.group(_UNIT).upper().replace("I", "").replace("BYTES", "B").replace("BYTE", "B")
    limit = f"{'<' if smaller else '>'}{size.group(2)}{unit}"
    return limit, f"{size.group(1).lower()} {size.group(2)} {unit}"


def _format(named: re.Match[str]) -> str | None:
    """The extensions of the format a `_TYPED` or `_ANY` match names, if it names one."""
    word = named["word"].lower().strip(".")
    if named["noun"] or word in _FILE_WORDS or word.removesuffix("s") in _FILE_WORDS:
        return _extensions(word)
    return None


def _counted_files(count: re.Match[str]) -> FileQuestion | None:
    """The count a `COUNT` match asks for, over the whole tree: of the files of a format
    ("how many PDF invoices", "how many workbooks"), or of all files; None when it counts
    something else ("how many invoices") or files a word other than a format qualifies
    ("how many tax documents")."""
    args: dict[str, Any] = {"query": "*", "search_type": "metadata", "scope": "."}
    if count["typed"]:
        if not _file_type(count["typed"]):
            return None
        args["file_types"] = _extensions(count["typed"])
        return FileQuestion("count", "find_files", args, f"{count['typed']} files")
    qualifier = count["plural"] or count["type"]
    if qualifier and not _extensions(qualifier):
        return None  # "how many tax documents": `fsnb.offline.named_files`
    word, noun = count["type"] or count["plural"], count["noun"]
    types = _extensions(word) or _extensions(noun)  # "how many workbooks"
    label = f"{word} files" if _extensions(word) else noun if types else "files"
    args |= {"file_types": types} if types else {}
    return FileQuestion("count", "find_files", args, label)


__all__ = ["COUNT", "LISTED", "FileQuestion", "file_question"]
