"""Deterministic renderings of an exploration for outputs without a widget front end.

nbval, nbconvert and GitHub show these: the answer with its sources, the citations and a
trace summary. They carry no timings, token counts or absolute paths, so re-running a
notebook gives the same text.
"""

from __future__ import annotations

import html
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fsnb.agent.answer_html import answer_html, inert_markdown
from fsnb.agent.result import SECRETS_NOTE
from fsnb.agent.trace import trace_rows
from fsnb.text.markup import html_root, unescape_pipes

if TYPE_CHECKING:
    from collections.abc import Mapping

    import pandas as pd

    from fsnb.agent.result import ExplorationResult
    from fsnb.notebook.evidence import PageImage

TRACE_COLUMNS = ("step", "phase", "action", "target")
DOCUMENT_COLUMNS = ("path", "title", "format", "pages", "chars", "parser", "error")
PAGE_SIZE = 25
CONTEXT_CHARS = 300
CITATION_COLUMNS = ("id", "path", "page", "quote", "verified")


def folder_label(folder: str | os.PathLike[str]) -> str:
    """The folder as shown: relative paths as given, others relative to cwd or by name."""
    path = Path(folder)
    if not path.is_absolute():
        return path.as_posix()
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix() or "."
    except (ValueError, OSError):
        return path.name or path.as_posix()


def scrub(text: str, root: str | None, label: str) -> str:
    """Replace the absolute root folder in `text` with its label."""
    return text.replace(root, label) if root and text else text


def _cell(value: Any) -> str:
    """A table cell's text on one line (a Markdown table escapes its pipes itself)."""
    text = "" if value is None else str(value)
    return " ".join(text.split())


def _md_table(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    head = "| " + " | ".join(columns) + " |\n|" + "---|" * len(columns)
    body = [
        "| " + " | ".join(_cell(row.get(c)).replace("|", "\\|") for c in columns) + " |"
        for row in rows
    ]
    return "\n".join([head, *body])


def _html_table(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_cell(row.get(c)))}</td>" for c in columns) + "</tr>"
        for row in rows
    )
    return f"<table class='fsnb-table'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def citation_rows(result: ExplorationResult) -> list[dict[str, Any]]:
    """The citations as table rows, each quote as the document reads (Docling's `\\|`
    unescaped: a table that needs it escapes it again)."""
    rows = []
    for c in result.citations:
        verified = "yes" if c.verified else f"no: {c.problem}"
        quote = unescape_pipes(c.quote)
        rows.append({**c.to_dict(), "id": f"[{c.id}]", "quote": quote, "verified": verified})
    return rows


def evidence_html(result: ExplorationResult, images: Mapping[int, PageImage]) -> str:
    """The record's evidence: per citation with an image (`fsnb.notebook.evidence.
    record_images` bounds their number and bytes), its place and the highlighted crop, its
    alt text the quote."""
    figures = []
    for c in result.citations:
        if (image := images.get(c.id)) is None:
            continue
        where = html.escape(f"[{c.id}] {c.path}, page {image.page}")
        alt = html.escape(" ".join(unescape_pipes(c.quote).split()), quote=True)
        figures.append(
            "<figure style='margin:6px 0'>"
            f"<figcaption style='font-size:0.9em;opacity:0.8'>{where}</figcaption>"
            f'<img src="{image.data_url()}" alt="{alt}" width="{image.width}"'
            f' height="{image.height}" style="max-width:100%;height:auto;'
            'border:1px solid #d0d7de"></figure>'
        )
    if not figures:
        return ""
    return f"<div class='fsnb-evidence'><p><b>Evidence</b></p>{''.join(figures)}</div>"


def summary_line(result: ExplorationResult) -> str:
    """Steps, documents and backend: what stays the same from run to run."""
    u = result.usage
    stopped = "; stopped, then answered from what was read" if result.stopped else ""
    return (
        f"{len(result.steps())} steps; {u.documents_scanned} documents scanned, "
        f"{u.documents_parsed} parsed{stopped}; {result.backend_note}"
    )


