"""The notebook kit: the `%load_ext fsnb` magics, the ExplorePanel widget, `connect()`.

Submodules load on first use, so `import fsnb.notebook` stays cheap.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb

_EXPORTS = {
    "ExploreMagics": "fsnb.notebook.magics",
    "ExplorePanel": "fsnb.notebook.widget",
    "Rendering": "fsnb.notebook.display",
    "load_ipython_extension": "fsnb.notebook.magics",
    "render": "fsnb.notebook.display",
}

__all__ = sorted([*_EXPORTS, "connect"])


def connect(db: str | os.PathLike[str] | None = None) -> duckdb.DuckDBPyConnection:
    """A read-only DuckDB connection to the index file, scratch tables first on the path.

    For other tools, e.g. jupysql: `conn = fsnb.connect()` then `%sql conn --alias fsnb`.
    The connection holds the file open: close it before indexing or exploring with the
    scratchpad in the same kernel (DuckDB refuses a second, writable connection).
    """
    from fsnb.index.store import default_db_path, open_read_only

    path = Path(db).expanduser() if db else default_db_path()
    if not path.is_file():
        msg = (
            f"no index at {path} yet: index a folder first "
            "(%explore_index FOLDER, or fsnb.Index().add_folder(FOLDER))"
        )
        raise FileNotFoundError(msg)
    return open_read_only(path)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    msg = f"module 'fsnb.notebook' has no attribute {name!r}"
    raise AttributeError(msg)
