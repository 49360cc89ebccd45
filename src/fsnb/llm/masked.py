"""The secret mask at the model boundary: every text bound for a backend crosses it.

`masked(llm)` wraps any backend (a chat model, the offline strategy, a plugin, a test
double) so that what it is handed is masked first (`fsnb.text.redact.mask_secrets`): the
conversation's system prompt, opening message and folder map, every tool result and its
data, the thread's earlier answers, the documents the offline strategy reads, and the
system and prompt of `complete_json` (the tools that ask a model, `extract_rows`). The
explorer wraps its backend, and `ToolContext` wraps the one it lends to tools, so no path
reaches a model unmasked; `reveal_secrets=True` is the one way around it.

The question itself is the user's own text and is passed as it is.

The wrapper sits above the backends' own `next_action`/`complete_json`, not inside them,
so backends installed through entry points get the same guarantee without knowing of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, is_dataclass, replace
from functools import lru_cache
from itertools import pairwise
from typing import Any

from fsnb.documents.model import Document, PageSpan
from fsnb.protocol import (
    LLM,
    Conversation,
    Documents,
    Exchange,
    JsonReply,
    Notify,
    Reply,
    StructuredLLM,
    ToolOutcome,
    Turn,
)
from fsnb.text.redact import MARKER, mask_secrets, secret_cell

#: What the wrapper answers itself: these never reach the inner backend unmasked.
_GUARDED = frozenset({"next_action", "complete_json", "inner"})


@lru_cache(maxsize=512)
def mask_text(text: str) -> tuple[str, int]:
    """`mask_secrets`, remembered: a thread's transcript is handed over again each step."""
    return mask_secrets(text)


def mask_value(value: Any, key: str = "") -> tuple[Any, int]:
    """`value` with every string in it masked, and how many values were withheld.

    Dicts, lists, tuples and dataclasses (a tool's payload, rebuilt) are walked. A string
    under a credential key (`{"password": ...}`, a table's records) and a cell of a
    credential column (`{"columns": [...], "rows": [[...]]}`) is judged as such a cell is
    in a printed table (`secret_cell`).
    """
    if isinstance(value, str):
        return (MARKER, 1) if key and secret_cell(key, value) else mask_text(value)
    if is_dataclass(value) and not isinstance(value, type):  # its fields, as a dict's keys
        named, count = mask_value({f.name: getattr(value, f.name) for f in fields(value)}, key)
        return replace(value, **named), count
    if isinstance(value, dict):
        columns = value.get("columns")
        out, count = {}, 0
        for k, item in value.items():
            if k == "rows" and isinstance(columns, list | tuple):
                out[k], n = _mask_rows(item, [str(c) for c in columns])
            else:
                out[k], n = mask_value(item, str(k))
            count += n
        return out, count
    if isinstance(value, list | tuple):
        items = [mask_value(item, key) for item in value]
        return type(value)(masked for masked, _ in items), sum(n for _, n in items)
    return value, 0


def _mask_rows(rows: Any, columns: list[str]) -> tuple[Any, int]:
    """Rows given as sequences beside their column names."""
    if not isinstance(rows, list | tuple):
        return mask_value(rows)
    out, count = [], 0
    for row in rows:
        if isinstance(row, list | tuple) and len(row) == len(columns):
            cells = [mask_value(cell, name) for cell, name in zip(row, columns, strict=True)]
            out.append(type(row)(cell for cell, _ in cells))
            count += sum(n for _, n in cells)
        else:
            masked, n = mask_value(row)
            out.append(masked)
            count += n
    return type(rows)(out), count


def mask_outcome(outcome: ToolOutcome) -> tuple[ToolOutcome, int]:
    """A tool's outcome as a model may see it, and how many values its text withheld."""
    text, withheld = mask_text(outcome.text)
    payload, _ = mask_value(outcome.payload)
    return replace(outcome, text=text, payload=payload), withheld


def mask_turn(turn: Turn) -> Turn:
    outcome = None if turn.outcome is None else mask_outcome(turn.outcome)[0]
    return Turn(turn.action, mask_text(turn.result)[0], outcome, turn.cut)


def mask_document(doc: Document) -> Document:
    """`doc` with its text masked piece by piece between page boundaries, so that each
    page span still covers the same page's (masked) text."""
    cuts = sorted({0, len(doc.text), *(s.start for s in doc.spans), *(s.end for s in doc.spans)})
    moved, pieces, at = {0: 0}, [], 0
    for start, end in pairwise(cuts):
        piece = mask_secrets(doc.text[start:end])[0]  # each once: no need to remember
        pieces.append(piece)
        at += len(piece)
        moved[end] = at
    spans = [PageSpan(s.page, moved[s.start], moved[s.end]) for s in doc.spans]
    return replace(doc, text="".join(pieces), title=mask_text(doc.title)[0], spans=spans)


class MaskedDocuments:
    """A folder's documents as a backend may read them: masked, each once."""

    def __init__(self, inner: Documents) -> None:
        self.inner = inner
        self._masked: dict[str, Document] = {}

    def paths(self) -> list[str]:
        return self.inner.paths()

    def document(self, path: str) -> Document:
        if path not in self._masked:
            self._masked[path] = mask_document(self.inner.document(path))
        return self._masked[path]


class Masked:
    """A backend that sees only masked text (see the module docstring). Other attributes
    (`backend`, `model`, `base_url`, ...) are the inner backend's."""

    def __init__(self, inner: LLM) -> None:
        self.inner = inner
        self._documents: tuple[Documents | None, MaskedDocuments | None] = (None, None)

    def __getattr__(self, name: str) -> Any:
        if name in _GUARDED or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.inner, name)

    def __repr__(self) -> str:
        return f"masked({self.inner!r})"

    def next_action(self, conversation: Conversation, notify: Notify) -> Reply:
        return self.inner.next_action(self.view(conversation), notify)

    def view(self, c: Conversation) -> Conversation:
        """The conversation as the backend may see it."""
        earlier = [
            Exchange(x.question, mask_text(x.answer)[0], [mask_turn(t) for t in x.turns])
            for x in c.earlier
        ]
        return replace(
            c,
            system=mask_text(c.system)[0],
            opening=mask_text(c.opening)[0],
            turns=[mask_turn(t) for t in c.turns],
            earlier=earlier,
            documents=self._masked_documents(c.documents),
        )

    def _masked_documents(self, documents: Documents | None) -> MaskedDocuments | None:
        """One masked view per documents object, so each document is masked once."""
        if documents is None:
            return None
        seen, view = self._documents
        if seen is not documents or view is None:
            view = MaskedDocuments(documents)
            self._documents = (documents, view)
        return view


class MaskedStructured(Masked):
    """A masked backend that also answers `complete_json` (for `extract_rows`)."""

    inner: StructuredLLM

    def complete_json(
        self, system: str, prompt: str, schema: dict[str, Any], notify: Notify
    ) -> JsonReply:
        return self.inner.complete_json(mask_text(system)[0], mask_text(prompt)[0], schema, notify)


def masked(llm: LLM, *, reveal: bool = False) -> LLM:
    """`llm` behind the mask (itself when `reveal`, or when it is masked already)."""
    if reveal or isinstance(llm, Masked):
        return llm
    wrap: Callable[[Any], Masked] = MaskedStructured if isinstance(llm, StructuredLLM) else Masked
    return wrap(llm)


__all__ = ["Masked", "MaskedDocuments", "mask_document", "mask_outcome", "mask_value", "masked"]
