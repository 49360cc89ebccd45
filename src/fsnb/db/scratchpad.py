"""The scratchpad: SQL working memory for data the agent extracts, one DataFrame away.

Each folder has its own scratchpad, the DuckDB schema `scratch_<corpus id>` of the index
database (`Scratchpad(folder=...)`); a scratchpad with no folder is the shared schema
`scratch`, for work by hand. Names are reduced to `[a-z0-9_]` and may not be an index
table's; column types come from a short whitelist; rows arrive as JSON objects and DuckDB
converts them in one parameterized INSERT per batch, inside one transaction. `query` runs
exactly one SELECT through `fsnb.db.guard`: read-only, no file access, bounded, and for
a folder's scratchpad confined to that folder's tables and index.

Size is the uncompressed data size: the byte width of each fixed-width value (INTEGER 4,
DOUBLE 8, ...) plus the UTF-8 length of each VARCHAR/JSON value. The file on disk is
usually smaller, since DuckDB compresses.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import duckdb
import pandas as pd

from fsnb.db.columns import (
    MAX_COLUMNS,
    Columns,
    Rows,
    ScratchpadError,
    ScratchpadLimit,
    as_records,
    diagnose,
    json_rows,
    parse_columns,
    sanitize,
    value_width,
)
from fsnb.db.database import Database, database
from fsnb.db.guard import (
    INDEX_VIEWS,
    SqlRefused,
    folder_root,
    has_schema,
    schema_tables,
    scratch_schema,
)
from fsnb.db.schema import SHARED_SCHEMA, corpus_id
from fsnb.db.sql import ident
from fsnb.errors import one_line

__all__ = [
    "Columns",
    "Rows",
    "Scratchpad",
    "ScratchpadError",
    "ScratchpadLimit",
    "parse_columns",
    "sanitize",
]


def _ref(schema: str, table: str) -> str:
    return f"{ident(schema)}.{ident(table)}"


def _delete(
    con: duckdb.DuckDBPyConnection,
    ref: str,
    columns: Mapping[str, str],
    where: Mapping[str, Sequence[Any]],
) -> None:
    """Delete the rows of `ref` whose every column in `where` holds one of its values."""
    tests, params = [], []
    for column, values in where.items():
        if column not in columns:
            msg = f"no column {column!r} to match rows on (columns: {', '.join(columns)})"
            raise ScratchpadError(msg)
        given = [v for v in values if v is not None]
        test = [f"{ident(column)} IN ({', '.join('?' * len(given))})"] if given else []
        test += [f"{ident(column)} IS NULL"] if len(given) < len(values) else []
        tests.append(f"({' OR '.join(test) or 'FALSE'})")
        params += given
    con.execute(f"DELETE FROM {ref} WHERE {' AND '.join(tests)}", params)


class Scratchpad:
    """Tables of extracted data, per folder; each is a DataFrame away.

    >>> pad = Scratchpad(folder="data/statements")  # the folder's own tables
    >>> pad.df("transactions")
    """

    def __init__(
        self,
        db: str | os.PathLike[str] | Database | None = None,
        *,
        folder: str | os.PathLike[str] | None = None,
        max_tables: int = 100,
        max_rows: int = 1_000_000,
        max_bytes: int = 100 * 2**20,
        timeout_s: float = 30.0,
        max_columns: int | None = None,
    ) -> None:
        self.db = db if isinstance(db, Database) else database(db)
        self.folder = folder_root(folder) if folder is not None else None
        self.max_tables, self.max_rows, self.max_bytes = max_tables, max_rows, max_bytes
        self.max_columns = max_columns or MAX_COLUMNS
        self.timeout_s = timeout_s

    def __repr__(self) -> str:
        where = f", folder={self.folder!r}" if self.folder else ""
        return f"Scratchpad({str(self.db.path)!r}{where})"

    def __contains__(self, name: object) -> bool:
        try:
            return bool(self.schema(str(name)))
        except ScratchpadError:
            return False

    @contextmanager
    def _sql_errors(self) -> Iterator[None]:
        try:
            yield
        except duckdb.Error as exc:
            raise ScratchpadError(one_line(exc)) from None

    def _schema(self, con: duckdb.DuckDBPyConnection, *, create: bool = False) -> str | None:
        """This scratchpad's schema (made when `create`), or None when it has none yet."""
        if self.folder is None:
            schema = SHARED_SCHEMA
        else:
            cid = corpus_id(con, self.folder, create=create)
            if cid is None:
                return None
            schema = scratch_schema(cid)
        if create:
            con.execute(f"CREATE SCHEMA IF NOT EXISTS {ident(schema)}")
        return schema if create or has_schema(con, schema) else None

    @staticmethod
    def _columns(con: duckdb.DuckDBPyConnection, schema: str) -> dict[str, dict[str, str]]:
        """Every table's columns and types (the first call costs ~20 ms)."""
        tables: dict[str, dict[str, str]] = {}
        for table, column, kind in con.execute(
            "SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE database_name "
            "= current_database() AND schema_name = ? ORDER BY table_name, column_index",
            [schema],
        ).fetchall():
            tables.setdefault(table, {})[column] = kind
        return tables

    def _existing(self, con: duckdb.DuckDBPyConnection, name: str) -> tuple[str, dict[str, str]]:
        """An existing table's quoted reference and its columns and types, or an error."""
        table, schema = sanitize(name), self._schema(con)
        try:
            if schema is None:
                raise duckdb.CatalogException(table)
            sql = "SELECT name, type FROM pragma_table_info(?) ORDER BY cid"
            ref = _ref(schema, table)
            return ref, dict(con.execute(sql, [ref]).fetchall())
        except duckdb.CatalogException:
            msg = f"no scratchpad table {table!r} (list_tables shows the tables)"
            raise ScratchpadError(msg) from None

    def _stats(self, con: duckdb.DuckDBPyConnection, schema: str) -> dict[str, tuple[int, int]]:
        """(rows, estimated bytes) of every table; see the module's docstring."""
        stats = {}
        for table, columns in self._columns(con, schema).items():
            size = [f"count(*) * {sum(value_width(k) for k in columns.values())}"] + [
                f"coalesce(sum(strlen({ident(c)}::VARCHAR)), 0)"
                for c, k in columns.items()
                if k in ("VARCHAR", "JSON")
            ]
            sql = f"SELECT count(*), {' + '.join(size)} FROM {_ref(schema, table)}"
            row = con.execute(sql).fetchone()
            stats[table] = (int(row[0]), int(row[1])) if row else (0, 0)
        return stats

    @staticmethod
    def _reserved(con: duckdb.DuckDBPyConnection, table: str) -> None:
        """Refuse the name of an index table, which a scratch table must never stand in for."""
        if table in INDEX_VIEWS or table in schema_tables(con, "main"):
            msg = (
                f"{table!r} is the name of an index table and cannot be a scratchpad table; "
                f"choose another name, e.g. 'my_{table}'"
            )
            raise ScratchpadError(msg)

    def _check_width(self, table: str, width: int) -> None:
        """Refuse a table of more than `max_columns` columns."""
        if width > self.max_columns:
            msg = (
                f"scratchpad limit: at most {self.max_columns:,} columns per table; {table} "
                f"would have {width:,} (nothing was changed)"
            )
            raise ScratchpadLimit(msg)

    def create_table(self, name: str, columns: Columns, *, replace: bool = False) -> str:
        """Create `name` (sanitized, returned); the same columns again is a no-op."""
        table, wanted = sanitize(name), parse_columns(columns)
        with self._sql_errors(), self.db.write() as con:
            self._reserved(con, table)
            schema = self._schema(con, create=True) or SHARED_SCHEMA
            tables = self._columns(con, schema)
            if table in tables and not replace:
                if tables[table] == wanted:
                    return table
                have = ", ".join(f"{c} {k}" for c, k in tables[table].items())
                msg = f"table {table!r} already exists with columns ({have}); drop_table it first"
                raise ScratchpadError(msg)
            self._check_width(table, len(wanted))
            if table not in tables and len(tables) >= self.max_tables:
                msg = (
                    f"scratchpad limit: at most {self.max_tables} tables (drop one with drop_table)"
                )
                raise ScratchpadLimit(msg)
            body = ", ".join(f"{ident(c)} {k}" for c, k in wanted.items())
            verb = "CREATE OR REPLACE TABLE" if replace else "CREATE TABLE"
            con.execute(f"{verb} {_ref(schema, table)} ({body})")
        return table

    def add_columns(self, name: str, columns: Columns) -> list[str]:
        """Add the columns a table lacks (ALTER TABLE, existing rows get NULL); return the
        names added. A column it has with another type is refused, nothing changed."""
        wanted = parse_columns(columns)
        with self._sql_errors(), self.db.write() as con:
            ref, have = self._existing(con, name)
            other = [f"{c} ({have[c]}, not {k})" for c, k in wanted.items() if have.get(c, k) != k]
            if other:
                msg = f"table {sanitize(name)} has columns of another type: {', '.join(other)}"
                raise ScratchpadError(msg)
            added = [c for c in wanted if c not in have]
            self._check_width(sanitize(name), len(have) + len(added))
            for column in added:
                con.execute(f"ALTER TABLE {ref} ADD COLUMN {ident(column)} {wanted[column]}")
        return added

    def insert(
        self, name: str, rows: Rows, *, replacing: Mapping[str, Sequence[Any]] | None = None
    ) -> int:
        """Insert rows (objects keyed by column), all or none; return how many.

        `replacing` ({column: values}) first deletes the rows whose every named column holds
        one of its values (None matches NULL), in the same transaction: reloading a
        document's rows replaces them instead of adding them twice."""
        records = as_records(rows)
        if not records:
            return 0
        with self._sql_errors(), self.db.write() as con:
            ref, columns = self._existing(con, name)
            table = sanitize(name)
            payload = json_rows(table, columns, records)
            if replacing:
                _delete(con, ref, columns, replacing)
            (count,) = con.execute(f"SELECT count(*) FROM {ref}").fetchone() or (0,)
            if count + len(records) > self.max_rows:
                msg = (
                    f"scratchpad limit: at most {self.max_rows:,} rows per table; {table} has "
                    f"{count:,} and this adds {len(records):,} (nothing was inserted)"
                )
                raise ScratchpadLimit(msg)
            casts = [f"json_extract_string(r, {i})::{k}" for i, k in enumerate(columns.values())]
            try:
                con.execute(
                    f"INSERT INTO {ref} ({', '.join(map(ident, columns))}) "
                    f"SELECT {', '.join(casts)} FROM (SELECT unnest(?::JSON[]) AS r)",
                    [payload],
                )
            except duckdb.ConversionException as exc:
                msg = f"{diagnose(payload, columns) or one_line(exc)} (nothing was inserted)"
                raise ScratchpadError(msg) from None
            stats = self._stats(con, self._schema(con) or SHARED_SCHEMA)
            if (total := sum(size for _, size in stats.values())) > self.max_bytes:
                msg = (
                    f"scratchpad limit: at most {self.max_bytes:,} bytes of data in all; this "
                    f"insert would bring it to {total:,} (nothing was inserted)"
                )
                raise ScratchpadLimit(msg)
        return len(records)

    def query(self, sql: str, *, limit: int | None = None) -> pd.DataFrame:
        """Run exactly one SELECT, read-only; at most `limit` rows when given.

        A folder's scratchpad sees only its own tables and the folder's index (the views
        documents, chunks and files); the shared one sees the whole index.
        """
        try:
            return self.db.select(sql, folder=self.folder, limit=limit, timeout_s=self.timeout_s)
        except SqlRefused as exc:
            if str(exc).startswith("only a SELECT"):
                msg = f"{exc}; change data with create_table, insert_data and drop_table"
                raise ScratchpadError(msg) from None
            raise ScratchpadError(str(exc)) from None

    def tables(self) -> pd.DataFrame:
        """One row per table: name, rows, columns ("name TYPE, ...") and estimated bytes."""
        columns: dict[str, dict[str, str]] = {}
        stats: dict[str, tuple[int, int]] = {}
        with self._sql_errors(), self.db.read() as con:
            if schema := self._schema(con):
                columns, stats = self._columns(con, schema), self._stats(con, schema)
        rows = [
            (t, stats[t][0], ", ".join(f"{c} {k}" for c, k in cols.items()), stats[t][1])
            for t, cols in columns.items()
        ]
        return pd.DataFrame(rows, columns=["name", "rows", "columns", "bytes"])

    def schema(self, name: str) -> dict[str, str]:
        """Column names and DuckDB types of a table."""
        with self._sql_errors(), self.db.read() as con:
            return self._existing(con, name)[1]

    def rows(self, name: str) -> int:
        """How many rows a table has."""
        with self._sql_errors(), self.db.read() as con:
            ref, _ = self._existing(con, name)
            (count,) = con.execute(f"SELECT count(*) FROM {ref}").fetchone() or (0,)
        return int(count)

    def df(
        self,
        name: str,
        *,
        limit: int | None = None,
        offset: int = 0,
        order_by: str | None = None,
        descending: bool = False,
    ) -> pd.DataFrame:
        """The table as a DataFrame (a page of it with `limit` and `offset`), sorted by the
        column `order_by` when given (nulls last, ties in insertion order)."""
        page = f" LIMIT {int(limit)} OFFSET {int(offset)}" if limit is not None else ""
        with self._sql_errors(), self.db.read() as con:
            ref, columns = self._existing(con, name)
            order = ""
            if order_by is not None:
                if order_by not in columns:
                    known = ", ".join(columns)
                    msg = f"no column {order_by!r} in {sanitize(name)} (columns: {known})"
                    raise ScratchpadError(msg)
                direction = "DESC" if descending else "ASC"
                order = f" ORDER BY {ident(order_by)} {direction} NULLS LAST, rowid"
            return con.execute(f"SELECT * FROM {ref}{order}{page}").df()

    def drop(self, name: str) -> int:
        """Drop a table; return how many rows it had."""
        with self._sql_errors(), self.db.write() as con:
            ref, _ = self._existing(con, name)
            (rows,) = con.execute(f"SELECT count(*) FROM {ref}").fetchone() or (0,)
            con.execute(f"DROP TABLE {ref}")
        return int(rows)

    def clear(self) -> list[str]:
        """Drop every table; return their names."""
        with self._sql_errors(), self.db.write() as con:
            schema = self._schema(con)
            tables = list(self._columns(con, schema)) if schema else []
            for table in tables:
                con.execute(f"DROP TABLE {_ref(schema, table)}")
        return tables
