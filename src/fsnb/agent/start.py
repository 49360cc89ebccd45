"""Where an exploration starts (issue 27): a scan that previews every document, or the
index's best passages for the question.

A folder the index holds with more documents than a scan previews well
(`FSNB_SCAN_MAX_DOCUMENTS`, 200) starts from the index: the run searches it for the
question first (a `semantic_search` step of its own, in the trace with why), the opening
message carries those hits beside the folder map, and the offline strategy ranks only
the documents they name. A small folder, one the index does not hold, or a question the
index finds nothing for starts with the scan. `FSNB_START=scan` or `index` forces one.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

from fsnb.errors import FsnbError
from fsnb.protocol import ToolOutcome
from fsnb.tools import ToolContext
from fsnb.tools.indexed import semantic_search
from fsnb.tools.payloads import Hits

#: Documents a scan previews at most before the index is the better start.
SCAN_MAX_DOCUMENTS = 200
#: Passages the index start shows.
START_HITS = 10


@dataclass(frozen=True)
class Start:
    """How a run starts and why; for the index start, the search it began with."""

    how: Literal["scan", "index"]
    why: str
    search: ToolOutcome | None = None

    @property
    def paths(self) -> list[str]:
        """The documents the index start found, best first."""
        return _found(self.search) if self.search else []

    def opening(self) -> str:
        """What the opening message says of the start."""
        if self.search is None:
            return ""
        return (
            f"Start: {self.why}. The index's best passages for the question:\n"
            f"{self.search.text}\n"
            "Read the likely documents (get_document or parse_file); semantic_search and grep "
            "find more."
        )


def choose_start(task: str, ctx: ToolContext, indexed: bool) -> Start:
    """The start of a run over `ctx`'s folder (`indexed`: the index holds it, current)."""
    forced = os.environ.get("FSNB_START", "auto").strip().lower()
    if not indexed:
        return Start("scan", "the folder is not indexed: every document is previewed")
    try:
        count = _documents(ctx)
    except FsnbError as exc:
        return Start("scan", f"the index cannot be read now ({exc}): every document is previewed")
    limit = _limit()
    if forced == "scan" or (forced != "index" and count <= limit):
        return Start("scan", f"{count:,} documents, few enough to preview whole")
    why = f"{count:,} documents, more than the {limit:,} a scan previews"
    if forced == "index":
        why = f"{count:,} documents; FSNB_START=index"
    found = semantic_search.outcome(task, k=START_HITS, ctx=ctx)
    if not found.ok or not _found(found):
        return Start(
            "scan", "the index found nothing for the question: every document is previewed"
        )
    return Start("index", why, found)


def _found(search: ToolOutcome) -> list[str]:
    """The documents a `semantic_search` outcome names, best first."""
    found = search.payload
    hits = (*found.name_matches, *found.hits) if isinstance(found, Hits) else ()
    return list(dict.fromkeys(hit.path for hit in hits))


def _documents(ctx: ToolContext) -> int:
    """The documents the index holds for the folder, read or not."""
    from fsnb.fsindex.filesystem import indexed

    where = indexed(ctx.db, ctx.root)
    if where is None:
        return 0
    with ctx.db.read() as con:
        row = con.execute(
            "SELECT count(*) FROM documents WHERE corpus_id = ? AND NOT deleted", [where.cid]
        ).fetchone()
    return int(row[0]) if row else 0


def _limit() -> int:
    raw = os.environ.get("FSNB_SCAN_MAX_DOCUMENTS", "").strip()
    return int(raw) if raw.isdigit() else SCAN_MAX_DOCUMENTS
