"""Guarded SQL: one SELECT, read-only, no file or network access, bounded in time, memory
and rows; and, for an exploration, confined to one folder.

A confined query sees only its folder: the index as the views `documents`, `chunks` and
`files` (that folder's rows), and the folder's scratchpad tables, each under its bare
name. DuckDB's own parser decides what a query touches (`json_serialize_sql`): every table
it names must be one of those or a CTE of the query, every table function one of a few
generators, and no name may carry a schema or catalog. The query then runs on a read-only
connection whose search path holds nothing but temporary views of exactly those tables,
so another folder's rows cannot even be named.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb
import pandas as pd

from fsnb.db.engine import current
from fsnb.db.schema import corpus_id
from fsnb.db.sql import ident
from fsnb.errors import FsnbError, one_line

if TYPE_CHECKING:
    from fsnb.db.database import Database

#: The index as a confined query sees it: view name -> SELECT over the folder's corpus.
INDEX_VIEWS = {
    "documents": (
        "SELECT id, path, title, format, pages, chars, text, metadata, parser, warnings, size,"
        " mtime_ns, error, indexed_at FROM {db}.main.documents"
        " WHERE corpus_id = {cid} AND NOT deleted"
    ),
    "chunks": (
        "SELECT d.path, c.doc_id, c.position, c.page, c.heading, c.start_char, c.end_char,"
        " c.text FROM {db}.main.chunks c JOIN {db}.main.documents d ON d.id = c.doc_id"
        " WHERE d.corpus_id = {cid} AND NOT d.deleted"
    ),
    "files": (
        "SELECT path, name, extension, category, size, mtime_ns, depth, parent"
        " FROM {db}.main.files WHERE corpus_id = {cid}"
    ),
}
#: A result is cut to at most this many cells (rows x columns) and bytes before it is a
#: DataFrame: DuckDB's memory limit bounds the query, not the rows handed to pandas (a
#: `fsnb sql --limit 100000` of long text reached 11 GB). 5M cells is `fsnb sql --limit
#: 100000` over 50 columns; 256 MiB, in pandas' deep measure, is far more than any caller
#: shows and an eighth of the default memory limit.
MAX_RESULT_CELLS = 5_000_000
MAX_RESULT_BYTES = 256 * 2**20
#: Where a cut result's DataFrame carries its one-line note (`result_note`).
NOTE = "fsnb_note"
#: Table functions that only generate values.
TABLE_FUNCTIONS = frozenset({"range", "generate_series", "unnest", "json_each", "json_tree"})


class SqlRefused(FsnbError):
    """A query was refused or failed: not one SELECT, out of bounds, or a DuckDB error."""


def memory_rows(sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
    """Rows of `sql` on the engine's parser instance (no database file involved)."""
    with current().parser() as con:
        return con.execute(sql, params).fetchall()


def single_select(sql: str) -> str:
    """`sql` if DuckDB's parser finds exactly one statement and it is a SELECT."""
    try:
        with current().parser() as con:
            statements = con.extract_statements(sql)
    except duckdb.Error as exc:
        raise SqlRefused(one_line(exc)) from None
    if len(statements) != 1:
        kinds = ", ".join(s.type.name for s in statements)
        msg = f"one SQL statement at a time, found {len(statements)} ({kinds})"
        raise SqlRefused(msg if statements else "no SQL statement given")
    if (kind := statements[0].type) != duckdb.StatementType.SELECT:
        article = "an" if kind.name[0] in "AEIOU" else "a"
        msg = f"only a SELECT query is allowed here, not {article} {kind.name} statement"
        raise SqlRefused(msg)
    return statements[0].query


@dataclass
class _Names:
    tables: set[str] = field(default_factory=set)
    functions: set[str] = field(default_factory=set)
    ctes: set[str] = field(default_factory=set)


def _collect(node: Any, names: _Names) -> None:
    """Every table, table function and CTE name in a serialized statement."""
    if isinstance(node, list):
        for item in node:
            _collect(item, names)
        return
    if not isinstance(node, dict):
        return
    kind = node.get("type")
    if kind == "BASE_TABLE":
        if node.get("schema_name") or node.get("catalog_name"):
            qualified = ".".join(node["qualified_name"]["path"])
            msg = f"write table names without a schema or database: {qualified!r}"
            raise SqlRefused(msg)
        names.tables.add(node["table_name"].lower())
    elif kind == "TABLE_FUNCTION":
        function = node["function"]
        names.functions.add(".".join(function["qualified_name"]["path"]).lower())
    elif kind == "SHOW_REF" and (node.get("table_name") or node.get("query") is None):
        msg = "SHOW is not available here; the tables are listed by list_tables"
        raise SqlRefused(msg)
    for entry in (node.get("cte_map") or {}).get("map", []):
        names.ctes.add(str(entry["key"]).lower())
    for value in node.values():
        _collect(value, names)


