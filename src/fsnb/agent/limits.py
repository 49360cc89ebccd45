"""Size limits of what goes to the LLM: the question, each tool result, and one call
(the context budget, applied by `Conversation.messages()` with receipts).

A question is checked (an empty one is refused) and a long one is cut in the middle with a
note; a long tool result is cut with a note saying how to ask for the rest.
"""

from __future__ import annotations

from fsnb.errors import FsnbError

#: Characters one LLM call may send by default (system prompt + messages, about 4,000
#: tokens): enough for the prompt, a scan's receipt and one page of a document, so the
#: shortest path of a single-document question stays well under 8,000 tokens in all.
CONTEXT_CHARS = 16_000


class EmptyQuestion(FsnbError, ValueError):
    """An exploration was asked to answer an empty question."""


def check_question(task: object) -> None:
    """Raise `EmptyQuestion` unless `task` is text with something in it."""
    if not isinstance(task, str) or not task.strip():
        msg = "the question is empty: ask something about the folder"
        raise EmptyQuestion(msg)


def cut_question(task: str, limit: int | None) -> str:
    """`task`, or when it is longer than `limit` its beginning and end around a note
    saying how much was left out (a question's ask is usually at one end)."""
    if limit is None or len(task) <= limit:
        return task
    head = limit * 3 // 4
    tail = limit - head
    note = (
        f"[question cut: {len(task) - limit:,} of its {len(task):,} characters are left out "
        f"here; the limit is {limit:,} (max_question_chars)]"
    )
    return f"{task[:head]}\n{note}\n{task[len(task) - tail :]}"


def cut_result(text: str, limit: int) -> tuple[str, int]:
    """(text, characters left out): a result over the size budget is cut, saying so and how
    to get the rest."""
    if len(text) <= limit:
        return text, 0
    cut = text.rfind("\n", 0, limit)
    cut = cut if cut > limit // 2 else limit
    rest = len(text) - cut
    note = (
        f"\n[result cut at the size budget: {rest:,} more characters not shown. "
        "Ask for less: parse_file with offset/limit, a subfolder, or a narrower pattern.]"
    )
    return text[:cut] + note, rest
