"""The server's own tools: `index` (bring a folder's index up to date, with progress) and
`status` (the folders, their index, and the calls in flight and ended)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fsnb.mcp.context import ServedContext
from fsnb.protocol import ToolOutcome
from fsnb.tools.registry import tool

#: How often `index` looks at how far the indexing got, in seconds.
POLL_S = 0.25


@dataclass(frozen=True)
class Indexed:
    """How a folder's index stands after `index`."""

    folder: str
    state: str
    done: int
    total: int | None
    counts: dict[str, Any] | None = None
    error: str | None = None


@tool(phase="scan")
def index(rebuild: bool = False, *, ctx: ServedContext) -> ToolOutcome[Indexed]:
    """Bring the folder's index up to date, reporting progress: new and changed documents
    are parsed, so that semantic_search, get_document and list_indexed_documents find them.

    The server indexes its folders when it starts; called meanwhile, this follows that
    indexing to its end. Cancelling the call stops the waiting, not the indexing.

    Args:
        rebuild: Index the folder from scratch instead of incrementally.
    """
    indexer, folder = ctx.service.indexer, ctx.folder
    job = indexer.start(folder, rebuild=rebuild)
    ctx.report(0, None, f"indexing {folder.name}")
    seen: tuple[int, int | None] = (0, None)
    while not job.finished.wait(POLL_S):
        ctx.check()  # cancelled: stop waiting
        if ctx.time_left() <= POLL_S:
            line = indexer.describe(folder)
            text = f"{folder.name}: still {line}; call index again to follow it"
            return ToolOutcome(text, payload=Indexed(folder.name, "indexing", *seen))
        try:
            now = indexer.progress(folder)
        except Exception:  # the file is busy for a moment: ask again
            continue
        if now != seen and now[1]:
            ctx.report(now[0], now[1], f"{folder.name}: {now[0]:,} of {now[1]:,} documents")
        seen = now
    done = len(job.report.added) + len(job.report.updated) if job.report else seen[0]
    ctx.report(done, done or None, f"{folder.name}: {job.line()}")
    counts = job.report.counts() if job.report else None
    data = Indexed(folder.name, job.state, done, seen[1], counts, job.error)
    if job.state == "failed":
        return ToolOutcome.failure(f"error: indexing {folder.name} failed: {job.error}", data)
    return ToolOutcome(f"{folder.name}: {job.line()}", payload=data)


@dataclass(frozen=True)
class FolderState:
    name: str
    index: str


@dataclass(frozen=True)
class CallState:
    id: int
    tool: str
    folder: str
    state: str
    seconds: float | None


@dataclass(frozen=True)
class ServerStatus:
    """The folders served with their index, the backend of `explore`, and the calls."""

    folders: tuple[FolderState, ...]
    backend: str
    calls: tuple[CallState, ...]


@tool(phase="scan")
def status(*, ctx: ServedContext) -> ToolOutcome[ServerStatus]:
    """What this server serves and does: each folder with its index (building, and how far
    it got; ready; failed), the backend explore uses, and the calls in flight and the last
    ones that ended (done, failed, timed out, cancelled)."""
    service = ctx.service
    folders = tuple(FolderState(f.name, service.indexer.describe(f)) for f in service.folders)
    running, ended = service.calls.snapshot()
    calls = tuple(CallState(c.id, c.tool, c.folder, c.state, c.seconds) for c in running + ended)
    backend = f"{service.backend.backend} {getattr(service.backend, 'model', '') or ''}".strip()
    lines = ["Folders (name: index):", *(f"- {f.name}: {f.index}" for f in folders)]
    lines += [f"explore uses: {backend}", "Calls (in flight, then ended):"]
    lines += [f"- {c.line()}" for c in running + ended] or ["- none"]
    return ToolOutcome("\n".join(lines), payload=ServerStatus(folders, backend, calls))


INDEX_TOOLS = [index, status]
#: Tools about the whole server, which take no folder.
SERVER_WIDE = frozenset({"status"})

__all__ = ["INDEX_TOOLS", "SERVER_WIDE", "Indexed", "ServerStatus", "index", "status"]
