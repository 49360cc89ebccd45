"""The index for other notebook tools: `connect()` (a DuckDB connection, e.g. for jupysql's
`%sql conn --alias fsnb` or pandas), `sqlalchemy_url()` (for jupysql's `%sqlcmd` and
`%sqlplot`, through duckdb-engine) and `close_connections()`.

A thin front: the connections are the `Database`'s handouts (`fsnb.db.handouts` says what
they see and how a write borrows the file from them); this module adds only where in the
notebook each was made.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from fsnb.db import handouts
from fsnb.db.database import database

if TYPE_CHECKING:
    from fsnb.db.handouts import Connection


def _origin(what: str) -> str:
    """`what`, with the notebook cell it runs in when in IPython (`fsnb.connect() in In [3]`)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython else None
    count = getattr(shell, "execution_count", None)  # counted up as a cell starts
    return f"{what} in In [{count - 1}]" if isinstance(count, int) and count > 1 else what


def connect(
    db: str | os.PathLike[str] | None = None, *, origin: str = "fsnb.connect()"
) -> Connection:
    """A read-only DuckDB connection to the index and the shared scratch tables, their
    names without a prefix from any cursor (`fsnb.db.handouts`).

    For other tools, e.g. jupysql: `conn = fsnb.connect()` then `%sql conn --alias fsnb`.
    Indexing and the scratchpad can write the file while it is open: each write borrows
    the file from the connection (a query run on it during that write fails).
    """
    return database(db).handout(_origin(origin))


def sqlalchemy_url(db: str | os.PathLike[str] | None = None) -> str:
    """A SQLAlchemy URL that opens the index read-only through duckdb-engine, for jupysql's
    `%sqlcmd` and `%sqlplot`: `engine = sqlalchemy.create_engine(url)`, then
    `%sql engine --alias idx`. On this route scratch tables keep their schema: `scratch.deals`.
    """
    return handouts.sqlalchemy_url(database(db))


def close_connections(db: str | os.PathLike[str] | None = None) -> list[str]:
    """Close the connections fsnb handed out (`connect()`, `%explore_connection`) and
    jupysql's connections to their files and to the index (`db`, default: FSNB_DB);
    return what was closed, so that indexing can write again."""
    return handouts.close_connections(database(db))
