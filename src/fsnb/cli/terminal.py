"""DataFrames as plain-text tables for a terminal: text cells on one line, the widest cut
with "…" so that a row fits the width (`fsnb search`, `sql` and `status`)."""

from __future__ import annotations

import shutil
from typing import Any

import pandas as pd

#: A text column is not cut below this many characters, whatever the width.
MIN_WIDTH = 12
#: The width when output goes to a pipe or a file and COLUMNS is not set.
DEFAULT_WIDTH = 120


def terminal_width() -> int:
    """COLUMNS, else the terminal's width, else `DEFAULT_WIDTH`."""
    return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns


def table_text(frame: pd.DataFrame, width: int | None = None) -> str:
    """`frame` as a text table without its index, each row fitting `width` where it can."""
    if frame.empty:
        return "(no rows)"
    with pd.option_context("display.max_rows", None, "display.max_colwidth", None):
        return fit(frame, width or terminal_width()).to_string(index=False)


def fit(frame: pd.DataFrame, width: int) -> pd.DataFrame:
    """`frame` with its text cells on one line and cut so that a row takes about `width`
    characters: columns narrower than their share keep their text, the others share the rest.
    Numbers, dates and the like are never cut."""
    texts = [c for c in frame.columns if _is_text(frame[c])]
    if not texts:
        return frame
    out = frame.copy()
    for column in texts:
        out[column] = frame[column].map(_flat)
    widths = {c: _width(out[c], c) for c in frame.columns}
    # to_string puts a space between columns, and one more before a number (for its sign)
    room = width - sum(widths[c] + 2 for c in frame.columns if c not in texts) - len(texts)
    for left, column in enumerate(sorted(texts, key=widths.__getitem__)):
        cap = max(MIN_WIDTH, room // (len(texts) - left), len(str(column)))
        if widths[column] > cap:
            out[column] = out[column].map(lambda v, cap=cap: _cut(v, cap))
        room -= min(widths[column], cap)
    return out


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
