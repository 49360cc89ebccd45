"""What a run has done so far, from the typed payloads of its turns (never their text) and
the traits their tools declare: the documents a search found, and the characters of each
document the reads showed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fsnb.documents import Document
from fsnb.protocol import Conversation, Turn
from fsnb.tools import TOOLS
from fsnb.tools.payloads import Hits, PageRead
from fsnb.tools.reading import PAGE_CHARS


@dataclass
class Progress:
    """Character ranges shown per path, in the order the paths were first read, and the
    paths whose read failed."""

    ranges: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    failed: set[str] = field(default_factory=set)
    reads: int = 0

    def covered(self, path: str, offset: int) -> bool:
        return any(a <= offset < b for a, b in self.ranges.get(path, ()))

    @property
    def order(self) -> list[str]:
        return list(self.ranges)


def earlier_turns(conversation: Conversation) -> list[Turn]:
    """The steps of the thread's earlier exchanges, oldest first."""
    return [turn for exchange in conversation.earlier for turn in exchange.turns]


def scanned(turns: Sequence[Turn]) -> bool:
    """Whether one of these steps scanned the folder."""
    return any(t.ok and t.action.tool == "scan_folder" for t in turns)


def _payload(turn: Turn) -> object:
    return turn.outcome.payload if turn.outcome else None


def _reads(tool: str | None) -> str | None:
    """The argument naming the file a tool reads in the read phase (None: it reads none)."""
    traits = TOOLS.get(tool or "")
    return traits.reads if traits is not None and traits.phase == "read" else None


def search_hits(turns: list[Turn]) -> list[str] | None:
    """The documents the run's `semantic_search` found, best first (None: no search yet)."""
    for turn in turns:
        if turn.action.kind == "tool_call" and turn.action.tool == "semantic_search":
            found = _payload(turn)
            hits = found.hits if isinstance(found, Hits) else ()
            return list(dict.fromkeys(hit.path for hit in hits))
    return None


def read_so_far(
    turns: list[Turn], docs: Mapping[str, Document], earlier: Sequence[Turn] = ()
) -> Progress:
    """The ranges of each document that reads have shown: the range a read's outcome
    reports (else the one its arguments asked for), less what the size budget cut off.
    `earlier`: the thread's earlier steps, whose ranges count but whose reads do not."""
    progress = Progress()
    for n, turn in enumerate([*earlier, *turns]):
        action = turn.action
        reads = _reads(action.tool) if action.kind == "tool_call" else None
        if reads is None:
            continue
        args = action.arguments()
        shown = _payload(turn)
        shown = shown if isinstance(shown, PageRead) else None
        path = _known(shown.path if shown else str(args.get(reads, "")), docs)
        progress.reads += n >= len(earlier)
        if not turn.ok or path not in docs:
            progress.failed.add(path)
            continue
        offset, end = _range(shown, args, len(docs[path].text))
        if turn.cut:
            end = max(offset + 1, end - turn.cut)
        progress.ranges.setdefault(path, []).append((offset, end))
    return progress


def _known(path: str, docs: Mapping[str, Document]) -> str:
    """A path as the corpus names it ('./a.pdf' and 'a.pdf' are one file)."""
    path = path.strip().removeprefix("./")
    if path in docs:
        return path
    return next((p for p in docs if Path(p) == Path(path)), path)


def _range(shown: PageRead | None, args: dict[str, Any], length: int) -> tuple[int, int]:
    """(offset, end) of the text a read showed."""
    if shown is not None:
        return shown.offset, shown.end
    try:
        offset = int(args.get("offset", 0))
        limit = int(args.get("limit", PAGE_CHARS))
    except (TypeError, ValueError):
        offset, limit = 0, PAGE_CHARS
    return offset, min(offset + limit, length)
