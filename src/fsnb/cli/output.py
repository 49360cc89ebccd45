"""What every `fsnb` subcommand shares: one-line errors, tables on stdout, number options,
the FOLDER argument, the exit statuses its help lists, and text made safe for a terminal
(`printable`), which every line printed goes through."""

from __future__ import annotations

import argparse
import re
import sys
from typing import TYPE_CHECKING, Any

from fsnb.errors import one_line

if TYPE_CHECKING:
    import pandas as pd


#: C0 controls but tab and line feed, DEL and C1 controls: what a terminal may act on.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """`text` with its control characters written as `\\xNN` (as `ls -b` does), so that a
    file name or a document's text cannot clear the screen, move the cursor or retitle the
    terminal: ESC, BEL, CR, backspace and the like; tab and line feed stay."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def say(text: object, *, err: bool = False) -> None:
    """`text` on stdout (stderr with `err`), `printable`."""
    print(printable(str(text)), file=sys.stderr if err else sys.stdout)


def error(message: object) -> None:
    """`message` on stderr as one line, after `fsnb: `, `printable`."""
    say(f"fsnb: {one_line(message)}", err=True)


def print_frame(frame: pd.DataFrame, as_json: bool) -> None:
    """Every cell in full as JSON; otherwise a table whose wide text columns fit the width
    (COLUMNS, the terminal's, or 120 characters): cut with "…" on a terminal, wrapped onto
    more lines when piped or written to a file, so that nothing is lost."""
    if as_json:
        print(frame.to_json(orient="records", date_format="iso", indent=2))
    else:
        from fsnb.cli.terminal import table_text

        say(table_text(frame, wrap=not sys.stdout.isatty()))


def number(kind: type[int] | type[float], least: float, what: str) -> Any:
    """An argparse type: a number of `kind` at least `least`, else a usage error."""

    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or value < least or value != value:  # value != value: NaN
            msg = f"{what}, not {text!r}"
            raise argparse.ArgumentTypeError(msg)
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its messages
    return parse


POSITIVE_INT = number(int, 1, "a whole number of 1 or more")
SECONDS = number(float, 1e-3, "a number of seconds above 0")


def exit_status(done: str = "done", one: str | None = None, two: str | None = None) -> str:
    """A command's help epilog: what each exit status means (as rg, fd and grep use them:
    1 is "nothing found" where a command finds things, 2 an error)."""
    codes = [f"0 {done}", *([f"1 {one}"] if one else [])]
    codes.append(f"2 {two or 'the command could not run (bad arguments, no index yet)'}")
    return f"exit status: {'; '.join(codes)}; 130 interrupted. Errors go to stderr, one line each."


def folder_argument(
    parser: argparse.ArgumentParser,
    help: str,
    default: str | None = ".",
    alias: str = "--folder",
) -> None:
    """Add FOLDER, an optional positional after the others (as `rg PATTERN PATH` and
    `fd PATTERN PATH` take it), and `alias`, the option that named it before (deprecated:
    still taken, not shown; `resolve_folder` merges the two into `folder`)."""
    parser.add_argument("folder", nargs="?", default=None, metavar="FOLDER", help=help)
    parser.add_argument(  # left out of --help: FOLDER is the way now
        alias, dest="folder_alias", default=None, help=argparse.SUPPRESS
    )
    parser.set_defaults(folder_default=default)


def resolve_folder(args: argparse.Namespace) -> str | None:
    """`args.folder` from FOLDER or its deprecated option (`folder_argument`); a usage
    error (`ValueError`) when they name different folders."""
    if not hasattr(args, "folder_alias"):
        return getattr(args, "folder", None)
    given, alias = args.folder, args.folder_alias
    if given is not None and alias is not None and given != alias:
        msg = f"two folders given, {given!r} and {alias!r}: name one (FOLDER)"
        raise ValueError(msg)
    args.folder = given if given is not None else alias if alias is not None else None
    if args.folder is None:
        args.folder = args.folder_default
    del args.folder_alias, args.folder_default
    return args.folder


def db_option(parser: argparse.ArgumentParser) -> None:
    """Add `--db`, the index file a command reads or writes."""
    parser.add_argument(
        "--db", default=None, help="index file (default: FSNB_DB or ~/.fsnb/index.duckdb)"
    )
