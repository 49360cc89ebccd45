"""fsnb: ask questions of a folder of documents from a Jupyter notebook.

import fsnb
result = fsnb.explore("What is the purchase price?", folder="data/test_acquisition")
result.citations_df()
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fsnb._version import __version__

if TYPE_CHECKING:
    from fsnb.agent import ExplorationResult
    from fsnb.agent.events import Event
    from fsnb.llm import LLM
    from fsnb.notebook.fsviews import DiskUsageView, TreeView

__all__ = [
    "__version__",
    "close_connections",
    "connect",
    "disk_usage",
    "explorations",
    "explore",
    "explore_events",
    "load",
    "load_ipython_extension",
    "sqlalchemy_url",
    "tree",
]


def _explorer(folder: str | Path, llm: str | LLM, model: str | None, **options: Any):
    from fsnb.agent import Explorer
    from fsnb.llm import get_llm

    return Explorer(folder, get_llm(llm, model=model), **options)


def explore(
    task: str,
    folder: str | Path = ".",
    *,
    llm: str | LLM = "auto",
    model: str | None = None,
    **options: Any,
) -> ExplorationResult:
    """Explore `folder` to answer `task`; blocks and returns the result.

    Options go to `fsnb.agent.Explorer` (max_steps, timeout_s, max_result_chars, ask, ...);
    `reveal_secrets=True` sends secret values in files to the LLM unmasked.
    """
    return _explorer(folder, llm, model, **options).run(task)


def explore_events(
    task: str,
    folder: str | Path = ".",
    *,
    llm: str | LLM = "auto",
    model: str | None = None,
    **options: Any,
) -> Generator[Event, None, ExplorationResult]:
    """The same exploration as an iterator of events (the generator returns the result)."""
    return _explorer(folder, llm, model, **options).events(task)


def load(
    path: str | Path,
    folder: str | Path | None = None,
    *,
    llm: str | LLM | None = None,
    model: str | None = None,
    **options: Any,
) -> ExplorationResult:
    """A run saved with `result.save(path)`, to show; with `folder`, also to follow up.

    A saved file can be edited, so the folder it names is not trusted: `.follow_up(question)`
    reads files only under the `folder` passed here (the run is re-rooted there, and its
    citations checked again under it) and is refused without one. It continues with the
    run's backend, model and server (`llm` may name the same backend only). Options go to
    `fsnb.agent.Explorer`."""
    from fsnb.agent import ExplorationResult
    from fsnb.agent.result import NotContinued

    result = ExplorationResult.load(path)
    if folder is None:
        result.explorer = NotContinued(
            f"a run loaded from a file is followed up only in a folder you name: "
            f"fsnb.load({str(path)!r}, folder=...) (it names {result.folder})"
        )
        return result
    result.folder = str(Path(folder).expanduser().resolve())
    _recheck(result)
    return _reopened(result, llm, model, options)


def _recheck(result: ExplorationResult) -> None:
    """Check a loaded run's citations again, in its (new) folder."""
    from fsnb.agent.citations import verify_citations
    from fsnb.errors import FsnbError, one_line
    from fsnb.protocol import CitedSource
    from fsnb.security import Sandbox

    try:
        sources = [CitedSource(id=c.id, path=c.path, page=c.page, quote=c.quote)
                   for c in result.citations if c.path]  # fmt: skip
        sandbox = Sandbox(result.folder)
        checked = verify_citations(result.answer, sources, sandbox, set(result.read_paths))
    except (FsnbError, OSError, ValueError) as exc:  # no such folder, or odd citations
        for citation in result.citations:
            citation.verified, citation.problem = False, f"cannot be checked: {one_line(exc)}"
        return
    result.citations = checked


