"""The index for other notebook tools: `connect()` (a DuckDB connection, e.g. for jupysql's
`%sql conn --alias fsnb` or pandas), `sqlalchemy_url()` (for jupysql's `%sqlcmd` and
`%sqlplot`, through duckdb-engine) and `close_connections()`.

A connection from `connect()` is an in-memory DuckDB with the index file attached
read-only (as `fsnb`) and, in its own catalog, a view of every table of the file: the
index tables and the shared scratch tables under their bare names, and every schema's
tables under `schema.table` (`scratch.deals`). Views, unlike a search path, hold for every
cursor of the connection, and jupysql and pandas query through cursors. The file does
change under the connection only when this process writes it: fsnb then detaches the
file from the connection for the write and attaches it again after, adding views for new
tables (other processes cannot write while it is open: DuckDB refuses them).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import duckdb

from fsnb.db import holders
from fsnb.db.database import (
    ATTACHED,
    SHARED_SCHEMA,
    DatabaseLocked,
    attach_read_only,
    default_db_path,
    in_process_conflict,
)


def _index_file(db: str | os.PathLike[str] | None) -> Path:
    path = (Path(db).expanduser() if db else default_db_path()).resolve()
    if not path.is_file():
        msg = (
            f"no index at {path} yet: index a folder first "
            "(%explore_index FOLDER, or fsnb.Index().add_folder(FOLDER))"
        )
        raise FileNotFoundError(msg)
    return path


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


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
        source = f"{ATTACHED}.{_q(schema)}.{_q(table)}"
        if schema != "main":
            con.execute(f"CREATE SCHEMA IF NOT EXISTS {_q(schema)}")
            con.execute(f"CREATE OR REPLACE VIEW {_q(schema)}.{_q(table)} AS FROM {source}")
        if schema in ("main", SHARED_SCHEMA):  # an index table wins over a scratch table
            bare.setdefault(table, source)
    for table, source in bare.items():
        con.execute(f"CREATE OR REPLACE VIEW main.{_q(table)} AS FROM {source}")


def _origin(what: str) -> str:
    """`what`, with the notebook cell it runs in when in IPython (`fsnb.connect() in In [3]`)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython else None
    count = getattr(shell, "execution_count", None)  # counted up as a cell starts
    return f"{what} in In [{count - 1}]" if isinstance(count, int) and count > 1 else what


def connect(
    db: str | os.PathLike[str] | None = None, *, origin: str = "fsnb.connect()"
) -> duckdb.DuckDBPyConnection:
    """A read-only DuckDB connection to the index and the shared scratch tables, their
    names without a prefix from any cursor (see the module doc).

    For other tools, e.g. jupysql: `conn = fsnb.connect()` then `%sql conn --alias fsnb`.
    Indexing and the scratchpad can write the file while it is open: each write borrows
    the file from the connection (a query run on it during that write fails).
    """
    path = _index_file(db)
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
    holders.track(con, path, _origin(origin), detach=_detach, attach=_attach(path))
    return con


def _detach(con: duckdb.DuckDBPyConnection) -> None:
    con.execute(f"DETACH {ATTACHED}")


def _attach(path: Path) -> Callable[[duckdb.DuckDBPyConnection], None]:
    """Attach the file again and add views for tables made while it was lent."""

    def attach(con: duckdb.DuckDBPyConnection) -> None:
        quoted = str(path).replace("'", "''")
        con.execute(f"ATTACH '{quoted}' AS {ATTACHED} (READ_ONLY)")
        _views(con)

    return attach


def sqlalchemy_url(db: str | os.PathLike[str] | None = None) -> str:
    """A SQLAlchemy URL that opens the index read-only through duckdb-engine, for jupysql's
    `%sqlcmd` and `%sqlplot`: `engine = sqlalchemy.create_engine(url)`, then
    `%sql engine --alias idx`. On this route scratch tables keep their schema: `scratch.deals`.
    """
    path = _index_file(db)
    return f"duckdb:///{quote(str(path), safe='/')}?access_mode=read_only"


def close_connections(db: str | os.PathLike[str] | None = None) -> list[str]:
    """Close the connections fsnb handed out (`connect()`, `%explore_connection`) and
    jupysql's connections to their files and to the index (`db`, default: FSNB_DB);
    return what was closed, so that indexing can write again."""
    path = Path(db).expanduser() if db else default_db_path()
    return holders.close_all(path)
