"""IPython magics: %%explore, %explore, %explore_index, %%explore_sql, %explore_connection,
%explore_models, %explore_fs. `-h` after any of them prints its help.

`%load_ext fsnb` registers them. Problems the user can fix raise `UsageError` (one line,
no traceback). Defaults come from `%config ExploreMagics.<trait> = ...`.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from IPython.core.error import UsageError
from IPython.core.magic import (
    Magics,
    line_cell_magic,
    line_magic,
    magics_class,
    no_var_expand,
)
from IPython.core.magic_arguments import argument, magic_arguments
from IPython.utils.process import arg_split
from traitlets import Bool, Bunch, Float, Int, TraitError, Unicode, validate
from traitlets.config import Config, Configurable

from fsnb.db.errors import USER_ERRORS
from fsnb.notebook.commands import (
    index_folder,
    run_sql,
    usage_error,
)
from fsnb.notebook.pending import Waiter
from fsnb.notebook.runs import Runs, folder_path, holds_llm, variable_name

if TYPE_CHECKING:
    import pandas as pd

    from fsnb.notebook.widget import ExplorePanel

#: `-f/--format`: how the answer is printed instead of the panel.
FORMATS = ("markdown", "json", "text")
_HELP = frozenset({"-h", "--help"})
_OLLAMA_EXAMPLE = "http://localhost:11434/v1"


def question_from(text: str, shell: Any) -> str:
    """The question in a cell: `# NBVAL_...` lines dropped, `$name` and `{expression}`
    evaluated as IPython does (`fsnb.notebook.interpolation.expand`)."""
    from fsnb.notebook.interpolation import expand

    lines = [line for line in text.splitlines() if not line.lstrip().startswith("# NBVAL_")]
    return expand(shell, "\n".join(lines).strip())


def _parse(magic: Any, line: str) -> argparse.Namespace | None:
    """A magic's arguments, options and positionals in any order (`%explore data What is X?
    --wait`); None when the line asks for help (`-h`, `--help`), after printing it."""
    parser: argparse.ArgumentParser = magic.parser
    words = arg_split(line, strict=False)
    if _HELP.intersection(words):
        print(parser.format_help().removeprefix("::\n\n").rstrip())
        return None
    return parser.parse_intermixed_args(words)


@magics_class
class ExploreMagics(Runs, Magics, Configurable):
    """The fsnb magics; defaults are configurable with `%config ExploreMagics.<name> = ...`."""

    llm = Unicode(
        "auto",
        help="Backend: auto (gemini with a key, else offline), any of --llm's names, a model id"
        " (ollama:llama3.2), or a variable holding an LLM",
    ).tag(config=True)
    model = Unicode(
        "",
        allow_none=True,
        help="Model, or backend:model (default: FSNB_MODEL)",
    ).tag(config=True)
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
    evidence_images = Bool(True, help="Records show cited PDF passages as images").tag(config=True)

    @validate("llm")
    def _check_llm(self, proposal: Bunch) -> str:
        """A backend's name or a model id (`ollama:llama3.2`), or a variable holding an LLM."""
        from fsnb.llm import registry

        value = proposal.value.strip()
        backend = value.partition(registry.SEPARATOR)[0].lower()
        if backend in registry.names() or holds_llm(self._ns if self.shell else {}, value):
            return value
        msg = (
            f"unknown LLM backend {value!r}; choose one of: {', '.join(registry.names())}, "
            "a model id such as ollama:llama3.2 (see %explore_models), or the name of a "
            "variable holding an LLM object"
        )
        raise TraitError(msg)

    @validate("base_url")
    def _check_base_url(self, proposal: Bunch) -> str:
        value = proposal.value.strip()
        if value and urlsplit(value).scheme not in ("http", "https"):
            msg = f"base_url must be an http(s) URL such as {_OLLAMA_EXAMPLE}, not {value!r}"
            raise TraitError(msg)
        return value

    @validate("max_steps")
    def _check_steps(self, proposal: Bunch) -> int:
        if proposal.value < 1:
            msg = f"max_steps must be at least 1, not {proposal.value}"
            raise TraitError(msg)
        return proposal.value

    @validate("timeout_s", "ask_timeout_s")
    def _check_seconds(self, proposal: Bunch) -> float:
        if not proposal.value > 0:  # NaN too
            msg = f"{proposal.trait.name} must be a number of seconds above 0, not {proposal.value}"
            raise TraitError(msg)
        return proposal.value

    def __init__(self, shell: Any) -> None:
        Magics.__init__(self, shell=shell, parent=None)  # the defaults, then the shell's config
        self._load_shell_config(shell.config)
        others = [c for c in shell.configurables if type(c).__name__ != type(self).__name__]
        shell.configurables[:] = [*others, self]  # %reload_ext must not leave a stale copy
        self.panel: ExplorePanel | None = None  # the latest %explore's panel
        self.waiter = Waiter()  # background runs, waited for by the cells that use them

    def _load_shell_config(self, config: Config) -> None:
        """The shell's `%config ExploreMagics.<trait>` values, one by one: the shell keeps
        even a value that was refused when set, which is dropped here (said in one line)."""
        section = config.get(type(self).__name__, {})
        for name, value in list(section.items()):
            try:
                self.update_config(Config({type(self).__name__: {name: value}}))
            except TraitError as exc:
                del section[name]
                print(f"fsnb: %config {type(self).__name__}.{name} ignored: {exc}", file=sys.stderr)

    @no_var_expand
    @line_cell_magic
    @magic_arguments()
    @argument("folder", nargs="?", default=".", help="folder to explore (default: .)")
    @argument("words", nargs="*", help="the question (line form; in a cell, the cell body)")
    @argument(
        "--llm",
        default=None,
        help="a backend's name, a model id (ollama:llama3.2; see %%explore_models), or a"
        " variable holding an LLM",
    )
    @argument("--model", default=None, help="model, or backend:model (default: FSNB_MODEL)")
    @argument("--base-url", default=None, help="server of an OpenAI-compatible backend")
    @argument(
        "--use-index",
        action="store_const",
        const=True,
        default=None,
        help="use the folder's index tools",
    )
    @argument("--max-steps", type=int, default=None, help="step budget")
    @argument("--timeout", type=float, default=None, help="wall-clock budget in seconds")
    @argument("--db", default=None, help="index file")
    @argument(
        "--background",
        action="store_true",
        help="return at once and run in the background; a later cell that uses the result"
        " (_explore, -o VAR, -c) waits for it",
    )
    @argument("--wait", action="store_true", help=argparse.SUPPRESS)  # the default now
    @argument(
        "-c",
        "--continue",
        dest="follow_up",
        action="store_true",
        help="a follow-up: continue the last exploration (_explore) in its folder",
    )
    @argument("-o", "--out", default=None, help="variable that receives the ExplorationResult")
    @argument(
        "-f",
        "--format",
        choices=FORMATS,
        default=None,
        metavar="FORMAT",
        help="markdown, json or text: print the answer in that form instead of the panel"
        " (blocks until the end)",
    )
    def explore(self, line: str, cell: str | None = None) -> ExplorePanel | None:
        """Explore FOLDER to answer the question; shows a live panel.

        Cell form: `%%explore FOLDER [options]` with the question as the cell body.
        Line form: `%explore FOLDER question words... [options]`. `$name` and `{expression}`
        take Python values, as in IPython's `!` lines (`$$` and `{{ }}` stay literal).
        The cell shows the run live and ends with it, so `_explore` (and `-o VAR`) hold
        the ExplorationResult in the next cell, in "Run All" and papermill too. With
        `--background` it returns at once; a later cell that uses the result waits for it.
        `--continue` (`-c`) asks a follow-up of `_explore`, in its folder (then FOLDER is
        left out).
        """
        args = _parse(self.explore, line)
        if args is None:  # -h: the help was printed
            return None
        if args.follow_up:
            args.words = [w for w in (args.folder, *args.words) if w != "."]
            if cell is None and not args.words:
                msg = "%explore -c needs a question after it (or %%explore -c with a cell)"
                raise UsageError(msg)
        if cell is not None and args.words:
            msg = "%%explore takes the question from the cell body; the line has only FOLDER"
            raise UsageError(msg)
        question = question_from(" ".join(args.words) if cell is None else cell, self.shell)
        if not question:
            msg = "no question: write it in the cell below %%explore FOLDER (or after FOLDER)"
            raise UsageError(msg)
        return self._print_answer(args, question) if args.format else self._run(args, question)

    @no_var_expand
    @line_magic
    @magic_arguments()
    @argument("folder", help="folder to index (incrementally)")
    @argument("--db", default=None, help="index file")
    def explore_index(self, line: str) -> pd.DataFrame | None:
        """Index FOLDER with a progress bar; returns the changed files as a DataFrame."""
        args = _parse(self.explore_index, line)
        if args is None:
            return None
        return index_folder(folder_path(args.folder, self.shell), args.db or self.db or None)

    @no_var_expand
    @line_cell_magic
    @magic_arguments()
    @argument("-o", "--out", default=None, help="variable that receives the DataFrame")
    @argument("--db", default=None, help="index file")
    @argument("--folder", default=None, help="see only this folder's index and scratchpad")
    @argument("sql", nargs="*", help="the query (line form; in a cell, the cell body)")
    def explore_sql(self, line: str, cell: str | None = None) -> pd.DataFrame | None:
        """Run one SELECT (read-only) over the index and the scratchpad; returns a DataFrame.

        Cell form: `%%explore_sql [options]` with the query as the cell body. Line form:
        `%explore_sql [options] SELECT ...`. `$var` and `{expr}` put Python values into
        the SQL text (IPython's interpolation); `:name` binds the variable `name` as a
        query parameter instead (a value, never SQL: `WHERE path = :path`).
        """
        from fsnb.notebook.interpolation import expand
        from fsnb.notebook.sql_text import split_line

        options, query = split_line(line)
        if cell is not None:
            if query:
                msg = f"%%explore_sql takes the query from the cell body, not {query!r}"
                raise UsageError(msg)
            query = cell
        args = _parse(self.explore_sql, options)
        if args is None:  # -h: the help was printed
            return None
        out = variable_name(args.out)
        folder = folder_path(args.folder, self.shell) if args.folder else None
        sql = expand(self.shell, query)
        frame = run_sql(sql, args.db or self.db or None, folder, self._ns)
        if out:
            self._ns[out] = frame
        return frame

    @line_magic
    @magic_arguments()
    @argument("--db", default=None, help="index file")
    def explore_connection(self, line: str) -> Any:
        """A read-only DuckDB connection to the index, e.g. for `%sql conn --alias fsnb`."""
        from fsnb.notebook.connection import connect

        args = _parse(self.explore_connection, line)
        if args is None:
            return None
        try:
            return connect(args.db or self.db or None, origin="%explore_connection")
        except USER_ERRORS as exc:
            raise usage_error(exc) from None

    @line_magic
    @magic_arguments()
    @argument(
        "--base-url",
        default=None,
        help="server to ask for its models (default: ExploreMagics.base_url, OPENAI_BASE_URL,"
        " Ollama's local one)",
    )
    @argument("--timeout", type=float, default=2.0, help="seconds a server may take to answer")
    def explore_models(self, line: str) -> pd.DataFrame | None:
        """The backends and their models, one row per model id (for --llm or --model), with
        what each needs (a key, a server) and whether it is available now."""
        from fsnb.llm import catalog

        args = _parse(self.explore_models, line)
        if args is None:
            return None
        return catalog.frame(args.base_url or self.base_url or None, args.timeout)

    @line_magic
    @magic_arguments()
    @argument("folder", nargs="?", default=".", help="folder to map (default: .)")
    @argument("--db", default=None, help="index file")
    @argument("-o", "--out", default=None, help="variable that receives the FolderMap")
    def explore_fs(self, line: str) -> Any:
        """The folder's map: its size, top folders, the types present, the largest and the
        newest files (from the index when the folder is indexed, else from a walk)."""
        from fsnb.tools.context import ToolContext
        from fsnb.tools.overview import folder_map

        args = _parse(self.explore_fs, line)
        if args is None:
            return None
        out = variable_name(args.out)
        ctx = ToolContext(folder_path(args.folder, self.shell), args.db or self.db or None)
        try:
            found = folder_map(ctx)
        except USER_ERRORS as exc:
            raise usage_error(exc) from None
        if out:
            self._ns[out] = found
        return found


def load_ipython_extension(ipython: Any) -> None:
    """Register the magics (`%load_ext fsnb`), and the hook by which a cell waits for a
    background run whose result it uses."""
    magics = ExploreMagics(ipython)
    ipython.register_magics(magics)
    for hook in list(ipython.events.callbacks["pre_run_cell"]):
        if type(getattr(hook, "__self__", None)).__name__ == "Waiter":  # %reload_ext
            ipython.events.unregister("pre_run_cell", hook)
    ipython.events.register("pre_run_cell", magics.waiter.before_cell)
