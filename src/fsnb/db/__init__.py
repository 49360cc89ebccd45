"""The DuckDB file: one storage object, its schema migrations, the SELECT guard, the scratchpad.

`from fsnb.db import Database, Scratchpad`; `fsnb.db.database.database(path)` gives the
one `Database` of a file. The names below load on first use (PEP 562), so that importing
one module of the package (the errors, the handouts) does not load pandas.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Database": "fsnb.db.database",
    "default_db_path": "fsnb.db.database",
    "DatabaseDamaged": "fsnb.db.errors",
    "DatabaseInUse": "fsnb.db.errors",
    "DatabaseLocked": "fsnb.db.errors",
    "Scratchpad": "fsnb.db.scratchpad",
    "ScratchpadError": "fsnb.db.columns",
    "ScratchpadLimit": "fsnb.db.columns",
    "SqlRefused": "fsnb.db.guard",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    msg = f"module 'fsnb.db' has no attribute {name!r}"
    raise AttributeError(msg)
