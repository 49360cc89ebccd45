"""DataFrames as plain-text tables for a terminal (`fsnb search`, `sql`, `status`, `history`):
text cells on one line, the widest cut with "…" so that a row fits the width; piped or
written to a file, those cells wrap onto more lines instead, so that nothing is lost."""

from __future__ import annotations

import shutil
import textwrap
from typing import Any

import pandas as pd

#: A text column is not cut below this many characters, whatever the width.
MIN_WIDTH = 12
#: The width when output goes to a pipe or a file and COLUMNS is not set.
DEFAULT_WIDTH = 120
#: Between two columns of a wrapped table.
GAP = "  "


def terminal_width() -> int:
    """COLUMNS, else the terminal's width, else `DEFAULT_WIDTH`."""
    return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns


def table_text(frame: pd.DataFrame, width: int | None = None, *, wrap: bool = False) -> str:
    """`frame` as a text table without its index, each row fitting `width` where it can:
    its wide text cells cut, or with `wrap` wrapped onto as many lines as they need."""
    if frame.empty:
        return "(no rows)"
    flat, caps = _caps(frame, width or terminal_width())
    with pd.option_context("display.max_rows", None, "display.max_colwidth", None):
        if wrap and caps:
            return _wrapped(flat, caps)
        for column, cap in caps.items():
            flat[column] = flat[column].map(lambda v, cap=cap: _cut(v, cap))
        return flat.to_string(index=False)


def _caps(frame: pd.DataFrame, width: int) -> tuple[pd.DataFrame, dict[Any, int]]:
    """`frame` with its text cells on one line, and the width each too-wide text column
    gets so that a row takes about `width` characters: columns narrower than their share
    keep their text, the others share the rest. Numbers, dates and the like keep theirs."""
    texts = [c for c in frame.columns if _is_text(frame[c])]
    if not texts:
        return frame, {}
    out = frame.copy()
    for column in texts:
        out[column] = frame[column].map(_flat)
    widths = {c: _width(out[c], c) for c in frame.columns}
    # to_string puts a space between columns, and one more before a number (for its sign)
    room = width - sum(widths[c] + 2 for c in frame.columns if c not in texts) - len(texts)
    caps = {}
    for left, column in enumerate(sorted(texts, key=widths.__getitem__)):
        cap = max(MIN_WIDTH, room // (len(texts) - left), len(str(column)))
        if widths[column] > cap:
            caps[column] = cap
        room -= min(widths[column], cap)
    return out, caps


def _wrapped(frame: pd.DataFrame, caps: dict[Any, int]) -> str:
    """The table with the `caps` columns wrapped at their width and left-aligned (the
    other columns formatted as pandas does), a row's continuation lines blank elsewhere."""
    cells: dict[Any, list[list[str]]] = {}
    for column in frame.columns:
        if column in caps:
            cells[column] = [_wrap(v, caps[column]) for v in frame[column]]
        elif _is_text(frame[column]):  # pandas drops the lines of trailing empty strings
            cells[column] = [[str(_flat(v)).strip()] for v in frame[column]]
        else:
            shown = frame[[column]].to_string(index=False, header=False).splitlines()
            cells[column] = [[line.strip()] for line in shown]
    widths = {
        c: max(len(str(c)), *(len(line) for cell in cells[c] for line in cell))
        for c in frame.columns
    }
    right = {c: c not in caps and not _is_text(frame[c]) for c in frame.columns}

    def line(values: dict[Any, str]) -> str:
        parts = (
            values[c].rjust(widths[c]) if right[c] else values[c].ljust(widths[c])
            for c in frame.columns
        )
        return GAP.join(parts).rstrip()

    lines = [line({c: str(c) for c in frame.columns})]
    for row in range(len(frame)):
        height = max(len(cells[c][row]) for c in frame.columns)
        for at in range(height):
            lines.append(line({c: _at(cells[c][row], at) for c in frame.columns}))
    return "\n".join(lines)


def _wrap(value: Any, cap: int) -> list[str]:
    text = str(value)
    return textwrap.wrap(text, cap, break_on_hyphens=False) or [text]


def _at(lines: list[str], at: int) -> str:
    return lines[at] if at < len(lines) else ""


def _is_text(column: pd.Series) -> bool:
    """Strings, or Python objects (dicts, lists, mixed) shown as text."""
    return pd.api.types.is_object_dtype(column) or pd.api.types.is_string_dtype(column)


def _flat(value: Any) -> Any:
    """Text (and dicts and lists) on one line; anything else as it is."""
    if isinstance(value, (str, dict, list, tuple)):
        return " ".join(str(value).split())
    return value


def _width(column: pd.Series, name: Any) -> int:
    return max(len(str(name)), int(column.map(lambda v: len(str(v))).max()))


def _cut(value: Any, cap: int) -> Any:
    return value[: cap - 1] + "…" if isinstance(value, str) and len(value) > cap else value
