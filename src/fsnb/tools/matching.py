"""Matching inside a sandbox: `grep` (lines of text matching a regular expression) and
`glob` (paths matching a pattern), and the path arguments other tools take, built on the
glob (`matching`, `paths_argument`).
"""

from __future__ import annotations

import fnmatch
import json
import time
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

import regex

from fsnb.documents import document_files, parse
from fsnb.errors import AccessDenied, NotFound, ParseError, ToolError
from fsnb.security import Entry, Sandbox, Sensitivity, os_reason
from fsnb.tools.context import ToolContext
from fsnb.tools.formats import human_size
from fsnb.tools.registry import tool

#: Seconds one `grep` call gives its pattern over all the files it searches, before calling
#: it too slow (per document, a call over 30 files ran 78 s).
REGEX_SECONDS = 5.0
#: Seconds one `grep` call may take in all, parsing included, checked between files: an
#: agent's tool call should answer within a minute or so.
GREP_SECONDS = 60.0
#: The clock grep's time limits read (a test's fake clock replaces it).
_clock = time.monotonic
_WILDCARDS = frozenset("*?[")


def _searchable(box: Sandbox, target: Path) -> list[Path]:
    return document_files(box, box.relative(target)) if target.is_dir() else [target]


def _matching_lines(
    pattern: regex.Pattern[str], lines: list[str], deadline: float
) -> Iterator[int]:
    """The numbers of the lines `pattern` finds something in; `TimeoutError` once the
    `deadline` (on `_clock`) has passed (catastrophic backtracking)."""
    for number, line in enumerate(lines):
        if pattern.search(line, timeout=max(deadline - _clock(), 0.001)):
            yield number


@tool
def grep(
    pattern: str,
    path: str = ".",
    *,
    ctx: ToolContext,
    context: int = 1,
    ignore_case: bool = True,
    max_matches: int = 50,
) -> str:
    """Search the text of documents and text files for a regular expression.

    Shows each matching line with its line number, page and surrounding lines.

    Args:
        pattern: Regular expression (Python syntax), e.g. "retention bonus|CTO".
        path: A file or a folder, relative to the root.
        context: Lines of context before and after each match.
        ignore_case: Match regardless of case.
        max_matches: Stop after this many matching lines.
    """
    try:
        compiled = regex.compile(pattern, regex.IGNORECASE if ignore_case else 0)
    except regex.error as exc:
        msg = f"invalid regular expression {pattern!r}: {exc}"
        raise ToolError(msg) from None
    box = ctx.sandbox
    target = box.existing(path)
    blocks: list[str] = []
    count = 0
    skipped: list[str] = []
    searchable = _searchable(box, target)
    # one budget per call, not per file: the pattern's time over all files, and the call's
    deadline, regex_left = _clock() + GREP_SECONDS, REGEX_SECONDS
    stopped = ""
    for searched, file in enumerate(searchable):
        if _clock() >= deadline:
            stopped = (
                f"searched {searched} of {len(searchable)} files before the "
                f"{GREP_SECONDS:g} s time limit: narrow the path"
            )
            break
        try:
            doc = parse(file, root=box.root)
        except ParseError as exc:
            skipped.append(f"{box.relative(file)}: {exc.why}")
            continue
        lines = doc.text.splitlines()
        offsets, pos = [], 0
        for line in lines:
            offsets.append(pos)
            pos += len(line) + 1
        began = _clock()
        try:
            for number in _matching_lines(compiled, lines, min(began + regex_left, deadline)):
                count += 1
                lo, hi = max(0, number - context), min(len(lines), number + context + 1)
                excerpt = "\n".join(
                    f"{n + 1}{':' if n == number else '-'} {lines[n]}" for n in range(lo, hi)
                )
                page = doc.page_at(offsets[number])
                blocks.append(f"{box.relative(file)} (page {page}, line {number + 1}):\n{excerpt}")
                if count >= max_matches:
                    break
        except TimeoutError:
            if not blocks:  # nothing found to show: the pattern itself is the trouble
                msg = (
                    f"the pattern {pattern!r} took longer than {REGEX_SECONDS:g} s on "
                    f"{box.relative(file)}; simplify it (nested repeats like (a+)+ backtrack)"
                )
                raise ToolError(msg) from None
            stopped = (
                f"searched {searched} of {len(searchable)} files before the time limit "
                f"(stopped in {box.relative(file)}): narrow the path or simplify the pattern "
                "(nested repeats like (a+)+ backtrack)"
            )
            break
        regex_left -= _clock() - began
        if count >= max_matches:
            blocks.append(f"[stopped at {max_matches} matches: narrow the pattern or the path]")
            break
    if not blocks:
        result = f"no matches for {pattern!r} under {box.relative(target)}"
    else:
        result = f"{count} matching lines for {pattern!r}:\n\n" + "\n\n".join(blocks)
    if stopped:
        result += f"\n[{stopped}]"
    if skipped:
        result += "\n(not searched: " + "; ".join(skipped) + ")"
    return result


