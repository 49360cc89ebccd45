"""`fsnb scratch list|show|drop|clear`: the scratchpad tables on the command line.

Each works on the scratchpad of FOLDER, the last argument (its own tables; `--folder` is
its deprecated spelling), or without it on the shared one. An index file that is not there
yet holds no tables and is not created; a missing table exits 2 with one line on stderr, as
does `clear` without `--yes`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from fsnb.cli.output import POSITIVE_INT, error, exit_status, folder_argument, print_frame

if TYPE_CHECKING:
    from fsnb.db.scratchpad import Scratchpad


def _pad(args: argparse.Namespace) -> Scratchpad | None:
    """The scratchpad the options name, or None when the index file is not there yet."""
    from fsnb.db.database import database
    from fsnb.db.scratchpad import Scratchpad

    store = database(args.db)
    return Scratchpad(store, folder=args.folder) if store.path.is_file() else None


def _where(args: argparse.Namespace) -> str:
    return f"folder {args.folder}" if args.folder else "the shared scratchpad"


def _missing(name: str) -> int:
    from fsnb.db.scratchpad import sanitize

    error(f"no scratchpad table {sanitize(name)!r} (fsnb scratch list shows them)")
    return 2


def run_scratch(args: argparse.Namespace) -> int:
    """Run the subcommand: 0 done, 2 a missing table or `clear` without `--yes`."""
    pad = _pad(args)
    action = args.scratch_command
    if action == "list":
        frame = pad.tables() if pad else None
        if frame is None or frame.empty:
            print("[]" if args.json else f"no scratchpad tables in {_where(args)}")
        else:
            print_frame(frame[["name", "rows", "columns"]], args.json)
    elif pad is None or (action in ("show", "drop") and args.name not in pad):
        if action == "clear":
            print(f"no scratchpad tables in {_where(args)}")
            return 0
        return _missing(args.name)
    elif action == "show":
        print_frame(pad.df(args.name, limit=args.limit), args.json)
        if (rows := pad.rows(args.name)) > args.limit:
            print(f"[first {args.limit:,} of {rows:,} rows: raise --limit]", file=sys.stderr)
    elif action == "drop":
        print(f"dropped {args.name} ({pad.drop(args.name):,} rows)")
    elif not args.yes:
        count = len(pad.tables())
        error(f"clear drops all {count} tables of {_where(args)}: add --yes to confirm")
        return 2
    else:
        dropped = pad.clear()
        print(f"dropped {len(dropped)} table{'s' * (len(dropped) != 1)}: {', '.join(dropped)}")
    return 0


_EXIT = exit_status("done", None, "no such table, clear without --yes, bad arguments")


def add_scratch_command(command: Callable[..., argparse.ArgumentParser]) -> None:
    """Add `scratch` and its subcommands; `command(name, run, help, epilog)` makes a
    top-level one."""
    scratch = command(
        "scratch", run_scratch, "the scratchpad tables: list, show, drop, clear", _EXIT
    )
    subs = scratch.add_subparsers(dest="scratch_command", required=True, metavar="ACTION")
    made: list[argparse.ArgumentParser] = []

    def sub(name: str, help: str) -> argparse.ArgumentParser:
        parser = subs.add_parser(name, help=help, description=help, epilog=_EXIT)
        made.append(parser)
        parser.add_argument(
            "--db", default=None, help="index file (default: FSNB_DB or ~/.fsnb/index.duckdb)"
        )
        return parser

    listed = sub("list", "the tables with their row counts and columns")
    listed.add_argument("--json", action="store_true", help="print the list as JSON")
    show = sub("show", "print a table's rows")
    show.add_argument("name", help="the table")
    show.add_argument("--limit", type=POSITIVE_INT, default=100, help="rows printed (default: 100)")
    show.add_argument("--json", action="store_true", help="print the rows in full as JSON")
    drop = sub("drop", "delete a table and its rows")
    drop.add_argument("name", help="the table")
    clear = sub("clear", "delete every table")
    clear.add_argument("--yes", action="store_true", help="confirm: drop them all")
    for parser in made:  # FOLDER last, after the table's name
        folder_argument(parser, "the folder's own tables (default: the shared ones)", None)


__all__ = ["add_scratch_command", "run_scratch"]
