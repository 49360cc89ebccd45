"""`fsnb fs tree|find|info|du|dupes|recent|bookmark`: the navigator tools on the command line.

Each subcommand calls one navigator tool through the agent's registry (arguments checked as
the LLM's are) and prints its text, or with `--json` its `ToolOutcome.data`. Each takes the
folder last, as `fd PATTERN PATH` does (`--root` is its deprecated spelling). A tool that
fails (a bad range, a path outside the root) exits 2 with one line on stderr; `find`,
`recent` and `dupes` exit 1 when they find nothing (their text then goes to stderr).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from fsnb.cli.output import error, exit_status, folder_argument, say
from fsnb.errors import one_line

#: subcommand -> (tool, {option dest: tool argument}).
_TOOLS: dict[str, tuple[str, dict[str, str]]] = {
    "tree": (
        "tree",
        {
            "path": "path",
            "depth": "max_depth",
            "no_sizes": "show_sizes",
            "include": "include_pattern",
            "exclude": "exclude_pattern",
            "dirs_only": "dirs_only",
        },
    ),
    "find": (
        "find_files",
        {
            "query": "query",
            "search_type": "search_type",
            "scope": "scope",
            "type": "file_types",
            "size": "size_range",
            "date": "date_range",
            "max": "max_results",
            "sort": "sort_by",
        },
    ),
    "info": ("file_info", {"path": "path"}),
    "du": ("disk_usage", {"path": "path", "depth": "depth", "top": "top_n"}),
    "dupes": ("find_duplicates", {"path": "path", "min_size": "min_size"}),
    "recent": (
        "recent_files",
        {"days": "days", "type": "file_type", "path": "path", "max": "max_results"},
    ),
    "bookmark": ("bookmark", {"action": "action", "path": "path", "label": "label"}),
}
#: subcommand -> the `data` list that is empty when it found nothing (exit status 1).
_FINDS = {"find": "results", "recent": "results", "dupes": "groups"}
_FAILED = "the tool refused or failed (bad arguments, a bad range, a path outside the folder)"
_EXIT = exit_status("done", None, _FAILED)
_EXIT_FIND = exit_status("found some", "found nothing (what it says goes to stderr)", _FAILED)


def arguments(args: argparse.Namespace) -> tuple[str, dict[str, Any]]:
    """The tool a `fsnb fs` subcommand calls, and its arguments (options left unset omitted,
    so the tool's defaults apply)."""
    name, options = _TOOLS[args.fs_command]
    given = {}
    for dest, param in options.items():
        value = getattr(args, dest, None)
        if dest == "no_sizes":
            given[param] = not value
        elif value is not None and value is not False:
            given[param] = value
    return name, given


def run_fs(args: argparse.Namespace) -> int:
    """Run the subcommand's tool in `args.folder`: 0 done, 1 nothing found (`find`,
    `recent`, `dupes`), 2 the tool refused or failed."""
    from fsnb.tools import agent_registry

    if args.fs_command == "bookmark" and args.action == "list" and args.path:
        args.folder, args.path = args.path, None  # `bookmark list FOLDER`: no PATH to list
    name, given = arguments(args)
    outcome = agent_registry().call(name, given, root=args.folder, db=args.db)
    if not outcome.ok:
        error(one_line(outcome.text).removeprefix("error: "))
        return 2
    found = _FINDS.get(args.fs_command)
    none = found is not None and not (outcome.data or {}).get(found)
    if args.json:  # JSON writes control characters as \uNNNN
        print(json.dumps(outcome.data, indent=2, default=str))
    else:
        say(outcome.text, err=none)  # "No files found ...": not a result to pipe on
    return 1 if none else 0


def add_fs_command(command: Callable[..., argparse.ArgumentParser]) -> None:
    """Add `fs` and its subcommands; `command(name, run, help, epilog)` makes a top-level
    one."""
    fs = command(
        "fs",
        run_fs,
        "the file-system navigator: tree, find, info, du, dupes, ...",
        exit_status("done", "find, recent or dupes found nothing", _FAILED),
    )
    subs = fs.add_subparsers(dest="fs_command", required=True, metavar="TOOL")
    made: list[argparse.ArgumentParser] = []

    def sub(name: str, help: str) -> argparse.ArgumentParser:
        epilog = _EXIT_FIND if name in _FINDS else _EXIT
        parser = subs.add_parser(name, help=help, description=help, epilog=epilog)
        made.append(parser)
        parser.add_argument(
            "--db", default=None, help="index file (default: FSNB_DB or ~/.fsnb/index.duckdb)"
        )
        parser.add_argument("--json", action="store_true", help="print the tool's data as JSON")
        return parser

    def path(parser: argparse.ArgumentParser, what: str) -> None:
        parser.add_argument("--path", default=None, help=f"{what}, relative to the folder")

    tree = sub("tree", "draw a folder's tree with sizes")
    path(tree, "subfolder to draw")
    tree.add_argument("--depth", type=int, default=None, help="levels to open (default: 3)")
    tree.add_argument("--no-sizes", action="store_true", help="leave sizes out")
    tree.add_argument("--include", default=None, help='only files matching, e.g. "*.pdf,*.txt"')
    tree.add_argument("--exclude", default=None, help='hide matches, e.g. "drafts,*.tmp"')
    tree.add_argument("--dirs-only", action="store_true", help="folders only")

    find = sub("find", "find files by name, content, size, date and type")
    find.add_argument("query", help='a name, a glob such as "*.pdf", or words in the text')
    find.add_argument(
        "--search-type", default=None, help="auto (default), name, content or metadata"
    )
    find.add_argument("--scope", default=None, help="subfolder to search (default: .)")
    find.add_argument("--type", default=None, help='extensions to keep, e.g. "pdf,docx"')
    find.add_argument("--size", default=None, help='e.g. ">10MB", "<1KB", "1MB-100MB"')
    find.add_argument(
        "--date", default=None, help='modified when, e.g. "today", "2026-01", ">2026-01-01"'
    )
    find.add_argument("--sort", default=None, help="relevance (default), name, size or modified")
    find.add_argument("--max", type=int, default=None, help="most files listed (default: 50)")

    info = sub("info", "describe a file or a folder")
    info.add_argument("path", help="the file or folder, relative to FOLDER")

    du = sub("du", "where the space goes: the biggest folders and files")
    path(du, "subfolder to measure")
    du.add_argument("--depth", type=int, default=None, help="levels down (default: 1)")
    du.add_argument("--top", type=int, default=None, help="entries listed (default: 20)")

    dupes = sub("dupes", "files with the same content (size, then SHA-256)")
    path(dupes, "subfolder to search")
    dupes.add_argument(
        "--min-size", type=int, default=None, help="smallest file compared, bytes (default: 1)"
    )

    recent = sub("recent", "the most recently modified files, newest first")
    path(recent, "subfolder to search")
    recent.add_argument("--days", type=float, default=None, help="how far back (default: 7)")
    recent.add_argument("--type", default=None, help='extensions to keep, e.g. "pdf,docx"')
    recent.add_argument("--max", type=int, default=None, help="most files listed (default: 50)")

    mark = sub(
        "bookmark",
        "add, remove or list the folder's bookmarks: bookmark [list [FOLDER]],"
        " bookmark add|remove PATH [FOLDER]",
    )
    mark.add_argument(
        "action", nargs="?", default="list", help="add, remove or list (default: list)"
    )
    mark.add_argument("path", nargs="?", default=None, help="the file or folder to bookmark")
    mark.add_argument("--label", default=None, help="a name for the bookmark")
    for parser in made:  # FOLDER last, after each tool's own arguments
        folder_argument(parser, "the folder (default: .)", ".", alias="--root")


__all__ = ["add_fs_command", "arguments", "run_fs"]
