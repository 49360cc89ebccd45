"""The DuckDB file behind the index and the scratchpad: one `Database` object per file.

DuckDB lets one process write a database file at a time. fsnb holds connections only for
the length of one unit of work (`read()`, `write()`): each attaches the file to the
process's one in-memory DuckDB (`fsnb.db.engine`) and detaches it afterwards (about a
millisecond, where opening the file as a database of its own starts a DuckDB instance,
~15 ms, every time). When another process holds the file, opening waits and retries (with
backoff) instead of failing, and gives up with a clear `DatabaseLocked` after
`lock_timeout_s`. Readers attach read-only. Within one process, connections to the same
file are serialized by a lock, since DuckDB refuses to attach one file read-only and
read-write at once. A connection handed out to another tool in this process
(`handout()`, behind `fsnb.connect()`) lends the file to each write (`fsnb.db.holders`
says how that goes with a query running on it); any other connection of this process to
the file (jupysql's SQLAlchemy one, a `duckdb.connect(path, read_only=True)`) makes a read
go through an in-memory database of its own with the file attached read-only, and a write
fail at once with `DatabaseInUse`, which names the connections to close.

A file DuckDB cannot read (truncated, overwritten, not a database) raises
`DatabaseDamaged`, whether on opening or in a query; `set_aside` moves it (and its WAL)
out of the way, kept, so that a rebuild starts a new file.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

from fsnb.db.engine import Engine, current
from fsnb.db.errors import (
    DatabaseDamaged,
    DatabaseInUse,
    DatabaseLocked,
    damage,
    in_process_conflict,
    is_lock_error,
)
from fsnb.db.handouts import ATTACHED, attach_read_only, handout
from fsnb.db.schema import SHARED_SCHEMA, migrate
from fsnb.db.sql import literal
from fsnb.db.version import HEADER_BYTES, file_version

if TYPE_CHECKING:
    import pandas as pd

#: A file shorter than DuckDB's headers is being created, or damaged if it stays so for
#: `CREATING_S` seconds.
CREATING_S = 1.0


def default_db_path() -> Path:
    """`FSNB_DB`, else `~/.fsnb/index.duckdb`."""
    return Path(os.environ.get("FSNB_DB") or Path.home() / ".fsnb" / "index.duckdb").expanduser()


_registry_lock = threading.Lock()


def database(path: str | os.PathLike[str] | None = None) -> Database:
    """The `Database` of the file at `path` (default `default_db_path()`): one per resolved
    path in the process, so that every caller shares its migration check and lock.

    The registry is the current engine's (`fsnb.db.engine.current().databases`): a test
    that wants fresh objects swaps the engine (see `fsnb.db.engine`), or builds a
    `Database(path)` of its own.
    """
    resolved = (Path(path).expanduser() if path else default_db_path()).resolve()
    engine = current()
    with _registry_lock:
        found = engine.databases.get(resolved)
        if found is None:
            found = engine.databases[resolved] = Database(resolved, engine=engine)
        return found


class Database:
    """One DuckDB file: `read()` and `write()` hand out connections for one unit of work,
    `select()` runs guarded SQL, `handout()` lends a connection to other tools."""

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        lock_timeout_s: float = 30.0,
        engine: Engine | None = None,
    ):
        self.path = Path(path).expanduser() if path else default_db_path()
        self.lock_timeout_s = lock_timeout_s
        self._engine = engine
        #: The file's `_fingerprint` after this object's last write, which migrated it
        #: first: a write to a file still so needs no migration check.
        self._migrated: tuple[object, ...] | None = None

    def __repr__(self) -> str:
        return f"Database({str(self.path)!r})"

    @property
    def engine(self) -> Engine:
        """The process state this file is opened with (`fsnb.db.engine`)."""
        return self._engine or current()

    @contextmanager
    def read(self, *, isolated: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
        """A read-only connection for one unit of work, the file attached to the process's
        in-memory DuckDB, the shared scratch schema first on its search path; closed
        afterwards. A file not there yet is created, with its schema.

        With `isolated`, a database instance of its own, for a connection whose settings
        (memory limit, no external access: the guard's) must reach no other.
        """
        with self._connect(read_only=True, isolated=isolated) as con:
            yield con

    @contextmanager
    def write(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A writable connection inside BEGIN/COMMIT (ROLLBACK on error); the file is
        migrated first unless this object wrote it last, and borrowed from the handouts
        meanwhile. `DatabaseInUse` at once while another connection of this process holds
        the file (or a query runs on a handout), `DatabaseLocked` after `lock_timeout_s`
        while another process does."""
        with self._connect(read_only=False) as con:
            con.execute("BEGIN TRANSACTION")
            try:
                yield con
            except BaseException:
                with suppress(duckdb.Error):  # keep the first error, e.g. a damaged file
                    con.execute("ROLLBACK")
                raise
            con.execute("COMMIT")

    def checkpoint(self) -> None:
        """Write the WAL into the file now (DuckDB refuses CHECKPOINT inside a transaction)."""
        with self._connect(read_only=False) as con:
            con.execute("CHECKPOINT")

    def memory(self) -> duckdb.DuckDBPyConnection:
        """A cursor of the process's in-memory DuckDB with no file attached, for tables that
        live only in this process (copies kept to answer repeated reads quickly)."""
        return self.engine.cursor()

    def select(
        self,
        sql: str,
        *,
        folder: str | os.PathLike[str] | None = None,
        limit: int | None = None,
        timeout_s: float = 30.0,
        memory_limit: str | None = None,
        params: Mapping[str, Any] | Sequence[Any] | None = None,
        max_cells: int | None = None,
        max_bytes: int | None = None,
    ) -> pd.DataFrame:
        """One guarded SELECT (`fsnb.db.guard.run_select`): read-only, no file or network
        access, bounded, on an instance of its own; with `folder`, confined to it."""
        from fsnb.db.guard import run_select

        return run_select(
            self, sql, folder=folder, limit=limit, timeout_s=timeout_s,
            memory_limit=memory_limit, params=params, max_cells=max_cells, max_bytes=max_bytes,
        )  # fmt: skip

    def handout(self, origin: str) -> duckdb.DuckDBPyConnection:
        """A read-only connection to the file for another tool (jupysql, pandas), made by
        `origin` (`fsnb.connect() in In [3]`), that lends the file to this process's
        writes; `FileNotFoundError` before the file exists (`fsnb.db.handouts`)."""
        return handout(self.path, origin, self.engine.handouts)

    @contextmanager
    def _connect(
        self, *, read_only: bool, isolated: bool = False
    ) -> Iterator[duckdb.DuckDBPyConnection]:
        """A connection for one unit of work under the file's lock, closed afterwards."""
        with self.engine.lock(self.path):
            if read_only and not self.path.exists():
                read_only = False  # nothing to read yet: create the file and its schema
            if not read_only:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            # A file this object wrote last (its version unchanged since) needs no check.
            known = self._migrated
            check = not read_only and (known is None or known != self._fingerprint())
            lending = nullcontext() if read_only else self.engine.handouts.lent(self.path)
            with (
                lending,
                self._connected(read_only, isolated=isolated and read_only, check=check) as con,
            ):
                yield con
            if not read_only:
                self._migrated = self._fingerprint()

    def _open(
        self, read_only: bool, *, isolated: bool = False
    ) -> tuple[duckdb.DuckDBPyConnection, str | None]:
        """A connection whose current database is the file, and the name under which the
        process' shared DuckDB attached it (None: a connection of its own)."""
        if not read_only and self.engine.handouts.held(self.path):
            raise self._in_use()
        began = time.monotonic()
        delay = 0.02
        while True:
            try:
                if isolated:
                    return open_read_only(self.path), None
                return self._attach(read_only)
            except duckdb.Error as exc:
                waited = time.monotonic() - began
                if in_process_conflict(exc):
                    if not read_only:
                        raise self._in_use() from None
                    return _read_beside(self.path), None
                if why := damage(exc):
                    if not (self._headerless() and waited < CREATING_S):
                        raise DatabaseDamaged(self.path, why) from None
                elif not is_lock_error(exc):
                    raise
                elif waited > self.lock_timeout_s:
                    msg = (
                        f"database {self.path} is locked by another process "
                        f"(waited {self.lock_timeout_s:.0f} s): {str(exc).splitlines()[0]}"
                    )
                    raise DatabaseLocked(msg) from None
            time.sleep(delay * (1 + random.random()))
            # Often: a reader holds the file only for moments, and attaches again at once.
            delay = min(delay * 2, 0.05)

    def _in_use(self) -> DatabaseInUse:
        return DatabaseInUse(self.path, self.engine.handouts.refusal(self.path))

    def _attach(self, read_only: bool) -> tuple[duckdb.DuckDBPyConnection, str]:
        """A cursor of the shared DuckDB with the file attached under a new name and in use;
        read-only ones see the shared scratch schema first, as `open_read_only`'s do."""
        con = self.engine.cursor()
        alias = self.engine.alias()
        try:
            mode = " (READ_ONLY)" if read_only else ""
            con.execute(f"ATTACH {literal(str(self.path))} AS {alias}{mode}")
        except BaseException:
            con.close()
            raise
        con.execute(f"USE {alias}")
        if read_only:
            _scratch_first(con)
        return con, alias

    def _fingerprint(self) -> tuple[object, ...] | None:
        """What changes when anyone writes or replaces the file: its `file_version`, and
        its modified time (a file copied over it may match the version)."""
        try:
            return (file_version(self.path), self.path.stat().st_mtime_ns)
        except OSError:
            return None

    def _headerless(self) -> bool:
        """Whether the file is shorter than DuckDB's headers, as while another process
        creates it (then opening it fails as if it were damaged, for a moment)."""
        try:
            return self.path.stat().st_size < HEADER_BYTES
        except OSError:
            return True

    @contextmanager
    def _connected(
        self, read_only: bool, *, isolated: bool = False, check: bool = False
    ) -> Iterator[duckdb.DuckDBPyConnection]:
        """`_open`, migrated when `check`, damage reported, detached afterwards."""
        con, alias = self._open(read_only, isolated=isolated)
        try:
            if check:
                self._migrated = None  # until this write ends well
                migrate(con)
            yield con
        except duckdb.Error as exc:
            if why := damage(exc):
                raise DatabaseDamaged(self.path, why) from None
            raise
        finally:
            _release(con, alias)

    def set_aside(self, label: str = "damaged") -> Path | None:
        """Rename the file (and its WAL) to `<name>.<label>-YYYYmmdd-HHMMSS`; None if absent.

        The next connection starts a new, empty database; the old one stays readable
        by DuckDB under its new name (its WAL moves with it).
        """
        with self.engine.lock(self.path):
            if not self.path.exists():
                return None
            stamp = time.strftime("%Y%m%d-%H%M%S")
            target = self.path.with_name(f"{self.path.name}.{label}-{stamp}")
            n = 1
            while target.exists():
                n += 1
                target = self.path.with_name(f"{self.path.name}.{label}-{stamp}-{n}")
            wal = self.path.with_name(self.path.name + ".wal")
            self.path.rename(target)
            if wal.exists():
                wal.rename(target.with_name(target.name + ".wal"))
            self._migrated = None
            return target


def _release(con: duckdb.DuckDBPyConnection, alias: str | None) -> None:
    """Close a connection of `Database._open`, detaching its file (which releases the lock
    other processes wait on, and checkpoints a written file)."""
    try:
        if alias is not None:
            con.execute("USE memory")
            try:
                con.execute(f"DETACH {alias}")
            except duckdb.Error:  # a transaction left open by an error
                con.execute("ROLLBACK")
                con.execute(f"DETACH {alias}")
    finally:
        with suppress(duckdb.Error):
            con.close()


def open_read_only(path: str | os.PathLike[str]) -> duckdb.DuckDBPyConnection:
    """A read-only connection to the index file at `path`, a DuckDB instance of its own,
    with the shared scratch schema first on the search path (when the file has one)."""
    con = duckdb.connect(str(path), read_only=True)
    _scratch_first(con)
    return con


def _scratch_first(con: duckdb.DuckDBPyConnection) -> None:
    with suppress(duckdb.CatalogException):  # an index older than the scratchpad
        con.execute(f"SET search_path = '{SHARED_SCHEMA},main'")


def _read_beside(path: Path) -> duckdb.DuckDBPyConnection:
    """A read-only connection that works like `open_read_only`'s (the file is the current
    database, scratch tables first), opened beside another tool's connection."""
    con = attach_read_only(path)
    con.execute(f"USE {ATTACHED}")
    _scratch_first(con)
    return con