class Rendering:
    """Text, markdown and HTML of one exploration (finished or not)."""

    def __init__(
        self,
        task: str,
        folder: str,
        status: str,
        result: ExplorationResult | None = None,
        error: str = "",
        *,
        reveal_secrets: bool = False,
        images: Mapping[int, PageImage] | None = None,
    ) -> None:
        self.task, self.folder, self.status, self.result = task, folder, status, result
        #: Evidence images by citation id, shown in the HTML under the citations.
        self.images = dict(images or {})
        #: Said on every rendering: the run sent secret values to the LLM unmasked.
        self.reveal_secrets = reveal_secrets or bool(result and result.reveal_secrets)
        root = result.folder if result else None
        self._scrub = lambda text: scrub(text, root, folder)
        self.error = self._scrub(error or (result.error if result and result.error else ""))

    def _head(self) -> str:
        head = f"{self.task}\n({self.folder}, {self.status})"
        return f"{head}\n{SECRETS_NOTE}" if self.reveal_secrets else head

    def answer(self) -> str:
        if self.result is None:
            return self.error or f"The exploration is {self.status}."
        if self.error:
            return self._unanswered(self.result)
        head, sources, quotes = self.result.answer_with_sources().partition("\nSources:\n")
        return self._scrub(head + sources + unescape_pipes(quotes))

    def _unanswered(self, result: ExplorationResult) -> str:
        """Why there is no answer, and which documents were read before the run ended."""
        cancelled = result.status == "cancelled"
        lines = ["Cancelled before an answer." if cancelled else f"Error: {self.error}"]
        if result.documents_read:
            lines.append(f"Documents read: {', '.join(result.documents_read)}")
        return "\n".join(lines)

    def text(self) -> str:
        parts = [self._head(), "", self.answer()]
        if self.result is not None:
            parts += ["", summary_line(self.result)]
        return "\n".join(parts)

    def _trace(self) -> list[dict[str, Any]]:
        if self.result is None:
            return []
        return [
            {"step": r.step, "phase": r.phase, "action": r.action, "target": self._scrub(r.target)}
            for r in trace_rows(self.result.events)
        ]

    def _citations(self) -> list[dict[str, Any]]:
        if self.result is None:
            return []
        return [{**r, "quote": self._scrub(r["quote"])} for r in citation_rows(self.result)]

    def markdown(self) -> str:
        parts = [f"**{self.task}**", f"_{self.folder} · {self.status}_"]
        if self.reveal_secrets:
            parts.append(f"**{SECRETS_NOTE}**")
        if self.result is None:
            return inert_markdown("\n\n".join([*parts, self.answer()]))
        parts.append(self.answer() if self.error else self._scrub(self.result.answer))
        if self.result.citations and not self.error:
            parts += ["**Sources**", _md_table(CITATION_COLUMNS, self._citations())]
        if trace := self._trace():
            parts += ["**Trace**", _md_table(TRACE_COLUMNS, trace)]
        parts.append(f"_{summary_line(self.result)}_")
        return inert_markdown("\n\n".join(parts))  # the answer, quotes and paths load nothing

    def html(self) -> str:
        parts = [
            f"<p><b>{html.escape(self.task)}</b><br><i>{html.escape(self.folder)} · "
            f"{html.escape(self.status)}</i></p>"
        ]
        if self.reveal_secrets:
            parts.append(f"<p class='fsnb-secrets'><b>{html.escape(SECRETS_NOTE)}</b></p>")
        if self.result is None or self.error:
            body = f"<div style='white-space:pre-wrap'>{html.escape(self.answer())}</div>"
        else:
            body = f"<div class='fsnb-answer'>{answer_html(self._scrub(self.result.answer))}</div>"
        parts.append(body)
        if self.result is not None:
            if self.result.citations and not self.error:
                parts.append(_html_table(CITATION_COLUMNS, self._citations()))
                parts.append(evidence_html(self.result, self.images))
            if trace := self._trace():
                table = _html_table(TRACE_COLUMNS, trace)
                parts.append(f"<details><summary>Trace</summary>{table}</details>")
            parts.append(f"<p><i>{html.escape(summary_line(self.result))}</i></p>")
        return html_root("".join(parts), "fsnb-result")

    def bundle(self) -> dict[str, str]:
        return {
            "text/plain": self.text(),
            "text/markdown": self.markdown(),
            "text/html": self.html(),
        }


