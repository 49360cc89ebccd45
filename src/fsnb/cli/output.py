"""What every `fsnb` subcommand shares: one-line errors, tables on stdout, number options,
and text made safe for a terminal (`printable`), which every line printed goes through."""

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
    """Every cell in full as JSON; otherwise a table whose wide text columns are cut to fit
    the terminal (COLUMNS, or 120 characters when not a terminal)."""
    if as_json:
        print(frame.to_json(orient="records", date_format="iso", indent=2))
    else:
        from fsnb.cli.terminal import table_text

        say(table_text(frame))


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


def db_option(parser: argparse.ArgumentParser) -> None:
    """Add `--db`, the index file a command reads or writes."""
    parser.add_argument(
        "--db", default=None, help="index file (default: FSNB_DB or ~/.fsnb/index.duckdb)"
    )
