"""Connections to the index for other tools (`Database.handout`, behind `fsnb.connect()`
and `%explore_connection`), the SQLAlchemy URL for jupysql's `%sqlcmd` and `%sqlplot`,
and closing what was handed out.

A handout is an in-memory DuckDB with the index file attached read-only (as `fsnb`) and,
in its own catalog, a view of every table of the file: the index tables and the shared
scratch tables under their bare names, and every schema's tables under `schema.table`
(`scratch.deals`). Views, unlike a search path, hold for every cursor of the connection,
and jupysql and pandas query through cursors. The file changes under the connection only
when this process writes it: the write borrows the file (`Handouts.lent`: detached for the
write, attached again after, with views for new tables); other processes cannot write
while it is open (DuckDB refuses them).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

import duckdb

from fsnb.db.errors import DatabaseLocked, in_process_conflict
from fsnb.db.schema import SHARED_SCHEMA
from fsnb.db.sql import ident, literal

if TYPE_CHECKING:
    from fsnb.db.database import Database
    from fsnb.db.holders import Handouts

#: What a handout is, for modules that do not import duckdb (the notebook's).
Connection = duckdb.DuckDBPyConnection
#: The name under which `attach_read_only` attaches the index file.
ATTACHED = "fsnb"


def attach_read_only(path: str | os.PathLike[str]) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with the index file at `path` attached read-only as `fsnb`.

    DuckDB lets it read the file beside connections of another configuration in this
    process (a jupysql URL's, say). Only DuckDB 2.0 and later refuse a writer in this
    process while it is open: a caller that keeps it open tracks it (`Handouts.track`),
    so that `Database` refuses to write meanwhile.
    """
    con = duckdb.connect(":memory:")
    try:
        con.execute(f"ATTACH {literal(str(path))} AS {ATTACHED} (READ_ONLY)")
    except BaseException:
        con.close()
        raise
    return con


def _index_file(path: Path) -> Path:
    path = path.expanduser().resolve()
    if not path.is_file():
        msg = (
            f"no index at {path} yet: index a folder first "
            "(%explore_index FOLDER, or fsnb.Index().add_folder(FOLDER))"
        )
        raise FileNotFoundError(msg)
    return path


def _views(con: duckdb.DuckDBPyConnection) -> None:
    """A view in the connection's own catalog for every table and view of the attached file."""
    rows = con.execute(
        "SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = $db"
        " UNION ALL SELECT schema_name, view_name FROM duckdb_views()"
        " WHERE database_name = $db AND NOT internal"
        " ORDER BY schema_name = 'main' DESC, schema_name, table_name",
        {"db": ATTACHED},
    ).fetchall()
    bare: dict[str, str] = {}
    for schema, table in rows:
        source = f"{ATTACHED}.{ident(schema)}.{ident(table)}"
        if schema != "main":
            con.execute(f"CREATE SCHEMA IF NOT EXISTS {ident(schema)}")
            con.execute(f"CREATE OR REPLACE VIEW {ident(schema)}.{ident(table)} AS FROM {source}")
        if schema in ("main", SHARED_SCHEMA):  # an index table wins over a scratch table
            bare.setdefault(table, source)
    for table, source in bare.items():
        con.execute(f"CREATE OR REPLACE VIEW main.{ident(table)} AS FROM {source}")


def handout(path: Path, origin: str, handouts: Handouts) -> duckdb.DuckDBPyConnection:
    """A read-only connection to the index file at `path` and its shared scratch tables,
    their names without a prefix from any cursor (see the module doc), tracked in
    `handouts` as made by `origin` so that a write borrows the file from it."""
    path = _index_file(path)
    try:
        con = attach_read_only(path)
    except duckdb.Error as exc:
        if in_process_conflict(exc):
            msg = f"the index {path} is being written in this process; try again when it is done"
            raise DatabaseLocked(msg) from None
        raise
    try:
        _views(con)
    except BaseException:
        con.close()
        raise
    handouts.track(con, path, origin, detach=_detach, attach=_attach(path))
    return con


def _detach(con: duckdb.DuckDBPyConnection) -> None:
    con.execute(f"DETACH {ATTACHED}")


def _attach(path: Path) -> Callable[[duckdb.DuckDBPyConnection], None]:
    """Attach the file again and add views for tables made while it was lent."""

    def attach(con: duckdb.DuckDBPyConnection) -> None:
        con.execute(f"ATTACH {literal(str(path))} AS {ATTACHED} (READ_ONLY)")
        _views(con)

    return attach


def sqlalchemy_url(db: Database) -> str:
    """A SQLAlchemy URL that opens the index read-only through duckdb-engine, for jupysql's
    `%sqlcmd` and `%sqlplot`: `engine = sqlalchemy.create_engine(url)`, then
    `%sql engine --alias idx`. On this route scratch tables keep their schema: `scratch.deals`.
    """
    path = _index_file(db.path)
    return f"duckdb:///{quote(str(path), safe='/')}?access_mode=read_only"


def close_connections(db: Database) -> list[str]:
    """Close the connections handed out in this process and jupysql's connections to their
    files and to `db`'s; return what was closed, so that indexing can write again."""
    return db.engine.handouts.close_all(db.path)
