"""The file index read as a file system: whether a folder is indexed, and its files.

The navigator tools answer from here when the folder is indexed and walk it when not;
reading never creates the database file.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import duckdb

from fsnb.index.store import DatabaseDamaged, DatabaseLocked, Store


@dataclass(frozen=True)
class Indexed:
    """A folder whose files the index holds: its corpus id and its last finished scan."""

    cid: int
    root: str
    scanned_at: datetime

    def source(self) -> str:
        """How a tool says where its answer comes from."""
        return f"from the index, scanned {self.scanned_at:%Y-%m-%d %H:%M}"


def indexed(store: Store, root: str | Path) -> Indexed | None:
    """The corpus of the folder `root` (absolute) when its files are indexed; None when
    they are not, or the database cannot be read now (a tool then walks the folder)."""
    if not store.path.exists():
        return None
    try:
        with store.connect(read_only=True) as con:
            row = con.execute(
                "SELECT id, root, indexed_at FROM corpora"
                " WHERE root = ? AND indexed_at IS NOT NULL",
                [str(root)],
            ).fetchone()
    except (duckdb.Error, DatabaseDamaged, DatabaseLocked):
        return None
    return Indexed(int(row[0]), row[1], row[2]) if row else None
