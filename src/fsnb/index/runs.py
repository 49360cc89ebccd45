"""Indexing runs: how far `index_folder` got, readable by other processes while it works.

A run is one row of `index_runs`, recorded once the folder is walked: `scanning` while
changed documents are hashed, `running` with `done` of `total` documents committed (updated
in the same transaction as each batch), then `finished`, `failed` or `interrupted`. A run
with nothing to hash or parse is begun and finished in one transaction. A `scanning` or
`running` row whose process is gone (killed, crashed) reads as interrupted.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import duckdb

ACTIVE = ("scanning", "running")


@dataclass(frozen=True)
class Run:
    """The latest indexing run of a corpus."""

    state: str
    total: int | None
    done: int
    pid: int
    host: str
    error: str | None = None

    @property
    def alive(self) -> bool:
        """Whether the process doing this run still exists (assumed on another host)."""
        if self.host != socket.gethostname():
            return True
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # another user's process
            pass
        return True

    @property
    def status(self) -> str:
        """`state`, with an active run whose process is gone read as `interrupted`."""
        return "interrupted" if self.state in ACTIVE and not self.alive else self.state

    @property
    def active(self) -> bool:
        return self.status in ACTIVE

    def describe(self) -> str:
        """One line: 'indexing in progress: 120 of 500 documents committed', and the like."""
        status = self.status
        where = "" if self.host == socket.gethostname() else f" on {self.host}"
        if status == "scanning":
            return f"indexing in progress{where}: scanning files"
        count = f"{self.done:,} of {self.total or 0:,} documents committed"
        if status == "running":
            return f"indexing in progress{where}: {count}"
        if status == "failed" and self.error:
            return f"indexing failed: {count} ({self.error})"
        return f"indexing {status}: {count}"


def begin(con: duckdb.DuckDBPyConnection, cid: int) -> int:
    """Record a new run of this process over corpus `cid`; return its id."""
    row = con.execute(
        "INSERT INTO index_runs (corpus_id, state, pid, host) VALUES (?, 'scanning', ?, ?)"
        " RETURNING id",
        [cid, os.getpid(), socket.gethostname()],
    ).fetchone()
    return int(row[0])


def update(
    con: duckdb.DuckDBPyConnection,
    run_id: int,
    *,
    state: str | None = None,
    total: int | None = None,
    done: int | None = None,
    error: str | None = None,
) -> None:
    """Set the given fields of a run (None leaves a field as it is)."""
    con.execute(
        "UPDATE index_runs SET state = coalesce(?, state), total = coalesce(?, total),"
        " done = coalesce(?, done), error = coalesce(?, error), updated_at = current_timestamp"
        " WHERE id = ?",
        [state, total, done, error, run_id],
    )


def latest(con: duckdb.DuckDBPyConnection, cid: int) -> Run | None:
    """The most recent run over corpus `cid`, if any (None before schema version 3)."""
    import duckdb

    try:
        row = con.execute(
            "SELECT state, total, done, pid, host, error FROM index_runs WHERE corpus_id = ?"
            " ORDER BY id DESC LIMIT 1",
            [cid],
        ).fetchone()
    except duckdb.CatalogException:  # a file not migrated yet, opened read-only
        return None
    return Run(*row) if row else None
