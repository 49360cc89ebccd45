"""The DuckDB index: files, documents, chunks, BM25 terms, schemas and the scan log."""

from fsnb.db.database import (
    DatabaseDamaged,
    DatabaseInUse,
    DatabaseLocked,
    Store,
    default_db_path,
)
from fsnb.index.index import Index
from fsnb.index.pipeline import IndexReport

__all__ = [
    "DatabaseDamaged",
    "DatabaseInUse",
    "DatabaseLocked",
    "Index",
    "IndexReport",
    "Store",
    "default_db_path",
]