def explorations(
    folder: str | Path | None = None, *, db: str | Path | None = None, run: str | None = None
) -> Any:
    """The runs kept in the DuckDB file (of `folder` only, when given) as a DataFrame, one
    row each: question, answer, citations, usage, events, backend, model, times, thread.
    With `run` (an id from that frame): that run, as an `ExplorationResult` to re-render or
    follow up."""
    from fsnb.index.explorations import frame, saved_run

    if run is None:
        return frame(db, folder)
    from fsnb.agent import ExplorationResult
    from fsnb.errors import FsnbError

    saved = saved_run(db, run)
    if saved is None:
        msg = f"no exploration {run!r} in the index: fsnb.explorations() lists them"
        raise FsnbError(msg)
    return _reopened(ExplorationResult.from_record(saved), None, None, {"db": db})


def _reopened(
    result: ExplorationResult, llm: str | LLM | None, model: str | None, options: dict[str, Any]
) -> ExplorationResult:
    """`result` with an explorer to follow it up: its backend, model and server (`llm`, an
    LLM or a name, must be of the same backend and server)."""
    from fsnb.agent.result import NotContinued, check_follow_up
    from fsnb.errors import FsnbError, one_line
    from fsnb.llm import get_llm, registry

    llm = None if llm == registry.AUTO else llm  # not a choice: the run's backend
    if isinstance(llm, str) or llm is None:
        check_follow_up(result, registry.split_id(llm, model)[0], None)
    else:
        check_follow_up(result, llm.backend, getattr(llm, "base_url", None), exact=True)
    try:
        chosen = get_llm(
            llm or result.backend,
            model=model or (result.model if llm is None else None),
            base_url=result.base_url,
        )
        result.explorer = _explorer(result.folder, chosen, None, **options)
    except (FsnbError, OSError, ValueError) as exc:  # no key, no folder: it still renders
        result.explorer = NotContinued(f"this run cannot be followed up: {one_line(exc)}")
    return result


def connect(db: str | Path | None = None) -> Any:
    """A read-only DuckDB connection to the index and scratchpad, for other notebook tools
    (e.g. jupysql's `%sql conn --alias fsnb`); scratch tables need no prefix from any cursor.
    Indexing into the same file is refused while it is open, with a message naming it."""
    from fsnb.notebook.connection import connect as _connect

    return _connect(db)


def sqlalchemy_url(db: str | Path | None = None) -> str:
    """A read-only SQLAlchemy URL to the index (duckdb-engine), for jupysql's `%sqlcmd` and
    `%sqlplot` (`%sql engine` with `sqlalchemy.create_engine(url)`); scratch tables are
    `scratch.NAME` on this route."""
    from fsnb.notebook.connection import sqlalchemy_url as _url

    return _url(db)


def close_connections(db: str | Path | None = None) -> list[str]:
    """Close the index connections fsnb handed out and jupysql's connections to the index,
    so that indexing can write again; return what was closed."""
    from fsnb.notebook.connection import close_connections as _close

    return _close(db)


def tree(
    folder: str | Path = ".", path: str = ".", *, max_depth: int = 3, db: str | Path | None = None
) -> TreeView:
    """A collapsible tree of `folder` (or its subfolder `path`) with sizes, for a notebook;
    `.to_frame()` gives the rows."""
    from fsnb.notebook.fsviews import tree as _tree

    return _tree(folder, path, max_depth=max_depth, db=db)


def disk_usage(
    folder: str | Path = ".",
    path: str = ".",
    *,
    depth: int = 1,
    top_n: int = 20,
    db: str | Path | None = None,
) -> DiskUsageView:
    """Where the space goes under `folder`: a bar chart of the biggest folders and files
    `depth` levels down; `.to_frame()` gives the rows."""
    from fsnb.notebook.fsviews import disk_usage as _disk_usage

    return _disk_usage(folder, path, depth=depth, top_n=top_n, db=db)


def load_ipython_extension(ipython: Any) -> None:
    """`%load_ext fsnb`: register the magics (imported lazily to keep `import fsnb` fast)."""
    from fsnb.notebook.magics import load_ipython_extension as load

    load(ipython)
