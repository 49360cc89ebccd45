"""Receipts: what stands in the transcript for a tool result the model has moved on from.

A receipt says which call it was, what it showed (the character range and pages of a
paged read, the files a scan listed), the few lines that matter most for the question,
and that calling it again shows it all. What it showed comes from the outcome's payload
(the shapes `Paged` and `Listing` below, which `fsnb.tools.payloads.PageRead` and `Scanned`
fill), never from the text. Pure functions; nothing is lost, since the turn itself keeps
the full result.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from fsnb.protocol.conversation import Exchange, Turn

#: Lines of a result a receipt keeps, and the characters of each.
KEPT_LINES = 3
LINE_CHARS = 200
#: Files a scan's receipt names.
LISTED = 40
#: A result this short is shown as is: its receipt would not be shorter.
SHORT = 400
#: Characters of an earlier answer a follow-up sees.
ANSWER_CHARS = 1_200

#: Words of a question (a regex over the question and the lines a receipt weighs, never
#: for what a result showed: that is its payload's).
_WORD = re.compile(r"[a-z0-9$%][a-z0-9$%.,'-]*[a-z0-9%]|[a-z0-9]", re.I)
_STOP = frozenset(
    "the and for with that this what which who whom whose when where why how does did are was "
    "were has have had its from into about under over than then them they their there these "
    "those will would shall should can could may might must not any all each per our your".split()
)


@runtime_checkable
class Paged(Protocol):
    """A payload of a paged read: the characters shown and the pages marked in its text."""

    offset: int
    end: int
    total: int
    pages: tuple[int, ...]


@runtime_checkable
class Listing(Protocol):
    """A payload of a scan: the files it listed."""

    listed: tuple[str, ...]


def question_words(text: str) -> set[str]:
    """The words a question is about: lowercased, three letters or more, no stopwords."""
    words = {w.lower().strip(".,'") for w in _WORD.findall(text)}
    return {w for w in words if len(w) >= 3 and w not in _STOP}


def receipt(turn: Turn, question: str) -> str:
    """The compact stand-in of `turn`'s result (see the module docstring)."""
    action = turn.action
    args = ", ".join(f"{a.name}={a.value!r}" for a in action.args)
    call = f"{action.tool}({args})" if action.tool else action.kind
    shown = _what_it_showed(turn)
    status = "" if turn.ok else " (it failed)"
    head = (
        f"[receipt of {call}{status}: its {len(turn.result):,}-character result is left out "
        f"here to save context{shown}. Call it again to see it all.]"
    )
    lines = mattering_lines(turn.result, question_words(question), _pages(turn))
    if not lines:
        return head
    kept = "\n".join(f"  p.{page}: {line}" if page else f"  {line}" for page, line in lines)
    return f"{head}\nLines that matter for the question:\n{kept}"


def exchange_receipt(number: int, exchange: Exchange) -> str:
    """An earlier question of the thread: the question, its answer and what it read."""
    answer = exchange.answer.strip() or "(no answer)"
    if len(answer) > ANSWER_CHARS:
        cut = len(answer) - ANSWER_CHARS
        answer = f"{answer[:ANSWER_CHARS]} [... {cut:,} more characters of the answer left out]"
    reads = [receipt(t, exchange.question) for t in exchange.turns if t.action.tool]
    calls = "\n".join(f"- {r}" for r in reads) or "- (no tool calls)"
    return (
        f"Earlier question {number}: {exchange.question}\nAnswer given: {answer}\n"
        f"What it read (receipts; call again to see the text):\n{calls}"
    )


def _pages(turn: Turn) -> tuple[int, ...]:
    """The pages a paged read marked in its text (none for any other result)."""
    payload = turn.outcome.payload if turn.outcome else None
    return payload.pages if isinstance(payload, Paged) else ()


def _what_it_showed(turn: Turn) -> str:
    payload = turn.outcome.payload if turn.outcome else None
    parts = []
    if isinstance(payload, Paged):
        parts.append(f"characters {payload.offset:,}-{payload.end:,} of {payload.total:,}")
        pages = sorted(set(payload.pages))
        if pages:
            many = len(pages) > 1
            parts.append(f"pages {pages[0]}-{pages[-1]}" if many else f"page {pages[0]}")
    if isinstance(payload, Listing) and (listed := payload.listed):
        more = f" and {len(listed) - LISTED} more" if len(listed) > LISTED else ""
        parts.append(f"{len(listed)} files: {', '.join(listed[:LISTED])}{more}")
    return f" ({'; '.join(parts)})" if parts else ""


def mattering_lines(
    text: str, words: set[str], pages: tuple[int, ...] = ()
) -> list[tuple[int | None, str]]:
    """Up to `KEPT_LINES` (page, line) pairs sharing the most `words` (two at least), in
    reading order; each line cut to `LINE_CHARS`. `pages`: those whose `[page N]` lines
    the tool wrote into `text` (its payload says which), each line's page from the last
    of them above it; a text without marks, or a `[page N]` line a file itself holds,
    gives no pages."""
    marks = {f"[page {page}]": page for page in pages}
    scored: list[tuple[int, int, int | None, str]] = []
    page: int | None = None
    for index, raw in enumerate(text.splitlines()):
        line = raw.strip()
        if line in marks:
            page = marks[line]
            continue
        hits = len(question_words(line) & words)
        if hits >= 2:
            scored.append((hits, index, page, line))
    best = sorted(scored, key=lambda s: (-s[0], s[1]))[:KEPT_LINES]
    return [(page, _cut(line)) for _, _, page, line in sorted(best, key=lambda s: s[1])]


def _cut(line: str) -> str:
    return line if len(line) <= LINE_CHARS else f"{line[:LINE_CHARS]} [...]"
