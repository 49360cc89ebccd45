"""fsnb: ask questions of a folder of documents from a Jupyter notebook.

import fsnb
result = fsnb.explore("What is the purchase price?", folder="data/test_acquisition")
result.citations_df()
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from fsnb._version import __version__
from fsnb.agent.limits import CONTEXT_CHARS
from fsnb.agent.spec import DEFAULT_ANSWER, RunSpec, recording

if TYPE_CHECKING:
    from fsnb.agent import ExplorationResult
    from fsnb.agent.events import Event
    from fsnb.agent.loop import AskCallback
    from fsnb.llm import LLM
    from fsnb.notebook.fsviews import DiskUsageView, TreeView
    from fsnb.tools import Registry

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


def explore(
    task: str,
    folder: str | Path = ".",
    *,
    llm: str | LLM = "auto",
    model: str | None = None,
    base_url: str | None = None,
    max_steps: int = 25,
    timeout_s: float = 300.0,
    max_result_chars: int = 15_000,
    context_chars: int | None = CONTEXT_CHARS,
    max_question_chars: int | None = 4_000,
    default_answer: str = DEFAULT_ANSWER,
    db: str | Path | None = None,
    use_index: bool | Literal["auto"] = "auto",
    reveal_secrets: bool = False,
    registry: Registry | None = None,
    ask: AskCallback | None = None,
) -> ExplorationResult:
    """Explore `folder` to answer `task`; blocks and returns the result.

    `llm`: a backend's name, a model id (`ollama:llama3.2`) or an LLM object, with `model`
    and `base_url` (its server). The run stops after `max_steps` steps or `timeout_s`
    seconds; a tool's result is cut at `max_result_chars`, what one LLM call sends at
    `context_chars`, the question at `max_question_chars`. `ask(question)` answers the
    agent's questions (else `default_answer`). `db`: the index file, for the index tools
    (`use_index`: "auto" when the folder's index is current) and where the run is recorded
    (not with `FSNB_RECORD=0`). `reveal_secrets=True` sends secret values in files to the
    LLM unmasked. `registry`: the tools (default: all of them)."""
    spec = _spec(locals())
    return spec.explorer(ask=ask, observers=recording(db)).run(task)


def explore_events(
    task: str,
    folder: str | Path = ".",
    *,
    llm: str | LLM = "auto",
    model: str | None = None,
    base_url: str | None = None,
    max_steps: int = 25,
    timeout_s: float = 300.0,
    max_result_chars: int = 15_000,
    context_chars: int | None = CONTEXT_CHARS,
    max_question_chars: int | None = 4_000,
    default_answer: str = DEFAULT_ANSWER,
    db: str | Path | None = None,
    use_index: bool | Literal["auto"] = "auto",
    reveal_secrets: bool = False,
    registry: Registry | None = None,
    ask: AskCallback | None = None,
) -> Generator[Event, None, ExplorationResult]:
    """`explore` as an iterator of events (the generator returns the result)."""
    spec = _spec(locals())
    return spec.explorer(ask=ask, observers=recording(db)).events(task)


def _spec(arguments: dict[str, Any]) -> RunSpec:
    """The `RunSpec` of `explore`'s arguments."""
    return RunSpec(**{k: v for k, v in arguments.items() if k not in ("task", "ask")})


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
    run's backend, model and server (`llm` may name the same backend only). Options are
    `explore`'s (max_steps, timeout_s, db, ...)."""
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
    LLM or a name, must be of the same backend and server); `options`: `RunSpec`'s, and
    `ask`. Runs that follow it up are recorded (as by `explore`)."""
    from fsnb.agent.result import NotContinued
    from fsnb.errors import FsnbError, one_line

    ask = options.pop("ask", None)
    spec = RunSpec(folder=result.folder, llm=llm or "auto", model=model, follow=result, **options)
    backend = spec.backend()  # another backend or server is refused here, not deferred
    try:
        result.explorer = spec.explorer(ask=ask, observers=recording(spec.db), backend=backend)
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
