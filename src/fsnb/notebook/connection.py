"""`connect()`: a read-only connection to the index for other notebook tools."""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

from fsnb.index.store import default_db_path, open_read_only


def connect(db: str | os.PathLike[str] | None = None) -> duckdb.DuckDBPyConnection:
    """A read-only DuckDB connection to the index file, scratch tables first on the path.

    For other tools, e.g. jupysql: `conn = fsnb.connect()` then `%sql conn --alias fsnb`.
    The connection holds the file open: close it before indexing or exploring with the
    scratchpad in the same kernel (DuckDB refuses a second, writable connection).
    """
    path = Path(db).expanduser() if db else default_db_path()
    if not path.is_file():
        msg = (
            f"no index at {path} yet: index a folder first "
            "(%explore_index FOLDER, or fsnb.Index().add_folder(FOLDER))"
        )
        raise FileNotFoundError(msg)
    return open_read_only(path)