def matching(box: Sandbox, pattern: str) -> list[Entry]:
    """The readable entries whose path (or name) matches a glob pattern; "**/" matches any
    folders. A pattern leaving the root is refused (`AccessDenied`)."""
    if Path(pattern).is_absolute() or ".." in Path(pattern).parts:
        msg = "a glob pattern must stay inside the root folder (no leading / and no ..)"
        raise AccessDenied(msg)
    patterns = (pattern, pattern[3:]) if pattern.startswith("**/") else (pattern,)
    found = []
    for entry in box.entries():
        if entry.verdict.level is Sensitivity.BLOCK:
            continue
        name = entry.rel.rpartition("/")[2]
        if any(fnmatch.fnmatch(n, p) for n in (entry.rel, name) for p in patterns):
            found.append(entry)
    return found


def paths_argument(box: Sandbox, spec: str | list[str]) -> list[str]:
    """The files a tool argument names: one path, several (a JSON array or separated by
    commas) or glob patterns ("statements/*.pdf"), as relative paths in order, each once.
    A path outside the root is refused; a pattern that matches nothing raises `NotFound`."""
    items = spec if isinstance(spec, list) else _listed(spec)
    found: dict[str, None] = {}
    for item in items:
        if _WILDCARDS & set(item):
            entries = [e for e in matching(box, item) if not e.note]
            if not entries:
                _check_prefix(box, item)
                msg = f"no files match {item!r}"
                raise NotFound(msg)
            found.update(dict.fromkeys(box.relative(box.existing(e.rel, "file")) for e in entries))
        else:
            found[box.relative(box.existing(item, "file"))] = None
    if not found:
        msg = "no paths given: name a file, several separated by commas, or a glob pattern"
        raise ToolError(msg)
    return list(found)


def _listed(spec: str) -> list[str]:
    text = spec.strip()
    if text.startswith("["):
        try:
            items = json.loads(text)
        except ValueError:
            items = None
        if isinstance(items, list) and all(isinstance(i, str) for i in items):
            return [i.strip() for i in items if i.strip()]
    return [part.strip() for part in text.split(",") if part.strip()]


@tool(phase="scan")
def glob(pattern: str, *, ctx: ToolContext, max_results: int = 200) -> str:
    """Find files whose path matches a glob pattern, e.g. "**/*.pdf" or "*contract*".

    Args:
        pattern: Glob pattern relative to the root; "**" matches any folders.
        max_results: Maximum number of paths to list.
    """
    box = ctx.sandbox
    matches = [f"{e.rel} ({e.note or _size(e.path)})" for e in matching(box, pattern)]
    if not matches:
        _check_prefix(box, pattern)
        return f"no files match {pattern!r}"
    shown = matches[:max_results]
    more = f"\n[{len(matches) - len(shown)} more not shown]" if len(matches) > len(shown) else ""
    return f"{len(matches)} files match {pattern!r}:\n" + "\n".join(shown) + more


def _check_prefix(box: Sandbox, pattern: str) -> None:
    """Raise `NotFound` when the pattern's literal start (the folders before its first
    wildcard, or all of it when it has none) names nothing that exists."""
    parts = PurePosixPath(pattern).parts
    literal = []
    for part in parts:
        if _WILDCARDS & set(part):
            break
        literal.append(part)
    if literal and len(literal) == len(parts):
        box.existing(pattern)
    elif literal:
        box.existing("/".join(literal), "folder")


def _size(file: Path) -> str:
    """The file's size for people, or why there is none."""
    try:
        return human_size(file.stat().st_size)
    except OSError as exc:
        return os_reason(exc)


__all__ = ["GREP_SECONDS", "REGEX_SECONDS", "glob", "grep", "matching", "paths_argument"]