def check_confined(sql: str, allowed: set[str]) -> None:
    """Refuse a SELECT that names a table outside `allowed` (lower-case names)."""
    (serialized,) = memory_rows("SELECT json_serialize_sql(?)", [sql])[0]
    tree = json.loads(serialized)
    if tree.get("error"):
        raise SqlRefused(tree.get("error_message", "the query cannot be checked"))
    names = _Names()
    _collect(tree["statements"], names)
    if bad := sorted(names.functions - TABLE_FUNCTIONS):
        msg = (
            f"table function {bad[0]}() is not available here; tables: {', '.join(sorted(allowed))}"
        )
        raise SqlRefused(msg)
    if unknown := sorted(names.tables - allowed - names.ctes):
        msg = f"no table {unknown[0]!r} here; tables: {', '.join(sorted(allowed))}"
        raise SqlRefused(msg)


def folder_root(folder: str | os.PathLike[str]) -> str:
    """The absolute root a folder is stored under in the index."""
    return str(Path(folder).expanduser().resolve())


def scratch_schema(corpus: int) -> str:
    return f"scratch_{corpus}"


def schema_tables(con: duckdb.DuckDBPyConnection, schema: str) -> list[str]:
    """The tables of one schema of the open database, by name."""
    rows = con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()"
        " AND schema_name = ? ORDER BY table_name",
        [schema],
    ).fetchall()
    return [name for (name,) in rows]


def has_schema(con: duckdb.DuckDBPyConnection, schema: str) -> bool:
    sql = "SELECT 1 FROM duckdb_schemas() WHERE database_name = current_database()"
    return con.execute(sql + " AND schema_name = ?", [schema]).fetchone() is not None


def _confine(con: duckdb.DuckDBPyConnection, folder: str | os.PathLike[str]) -> set[str]:
    """Make the folder's tables the only ones the connection can name; return their names."""
    (db,) = con.execute("SELECT current_database()").fetchone() or ("",)
    cid = corpus_id(con, folder_root(folder), create=False)
    views = {
        name: sql.format(db=ident(db), cid=cid if cid is not None else -1)
        for name, sql in INDEX_VIEWS.items()
    }
    if cid is not None:
        schema = scratch_schema(cid)
        for table in schema_tables(con, schema):
            views.setdefault(table, f"SELECT * FROM {ident(db)}.{ident(schema)}.{ident(table)}")
    for name, sql in views.items():
        con.execute(f"CREATE TEMP VIEW {ident(name)} AS {sql}")
    con.execute("SET search_path = 'temp.main'")
    return set(views)


def _settings(con: duckdb.DuckDBPyConnection, memory_limit: str) -> None:
    """No file or network access, no Python variables by name, and bounded memory with no
    spilling to disk, so that a read-only query writes nothing at all."""
    con.execute("SET temp_directory = ''")  # before external access is off, which locks it
    con.execute(f"SET memory_limit = '{memory_limit}'")
    con.execute("SET enable_external_access = false")
    con.execute("SET python_enable_replacements = false")


def memory_size(value: str | None) -> str:
    """A checked memory size such as '2GB' or '500MiB'; default `FSNB_SQL_MEMORY`, else 2GB."""
    size = (value or os.environ.get("FSNB_SQL_MEMORY") or "2GB").strip()
    if not re.fullmatch(r"\d+(\.\d+)?\s*[KMGT]i?B", size, re.IGNORECASE):
        msg = f"{size!r} is not a memory size such as '2GB' or '500MiB' (FSNB_SQL_MEMORY)"
        raise SqlRefused(msg)
    return size


