"""The DuckDB index: files, documents, chunks, BM25 terms, schemas and the scan log."""

from fsnb.index.index import Index
from fsnb.index.pipeline import IndexReport
from fsnb.index.store import (
    DatabaseDamaged,
    DatabaseInUse,
    DatabaseLocked,
    Store,
    default_db_path,
)

__all__ = [
    "DatabaseDamaged",
    "DatabaseInUse",
    "DatabaseLocked",
    "Index",
    "IndexReport",
    "Store",
    "default_db_path",
]
