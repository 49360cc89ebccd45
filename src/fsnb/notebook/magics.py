"""IPython magics: %%explore, %explore, %explore_index, %%explore_sql, %explore_connection.

`%load_ext fsnb` registers them. Problems the user can fix raise `UsageError` (one line,
no traceback). Defaults come from `%config ExploreMagics.<trait> = ...`.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from IPython.core.error import UsageError
from IPython.core.magic import (
    Magics,
    cell_magic,
    line_cell_magic,
    line_magic,
    magics_class,
    no_var_expand,
)
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring
from IPython.utils.process import arg_split
from traitlets import Bool, Float, Int, Unicode
from traitlets.config.configurable import Configurable

from fsnb.errors import one_line
from fsnb.notebook.display import folder_label

if TYPE_CHECKING:
    import pandas as pd

    from fsnb.agent.loop import Explorer
    from fsnb.llm import LLM
    from fsnb.notebook.widget import ExplorePanel

_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}")


def substitute(text: str, namespace: Mapping[str, Any]) -> str:
    """Replace `{name}` with the variable's value; unknown names and stray braces stay.

    `{{` and `}}` are literal braces, as in `str.format`.
    """

    def value(match: re.Match[str]) -> str:
        token, name = match.group(0), match.group(1)
        if name is None:
            return token[0]
        return str(namespace[name]) if name in namespace else token

    return _PLACEHOLDER.sub(value, text)


def question_from(text: str, namespace: Mapping[str, Any]) -> str:
    """The question in a cell: `# NBVAL_...` lines dropped, `{name}` substituted."""
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("# NBVAL_")]
    return substitute("\n".join(lines).strip(), namespace)


def _fixable() -> tuple[type[Exception], ...]:
    """Errors a user can act on: bad paths, a locked or open database, bad values."""
    import duckdb

    from fsnb.errors import FsnbError

    return (FsnbError, OSError, ValueError, duckdb.Error)


def _usage_error(exc: BaseException) -> UsageError:
    message = one_line(exc, 500) or type(exc).__name__
    if "different configuration" in message:
        message += " (close the connection from fsnb.connect() or %explore_connection first)"
    return UsageError(message)


def _parse(magic: Any, line: str) -> argparse.Namespace:
    """Options and positionals in any order (`%explore data What is X? --wait`)."""
    parser: argparse.ArgumentParser = magic.parser
    return parser.parse_intermixed_args(arg_split(line, strict=False))


def _folder(raw: str, namespace: Mapping[str, Any]) -> str:
    folder = substitute(raw.strip("\"'"), namespace)
    if not Path(folder).expanduser().is_dir():
        msg = f"not a folder: {folder} (working directory: {Path.cwd()})"
        raise UsageError(msg)
    return folder


def _name(value: str | None) -> str | None:
    if value is not None and not value.isidentifier():
        msg = f"-o needs a Python variable name, not {value!r}"
        raise UsageError(msg)
    return value


@magics_class
class ExploreMagics(Magics, Configurable):
    """The fsnb magics; defaults are configurable with `%config ExploreMagics.<name> = ...`."""

    llm = Unicode(
        "auto", help="Backend: auto (gemini with a key, else offline), or any of --llm's names"
    ).tag(config=True)
    model = Unicode("", allow_none=True, help="Model (default: FSNB_MODEL)").tag(config=True)
    base_url = Unicode(
        "", help="Server of an OpenAI-compatible backend (default: OPENAI_BASE_URL)"
    ).tag(config=True)
    max_steps = Int(25, help="Step budget of an exploration").tag(config=True)
    timeout_s = Float(300.0, help="Wall-clock budget of an exploration, in seconds").tag(
        config=True
    )
    db = Unicode("", help="Index file (default: FSNB_DB or ~/.fsnb/index.duckdb)").tag(config=True)
    ask_timeout_s = Float(600.0, help="How long a question waits for an answer").tag(config=True)
    reveal_secrets = Bool(
        False, help="Send secret values found in files to the LLM (default: masked)"
    ).tag(config=True)

    def __init__(self, shell: Any) -> None:
        Configurable.__init__(self, config=shell.config)
        Magics.__init__(self, shell=shell)
        others = [c for c in shell.configurables if type(c).__name__ != type(self).__name__]
        shell.configurables[:] = [*others, self]  # %reload_ext must not leave a stale copy

    @no_var_expand
    @line_cell_magic
    @magic_arguments()
    @argument("folder", nargs="?", default=".", help="folder to explore (default: .)")
    @argument("words", nargs="*", help="the question (line form; in a cell, the cell body)")
    @argument("--llm", default=None, help="a backend's name, or a variable holding an LLM")
    @argument("--model", default=None, help="model (default: FSNB_MODEL)")
    @argument("--base-url", default=None, help="server of an OpenAI-compatible backend")
    @argument("--use-index", action="store_true", help="use the folder's index tools")
    @argument("--max-steps", type=int, default=None, help="step budget")
    @argument("--timeout", type=float, default=None, help="wall-clock budget in seconds")
    @argument("--db", default=None, help="index file")
    @argument("--wait", action="store_true", help="block until the answer is there")
    @argument("-o", "--out", default=None, help="variable that receives the ExplorationResult")
    def explore(self, line: str, cell: str | None = None) -> ExplorePanel:
        """Explore FOLDER to answer the question; shows a live panel.

        Cell form: `%%explore FOLDER [options]` with the question as the cell body.
        Line form: `%explore FOLDER question words... [options]`. `{name}` takes a
        variable's value. The run goes on in the background unless `--wait`; `_explore`
        (and `-o VAR`) receive the ExplorationResult when it ends.
        """
        args = _parse(self.explore, line)
        if cell is not None and args.words:
            msg = "%%explore takes the question from the cell body; the line has only FOLDER"
            raise UsageError(msg)
        question = question_from(" ".join(args.words) if cell is None else cell, self._ns)
        return self._run(args, question)

    @no_var_expand
    @line_magic
    @magic_arguments()
    @argument("folder", help="folder to index (incrementally)")
    @argument("--db", default=None, help="index file")
    def explore_index(self, line: str) -> pd.DataFrame:
        """Index FOLDER with a progress bar; returns the changed files as a DataFrame."""
        args = parse_argstring(self.explore_index, line)
        return index_folder(_folder(args.folder, self._ns), args.db or self.db or None)

    @cell_magic
    @magic_arguments()
    @argument("-o", "--out", default=None, help="variable that receives the DataFrame")
    @argument("--db", default=None, help="index file")
    @argument("--folder", default=None, help="see only this folder's index and scratchpad")
    def explore_sql(self, line: str, cell: str) -> pd.DataFrame:
        """Run one SELECT (read-only) over the index and the scratchpad; returns a DataFrame."""
        args = parse_argstring(self.explore_sql, line)
        out = _name(args.out)
        folder = _folder(args.folder, self._ns) if args.folder else None
        frame = run_sql(cell, args.db or self.db or None, folder)
        if out:
            self._ns[out] = frame
        return frame

    @line_magic
    @magic_arguments()
    @argument("--db", default=None, help="index file")
    def explore_connection(self, line: str) -> Any:
        """A read-only DuckDB connection to the index, e.g. for `%sql conn --alias fsnb`."""
        from fsnb.notebook.connection import connect

        args = parse_argstring(self.explore_connection, line)
        try:
            return connect(args.db or self.db or None)
        except _fixable() as exc:
            raise _usage_error(exc) from None

    # -- the command behind %explore ---------------------------------------------------

    @property
    def _ns(self) -> dict[str, Any]:
        return self.shell.user_ns

    def _run(self, args: argparse.Namespace, question: str) -> ExplorePanel:
        from fsnb.notebook.widget import ExplorePanel

        if not question:
            msg = "no question: write it in the cell below %%explore FOLDER (or after FOLDER)"
            raise UsageError(msg)
        out = _name(args.out)
        folder = _folder(args.folder, self._ns)
        explorer = self._explorer(folder, args)
        ns = self._ns

        def bind(result: Any) -> None:
            ns["_explore"] = result
            if out:
                ns[out] = result

        panel = ExplorePanel(folder=folder_label(folder))
        panel.attach(
            explorer,
            question,
            answer_questions=not args.wait,
            ask_timeout_s=self.ask_timeout_s,
            on_done=bind,
        )
        if args.wait:
            try:
                panel.wait()
            except KeyboardInterrupt:
                panel.stop()
                panel.wait(30)
        return panel

    def _explorer(self, folder: str, args: argparse.Namespace) -> Explorer:
        from fsnb.agent.loop import Explorer

        max_steps = args.max_steps if args.max_steps is not None else self.max_steps
        if max_steps < 1:
            msg = f"--max-steps must be at least 1, not {max_steps}"
            raise UsageError(msg)
        llm = self._backend(
            args.llm or self.llm, args.model or self.model or "", args.base_url or self.base_url
        )
        try:
            return Explorer(
                folder,
                llm,
                max_steps=max_steps,
                timeout_s=args.timeout if args.timeout is not None else self.timeout_s,
                db=args.db or self.db or None,
                use_index=True if args.use_index else "auto",
                reveal_secrets=self.reveal_secrets,
            )
        except _fixable() as exc:
            raise _usage_error(exc) from None

    def _backend(self, name: str, model: str, base_url: str) -> LLM:
        """A backend by name, or an LLM object held in a variable of that name."""
        from fsnb.llm import MissingKey, get_llm, registry

        names = registry.names()
        if name.lower() not in names and name.isidentifier() and name in self._ns:
            value = self._ns[name]
            if not hasattr(value, "next_action"):
                msg = f"--llm {name}: that variable holds no LLM backend (it has no next_action)"
                raise UsageError(msg)
            return value
        if name.lower() not in names:
            msg = (
                f"unknown LLM backend {name!r}; choose one of: {', '.join(names)} "
                "(or name a variable holding an LLM object)"
            )
            raise UsageError(msg)
        try:
            return get_llm(name.lower(), model=model or None, base_url=base_url or None)
        except MissingKey as exc:
            variables = registry.key_variables(name)
            hint = f" (in a notebook: %env {variables[0]}=...)" if variables else ""
            raise UsageError(one_line(exc) + hint) from None
        except _fixable() as exc:
            raise _usage_error(exc) from None


def index_folder(folder: str, db: str | None = None) -> pd.DataFrame:
    """Index `folder` with a progress bar; print a one-line summary; return what changed."""
    from fsnb.index import Index

    try:
        report = Index(db).add_folder(folder, progress=True)
    except _fixable() as exc:
        raise _usage_error(exc) from None
    counts = report.counts()
    names = ("added", "updated", "unchanged", "deleted", "failed", "skipped")
    print(f"Indexed {folder_label(folder)}: " + ", ".join(f"{counts[k]} {k}" for k in names))
    frame = report.to_frame()
    frame.attrs["counts"] = counts
    return frame


def run_sql(query: str, db: str | None = None, folder: str | None = None) -> pd.DataFrame:
    """One guarded SELECT over the index (`Index.sql`), confined to `folder` when given."""
    from fsnb.index import Index

    if not query.strip():
        msg = "no SQL: write the query in the cell below %%explore_sql"
        raise UsageError(msg)
    index = Index(db)
    if not index.path.is_file():
        msg = f"no index at {index.path} yet: run %explore_index FOLDER first"
        raise UsageError(msg)
    try:
        return index.sql(query, folder)
    except _fixable() as exc:
        raise _usage_error(exc) from None


def load_ipython_extension(ipython: Any) -> None:
    """Register the magics (`%load_ext fsnb`)."""
    ipython.register_magics(ExploreMagics(ipython))
