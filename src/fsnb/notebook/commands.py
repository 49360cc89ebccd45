"""What the magics run, apart from parsing their lines: `%explore_index`, `%explore_sql`,
`-f` formats, and which errors a user can fix (a `UsageError`: one line, no traceback)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from IPython.core.error import UsageError

from fsnb.db.errors import USER_ERRORS
from fsnb.errors import one_line
from fsnb.notebook.display import folder_label

if TYPE_CHECKING:
    import pandas as pd

    from fsnb.agent.result import ExplorationResult


def usage_error(exc: BaseException) -> UsageError:
    return UsageError(one_line(exc, 500) or type(exc).__name__)


def formatted(result: ExplorationResult, form: str) -> str:
    """A result as `-f` prints it: markdown (the question, the answer, its sources and a
    summary), json (`ExplorationResult.to_json`), or text (the answer and its sources)."""
    if form == "json":
        return result.to_json(indent=2)
    if form == "markdown":
        return result._repr_markdown_()
    error = f"Error: {result.error}" if result.error else ""
    return "\n\n".join(part for part in (result.answer_with_sources(), error) if part)


def show(result: ExplorationResult, form: str) -> None:
    """`-f FORMAT` shown as a notebook shows that form: rendered Markdown, JSON in the
    front end's JSON viewer, or printed text; a terminal prints the text of each."""
    from IPython.display import display

    text = formatted(result, form)
    mime = {"markdown": "text/markdown", "json": "application/json"}.get(form)
    if mime is None:
        print(text)
        return
    display({mime: json.loads(text) if form == "json" else text, "text/plain": text}, raw=True)


def interrupted_line(result: Any, out: str | None) -> str:
    """The one line an interrupted `%%explore` prints."""
    if result is None:
        return "Interrupted: the exploration is being cancelled in the background."
    read = len(result.documents_read)
    return (
        f"Interrupted: the exploration was cancelled after {len(result.steps())} steps "
        f"({read} document{'s' if read != 1 else ''} read); "
        f"{out or '_explore'} holds what it found."
    )


def index_folder(folder: str, db: str | None = None) -> pd.DataFrame | None:
    """Index `folder` with a progress bar; print a one-line summary; return what changed
    (None when nothing did: the cell shows the line alone).

    Interrupted, it keeps the batches already committed, says how far it got and returns
    None (running it again goes on from there)."""
    from fsnb.index import Index

    index = Index(db)
    try:
        report = index.add_folder(folder, progress=True)
    except USER_ERRORS as exc:
        raise usage_error(exc) from None
    except KeyboardInterrupt:
        try:
            where = index.indexing(folder) or "indexing interrupted"
        except USER_ERRORS:  # the file is busy: say so without the count
            where = "indexing interrupted"
        print(f"Interrupted: {where}; %explore_index {folder_label(folder)} goes on from there")
        return None
    counts = report.counts()
    names = ("added", "updated", "unchanged", "deleted", "failed", "skipped")
    print(f"Indexed {folder_label(folder)}: " + ", ".join(f"{counts[k]} {k}" for k in names))
    if note := report.ocr_note():  # the pages OCR read, or the scans left unread
        print(note)
    if report.added or report.updated or report.deleted:
        index.warm(folder)  # the first search ranks with the BM25 engine, not in SQL
    frame = report.to_frame()
    frame.attrs["counts"] = counts
    return frame if len(frame) else None  # nothing changed: the line says it all


def run_sql(
    query: str,
    db: str | None = None,
    folder: str | None = None,
    namespace: Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """One guarded SELECT over the index (`Index.sql`), confined to `folder` when given;
    with a `namespace`, each `:name` is bound to that variable's value."""
    from fsnb.index import Index
    from fsnb.notebook.sql_text import bind

    if not query.strip():
        msg = "no SQL: write the query after %explore_sql, or in the cell below %%explore_sql"
        raise UsageError(msg)
    index = Index(db)
    if not index.path.is_file():
        msg = f"no index at {index.path} yet: run %explore_index FOLDER first"
        raise UsageError(msg)
    params: dict[str, Any] = {}
    if namespace is not None:
        try:
            query, params = bind(query, namespace)
        except KeyError as exc:
            name = exc.args[0]
            msg = f"no variable {name!r} to bind to :{name} (write :: for a cast)"
            raise UsageError(msg) from None
    try:
        return index.sql(query, folder, params=params or None)
    except USER_ERRORS as exc:
        raise usage_error(exc) from None
