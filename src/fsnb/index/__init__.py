"""The document index: files, documents, chunks, BM25 terms, schemas and the scan log.

The DuckDB file they live in, and its errors, are `fsnb.db`'s (`Database`,
`DatabaseLocked`, `DatabaseDamaged`, `DatabaseInUse`).
"""

from fsnb.index.index import Index
from fsnb.index.report import IndexReport

__all__ = ["Index", "IndexReport"]
