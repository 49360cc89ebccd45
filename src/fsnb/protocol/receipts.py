"""Receipts: what stands in the transcript for a tool result the model has moved on from.

A receipt says which call it was, what it showed (the character range and pages of a
paged read, the files a scan listed), the few lines that matter most for the question,
and that calling it again shows it all. Pure functions over text; nothing is lost, since
the turn itself keeps the full result.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

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

_WORD = re.compile(r"[a-z0-9$%][a-z0-9$%.,'-]*[a-z0-9%]|[a-z0-9]", re.I)
_PAGE = re.compile(r"^\[page (\d+)\]$")
_LISTED = re.compile(r"^=== (.+?) — ", re.M)
_STOP = frozenset(
    "the and for with that this what which who whom whose when where why how does did are was "
    "were has have had its from into about under over than then them they their there these "
    "those will would shall should can could may might must not any all each per our your".split()
)


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
    lines = mattering_lines(turn.result, question_words(question))
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


def _what_it_showed(turn: Turn) -> str:
    data = turn.outcome.data if turn.outcome else {}
    parts = []
    if {"offset", "end", "total"} <= data.keys():
        parts.append(f"characters {data['offset']:,}-{data['end']:,} of {data['total']:,}")
    pages = sorted({int(m.group(1)) for m in map(_PAGE.match, turn.result.splitlines()) if m})
    if pages:
        parts.append(f"pages {pages[0]}-{pages[-1]}" if len(pages) > 1 else f"page {pages[0]}")
    listed = _LISTED.findall(turn.result)
    if listed:
        more = f" and {len(listed) - LISTED} more" if len(listed) > LISTED else ""
        parts.append(f"{len(listed)} files: {', '.join(listed[:LISTED])}{more}")
    return f" ({'; '.join(parts)})" if parts else ""


def mattering_lines(text: str, words: set[str]) -> list[tuple[int | None, str]]:
    """Up to `KEPT_LINES` (page, line) pairs sharing the most `words` (two at least), in
    reading order; each line cut to `LINE_CHARS`."""
    scored: list[tuple[int, int, int | None, str]] = []
    page: int | None = None
    for index, raw in enumerate(text.splitlines()):
        line = raw.strip()
        if mark := _PAGE.match(line):
            page = int(mark.group(1))
            continue
        hits = len(question_words(line) & words)
        if hits >= 2:
            scored.append((hits, index, page, line))
    best = sorted(scored, key=lambda s: (-s[0], s[1]))[:KEPT_LINES]
    return [(page, _cut(line)) for _, _, page, line in sorted(best, key=lambda s: s[1])]


def _cut(line: str) -> str:
    return line if len(line) <= LINE_CHARS else f"{line[:LINE_CHARS]} [...]"
