"""The tools an MCP host gets beside the agent's: `explore` (fsnb's own agent, start to end)
and `verify_citation` (fsnb's citation check, for any host's answer). Both are registry
tools (`@tool`): their schemas come from their signatures, their failures are one line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fsnb.agent import events as ev
from fsnb.agent.citations import Citation, verify_citations
from fsnb.agent.result import ExplorationResult
from fsnb.agent.spec import RunSpec, recording
from fsnb.documents import parse
from fsnb.documents.quotes import quote_pattern
from fsnb.errors import AccessDenied, FsnbError, NotFound
from fsnb.llm.masked import mask_document
from fsnb.mcp.context import ServedContext
from fsnb.protocol import CitedSource, ToolOutcome
from fsnb.tools.registry import tool

#: How often a waiting call looks at its cancel flag, in seconds.
POLL_S = 0.1
#: What `verify_citation` says of a quote it did not find (and of one that touches a
#: withheld secret, which must read the same: the check is no way to guess a secret).
NOT_IN_TEXT = "the quote does not occur in the file's text"


@dataclass(frozen=True)
class Explored:
    """An exploration's answer, its citations as checked, its usage and its error."""

    answer: str
    citations: tuple[Citation, ...]
    usage: dict[str, Any]
    backend: str
    model: str | None
    error: str | None = None


@tool(phase="read")
def explore(question: str, *, ctx: ServedContext) -> ToolOutcome[Explored]:
    """Answer a question about the folder with fsnb's own agent, with verified citations.

    Runs a whole exploration (scan, read, backtrack to exhibits) with the server's backend
    (`fsnb mcp --llm`, offline by default) and returns the answer with its sources, each
    citation with whether its quote was found on its page, and the tokens used. Progress is
    reported step by step; cancelling the call stops the run.

    Args:
        question: The question, e.g. "What is the purchase price?".
    """
    settings = ctx.service.settings
    spec = RunSpec(
        folder=ctx.root,
        llm=ctx.service.backend,
        db=settings.db,
        max_steps=settings.max_steps,
        timeout_s=max(ctx.time_left(), 0.001),
        max_result_chars=settings.max_result_chars,
    )
    explorer = spec.explorer(observers=recording(settings.db))

    def progress(event: ev.Event) -> None:
        if isinstance(event, ev.ToolCall):
            what = f"{event.tool} {event.target}".strip()
            ctx.report(event.step, settings.max_steps, f"step {event.step}: {what}")

    handle = explorer.start(question, on_event=progress)
    while handle.result(POLL_S) is None and handle.is_alive():
        if ctx.cancelled is not None and ctx.cancelled.is_set():
            handle.cancel()
    result = handle.result()
    if result is None:
        msg = "the exploration ended without a result"
        raise FsnbError(msg)
    return _explored(result)


def _explored(result: ExplorationResult) -> ToolOutcome[Explored]:
    u = result.usage
    data = Explored(
        result.answer_with_sources(), tuple(result.citations), u.to_dict(),
        result.backend, result.model, result.error,
    )  # fmt: skip
    if result.error:
        return ToolOutcome.failure(f"error: the exploration failed: {result.error}", data)
    verified = sum(c.verified for c in result.citations)
    usage = (
        f"({verified} of {len(result.citations)} citations verified; {u.llm_calls} LLM calls, "
        f"{u.total_tokens:,} tokens, {u.tool_calls} tool calls, {u.wall_s:.1f} s; "
        f"{result.backend}{f' {result.model}' if result.model else ''})"
    )
    return ToolOutcome(f"{data.answer}\n\n{usage}", payload=data)


@tool(phase="read")
def verify_citation(
    path: str, quote: str, page: int | None = None, *, ctx: ServedContext
) -> ToolOutcome[Citation]:
    """Check a citation: is the quote in the file's text, and on the page given?

    The check fsnb runs on its own answers: the quote is matched in the document's parsed
    text (whitespace, hyphenation and quote marks forgiven) and its page found from the
    page spans; a quote of the file's own facts (its size, date or hash) is checked on the
    file. Secret values are withheld here as everywhere: a quote of one is not found.

    Args:
        path: File path, relative to the folder.
        quote: The passage cited, copied from the document (5-25 words).
        page: The page it was cited on (leave out when unknown).
    """
    box = ctx.sandbox
    try:
        read = {box.relative(box.existing(path, "file"))}
    except AccessDenied:  # a path outside the folder: refused, an error result
        raise
    except (NotFound, OSError):  # not there, or a folder (its facts): the check says which
        read = set()
    source = CitedSource(id=1, path=path, page=page, quote=quote)
    (checked,) = verify_citations("[1]", [source], box, read)
    if checked.verified and read and _withheld(box.root / next(iter(read)), box.root, quote):
        checked.verified, checked.page, checked.problem = False, page, NOT_IN_TEXT
    if checked.verified:
        where = f"page {checked.page} of {checked.path}" if checked.page else checked.path
        text = f"verified: the quote is on {where}"
        if checked.problem:  # found, but on another page than the one given
            text += f" ({checked.problem})"
    else:
        text = f"not verified: {checked.problem}"
    return ToolOutcome(text, payload=checked)


def _withheld(file: Any, root: Any, quote: str) -> bool:
    """Whether the quote, found in the file's text, is not in its masked text (it covers a
    secret value the masker withholds)."""
    doc = parse(file, root=root)
    masked = mask_document(doc)
    pattern = quote_pattern(quote)
    return masked.text != doc.text and (pattern is None or pattern.search(masked.text) is None)


HOST_TOOLS = [explore, verify_citation]

__all__ = ["HOST_TOOLS", "Explored", "explore", "verify_citation"]
