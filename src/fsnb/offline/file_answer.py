"""The answer to a question about the files themselves (`fsnb.offline.files`), from the
navigator tool's outcome: each file or folder cited with its stat as the quoted evidence
("size: 2,097,152 bytes", "modified: 2024-05-01 10:00", "files: 3 (pdf)", "folders: 2"),
which citation checking verifies against the file system (`fsnb.agent.file_evidence`).
"""

from __future__ import annotations

import re

from fsnb.offline.files import LISTED, FileQuestion
from fsnb.protocol import Action, CitedSource, ToolOutcome
from fsnb.tools.formats import human_size
from fsnb.tools.payloads import DiskUsage, Duplicates, Found

#: Files a superlative answer ("the largest file") shows: the one asked for, then the next.
SHOWN = 3
NOTE = "_(offline backend: answered from the file system, no LLM)_"


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
    elif isinstance(payload, DiskUsage):
        lines = _usage(question, payload, citations)
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


def _usage(question: FileQuestion, usage: DiskUsage, citations: list[CitedSource]) -> list[str]:
    """A folder's size, or how many folders it holds, then its largest entries."""
    if question.kind in ("largest folder", "fullest"):
        return _top_folder(question, usage, citations)
    if question.kind == "folders":
        mark = _cite(citations, usage.path, f"folders: {usage.folders}")
        verb = "is" if usage.folders == 1 else "are"
        lines = [f"There {verb} {_counted(usage.folders, question.what)} {mark}."]
        rows = tuple(r for r in usage.entries if r.type == "folder")
    else:
        mark = _cite(citations, usage.path, f"size: {usage.size:,} bytes; files: {usage.files}")
        held = _counted(usage.files, "files")
        where = "The whole folder" if usage.path == "." else f"The {usage.path} folder"
        size = f"**{usage.size:,} bytes** ({human_size(usage.size)})"
        lines = [f"{where} holds {size} in {held} {mark}."]
        rows = usage.entries
    for row in rows[:LISTED]:
        mark = _cite(citations, row.path, size_evidence(row.size))
        name = row.path + ("/" if row.type == "folder" else "")
        lines.append(f"- {name} ({human_size(row.size)}) {mark}")
    return lines


def _top_folder(
    question: FileQuestion, usage: DiskUsage, citations: list[CitedSource]
) -> list[str]:
    """The folders directly inside (the entries of a depth-1 `disk_usage`), the largest (by
    size, or by files held) first."""
    by_files = question.kind == "fullest"
    rows = sorted(
        (r for r in usage.entries if r.type == "folder"),
        key=lambda r: (-r.files, r.path) if by_files else (-r.size, r.path),
    )
    if not rows:
        return [f"There are no folders{question.where}."]
    lines = []
    for index, row in enumerate(rows[:SHOWN]):
        fact = _counted(row.files, "files") if by_files else f"{row.size:,} bytes"
        quote = f"files: {row.files}" if by_files else f"size: {row.size:,} bytes"
        mark = _cite(citations, row.path, quote)
        if index == 0:
            most = "holding the most files" if by_files else "taking the most space"
            lines.append(f"The folder{question.where} {most} is **{row.path}** ({fact}) {mark}.")
        else:
            lines.append(f"- then {row.path} ({fact}) {mark}")
    return lines


def _count(question: FileQuestion, found: Found, citations: list[CitedSource]) -> list[str]:
    total, rows = found.total, found.results
    scope = question.arguments["scope"]
    types = question.arguments.get("file_types")
    fact = "files"
    if question.direct and total == len(rows):  # every file listed: keep those in the folder
        rows = tuple(r for r in rows if (r.path.rpartition("/")[0] or ".") == scope)
        total, fact = len(rows), "files directly in it"
    named = question.arguments["query"] if question.arguments["search_type"] == "name" else ""
    limits = ", ".join(
        filter(None, (types, question.arguments.get("size_range"), named and f"named {named}"))
    )
    evidence = f"{fact}: {total}" + (f" ({limits})" if limits else "")
    verb = "is" if total == 1 else "are"
    lines = [f"There {verb} {_counted(total, question.what)} {_cite(citations, scope, evidence)}."]
    for row in rows[:LISTED]:
        mark = _cite(citations, row.path, size_evidence(row.size))
        lines.append(f"- {row.path} {mark}")
    return lines


#: The plural nouns an answer names files by, as `_ask` words them.
_PLURAL = re.compile(
    r"\b(files|documents|docs|workbooks|spreadsheets|presentations|decks|folders)\b"
)


def _counted(total: int, what: str) -> str:
    """ "2 PDF files under Taxes", "1 PDF file under Taxes"."""
    return f"{total} {_singular(what) if total == 1 else what}"


def _singular(what: str) -> str:
    """ "PDF file under Taxes" for "PDF files under Taxes"."""
    return _PLURAL.sub(lambda m: m[1][:-1], what, count=1)


def _listing(question: FileQuestion, found: Found, citations: list[CitedSource]) -> list[str]:
    """The files a superlative, size or date question asks for, each with its fact."""
    rows = found.results
    if not rows:
        return [f"No {question.what} were found."]
    if question.kind in ("smallest", "oldest"):
        rows = rows[::-1]
    dated = question.kind in ("newest", "oldest", "dates")
    listing = question.kind in ("size", "dates", "types", "contents")
    lines = [f"{_counted(found.total, question.what)}:"] if listing else []
    for index, row in enumerate(rows[: LISTED if listing else SHOWN]):
        fact = f"modified {row.modified}" if dated else f"{row.size:,} bytes"
        quote = f"modified: {row.modified}" if dated else size_evidence(row.size)
        mark = _cite(citations, row.path, quote)
        if listing:
            lines.append(f"- {row.path} ({fact}) {mark}")
        elif index == 0:
            about = f"The {question.kind} {_singular(question.what)}"
            lines.append(f"{about} is **{row.path}** ({fact}) {mark}.")
        else:
            lines.append(f"- then {row.path} ({fact}) {mark}")
    return lines


__all__ = ["file_answer"]
