"""The agent's table tools: list a document's tables, and load one into the scratchpad.

`extract_tables` shows each table of a document with its index, page, caption, shape,
column types and first rows; `load_table` copies one into a scratchpad table with its
provenance (`source_file`, `page`, `source_row`), so SQL answers can cite their rows.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pandas as pd

from fsnb.extract import load
from fsnb.extract.tables import ExtractedTable
from fsnb.protocol.outcome import ToolOutcome
from fsnb.tools.context import ToolContext
from fsnb.tools.registry import tool

#: Rows shown of each table.
HEAD_ROWS = 5
#: Characters shown of one cell.
CELL_CHARS = 40


def _cell(value: Any) -> Any:
    """A cell as JSON-friendly data (dates as ISO text, missing as None)."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return None
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    return value.item() if hasattr(value, "item") else value


def _described(table: ExtractedTable) -> dict[str, Any]:
    frame = table.frame
    types = list(load.column_types(frame).values())[len(load.PROVENANCE) :]
    head = frame.head(HEAD_ROWS)
    return {
        "index": table.index,
        "page": table.page,
        "where": table.where,
        "caption": table.caption,
        "rows": len(frame),
        "columns": dict(zip(map(str, frame.columns), types, strict=True)),
        "head": [
            dict(zip(map(str, frame.columns), map(_cell, row), strict=True)) for row in head.values
        ],
    }


@tool
def extract_tables(path: str, *, ctx: ToolContext) -> ToolOutcome:
    """List the tables of a document (PDF, DOCX, XLSX, CSV, HTML, ...) with typed columns.

    Shows each table's index, page, caption, size, column types and first rows; load one
    into the scratchpad with load_table, then compute with query_data.

    Args:
        path: The document, relative to the folder.
    """
    target = ctx.sandbox.existing(path, "file")
    source = ctx.sandbox.relative(target)
    extracted = load.document_tables(target, ctx.sandbox)
    tables = [_described(t) for t in extracted]
    data = {"path": source, "tables": tables}
    if not tables:
        return ToolOutcome(f"No tables found in {source}.", data=data)
    lines = [f"{len(tables)} table{'s' * (len(tables) != 1)} in {source}:"]
    for table, found in zip(tables, extracted, strict=True):
        where = f", {table['where']}" if table["where"] else ""
        caption = f' "{table["caption"]}"' if table["caption"] else ""
        columns = ", ".join(f"{c} {k}" for c, k in table["columns"].items())
        lines.append(
            f"\nTable {table['index']}{where}{caption}: {table['rows']:,} rows x "
            f"{len(table['columns'])} columns ({columns})"
        )
        head = found.raw.head(HEAD_ROWS)
        if not head.empty:
            lines.append(head.to_string(index=False, max_colwidth=CELL_CHARS))
    return ToolOutcome("\n".join(lines), data=data)


@tool
def load_table(path: str, table: int, name: str, *, ctx: ToolContext) -> ToolOutcome:
    """Load one table of a document into a scratchpad table, each row with its provenance.

    Creates the table `name` with the table's typed columns plus source_file, page and
    source_row, or appends to it when it has the same columns (e.g. one statement after
    another); then compute with query_data and cite rows by source_file and page.

    Args:
        path: The document, relative to the folder.
        table: The table's index, as extract_tables lists it.
        name: Scratchpad table to create or append to, e.g. "transactions".
    """
    report = load.load_table(ctx.store, ctx.sandbox, path, table, name)
    return ToolOutcome(report.summary(), data=dataclasses.asdict(report))


EXTRACTION_TOOLS = [extract_tables, load_table]
