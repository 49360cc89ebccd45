"""What every `fsnb` subcommand shares: one-line errors, tables on stdout, number options."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from fsnb.errors import one_line

if TYPE_CHECKING:
    import pandas as pd


def error(message: object) -> None:
    """`message` on stderr as one line, after `fsnb: `."""
    print(f"fsnb: {one_line(message)}", file=sys.stderr)


def print_frame(frame: pd.DataFrame, as_json: bool) -> None:
    """Every cell in full as JSON; otherwise a table whose wide text columns are cut to fit
    the terminal (COLUMNS, or 120 characters when not a terminal)."""
    if as_json:
        print(frame.to_json(orient="records", date_format="iso", indent=2))
    else:
        from fsnb.terminal import table_text

        print(table_text(frame))


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