def run_select(
    db: Database,
    sql: str,
    *,
    folder: str | os.PathLike[str] | None = None,
    limit: int | None = None,
    timeout_s: float = 30.0,
    memory_limit: str | None = None,
    params: Mapping[str, Any] | Sequence[Any] | None = None,
    max_cells: int | None = None,
    max_bytes: int | None = None,
) -> pd.DataFrame:
    """Run one SELECT on a read-only connection, within the limits; see the module doc.

    With `folder`, only that folder's index and scratchpad can be named; without it,
    the whole index and the shared scratch schema (first on the search path). `params`
    are bound to the query's parameters (`$name` for a mapping, `?` or `$1` for a
    sequence), never spliced into its text, so they pass no check they could evade.
    The result is read a chunk at a time and cut at `max_cells` and `max_bytes`
    (default `MAX_RESULT_CELLS`, `MAX_RESULT_BYTES`); a cut frame has a one-line
    `result_note`. `timeout_s` covers running, fetching and building the frame.
    """
    checked = single_select(sql)
    limit_text = memory_size(memory_limit)
    caps = (max_cells or MAX_RESULT_CELLS, max_bytes or MAX_RESULT_BYTES)
    try:
        with db.read(isolated=True) as con:
            _settings(con, limit_text)
            if folder is not None:
                check_confined(checked, _confine(con, folder))
            return _timed(con, checked, limit, timeout_s, params, caps)
    except duckdb.OutOfMemoryException:
        msg = f"the query needs more than {limit_text} of memory; aggregate or filter it"
        raise SqlRefused(msg) from None
    except duckdb.Error as exc:
        message = one_line(exc)
        if folder is not None:  # DuckDB's hints name tables outside the folder
            message = _HINT.sub("", message).strip()
        raise SqlRefused(message) from None


_HINT = re.compile(r"\s*Did you mean [^?]*\?")


def result_note(frame: pd.DataFrame) -> str | None:
    """The one-line note of a result `run_select` cut ("first N rows of at least M ..."),
    or None when the frame is the whole result."""
    note = frame.attrs.get(NOTE)
    return str(note) if note else None


def _timed(
    con: duckdb.DuckDBPyConnection,
    sql: str,
    limit: int | None,
    timeout_s: float,
    params: Mapping[str, Any] | Sequence[Any] | None,
    caps: tuple[int, int],
) -> pd.DataFrame:
    stopped = f"query stopped after {timeout_s:g} s; narrow it down or aggregate"
    deadline = time.monotonic() + timeout_s
    timer = threading.Timer(timeout_s, con.interrupt)
    timer.start()
    try:
        if limit is not None:  # in the query, so that DuckDB can plan a top-N
            sql = f"SELECT * FROM (\n{sql}\n) AS fsnb_query LIMIT {int(limit)}"
        return _fetch(con.execute(sql, params), caps, deadline, stopped)
    except duckdb.InterruptException:
        raise SqlRefused(stopped) from None
    finally:
        timer.cancel()


def _fetch(
    result: duckdb.DuckDBPyConnection, caps: tuple[int, int], deadline: float, stopped: str
) -> pd.DataFrame:
    """The rows of a streaming `result`, one vector (2,048 rows) at a time, up to `caps`
    (cells, bytes), with the deadline checked between vectors."""
    max_cells, max_bytes = caps
    chunks: list[pd.DataFrame] = []
    kept = seen = size = 0
    cut = ""
    while True:
        if time.monotonic() > deadline:
            raise SqlRefused(stopped)
        chunk = result.fetch_df_chunk(1)
        if chunk.empty:
            chunks = chunks or [chunk]  # the columns of an empty result
            break
        seen += len(chunk)
        width = max(len(chunk.columns), 1)
        bytes_each = chunk.memory_usage(deep=True, index=False).sum() / len(chunk)
        room = min(max_cells // width - kept, int((max_bytes - size) // max(bytes_each, 1)))
        take = max(min(room, len(chunk)), 0)
        if take or not chunks:  # an empty first piece still carries the columns
            chunks.append(chunk.iloc[:take])
            kept, size = kept + take, size + int(take * bytes_each)
        if take < len(chunk):
            over_cells = kept >= max_cells // width
            megabytes = (
                f"{max_bytes / 2**20:g} MB" if max_bytes >= 2**20 else f"{max_bytes:,} bytes"
            )
            cut = f"{max_cells:,} cells" if over_cells else megabytes
            break
    if time.monotonic() > deadline:
        raise SqlRefused(stopped)
    frame = pd.concat(chunks, ignore_index=True) if len(chunks) > 1 else chunks[0].copy()
    if cut:
        frame.attrs[NOTE] = (
            f"first {kept:,} rows of at least {seen:,}: the result is cut at {cut} "
            "(aggregate, filter or select fewer columns)"
        )
    return frame
