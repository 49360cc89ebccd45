"""What a run has done so far, from the typed outcomes of its turns (never their text):
the documents a search found, and the characters of each document the reads showed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fsnb.documents import Document
from fsnb.protocol import Conversation, Turn
from fsnb.tools.files import PAGE_CHARS

#: Tools that show a range of a document's text.
READS = frozenset({"parse_file", "read", "get_document"})


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


def search_hits(turns: list[Turn]) -> list[str] | None:
    """The documents the run's `semantic_search` found, best first (None: no search yet)."""
    for turn in turns:
        if turn.action.kind == "tool_call" and turn.action.tool == "semantic_search":
            hits = turn.outcome.data.get("hits", []) if turn.outcome else []
            return list(dict.fromkeys(str(hit["path"]) for hit in hits))
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
        if action.kind != "tool_call" or action.tool not in READS:
            continue
        args = action.arguments()
        shown = turn.outcome.data if turn.outcome else {}
        path = _known(str(shown.get("path") or args.get("path", "")), docs)
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


def _range(shown: dict[str, Any], args: dict[str, Any], length: int) -> tuple[int, int]:
    """(offset, end) of the text a read showed."""
    try:
        if "offset" in shown and "end" in shown:
            return int(shown["offset"]), int(shown["end"])
        offset = int(args.get("offset", 0))
        limit = int(args.get("limit", PAGE_CHARS))
    except (TypeError, ValueError):
        offset, limit = 0, PAGE_CHARS
    return offset, min(offset + limit, length)