def render(
    result: ExplorationResult, *, folder: str | None = None, status: str | None = None
) -> Rendering:
    """The rendering of a finished result (the folder shown by name unless given)."""
    shown = folder or folder_label(result.folder)
    return Rendering(result.task, shown, status or result.status, result)


# -- data behind the panel's citation box and tabs ---------------------------------------


def quote_context(root: str | None, cite: dict[str, Any]) -> dict[str, Any]:
    """The text around a citation's quote in its document: before, match, after, page."""
    from fsnb.agent.citations import quote_pattern
    from fsnb.documents import parse
    from fsnb.security import Sandbox

    out: dict[str, Any] = {"before": "", "match": cite.get("quote", ""), "after": ""}
    if not root or not cite.get("path"):
        return out
    box = Sandbox(root)
    doc = parse(box.resolve(cite["path"]), root=box.root)
    pattern = quote_pattern(cite.get("quote", ""))
    if found := pattern.search(doc.text) if pattern else None:
        start, end = found.span()
        out.update(
            before=doc.text[max(0, start - CONTEXT_CHARS) : start],
            match=found.group(0),
            after=doc.text[end : end + CONTEXT_CHARS],
            page=cite.get("page") or doc.page_at(start),
        )
    return out


def frame_page(frame: pd.DataFrame, page: int, size: int, total: int | None = None) -> dict:
    """A page of a DataFrame as JSON-safe {columns, rows, page, pages, total}.

    With `total`, `frame` is already that page (a LIMIT/OFFSET query).
    """
    rows = frame.iloc[page * size : (page + 1) * size] if total is None else frame
    total = len(frame) if total is None else total
    records = json.loads(rows.to_json(orient="records", date_format="iso", default_handler=str))
    pages = max(1, -(-total // size))
    return {
        "columns": [str(c) for c in frame.columns],
        "rows": records,
        "page": page,
        "pages": pages,
        "total": total,
    }


def tab_page(
    db: str | None,
    folder: str,
    tab: str,
    table: str = "",
    page: int = 0,
    size: int = PAGE_SIZE,
    *,
    sort: str = "",
    descending: bool = False,
) -> dict[str, Any]:
    """A page of the index's documents of `folder`, the scratchpad's tables, or one table
    (sorted by its column `sort` when given; the reply adds `offset`, `sort` and
    `descending`)."""
    from fsnb.db import Scratchpad, default_db_path
    from fsnb.index import Index

    page, size = max(page, 0), min(max(size, 1), 500)
    path = Path(db) if db else default_db_path()
    if tab not in ("documents", "scratchpad"):
        msg = f"unknown tab {tab!r}"
        raise ValueError(msg)
    if not path.exists():  # do not create an index file just to show that it is empty
        return {"columns": [], "rows": [], "page": 0, "pages": 1, "total": 0}
    if tab == "documents":
        frame = Index(path).documents(folder)
        return frame_page(frame[[c for c in DOCUMENT_COLUMNS if c in frame.columns]], page, size)
    pad = Scratchpad(path, folder=folder)
    if not table:
        return frame_page(pad.tables(), page, size)
    rows = pad.df(
        table, limit=size, offset=page * size, order_by=sort or None, descending=descending
    )
    return {
        **frame_page(rows, page, size, pad.rows(table)),
        "offset": page * size,
        "sort": sort,
        "descending": bool(sort) and descending,
    }
