"""The agent's scratchpad tools: tables for extracted data, filled with JSON, read with SQL.

Each tool works on the scratchpad of its context (`ctx=`; by hand, `root=` and `db=`): the
tables belong to the folder's own scratchpad (in the index database, not under the folder),
and queries see only that folder's tables and index. Each returns text; errors come back as
one line starting with "error: ". `query_data` also returns its SQL and the first rows as
data (`ToolOutcome.data`), which the notebook panel shows.
"""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd

from fsnb.db.guard import result_note
from fsnb.db.scratchpad import parse_columns, sanitize
from fsnb.protocol.outcome import ToolOutcome
from fsnb.tools.context import ToolContext
from fsnb.tools.formats import human_size
from fsnb.tools.payloads import Rows
from fsnb.tools.registry import tool

#: Rows fetched from a query (the count reported), and rows shown as text.
QUERY_ROWS = 10_000
SHOW_ROWS = 100
#: Characters shown of one cell.
CELL_CHARS = 80
#: Rows of a query's result kept in its data, and characters kept of one text cell there.
DATA_ROWS = 50
DATA_CELL_CHARS = 200


def _text_table(frame: pd.DataFrame) -> str:
    return frame.to_string(index=False, max_colwidth=CELL_CHARS, float_format=lambda x: f"{x:.12g}")


def _json_cell(value: Any) -> Any:
    """A result cell as JSON: dates as ISO text, NaN, NaT and NULL as None, long text cut."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, bool | int):
        return value
    if isinstance(value, float | Decimal):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, dt.datetime):
        midnight = value.time() == dt.time() and value.tzinfo is None
        return value.date().isoformat() if midnight else value.isoformat()
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    text = str(value)
    return text if len(text) <= DATA_CELL_CHARS else text[: DATA_CELL_CHARS - 1] + "…"


def _query_data(sql: str, frame: pd.DataFrame) -> Rows:
    """The payload of a query's outcome: its SQL, columns, first rows and row count."""
    head = frame.head(DATA_ROWS).itertuples(index=False, name=None)
    note = result_note(frame)
    return Rows(
        sql,
        tuple(str(c) for c in frame.columns),
        tuple(tuple(_json_cell(v) for v in row) for row in head),
        min(len(frame), QUERY_ROWS),
        len(frame) > QUERY_ROWS or note is not None,
        note or None,
    )


@tool
def create_table(name: str, columns: str, *, ctx: ToolContext) -> str:
    """Create a scratchpad table to collect data extracted from documents.

    Create it once, then add rows with insert_data and analyse them with query_data.
    Creating an existing table again with the same columns changes nothing.

    Args:
        name: Table name, e.g. "transactions" (letters, digits and underscores).
        columns: Columns as "name TYPE, ...", e.g. "date DATE, description VARCHAR,
            amount DECIMAL(12,2), source_file VARCHAR". Types: VARCHAR, INTEGER, BIGINT,
            DOUBLE, DECIMAL(p,s), BOOLEAN, DATE, TIMESTAMP, JSON.
    """
    pad = ctx.scratchpad
    existed = name in pad
    table = pad.create_table(name, columns)
    described = ", ".join(f"{c} {k}" for c, k in parse_columns(columns).items())
    renamed = f" (the name {name!r} became {table!r})" if table != name else ""
    if existed:
        return f"Table {table} already exists with these columns: {described}{renamed}."
    return f"Created table {table} ({described}){renamed}."


@tool
def insert_data(table: str, rows: str, *, ctx: ToolContext) -> str:
    """Add rows to a scratchpad table; all rows are stored, or none if one is invalid.

    Args:
        table: Name of a table made with create_table.
        rows: JSON array of objects keyed by column name, e.g. [{"date": "2025-01-05",
            "description": "NETFLIX", "amount": 15.99}]. Missing keys are stored as null;
            dates as "YYYY-MM-DD"; numbers without thousands separators.
    """
    pad, name = ctx.scratchpad, sanitize(table)
    count = pad.insert(name, rows)
    total = pad.rows(name)
    return f"Inserted {count} row{'s' * (count != 1)} into {name} (now {total:,} rows)."


@tool
def query_data(sql: str, *, ctx: ToolContext) -> ToolOutcome[Rows]:
    """Run one read-only SQL SELECT (DuckDB dialect) over the scratchpad and this folder's index.

    Scratchpad tables are found by name; when the folder is indexed, its documents
    (path, title, text, ...), chunks (path, page, text, ...) and files are readable too.
    Let SQL do the arithmetic: SUM, AVG, COUNT, GROUP BY, JOIN, window functions. Only a
    single SELECT is accepted.

    Args:
        sql: One SELECT query, e.g. "SELECT category, SUM(amount) AS total FROM
            transactions GROUP BY category ORDER BY total DESC".
    """
    frame = ctx.scratchpad.query(sql, limit=QUERY_ROWS + 1)
    return ToolOutcome(_query_text(frame), payload=_query_data(sql, frame))


def _query_text(frame: pd.DataFrame) -> str:
    """What the LLM reads of a query's result: the row count and the first rows."""
    n = len(frame)
    note = result_note(frame)  # a result cut before it reached pandas says so first
    if n == 0:
        return note or f"0 rows (columns: {', '.join(map(str, frame.columns))})"
    count = f"more than {QUERY_ROWS:,}" if n > QUERY_ROWS else f"{n:,}"
    lines = [note or f"{count} row{'s' * (n != 1)}", _text_table(frame.head(SHOW_ROWS))]
    if n > SHOW_ROWS:
        lines.append(
            f"[first {SHOW_ROWS} of {count} rows shown: aggregate, filter with WHERE, or page "
            "with LIMIT/OFFSET]"
        )
    return "\n".join(lines)


@tool
def list_tables(*, ctx: ToolContext) -> str:
    """List the scratchpad tables with their columns, row counts and sizes."""
    frame = ctx.scratchpad.tables()
    if frame.empty:
        return "No scratchpad tables yet: make one with create_table."
    lines = [f"{len(frame)} scratchpad table{'s' * (len(frame) != 1)}:"]
    for row in frame.itertuples():
        lines.append(f"- {row.name}: {row.rows:,} rows, {human_size(row.bytes)}; {row.columns}")
    return "\n".join(lines)


@tool
def drop_table(name: str, *, ctx: ToolContext) -> str:
    """Delete a scratchpad table and its rows, e.g. when an analysis is done or to start over.

    Args:
        name: Name of the table to delete.
    """
    rows = ctx.scratchpad.drop(name)
    return f"Dropped table {sanitize(name)} ({rows:,} rows)."


SCRATCH_TOOLS = [create_table, insert_data, query_data, list_tables, drop_table]
